package consensus

import (
	"strings"
	"testing"
)

// comparisonFigures runs a comparison set (k-, m-) through the lookup and through the comparison
// alone (each question against its own record), logs both and every miss
// of the comparison, and fails below the comparison's floors: agreeing
// answered consistent at least minConsistent, changes answered conflict
// at least minConflict, changes answered consistent at most
// maxChangeAgreed.
func comparisonFigures(t *testing.T, file, name string, minConsistent, minConflict, maxChangeAgreed int) {
	t.Helper()
	f := runMeaning(t, file)
	f.log(t, name)
	c := compareSet(t, file)
	t.Logf("comparison alone: consistent %v, conflict %v; agreeing answered conflict %d, unclear %d; conflicts answered unclear %d",
		c.consistent, c.conflict, c.agreeConflict, c.agreeUnclear, c.changeUnclear)
	changeAgreed := 0
	for _, m := range c.misses {
		t.Logf("  compare miss: %s", m)
		if strings.Contains(m, "want conflict, got consistent") {
			changeAgreed++
		}
	}
	t.Logf("conflicts answered consistent: %d", changeAgreed)
	if c.consistent.ok < minConsistent || c.conflict.ok < minConflict || changeAgreed > maxChangeAgreed {
		t.Errorf("%s, comparison alone: consistent %v (floor %d), conflict %v (floor %d), conflicts answered consistent %d (at most %d)",
			name, c.consistent, minConsistent, c.conflict, minConflict, changeAgreed, maxChangeAgreed)
	}
}

// TestMeaningCompareM runs m-compare, written for the position comparison
// in voices and subject areas of its own (see the file's header): negation
// said in other words ("barred from", "kept from leaving", "can't"), a
// contrast joined by "while", periods in other units (a fortnight, a
// decade, 42 days), and conflicts that set a carve-out aside, tell a
// person by a means of their own, or drop one part.
func TestMeaningCompareM(t *testing.T) {
	t.Parallel()
	// Written after this round's first readings (barrier negation, a
	// contrastive while, decade and fortnight, a carve-out set aside, a
	// person notified by a means of their own). Main's comparison beside
	// (f01bbc6): consistent 0.55 (11/20), conflict 0.80 (20/25), 9
	// agreeing answered conflict, 4 conflicts answered consistent. With
	// this round's readings 0.65 (13/20), 0.92 (23/25), 7 and 2 (one
	// reading, a period of its own clause, made after measuring it).
	comparisonFigures(t, "testdata/meaning/m-compare.txt", "m-compare set", 13, 23, 2)
}

// TestMeaningCheckM runs m-check, written after every reading of this
// round was made, measured once when written and not tuned on: the
// comparison's figure on wording it was not made from.
func TestMeaningCheckM(t *testing.T) {
	t.Parallel()
	// Measured once when written: main's comparison (f01bbc6) consistent
	// 0.56 (5/9), conflict 0.81 (13/16), 4 agreeing answered conflict, 3
	// conflicts answered consistent; with this round's readings 0.56
	// (5/9), 0.88 (14/16), 4 and 2 ("any staff member may relabel"
	// against "prevented from relabelling" read as the change it is).
	// Main at 73fb5dd, with the lead's readings of that day, gives the
	// same figures as this branch: the set moved nothing further.
	comparisonFigures(t, "testdata/meaning/m-check.txt", "m-check set", 5, 13, 2)
}
