package consensus

import "testing"

// TestMeaningCompare12 runs the twelfth set (written for the comparison): records in subject areas of
// their own asked about in chat shorthand, help text, policy clauses,
// commit messages, config values, a table row, non-native English,
// dictated speech and reasons given first, with conflicts that choose
// another option "instead of" or "rather than" the filed one.
func TestMeaningCompare12(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/compare12.txt")
	f.log(t, "twelfth (comparison) set")
	c := compareSet(t, "testdata/meaning/compare12.txt")
	t.Logf("comparison alone: consistent %v, conflict %v; agreeing answered conflict %d, unclear %d; conflicts answered unclear %d",
		c.consistent, c.conflict, c.agreeConflict, c.agreeUnclear, c.changeUnclear)
	for _, m := range c.misses {
		t.Logf("  compare miss: %s", m)
	}
	// Written before the readings it was measured against were made, and
	// measured with main's comparison beside: consistent 0.48 (11/23),
	// conflict 0.92 (22/24), none 1.00 (3/3), paraphrases answered conflict
	// 0.35 (8/23), 5 answers unclear. With this round's readings (read on
	// this set as they were made, so no longer unseen): 0.91 (21/23), 0.96
	// (23/24), 1.00, 0.09 (2/23), 0 unclear. Misses left: a parenthesised
	// "(hold)" read as asserted, "30 cents" against "0.30 EUR", and a
	// personal key against the project's key in an edit.
	f.guard(t, "twelfth (comparison)", "last measurement", 0.91, 0.95, 1, 0.09)
}
