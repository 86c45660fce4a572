package consensus

import "testing"

// TestMeaningCompareK runs the k- sets, written for the position
// comparison in voices and subject areas of their own (see the header of
// each file): numbers in other units and configuration values without
// their unit, detail the record does not speak to (ticket ids, what
// happened on one day), and conflicts that change one part, among them a
// removal the asker intends. The comparison is measured alone (each
// question against its own record) and through the lookup.
func TestMeaningCompareK(t *testing.T) {
	t.Parallel()
	const file = "testdata/meaning/k-compare.txt"
	f := runMeaning(t, file)
	f.log(t, "k-compare set")
	c := compareSet(t, file)
	t.Logf("comparison alone: consistent %v, conflict %v; agreeing answered conflict %d, unclear %d; conflicts answered unclear %d",
		c.consistent, c.conflict, c.agreeConflict, c.agreeUnclear, c.changeUnclear)
	for _, m := range c.misses {
		t.Logf("  compare miss: %s", m)
	}
}
