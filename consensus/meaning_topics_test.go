package consensus

import "testing"

// TestMeaningTopics7 runs a set about finding the question (topics asked
// in other words, near misses that must stay none), written before the
// topic-matching changes made with it in view.
func TestMeaningTopics7(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/topics7.txt")
	f.log(t, "seventh (topics) set")
	// Measured once before any change of the round: consistent 0.74,
	// conflict 0.88, none 1.00, paraphrases answered conflict 0.05, 1
	// answer unclear. After the round's changes (made with this set in
	// view): 0.92, 0.88, 1.00, 0.07 (every question is found; the five
	// agreeing ones still missed are positions the comparison misreads,
	// two of them questions found only now). Guard against falling below
	// that.
	f.guard(t, "seventh (topics)", "last measurement", 0.91, 0.87, 0.99, 0.07)
}

// TestMeaningTopics7Check runs the check set written with topics7.txt and
// kept out of view while the changes were made: the honest held-out
// figure of the round.
func TestMeaningTopics7Check(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/topics7-check.txt")
	f.log(t, "topics-7 check set")
	// Measured once before any change of the round (only the summary line
	// was read, never its misses): consistent 0.46 (11/24), conflict 1.00
	// (4/4), none 0.94 (15/16), paraphrases answered conflict 0.12, 3
	// answers unclear. Measured once after the round's changes (its misses
	// read only then): consistent 0.58 (14/24), conflict 1.00, none 0.94,
	// paraphrases answered conflict 0.12, 3 unclear; the questions that
	// should find a record found it 23 times in 28 (20 before). Guard
	// against falling below the first measurement.
	f.guard(t, "seventh check", "first measurement", 0.45, 0.99, 0.93, 0.13)
}

// TestMeaningTopics8 runs a set about finding the question written after
// the first changes made with topics7.txt and before the second ones.
func TestMeaningTopics8(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/topics8.txt")
	f.log(t, "eighth (topics) set")
	// Measured once before the changes made with it in view: consistent
	// 0.79, conflict 1.00, none 0.94, paraphrases answered conflict 0.07,
	// 1 answer unclear. After them: 0.86, 1.00, 1.00, 0.07 (of the four
	// agreeing questions still missed, three are found and their
	// positions misread). Guard against falling below that.
	f.guard(t, "eighth (topics)", "last measurement", 0.85, 0.99, 0.99, 0.08)
}
