package consensus

import "testing"

// TestReadings36H reads one whole period said without its number ("within
// the hour", "in the past year") as one of it.
func TestReadings36H(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{why: "within the hour is within 1 hour", topic: "Callbacks",
			filed:    "We call back within 1 hour during opening times.",
			position: "callbacks go out within the hour while we're open",
			want:     Agree},
		{why: "inside the hour is within one hour", topic: "Ticket replies",
			filed:    "Support replies within one hour on weekdays.",
			position: "Weekdays we answer tickets inside the hour.",
			want:     Agree},
		{why: "within the hour is not within 4 hours", topic: "Callbacks",
			filed:    "We call back within 4 hours during opening times.",
			position: "callbacks go out within the hour while we're open",
			want:     Disagree, diff: "4 hours"},
		{why: "over the past year is the last 12 months", topic: "Account lockout",
			filed:    "Accounts with no login in the last 12 months are locked.",
			position: "if nobody logged in over the past year the account gets locked",
			want:     Agree},
		{why: "the past year is not the last 90 days", topic: "Account lockout",
			filed:    "Accounts with no login in the last 90 days are locked.",
			position: "if nobody logged in over the past year the account gets locked",
			want:     Disagree, diff: "90 days"},
		{why: "inside the day is not within one hour", topic: "Ticket replies",
			filed:    "Support replies within one hour on weekdays.",
			position: "Weekdays we answer tickets inside the day.",
			want:     Disagree, diff: "one hour"},
	})
}
