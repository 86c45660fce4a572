package consensus

import "testing"

// TestMeaningVoices11 runs the eleventh set: records in subject areas of
// their own asked about in chat shorthand, help text, policy clauses,
// commit messages, config values, a table row, non-native English,
// dictated speech and reasons given first, with conflicts that choose
// another option "instead of" or "rather than" the filed one.
func TestMeaningVoices11(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/voices11.txt")
	f.log(t, "eleventh (voices) set")
	c := compareSet(t, "testdata/meaning/voices11.txt")
	t.Logf("comparison alone: consistent %v, conflict %v; agreeing answered conflict %d, unclear %d; conflicts answered unclear %d",
		c.consistent, c.conflict, c.agreeConflict, c.agreeUnclear, c.changeUnclear)
	for _, m := range c.misses {
		t.Logf("  compare miss: %s", m)
	}
	f.guard(t, "eleventh (voices)", "last measurement", 0, 0, 0, 1)
}
