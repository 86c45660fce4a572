package consensus

import "testing"

// TestForceInNewtons: "0.5 kilonewtons" is 500 newtons; another number
// of newtons is another rule. A house number before "Newton Road" is no
// force.
func TestForceInNewtons(t *testing.T) {
	t.Parallel()
	const rope = "Every anchor point must hold a static load of at least 500 newtons before a climber is clipped in."
	checkAgreements(t, []agreementCase{
		{rope, "Anchor points: 0.5 kilonewtons static load minimum before anyone clips in.", Agree},
		{rope, "Anchor points: 300 newtons static load minimum before anyone clips in.", Disagree},
		{rope, "Anchor points: at least 500 kilonewtons static load before anyone clips in.", Disagree},
	})
	noQuantity(t, "a force", func(q quantity) bool { return q.dim == "force" },
		"The 41 bus stops at 4 Newton Road every 20 minutes.", "Deliveries go to 12 Newton Street, rear door.")
}

// TestRegardlessIrrespective: "irrespective of" says what "regardless
// of" says.
func TestRegardlessIrrespective(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The night porter locks the side door at 23:00 regardless of events in the hall.",
			"The night porter locks the side door at 23:00 irrespective of events in the hall.", Agree},
		{"Visitors sign in at reception regardless of how often they have visited.",
			"Visitors sign in at reception irrespective of how often they have visited.", Agree},
	})
}
