package consensus

import "testing"

// TestMeaningTune8 runs the eighth tuning set: agreeing rewordings of
// many shapes (abbreviations, RFC keywords, ticket ids and labels in
// front, nominalisations, ordinals, currency before the amount) and
// minimal edits that change the rule, in subject areas of its own. It was
// written before the round that tuned the comparison on it.
func TestMeaningTune8(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/tune8.txt")
	f.log(t, "eighth tuning set")
	// Before the round: consistent 0.54, conflict 0.95, paraphrases
	// answered conflict 0.36, 2 answers unclear. After it: 0.89, 0.98,
	// 0.04, 1 unclear. Guard against falling below that.
	f.guard(t, "eighth tuning", "last measurement", 0.89, 0.95, 0.99, 0.04)
}

// TestMeaningCheck8 runs the eighth check set, written with tune8.txt and
// kept out of view while the comparison was tuned on it (only this
// summary line was read).
func TestMeaningCheck8(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/check8.txt")
	f.log(t, "eighth check set")
	// Measured before the round and after its first half (summary line
	// only): consistent 0.55 → 0.64, conflict 0.86 → 0.86, paraphrases
	// answered conflict 0.27 → 0.36 (3 → 4 of 11), answers unclear
	// instead 3 → 1: the readings did not carry over to this set's
	// wording. Its misses were then seen by accident in a listing, so it
	// is no longer unseen (check8b.txt is); nothing was changed for them.
	// Guard against falling below that measurement.
	f.guard(t, "eighth check", "held-out measurement", 0.63, 0.86, 0.99, 0.37)
}

// TestMeaningTune8b runs the second half of the eighth tuning set: mostly
// agreeing rewordings in chatty, non-native, legal, FAQ and fragment
// voices, written before the comparison was run on it.
func TestMeaningTune8b(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/tune8b.txt")
	f.log(t, "eighth tuning set, second half")
	// Written after the first changes of the round: its first run is the
	// held-out figure of those changes, consistent 0.65, conflict 0.86,
	// paraphrases answered conflict 0.23 (6/26), 3 answers unclear. After
	// the changes made from it: 0.92, 0.93, 0.04 (1/26), 1 unclear.
	f.guard(t, "eighth tuning (second half)", "last measurement", 0.92, 0.92, 0.99, 0.04)
}

// TestMeaningTune8c runs the third part of the eighth tuning set:
// agreeing rewordings only, of shapes and in voices the earlier parts
// have little of, written before the comparison was run on it.
func TestMeaningTune8c(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/tune8c.txt")
	f.log(t, "eighth tuning set, third part")
	// At its first run (the held-out figure of the changes before it):
	// consistent 0.71, paraphrases answered conflict 0.29 (7/24). After
	// the changes made from it: 0.92, 0.08 (2/24).
	f.guard(t, "eighth tuning (third part)", "last measurement", 0.91, 0.99, 0.99, 0.09)
}

// TestMeaningCheck8b runs the second check set of the eighth round,
// written after check8.txt's misses had been seen and committed before
// the comparison was run on it; only its summary line is read.
func TestMeaningCheck8b(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/check8b.txt")
	f.log(t, "eighth check set, second")
	// Measured at its first run (after the changes made from the second
	// half of the tuning set): consistent 0.67 (8/12), conflict 0.94
	// (16/17), paraphrases answered conflict 0.33 (4/12); after the
	// changes made from the third part: 0.75, 0.94, 0.25 (3/12). Only its
	// summary line was read. Guard against falling below that.
	f.guard(t, "eighth check (second)", "held-out measurement", 0.74, 0.94, 0.99, 0.25)
}
