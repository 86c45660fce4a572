package consensus

import "testing"

// TestButOnlyOnceAdded: a position that narrows the rule with a
// condition of its own after "but only" or "and only" ("…, and only once
// a DBA has approved the PR", "but only once they've finished
// probation"), where the filed rule states no condition, adds a
// condition, though "once" alone is no condition cue. A count said with
// "only once" ("but only once per month"), and a
// filed condition said again with "only once" ("only after the vet has
// reviewed them"), are no change.
func TestButOnlyOnceAdded(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"and only once, change record", "Database migrations",
			"Migrations on the orders database run with the online schema tool, outside business hours.",
			"CHG-2291: orders db migrations - online schema tool, outside business hours, and only once a second DBA has reviewed the script.",
			Disagree, "condition added: only once a second DBA has reviewed"},
		{"but only once, chat", "Extra shifts", "Nurses may take extra shifts through the bank.",
			"nurses can take extra bank shifts but only once they have finished the first 3 months of probation", Disagree, "condition added: only once they have finished"},
		{"but only once, shop notice", "Loyalty points", "Members earn 1 point for every 10 EUR spent.",
			"For each 10 EUR you spend you collect a point, but only once you've confirmed your email.", Disagree, "condition added: only once you've confirmed"},
		{"and only once, terse", "Code merges", "Pull requests are merged by a maintainer.",
			"A maintainer does the merge, and only once CI passes on the final commit.", Disagree, "condition added"},
		{"but only once, committee minutes", "Allotment sheds", "Plot holders may put up a shed on their plot.",
			"Sheds can be built by plot holders, but only once the committee approves a drawing.", Disagree, "condition added"},
		{"a count per month", "Guest passes", "Members may bring a guest once a month.",
			"a member can have a guest with them, but only once per month", Agree, ""},
		{"the filed condition said with once", "Vet release", "Lab results are released to owners only after the vet has reviewed them.",
			"Owners see the lab results, but only once the vet has looked at them.", Agree, ""},
		{"the filed moment said with once", "Offset commits", "The consumer commits an offset only after the message is written to the database.",
			"the consumer commits each offset itself, but only once the row has landed in the database", Agree, ""},
	})
}
