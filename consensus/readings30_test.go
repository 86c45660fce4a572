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
	readAlike(t, same)
	apart := [][2]string{
		{"care", "car"}, {"caring", "cars"}, {"wine", "win"}, {"wedding", "Wednesday"}, {"fried", "Friday"},
		{"comment", "come"}, {"mining", "minute"}, {"secure", "second"}, {"site", "sitting"}, {"manure", "man"},
		{"states", "stats"}, {"stated", "statistics"},
	}
	readApart(t, apart)
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
	topicsFound(t, found)
	notFound := [][2]string{
		{"Caterer deliveries on Wednesdays", "Caterer deliveries for weddings"},
		{"Comments on merge requests", "What comes in merge requests"},
		{"Mine safety inspections", "Minute safety inspections"},
		{"Secure storage of passports", "Second storage of passports"},
		{"Site induction for contractors", "Sitting induction for contractors"},
		{"Wine tasting bookings", "Win bookings"},
		{"Visiting the care home", "Visiting the car pound"},
	}
	topicsApart(t, notFound)
}

// TestOrdinalInATopic: an ordinal in a topic names its number whether or
// not "the" comes before it; another ordinal is another question.
func TestOrdinalInATopic(t *testing.T) {
	t.Parallel()
	topicsFound(t, [][2]string{
		{"sixth form study centre noise", "Noise rules in the sixth form study centre"},
		{"fifth floor kitchen cleaning", "Cleaning of the kitchen on the fifth floor"},
		{"Third party cookie consent", "Consent for the third party cookies"},
	})
	topicsApart(t, [][2]string{
		{"fifth floor kitchen cleaning", "Cleaning of the kitchen on the sixth floor"},
		{"sixth form study centre noise", "Noise rules in the fifth form study centre"},
	})
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

// TestOneRootReviewed: more forms of one word read as one, and more
// words the suffix rules cut down to others keep their own. "-ure" is
// read as "-ur" ("measure" and "measured", "ensure" and "ensuring"; a
// posture is no post, a venture no vent); "sited" and "siting" are a
// site (not sitting), fries no Friday, "freed" free, "tried" a try;
// "controlled", "patrolling" and the British doubled l ("signalling",
// "counselling", "totalled") read as their roots.
func TestOneRootReviewed(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"site", "sited"}, {"sites", "siting"}, {"fry", "fries"}, {"free", "freed"}, {"try", "tried"}, {"tries", "try"},
		{"control", "controlled"}, {"controlling", "controls"}, {"patrol", "patrolling"}, {"patrolled", "patrols"},
		{"signalling", "signaling"}, {"counselling", "counseling"}, {"counsellor", "counselor"}, {"totalled", "totaled"}, {"focussed", "focused"},
		{"measure", "measured"}, {"measures", "measuring"}, {"measure", "measurement"}, {"ensure", "ensured"}, {"ensures", "ensuring"},
		{"feature", "featured"}, {"structure", "structured"}, {"procure", "procurement"}, {"procure", "procured"}, {"capture", "captured"},
		{"insure", "insured"}, {"figure", "figured"}, {"disposal", "disposals"}, {"dismissal", "dismissals"},
		{"closure", "close"}, {"failure", "fail"}, {"departure", "depart"}, {"forfeiture", "forfeit"},
	}
	readAlike(t, same)
	apart := [][2]string{
		{"siting", "sitting"}, {"fries", "Friday"}, {"posture", "post"}, {"pasture", "past"}, {"venture", "vent"}, {"culture", "cult"},
		{"texture", "text"}, {"denture", "dent"}, {"mature", "mat"}, {"tenure", "ten"}, {"creature", "create"}, {"feature", "feat"},
		{"figure", "fig"}, {"endure", "end"},
	}
	readApart(t, apart)

	topicsFound(t, [][2]string{
		{"siting of phone masts", "phone mast sites"},
		{"ensuring fire exits stay clear", "ensure fire exits stay clear"},
		{"Ensure fire doors are closed", "ensuring fire doors are closed"},
		{"featured products on the homepage", "homepage product features"},
		{"team structure", "how the team is structured"},
		{"insured drivers on the pool car", "who insures drivers of the pool car"},
		{"measures to cut energy use", "measuring energy use cuts"},
		{"procurement thresholds", "procure thresholds"},
		{"controlling visitor numbers in the library", "control of visitor numbers in the library"},
		{"car park patrols at night", "patrolling the car park at night"},
		{"school counsellor caseload", "school counselor caseload"},
		{"signalling faults on the branch line", "signaling faults on the branch line"},
		{"expenses totalling rules", "rules for expense totals"},
		{"number of password tries before lockout", "how many times a user may try a password before lockout"},
		{"disposals of old laptops", "disposal of old laptops"},
	})
	topicsApart(t, [][2]string{
		{"fries on the kids menu", "Friday kids menu"},
		{"French fries portion size", "Friday portion size"},
		{"siting of new benches", "sitting on new benches"},
		{"siting of phone masts", "sitting of phone masts"},
		{"posture checks for call centre staff", "post checks for call centre staff"},
		{"staff posture checks", "staff post checks"},
		{"pasture rotation schedule", "past rotation schedule"},
		{"joint venture sign-off", "joint vent sign-off"},
		{"company culture survey", "company cult survey"},
		{"mature students fees", "mat students fees"},
		{"texture modified diets in care homes", "text modified diets in care homes"},
		{"denture cleaning on the ward", "dent cleaning on the ward"},
	})
	checkAgreements(t, []agreementCase{
		{"Fish is served with fries.", "Fish is served on Fridays.", Disagree},
	})
}

// TestOrdinalIsAPlace: an ordinal in a topic names a place, in words or
// in figures, with "the" or without; a count of as many is another
// question (the third shift is not three shifts).
func TestOrdinalIsAPlace(t *testing.T) {
	t.Parallel()
	topicsFound(t, [][2]string{
		{"4th floor printer access", "printer access on the fourth floor"},
		{"3rd party cookie banner", "cookie banner for the third party"},
		{"sixth form uniform", "uniform rules for the 6th form"},
	})
	topicsApart(t, [][2]string{
		{"fourth quarter sales target", "sales target over four quarters"},
		{"third shift staffing levels", "staffing levels for three shifts"},
		{"fire wardens for the tenth floor", "fire wardens for ten floors"},
		{"fifth wheel caravan pitches", "five wheel caravan pitches"},
		{"tenth grade field trips", "field trips for ten grades"},
	})
}

// TestConfirmAnArrangement: to confirm a booking, an appointment or an
// offer makes it definite; it is no check of it. To confirm that
// something holds still is.
func TestConfirmAnArrangement(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Reception confirms every group booking within 24 hours.", "Reception checks every group booking within 24 hours.", Disagree},
		{"The clinic confirms appointments by text 2 days before.", "The clinic checks appointments by text 2 days before.", Disagree},
		{"HR confirms the job offer in writing within 5 days.", "HR checks the job offer in writing within 5 days.", Disagree},
		{"The airline confirms seat upgrades at the gate.", "The airline checks seat upgrades at the gate.", Disagree},
		{"Orders are confirmed by email within one hour.", "Orders are verified by email within one hour.", Disagree},
		{"Trainees are confirmed in post after a 6 month probation.", "Trainees are tested in post after a 6 month probation.", Disagree},

		{"Before each shift the supervisor confirms the harness is clipped on.", "Before every shift, the supervisor checks that the harness is clipped on.", Agree},
		{"Pharmacist confirms the dose before the drug is issued.", "The pharmacist verifies the dose before the drug is issued.", Agree},
		{"ops: on-call confirms backups ran OK every morning", "every morning on-call checks that the backups ran ok", Agree},
		{"Door staff confirm ID for every booking over 10 people.", "For every booking over 10 people door staff check ID.", Agree},
		{"Each booking is confirmed by phone within 24 hours.", "Every booking gets confirmed by phone within 24h.", Agree},
	})
}

// readAlike fails t for each pair of words that analyze reads apart.
func readAlike(t *testing.T, pairs [][2]string) {
	t.Helper()
	for _, p := range pairs {
		if a, b := analyze(p[0]).words(), analyze(p[1]).words(); !slices.Equal(a, b) {
			t.Errorf("%q reads %v, %q reads %v: want one reading", p[0], a, p[1], b)
		}
	}
}

// readApart fails t for each pair of words that analyze reads alike.
func readApart(t *testing.T, pairs [][2]string) {
	t.Helper()
	for _, p := range pairs {
		if a, b := analyze(p[0]).words(), analyze(p[1]).words(); slices.Equal(a, b) {
			t.Errorf("%q and %q both read %v", p[0], p[1], a)
		}
	}
}

// topicsFound fails t for each pair of topics that score below
// TopicThreshold: the same question asked in other words.
func topicsFound(t *testing.T, pairs [][2]string) {
	t.Helper()
	for _, p := range pairs {
		if s := TopicScore(p[0], p[1]); s < TopicThreshold {
			t.Errorf("%q against %q: %.2f, want at least %.2f (%v | %v)", p[0], p[1], s, TopicThreshold, topicReading(p[0]), topicReading(p[1]))
		}
	}
}

// topicsApart fails t for each pair of topics that score at or above
// TopicThreshold: another question.
func topicsApart(t *testing.T, pairs [][2]string) {
	t.Helper()
	for _, p := range pairs {
		if s := TopicScore(p[0], p[1]); s >= TopicThreshold {
			t.Errorf("%q against %q: %.2f, want below %.2f (%v | %v)", p[0], p[1], s, TopicThreshold, topicReading(p[0]), topicReading(p[1]))
		}
	}
}

// topicReading is the words a topic or question is scored by, for a
// failure's message.
func topicReading(topic string) []string {
	return topicWords(analyze(questionText(topic)))
}
