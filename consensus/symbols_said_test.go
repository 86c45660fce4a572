package consensus

import "testing"

// TestBoundsInSymbols: a bound written as a sign reads as the words it
// stands for: "21+" is at least 21, ">8" more than 8, "<5 kg" under 5 kg,
// "min 4" at least 4, "max 30 min" at most 30 minutes. A sum ("2+2") is no
// bound, and the other bound or another number in the same sign still
// changes the rule.
func TestBoundsInSymbols(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Tenants get a registered letter at least 21 days before the auction.", "Tenants get a registered letter 21+ days before the auction.", Agree},
		{"Tenants get a registered letter at least 21 days before the auction.", "Tenants get a registered letter 14+ days before the auction.", Disagree},
		{"Tenants get a registered letter 21 days before the auction.", "Tenants get a registered letter 21+ days before the auction.", Disagree},
		{"Groups of more than 8 people book a second guide.", "Groups of >8 people book a second guide.", Agree},
		{"Groups of more than 8 people book a second guide.", "Groups of > 8 people book a second guide.", Agree},
		{"Groups of more than 8 people book a second guide.", "Groups of <8 people book a second guide.", Disagree},
		{"Loads under 5 kg go by bike courier.", "Loads <5 kg go by bike courier.", Agree},
		{"Loads under 5 kg go by bike courier.", "Loads >5 kg go by bike courier.", Disagree},
		{"A valuation is reissued when a repair changes the metal weight by more than 10%.", "A valuation is reissued when a repair changes the metal weight by >10%.", Agree},
		{"The score adds 2+2 checks to the rest.", "The score adds 2+2 checks to the rest, always.", Disagree},
		{"Each condition report has at least 4 photos.", "Each condition report has min. 4 photos.", Agree},
		{"Each condition report has at least 4 photos.", "Each condition report has min 4 photos.", Agree},
		{"Each condition report has at least 4 photos.", "Each condition report has min 5 photos.", Disagree},
		{"The cage dryer runs for at most 30 minutes per dog.", "The cage dryer runs max 30 min per dog.", Agree},
		{"The cage dryer runs for at most 30 minutes per dog.", "The cage dryer runs max 45 min per dog.", Disagree},
	})
}

// TestSharesAsMultiples: a share of a rate over 100% is the multiple
// written with a times sign ("150%" is "1.5x"), per hour or not; another
// multiple is another rate.
func TestSharesAsMultiples(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Sunday call-outs are billed at 200% of the standard rate.", "Sunday call-outs are billed at 2x the standard rate.", Agree},
		{"Sunday call-outs are billed at 200% of the standard rate.", "Sunday call-outs are billed at 3x the standard rate.", Disagree},
		{"Evening call-outs are billed at 1.5x the hourly rate.", "Evening call-outs are billed at 150% of the hourly rate.", Agree},
		{"Evening call-outs are billed at 1.5x the hourly rate.", "Evening call-outs are billed at 125% of the hourly rate.", Disagree},
		{"Out-of-hours work is billed at 150% of the standard hourly rate on weekday evenings.", "We bill out-of-hours work at 1.5× the standard hourly rate on weekday evenings.", Agree},
	})
}

// TestWordsThatOnlyLookNegative: the "off" of a noun joined by a hyphen
// ("take-off", "cut-off") turns nothing off, "no." before a number or a
// bracket is a number, and framing that puts a rule on record ("The board
// confirmed that", "It was agreed that") says nothing of the rule. "off"
// alone, a "No." that answers, and a person confirming a fact are read as
// before.
func TestWordsThatOnlyLookNegative(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Before take-off the pilot demonstrates the landing position to all passengers.", "Before take-off, the pilot shows every passenger the landing position.", Agree},
		{"Orders placed before the 14:00 cut-off ship the same day.", "Orders placed before the 14:00 cut-off, ship the same day.", Agree},
		{"Dryers are used with the heat off.", "Dryers are used with the heat on.", Disagree},
		{"Every application is logged with product, dose and greenhouse number within 24 hours.", "Every application is logged (product, dose, greenhouse no.) within 24 hours.", Agree},
		{"Every application is logged with product, dose and greenhouse number within 24 hours.", "Every application is logged with product, dose and greenhouse no. 3 within 24 hours.", Disagree},
		{"Dogs are allowed in the bar.", "Are dogs allowed in the bar? No.", Disagree},
		{"Patients attend a review 6 weeks after debond.", "The board confirmed that patients attend a review 6 weeks after debond.", Agree},
		{"Patients attend a review 6 weeks after debond.", "It was agreed that patients attend a review six weeks after debond.", Agree},
		{"Patients attend a review 6 weeks after debond.", "The clinical governance committee noted that patients attend a review 8 weeks after debond.", Disagree},
		{"The customer confirms the delivery address before dispatch.", "The customer confirms that the delivery address is correct before dispatch.", Disagree},
		{"The pilot repeats the instruction about 2 minutes before landing.", "The pilot repeats the instruction approximately 2 minutes before landing.", Agree},
		{"The pilot repeats the instruction about 2 minutes before landing.", "The pilot repeats the instruction roughly 5 minutes before landing.", Disagree},
	})
}

// TestRateAfterItsNoun: "a day" after the number and the thing it counts
// is per day, as "per day" is.
func TestRateAfterItsNoun(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Hives are treated again if the mite drop exceeds 10 mites per day.", "Hives are treated again when the drop is above 10 mites a day.", Agree},
		{"Hives are treated again if the mite drop exceeds 10 mites per day.", "Hives are treated again when the drop is above 10 mites a week.", Disagree},
	})
}
