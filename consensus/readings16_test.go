package consensus

import (
	"slices"
	"testing"
)

// TestSignedShares: a sign before a share says what "plus" and "minus"
// say ("the standard fee + 20%" is "120% of" it; "the list price - 15%"
// is "85% of" it, and so is "minus 15%"); a sign between two numbers is a
// range or a sum, and a sign before a temperature is below zero.
func TestSignedShares(t *testing.T) {
	t.Parallel()
	const fee = "Night deliveries cost the standard fee + 20%."
	const members = "Members pay the list price - 15% on every order."
	checkAgreements(t, []agreementCase{
		{fee, "Night deliveries cost the standard fee plus 20%.", Agree},
		{fee, "Night deliveries cost 120% of the standard fee.", Agree},
		{fee, "Night deliveries cost the standard fee +20%.", Agree},
		{fee, "Night deliveries cost 20% of the standard fee.", Disagree},
		{fee, "Night deliveries cost the standard fee + 30%.", Disagree},
		{fee, "Night deliveries cost the standard fee - 20%.", Disagree},
		{members, "Members pay 85% of the list price on every order.", Agree},
		{members, "Members get 15% off the list price on every order.", Agree},
		{members, "Members pay the list price minus 15% on every order.", Agree},
		{members, "Members pay the list price -15% on every order.", Agree},
		{members, "Members pay 15% of the list price on every order.", Disagree},
		{"Spend 5 - 10% of the budget on tooling.", "Spend 5 to 10% of the budget on tooling.", Agree},
		{"Keep the samples at -20 °C.", "Keep the samples at minus 20 °C.", Agree},
		{"Keep the samples at -20 °C.", "Keep the samples at 20 °C.", Disagree},
	})
	c := ComparePositions("Night deliveries cost the standard fee + 20%.", "Night deliveries cost 20% of the standard fee.")
	if !slices.Contains(c.Differences, "plus 20 % → 20 % of") {
		t.Errorf("differences %q, want the share's relation named: plus 20 %% → 20 %% of", c.Differences)
	}
}

// TestTolerances: "±", "+/-" and "plus or minus" say one tolerance, and
// neither half of it is a share more or less than the amount.
func TestTolerances(t *testing.T) {
	t.Parallel()
	const fill = "Each jar's fill weight is 500 g ± 2%; jars outside it are pulled from the line."
	checkAgreements(t, []agreementCase{
		{fill, "Each jar's fill weight is 500 g plus or minus 2%; jars outside it are pulled from the line.", Agree},
		{fill, "Each jar's fill weight is 500 g +/- 2%; jars outside it are pulled from the line.", Agree},
		{fill, "Each jar's fill weight is 500 g ± 3%; jars outside it are pulled from the line.", Disagree},
		{fill, "Each jar's fill weight is 500 g minus 2%; jars outside it are pulled from the line.", Disagree},
	})
}

// TestSignWordsHostile: signs at the edges of a text, glued to other
// signs, or before what is no share neither panic nor read as shares.
func TestSignWordsHostile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		at   int
		word string
	}{
		{"+", 0, ""}, {"-", 0, ""}, {"±", 0, "plusminus"}, {"+/-", 0, "plusminus"}, {"fee +", 4, ""},
		{"fee + ", 4, ""}, {"fee +%", 4, ""}, {"fee + .5%", 4, ""}, {"fee +20", 4, ""}, {"fee +20 %", 4, "plus"},
		{"fee  + 20%", 5, "plus"}, {"5 + 20%", 2, ""}, {"x-20%", 1, ""}, {"fee -20%", 4, "minus"}, {"fee −20%", 4, "minus"},
		{"тариф + 20%", len("тариф "), "plus"}, {"fee + 20 percent", 4, "plus"}, {"fee + 20 per", 4, ""},
	} {
		if w, _ := signWord(tc.text, tc.at); w != tc.word {
			t.Errorf("signWord(%q, %d) = %q, want %q", tc.text, tc.at, w, tc.word)
		}
	}
	for _, s := range []string{"+", "±±±", "+/-+/-", "- - - 5%", "fee +\u00a020%", "±" + "5%%%", "plus or minus", "plus or", "+/", "a −", "−−5%"} {
		ComparePositions(s, "The fee is the list price + 20%.")
		ComparePositions("The fee is the list price ± 20%.", s)
	}
}
