package consensus

import (
	"slices"
	"testing"
)

// TestOneWordOneRoot: the forms of one word read as one ("opening time"
// and "opening times", "add" and "added"), and a word the suffix rules
// would cut down to another word keeps its own meaning: care is no car,
// a wedding no Wednesday, a secure strap no second, what a rule states no
// statistics.
func TestOneWordOneRoot(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"time", "times"}, {"time", "timings"}, {"timing", "time"},
		{"add", "added"}, {"adding", "adds"},
		{"business", "businesses"},
		{"care", "caring"}, {"wine", "wines"}, {"comment", "comments"}, {"mine", "mining"}, {"site", "sites"},
		{"agree", "agreed"}, {"guarantee", "guaranteed"}, {"staff", "staffed"}, {"staff", "staffing"}, {"size", "sizes"},
		{"timetable", "timetabled"}, {"mould", "moulded"}, {"plough", "ploughing"}, {"breed", "breeding"},
		{"configure", "configured"}, {"proposal", "proposals"}, {"ceiling", "ceilings"}, {"speed", "speeds"},
	}
	for _, p := range same {
		if a, b := analyze(p[0]).words(), analyze(p[1]).words(); !slices.Equal(a, b) {
			t.Errorf("%q reads %v, %q reads %v: want one reading", p[0], a, p[1], b)
		}
	}
	apart := [][2]string{
		{"care", "car"}, {"caring", "cars"}, {"wine", "win"}, {"wedding", "Wednesday"}, {"fried", "Friday"},
		{"comment", "come"}, {"mining", "minute"}, {"secure", "second"}, {"site", "sitting"}, {"manure", "man"},
		{"states", "stats"}, {"stated", "statistics"},
	}
	for _, p := range apart {
		if a, b := analyze(p[0]).words(), analyze(p[1]).words(); slices.Equal(a, b) {
			t.Errorf("%q and %q both read %v", p[0], p[1], a)
		}
	}
	// "secure" is no "sec": two secure straps are no two seconds.
	for _, q := range analyze("Every pallet is tied down with 2 secure straps before the lorry leaves.").qty {
		if q.dim == "time" {
			t.Errorf("%q read as a time", q.text)
		}
	}

	found := [][2]string{
		{"library opening times", "Opening time of the library"},
		{"helpdesk response times", "Response time of the helpdesk"},
		{"polling station closing time", "Closing times of polling stations"},
		{"ward round timings", "Timing of ward rounds"},
	}
	for _, p := range found {
		if s := TopicScore(p[0], p[1]); s < TopicThreshold {
			t.Errorf("%q against %q: %.2f, want at least %.2f", p[0], p[1], s, TopicThreshold)
		}
	}
	notFound := [][2]string{
		{"Caterer deliveries on Wednesdays", "Caterer deliveries for weddings"},
		{"Comments on merge requests", "What comes in merge requests"},
		{"Mine safety inspections", "Minute safety inspections"},
		{"Secure storage of passports", "Second storage of passports"},
		{"Site induction for contractors", "Sitting induction for contractors"},
		{"Wine tasting bookings", "Win bookings"},
		{"Visiting the care home", "Visiting the car pound"},
	}
	for _, p := range notFound {
		if s := TopicScore(p[0], p[1]); s >= TopicThreshold {
			t.Errorf("%q against %q: %.2f, want below %.2f", p[0], p[1], s, TopicThreshold)
		}
	}
}

// TestOrdinalInATopic: an ordinal in a topic names its number whether or
// not "the" comes before it; another ordinal is another question.
func TestOrdinalInATopic(t *testing.T) {
	t.Parallel()
	for _, p := range [][2]string{
		{"sixth form study centre noise", "Noise rules in the sixth form study centre"},
		{"fifth floor kitchen cleaning", "Cleaning of the kitchen on the fifth floor"},
		{"Third party cookie consent", "Consent for the third party cookies"},
	} {
		if s := TopicScore(p[0], p[1]); s < TopicThreshold {
			t.Errorf("%q against %q: %.2f, want at least %.2f", p[0], p[1], s, TopicThreshold)
		}
	}
	for _, p := range [][2]string{
		{"fifth floor kitchen cleaning", "Cleaning of the kitchen on the sixth floor"},
		{"sixth form study centre noise", "Noise rules in the fifth form study centre"},
	} {
		if s := TopicScore(p[0], p[1]); s >= TopicThreshold {
			t.Errorf("%q against %q: %.2f, want below %.2f", p[0], p[1], s, TopicThreshold)
		}
	}
}

// TestConfirmIsACheck: to confirm that something holds is to check that
// it does; what is checked, when and how still count.
func TestConfirmIsACheck(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The duty nurse checks that the drug fridge is between 2 and 8 °C every morning.", "Every morning the duty nurse confirms the drug fridge is between 2 and 8 °C.", Agree},
		{"Before release, QA confirms that every batch record is signed by two people.", "Before release QA checks every batch record has been signed by two people.", Agree},
		{"Each week QA samples 40 calls and confirms the agent read the cancellation terms aloud.", "Every week QA samples 40 calls and checks that the agent read out the cancellation terms.", Agree},

		{"The duty nurse checks that the drug fridge is between 2 and 8 °C every morning.", "Every evening the duty nurse confirms the drug fridge is between 2 and 8 °C.", Disagree},
		{"Before release, QA confirms that every batch record is signed by two people.", "Before release QA checks every batch record has been signed by one person.", Disagree},
		{"The front desk confirms every group booking by phone two days before arrival.", "Two days ahead of arrival, front desk checks each group booking by email.", Disagree},
	})
}
