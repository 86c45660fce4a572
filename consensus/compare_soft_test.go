package consensus

import "testing"

// TestSoftDifferencesLeaveUnsure: a negation or a condition found alone
// between two positions worded apart is as often a rewording as a change,
// so the answer is unsure; the same difference stays a conflict when the
// rule plainly turned: a verb negated on one side only, a condition added
// with "only" or dropped for "always", or a position made of the filed
// rule's own words.
func TestSoftDifferencesLeaveUnsure(t *testing.T) {
	cases := []struct {
		name, filed, position string
		want                  Agreement
	}{
		{"exception reworded as a condition",
			"Loaner laptops are wiped after every return unless the borrower asks IT to keep their files for a week.",
			"Each returned loaner gets wiped; if the borrower asks, IT holds their files for 7 days first.", Unsure},
		{"negation said by a word of its own",
			"Visitors must be escorted in the server room; badge holders on the access list may enter alone.",
			"Unescorted access to the server room is limited to people on the access list.", Unsure},
		{"verb negated on one side only",
			"Never deploy to production on Fridays.", "Deploy to production on Fridays.", Disagree},
		{"need turned into no need",
			"Refunds over 200 EUR need a manager's approval.", "Refunds over 200 EUR do not need a manager's approval.", Disagree},
		{"exception dropped for always",
			"Night buses skip the depot loop after 23:00 unless a passenger requests the stop.",
			"Night buses always skip the depot loop after 23:00.", Disagree},
		{"condition added with only",
			"Backups are encrypted with the team key and kept for 30 days.",
			"Backups are encrypted with the team key and kept for 30 days, only when the customer has paid for backups.", Disagree},
		{"exception dropped, the filed words kept",
			"Export reports as CSV unless the customer asks for Excel.", "Export reports as CSV.", Disagree},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ComparePositions(voicePosition(c.filed), voicePosition(c.position))
			if got.Agreement != c.want {
				t.Errorf("got %v (score %.2f, %q), want %v", got.Agreement, got.Score, got.Differences, c.want)
			}
			if len(got.Differences) == 0 {
				t.Errorf("no difference named: an unsure or conflicting answer says what it saw")
			}
		})
	}
}
