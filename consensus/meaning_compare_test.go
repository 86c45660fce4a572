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
	f.guard(t, "eighth tuning", "last measurement", 0, 0, 0, 1)
}

// TestMeaningCheck8 runs the eighth check set, written with tune8.txt and
// kept out of view while the comparison was tuned on it (only this
// summary line was read).
func TestMeaningCheck8(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/check8.txt")
	f.log(t, "eighth check set")
	f.guard(t, "eighth check", "held-out measurement", 0, 0, 0, 1)
}

// TestMeaningTune8b runs the second half of the eighth tuning set: mostly
// agreeing rewordings in chatty, non-native, legal, FAQ and fragment
// voices, written before the comparison was run on it.
func TestMeaningTune8b(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/tune8b.txt")
	f.log(t, "eighth tuning set, second half")
	f.guard(t, "eighth tuning (second half)", "last measurement", 0, 0, 0, 1)
}
