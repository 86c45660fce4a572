package consensus

import "testing"

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
