package consensus

import "testing"

// TestEachTimeIsEveryTime: "each time" says what "every time" says, at
// the end of a clause too ("entered at the pump each time"), and "all
// the time" what "at all times" says; they stay apart from a time that
// comes only once, every other time or only at night.
func TestEachTimeIsEveryTime(t *testing.T) {
	t.Parallel()
	readAlike(t, [][2]string{
		{"Mileage must be entered each time.", "Mileage must be entered every time."},
		{"Gloves are changed each time.", "Gloves are changed every time."},
		{"Staff must wear badges at all times.", "Staff must wear badges all the time."},
	})
	readApart(t, [][2]string{
		{"Mileage must be entered each time.", "Mileage must be entered the first time."},
	})
	for _, c := range []struct {
		why, filed, position string
		want                 Agreement
	}{
		{"at the end of the rule", "The current mileage must be entered at the pump each time.",
			"You must enter the current mileage at the pump every time.", Agree},
		{"a short note", "Gloves are changed each time.", "Gloves: changed every time.", Agree},
		{"a prompt", "The printer asks for a PIN each time.", "The printer asks for a PIN every time.", Agree},
		{"a permission", "Players may use a lifeline each time.", "Players may use a lifeline every time.", Agree},
		{"the first time only", "The current mileage must be entered at the pump each time.",
			"The current mileage must be entered at the pump the first time only.", Disagree},
		{"every other time", "Gloves are changed each time.", "Gloves are changed every other time.", Disagree},
		{"all the time", "Staff must wear badges at all times.", "Staff must wear badges all the time.", Agree},
		{"all the time, but for a case", "Riders wear a helmet at all times.", "riders wear helmets all the time, except on the flat bits", Disagree},
		{"only at night", "Warning lights stay on all the time during the works.", "Warning lights are switched on only at night during the works.", Disagree},
	} {
		t.Run(c.why, func(t *testing.T) {
			if got := ComparePositionsOn("", c.filed, c.position); got.Agreement != c.want {
				t.Errorf("%q against %q: %s %v, want %s", c.position, c.filed, got.Agreement, got.Differences, c.want)
			}
		})
	}
}
