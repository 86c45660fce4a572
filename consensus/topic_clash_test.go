package consensus

import (
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestTopicClash: topics with the same words that ask different
// questions, a lower limit against an upper one, one period against
// another, a word against its antonym, a kind negated by its own prefix
// against the kind said plainly, score below the threshold; the same
// question said otherwise does not, nor does a negation said of no word
// after it ("non-payment of rent").
func TestTopicClash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b  string
		clash bool
	}{
		{"Minimum age for the climbing wall", "Maximum age for the climbing wall", true},
		{"Earliest start time for deliveries", "Latest start time for deliveries", true},
		{"Monthly fire alarm test", "Weekly fire alarm test", true},
		{"Hourly meter readings", "Daily meter readings", true},
		{"Closing time of the archive reading room", "Opening time of the archive reading room", true},
		// A kind negated by its own prefix against the kind said plainly.
		{"Overtime rates for non-union contractors", "Overtime rates for union contractors", true},
		{"Handling unsigned delivery notes at goods-in", "Handling signed delivery notes at goods-in", true},
		{"Seating unaccompanied children on coaches", "Seating accompanied children on coaches", true},
		{"Rules for non-production access tokens", "Rules for production access tokens", true},
		// The same question.
		{"Minimum age for the climbing wall", "climbing wall age limit", false},
		{"Weekly fire alarm test", "fire alarm test every week", false},
		{"Weekly fire alarm test", "fire alarm tests", false},
		{"Closing time of the reading room", "When does the reading room close?", false},
		{"Bills for flats with no meter reading", "Missing meter readings: billing of flats", false},
		{"Unheated storage rooms", "Storage rooms without heating", false},
		{"Overtime rates for non-union contractors", "non-union contractors: overtime rates", false},
		{"Eviction for non-payment of rent", "Eviction for payment of rent", false},
		{"Response times for urgent repairs", "Response times for urgent and non-urgent repairs", false},
		{"Perishable food donations", "Perishable and non-perishable food donations", false},
	} {
		a, b := analyze(questionText(tc.a)), analyze(questionText(tc.b))
		if got := topicClash(a, b) || topicClash(b, a); got != tc.clash {
			t.Errorf("%q and %q: clash %v, want %v", tc.a, tc.b, got, tc.clash)
		}
		if sc := TopicScore(tc.b, tc.a); tc.clash && sc >= TopicThreshold {
			t.Errorf("%q asked of %q: score %.2f, want below %.2f", tc.b, tc.a, sc, TopicThreshold)
		}
	}
}

// TestCheckTopicClash: the index keeps a topic's words only, so the
// record a question's words find is read whole before it answers it.
func TestCheckTopicClash(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fileRule(t, debate.LayerSpec, "20261202-spec-alarm-aaaaaa", "Weekly fire alarm test",
		"The fire alarm is tested every Monday at 10:00 from a different call point each week, and the result is written in the log book.")
	e.fileRule(t, debate.LayerSpec, "20261202-spec-wall-aaaaaa", "Maximum group size at the climbing wall",
		"At most 12 climbers may be on the wall at once, with one instructor for every 6 climbers.")
	const alarm, wall = "spec-weekly-fire-alarm-test", "spec-maximum-group-size-at-the-climbing-wall"
	checkFound(t, e, debate.LayerSpec, []foundCase{
		{"the same question", "fire alarm test every week", "Each Monday at 10:00 the alarm is tested from another call point, and the result goes in the log book.", CheckConsistent, alarm},
		{"another period", "Monthly fire alarm test", "Once a month the alarm company tests every call point and the sounders, and leaves a certificate.", CheckNone, ""},
		{"the same limit", "climbing wall group size limit", "No more than 12 climbers on the wall at a time, 1 instructor per 6.", CheckConsistent, wall},
		{"the other limit", "Minimum group size at the climbing wall", "A session runs with at least 4 climbers; fewer and it is cancelled.", CheckNone, ""},
	})
}
