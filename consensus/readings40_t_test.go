package consensus

import "testing"

// TestOnlyAKindOfTheThing: a rule said of a thing as a whole, against one
// that says it "only" of a kind of it, named by words the rule never uses:
// before a thing of more words ("only to adult group therapy sessions",
// "only on weekend night shifts"), in a word joined by a hyphen
// ("first-time candidates only"), or after the thing by a word that bounds
// it ("only visitors from outside the company", "the smoke alarms in block
// C only"). The rule's reach narrowed, or the other way round widened. Not
// a count of the thing ("only one job at the same time"), nor the thing
// said again in other words.
func TestOnlyAKindOfTheThing(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"a kind of a thing of two words", "", "Night shifts need two nurses on the ward at all times.",
			"Rule update - two nurses at all times, but only on weekend night shifts.", Disagree, "weekend night shifts"},
		{"a kind of a thing of three words", "", "Group therapy sessions have at most 8 patients.",
			"The limit of 8 patients applies only to adult group therapy sessions.", Disagree, "adult group therapy"},
		{"first-time, said with a hyphen", "", "Candidates show photo ID to the webcam before the exam starts.",
			"First-time candidates only: photo ID to webcam before start.", Disagree, "First-time candidates only"},
		{"bounded by from", "", "Visitors must wear a badge while in the building.",
			"Only visitors from outside the company must wear a badge in the building.", Disagree, "visitors from outside the company"},
		{"bounded by on", "", "Lockers are rented by the month for 10 euro.",
			"Lockers is rented per month, 10 euro, only lockers on floor 2 though", Disagree, "lockers on floor 2"},
		{"bounded, only at the end", "", "A technician must test every smoke alarm yearly and log the result.",
			"yearly test by a technician of the smoke alarms in block C only, result logged", Disagree, "alarms in block C only"},
		{"the rule's kind, widened", "", "The limit of 8 patients applies only to adult group therapy sessions.",
			"Group therapy sessions have at most 8 patients.", Disagree, "adult group therapy"},
		{"said of the whole again", "", "Night shifts need two nurses on the ward at all times.",
			"At all times during a night shift, two nurses must be on the ward.", Agree, ""},
		{"the whole in other words", "", "Group therapy sessions have at most 8 patients.",
			"No more than 8 patients in a group therapy session.", Agree, ""},
		{"a count, not a kind", "", "Members may run one print job at a time, up to 6 hours per job.",
			"Each member can print only one job at the same time, and each job can be maximum 6 hours.", Agree, ""},
		{"only of the time", "", "Lockers are rented by the month for 10 euro.",
			"Lockers can only be rented for a whole month, at 10 euro.", Agree, ""},
		{"the bounded kind said alike", "", "Smoke alarms in block C are tested yearly by a technician, who logs the result.",
			"yearly test by a technician of the smoke alarms in block C, result logged", Agree, ""},
		{"every one of the kind of two words", "", "Every group therapy session has at most 8 patients.",
			"Group therapy sessions: 8 patients max.", Agree, ""},
	})
}
