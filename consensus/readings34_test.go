package consensus

import (
	"slices"
	"testing"
)

// TestOnlyWhenInBrackets: a time the rule holds said with "only" in
// brackets ("(weekdays only)", "(only on weekdays)") narrows the rule as
// it does after a comma or a dash; the bracket opens the stretch, and
// the difference names the time without it.
func TestOnlyWhenInBrackets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ filed, position, want string }{
		{"Volunteers collect the shed key from the café counter.", "volunteers get the shed key at the cafe counter (weekdays only)", "condition added: weekdays only"},
		{"Volunteers collect the shed key from the café counter.", "volunteers get the shed key at the cafe counter (only on weekdays)", "condition added: only on weekdays"},
		{"Deliveries to the loading bay are accepted between 7 and 11 am.", "Loading bay deliveries: 7-11am (Saturdays only).", "condition added: Saturdays only"},
		{"The roof terrace is open to residents until 10 pm (summer only).", "Residents can use the roof terrace until 10 pm.", "condition dropped: summer only"},
	} {
		a, b := analyze(c.filed), analyze(c.position)
		got := compareOnlyWhen(a, b, newSide(c.filed, b.only), newSide(c.position, a.only))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%q against %q: %q, want %q", c.filed, c.position, got, c.want)
		}
	}
	checkAgreements(t, []agreementCase{
		{"Volunteers collect the shed key from the café counter.", "volunteers get the shed key at the cafe counter (weekdays only)", Disagree},
		{"The roof terrace is open to residents until 10 pm (summer only).", "Residents can use the roof terrace until 10 pm.", Disagree},
		{"The roof terrace is open to residents until 10 pm in summer only.", "The roof terrace is open to residents until 10 pm (summer only).", Agree},
		{"Bins go out on weekdays only.", "Bins go out Monday to Friday (weekdays only).", Agree},
	})
}

// TestBoundInAnotherUnit: the number of a bound said again in another
// unit of its kind ("exceed 50 km/h" → "top 50 knots", "more than 14
// days after" → "within 14 weeks of") is the bound changed, not a value
// the bound allows; a value that only falls inside the bound ("wind 9
// km/h" under "below 15 km/h") stays what it was.
func TestBoundInAnotherUnit(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The dome closes when wind gusts exceed 50 km/h.", "The dome closes when gusts top 50 knots.", Disagree},
		{"Illness claims are covered only for conditions that start more than 14 days after the policy start date.", "An illness claim for a condition that started within 14 weeks of the start date is declined.", Disagree},
		{"A manual read more than 50% above or below the 12-month average is flagged for a re-read within 5 working days.", "Flag any manual reading that is more than 50% off the 12-week average and re-read it within 5 working days.", Disagree},
		{"Stop the crane when the wind is above 20 m/s.", "crane stops once wind goes past 20 mph", Disagree},
		{"Reply to every complaint in no more than 3 days.", "complaints get an answer within 3 weeks", Disagree},

		{"The dome closes when wind gusts exceed 50 km/h.", "Dome shuts once gusts go over 50 kph.", Agree},
		{"Illness claims are covered only for conditions that start more than 14 days after the policy start date.", "An illness claim for a condition that started within 14 days of the start date is declined.", Agree},
		{"Reply to every complaint in no more than 3 days.", "complaints get an answer within 72 hours", Agree},
	})
}

// TestKeyUnitBeforePer: a configuration key that ends in a unit per a
// unit that is no period ("above_mg_per_kg: 0.01", "dose_mg_per_kg = 5")
// says its value as a rule says it, "0.01 mg/kg": the unit after "per" is
// no unit of the value.
func TestKeyUnitBeforePer(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"An extra unannounced visit is required when any sample shows a residue above 0.01 mg/kg.", "unannounced_visit_if_any_residue_above_mg_per_kg: float = 0.01", Agree},
		{"Give 5 mg/kg of paracetamol.", `{"paracetamol_dose_mg_per_kg": 5}`, Agree},
		{"Give 5 mg/kg of paracetamol.", `{"paracetamol_dose_mg_per_kg": 15}`, Disagree},
		{"Fertiliser is spread at no more than 40 g per square metre.", "max_fertiliser_g_per_m2 = 40", Agree},
	})
}

// TestClauseBreaks: the clauses a list is read in are cut where a
// clause ends (after ";", ".", ":", "!" or "?" before a space, at a dash
// between spaces, at a new line), and nowhere else: not in "2.5 kg",
// "10:30", "e-mail" or "well-known".
func TestClauseBreaks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []string
	}{
		{"The main pool and the learner pool close; the hydro pool stays open.", []string{"The main pool and the learner pool close", "the hydro pool stays open."}},
		{"Close the main pool only - learner pool stays in use", []string{"Close the main pool only", "learner pool stays in use"}},
		{"vets: on site — slack runs go ahead\nno vet needed", []string{"vets", "on site", "slack runs go ahead", "no vet needed"}},
		{"Bags up to 2.5 kg at 10:30, by e-mail or well-known couriers!", []string{"Bags up to 2.5 kg at 10:30, by e-mail or well-known couriers!"}},
		{"Really? Yes. Done", []string{"Really", "Yes", "Done"}},
		{"", []string{""}},
	} {
		if got := clauseBreaks(c.text); !slices.Equal(got, c.want) {
			t.Errorf("clauseBreaks(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
