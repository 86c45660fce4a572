package consensus

import "testing"

// TestBoundSaidWithAComparative reads a comparative with "than" before a
// number as the bound "above" or "below" sets ("trims shorter than 15
// minutes" are "trims under 15 minutes"), and "the full 18 hours" as "all
// 18 hours"; a bound turned the other way, or another number, stays a
// change.
func TestBoundSaidWithAComparative(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"shorter than is under", "", "Beard trims under 15 minutes may be done without a booking.",
			"Beard trims shorter than 15 minutes may be done without a booking.", Agree, ""},
		{"heavier than is over", "", "Parcels heavier than 5 kg go to the counter, not the small locker.",
			"parcels over 5 kg → counter, not small locker", Agree, ""},
		{"warmer than is above", "", "Fridges reading warmer than 8 °C must be reported to the kitchen manager.",
			"Fridges reading above 8 °C must be reported to the kitchen manager.", Agree, ""},
		{"later than is more than", "", "Essays handed in later than 5 days after the deadline get a mark of zero.",
			"Essays handed in more than 5 days after the deadline get a mark of zero.", Agree, ""},
		{"stronger than is above, in other words", "", "Moss is not removed from roofs in rain, frost or winds above 25 mph; a customer whose visit is cancelled for weather is offered the next free slot within 10 working days.",
			"Moss removal on the roofs we don't make in rain, in frost or in wind stronger than 25 mph. When the visit is cancelled because of weather, the customer receives offer for the next free slot inside 10 working days.", Agree, ""},
		{"shorter than, the number in words", "", "Beard trims under 15 minutes may be done without a booking.",
			"beard trim shorter than fifteen minutes can be done with no booking", Agree, ""},
		{"the full hours are all of them", "", "Learners must attend all 18 hours of the course to get the certificate.",
			"Learners must attend the full 18 hours of the course to get the certificate.", Agree, ""},

		{"shorter turned longer", "", "Beard trims under 15 minutes may be done without a booking.",
			"Beard trims longer than 15 minutes may be done without a booking.", Disagree, "longer than"},
		{"shorter than another number", "", "Beard trims under 15 minutes may be done without a booking.",
			"Beard trims shorter than 20 minutes may be done without a booking.", Disagree, "20 minutes"},
		{"heavier turned lighter", "", "Parcels heavier than 5 kg go to the counter, not the small locker.",
			"parcels lighter than 5 kg → counter, not small locker", Disagree, "lighter than"},
		{"warmer turned colder", "", "Fridges reading warmer than 8 °C must be reported to the kitchen manager.",
			"Fridges reading colder than 8 °C must be reported to the kitchen manager.", Disagree, "colder than"},
		{"above turned no stronger than", "", "Tower cranes stop lifting in winds above 38 mph.",
			"Tower cranes stop lifting in winds no stronger than 38 mph.", Disagree, "no stronger than"},
		{"younger turned older", "", "Passengers younger than 16 travel on the youth ticket.",
			"Passengers older than 16 travel on the youth ticket.", Disagree, "older"},
		{"the full hours, another number", "", "Learners must attend all 18 hours of the course to get the certificate.",
			"Learners must attend the full 12 hours of the course to get the certificate.", Disagree, "12 hours"},
	})
}
