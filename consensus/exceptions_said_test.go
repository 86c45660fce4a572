package consensus

import "testing"

// TestExceptionSaidNegated: an exception said as the rule denied under a
// condition ("but not if", "never when", right after the rule in its
// sentence) is the exception the filed "unless" or "except" makes; "not
// only while" widens the rule instead, and a position that opens with "Not
// while …:" answers a question rather than making an exception.
func TestExceptionSaidNegated(t *testing.T) {
	t.Parallel()
	const minibus = "Volunteers may borrow the minibus at weekends, except during the summer fete."
	const deposit = "Deposits are returned within 10 days unless the flat is subject to a damage claim."
	const press = "Staff must wear ear defenders in the press hall while the presses are running."
	const latecomers = "Latecomers are admitted only at the first suitable break, never during a scene."
	checkAgreements(t, []agreementCase{
		{minibus, "Volunteers can borrow the minibus at weekends, but never during the summer fete.", Agree},
		{minibus, "Volunteers can borrow the minibus at weekends, but not during the summer fete.", Agree},
		{minibus, "Volunteers can borrow the minibus at weekends, and also during the summer fete.", Disagree},
		{deposit, "Deposits go back within ten days, but not if there is a damage claim on the flat.", Agree},
		{deposit, "Deposits go back within ten days, even if there is a damage claim on the flat.", Disagree},
		{deposit, "Deposits go back within ten days.", Disagree},
		{press, "Staff must wear ear defenders in the press hall, not only while the presses are running.", Disagree},
		{latecomers, "Late arrivals wait for the first suitable break. No admission during a scene.", Agree},
	})
	for _, s := range []string{"Not while the press is running: staff keep out of the pit.", "Latecomers are admitted at a break, never during a scene."} {
		if a := analyze(voicePosition(s)); countKind(a.conds, "unless") != 0 {
			t.Errorf("%q: read an exception (%+v); the negation opens its clause and says the rule again", s, a.conds)
		}
	}
}

// TestNegationInItsOwnRule: a rule negated under a condition that sets a
// bound ("no launches if winds are over 35 km/h", "not regenerated when
// viability falls below 85%") keeps its negation; the bound is the
// condition's. A bound of the negated rule itself still reads as the
// limit it sets ("no tenant may keep more than 4 cats").
func TestNegationInItsOwnRule(t *testing.T) {
	t.Parallel()
	const launch = "Do not launch a survey drone when the wind at the pad exceeds 35 km/h."
	const seeds = "Every seed lot is regenerated when its germination rate falls below 85%."
	checkAgreements(t, []agreementCase{
		{launch, "No launches if the pad has winds over 35 km/h.", Agree},
		{launch, "No survey drones are launched if the wind at the pad is over 35 km/h.", Agree},
		{launch, "Survey drones are launched if the wind at the pad is over 35 km/h.", Disagree},
		{seeds, "Seed lots are not regenerated when their germination rate falls below 85%.", Disagree},
		{"No tenant may keep more than 4 cats.", "Each tenant keeps at most 4 cats.", Agree},
	})
}

// TestInclusionWidens: a thing the filed rule never names, said to be
// included where a word of the filed rule is left out, widens the rule
// ("adult members" → "all members, juniors included"); named as an
// example of what the filed rule already covers, it changes nothing.
func TestInclusionWidens(t *testing.T) {
	t.Parallel()
	const sauna = "Adult members may use the sauna after 8 pm."
	const perishables = "Perishable goods are checked at 4 °C on arrival."
	checkAgreements(t, []agreementCase{
		{sauna, "All members, juniors included, may use the sauna after 8 pm.", Disagree},
		{sauna, "The sauna is open to adult members after 8 pm.", Agree},
		{perishables, "All perishables, dairy included, are checked at 4 °C on arrival.", Agree},
		{perishables, "Perishables (dairy and meat included) are checked at 4 °C when they arrive.", Agree},
	})
}
