package consensus

import "testing"

// TestBoundOfSubjectNegated reads a bound said of the subject before the
// verb's negation ("oil hotter than 80 degrees is not to be used") as the
// limit the negated verb with the bound after it says ("the oil must not
// be used above 80 °C" is "used at most at 80 °C"); the negation turned,
// another amount or a bound turned the other way still conflicts.
func TestBoundOfSubjectNegated(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"oil bound before the negation", "oil quench temperature",
			"The oil must not be used above 80 °C.", "Oil hotter than 80 degrees is not to be used.", Agree, ""},
		{"shifts bound as a limit", "working hours",
			"Staff must not work more than 10 hours a day.", "Shifts longer than 10 hours are not allowed.", Agree, ""},
		{"uploads refused by the form", "upload size",
			"Files larger than 10 MB are not accepted.", "The upload form does not accept files above 10 MB.", Agree, ""},
		{"only the boards within the bound", "board moisture",
			"Boards reading above 12% moisture are not used.", "Only boards at or below 12% moisture are used.", Agree, ""},
		{"chat against a cap", "upload size",
			"anything bigger than 50 MB isn't accepted by the uploader lol", "uploads capped at 50 MB", Agree, ""},
		{"a single lifter up to the bound", "manual lifting",
			"Loads over 25 kg must not be lifted by one person.", "A single person may lift loads of up to 25 kg.", Agree, ""},
		{"never with the bound before it", "kiln firing",
			"Pots thicker than 2 cm are never fired in the small kiln.", "Never fire a pot thicker than 2 cm in the small kiln.", Agree, ""},
		{"the negation dropped", "manual lifting",
			"Loads over 25 kg must not be lifted by one person.", "Loads over 25 kg may be lifted by one person.", Disagree, "lifted"},
		{"another amount", "manual lifting",
			"Loads over 25 kg must not be lifted by one person.", "One person must not lift more than 30 kg.", Disagree, "30 kg"},
		{"the bound turned", "vehicle weight",
			"Vehicles exceeding 3.5 tonnes shall not enter the estate.", "Vehicles up to 3.5 tonnes shall not enter the estate.", Disagree, "3.5"},
		{"accepted above the bound", "upload size",
			"Files larger than 10 MB are not accepted.", "The upload form accepts files above 10 MB.", Disagree, "accept"},
		{"refunded below the bound", "refund of credit",
			"Balances under €1 are not refunded.", "Balances under €1 are refunded.", Disagree, "refunded"},
		{"refused on the other side of the bound", "refund of credit",
			"Balances under €1 are not refunded.", "Balances of €1 or more are not refunded.", Disagree, "€1"},
	})
}

// TestNobodyBoundsTheVerb reads "nobody" before a verb and a bound as
// "not" is read there: "nobody may hold more than two bookings" holds at
// most two. Not where "nobody" says what a thing is ("a breakdown with
// nobody trapped") or the bound is another verb's ("nothing scheduled that
// peaks under ten degrees"); another amount or the bound turned still
// conflicts.
func TestNobodyBoundsTheVerb(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"nobody holds more than the cap", "peak bookings",
			"Members may hold at most 2 active peak bookings.", "Nobody may hold more than two upcoming peak bookings.", Agree, ""},
		{"a guest note", "visitor sign-in",
			"Each resident may sign in at most 3 guests.", "nobody signs in more than 3 guests", Agree, ""},
		{"non-native please", "cake at the party",
			"Each guest may take at most 2 pieces of cake.", "nobody take more than 2 piece of cake please", Agree, ""},
		{"a participle after nobody", "lift call-outs",
			"A breakdown with nobody trapped allows up to 4 hours.", "if nobody is trapped, the engineer has up to 4 hours", Agree, ""},
		{"a relative clause's bound", "satellite passes",
			"Passes peaking below 10 degrees are never scheduled.", "Nothing scheduled that peaks under ten degrees.", Agree, ""},
		{"another cap", "peak bookings",
			"Nobody may hold more than two bookings.", "Members may hold at most 3 bookings.", Disagree, "3"},
		{"the bound turned", "shift length",
			"nobody works more than 12 hours in a shift", "staff work at least 12 hours in a shift", Disagree, "at least"},
		{"the bound dropped", "shift length",
			"Nobody works more than 12 hours in a shift.", "Nobody works in a shift.", Disagree, "works"},
	})
}
