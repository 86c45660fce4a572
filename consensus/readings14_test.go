package consensus

import (
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestForceInNewtons: "0.5 kilonewtons" is 500 newtons; another number
// of newtons is another rule.
func TestForceInNewtons(t *testing.T) {
	t.Parallel()
	const rope = "Every anchor point must hold a static load of at least 500 newtons before a climber is clipped in."
	checkAgreements(t, []agreementCase{
		{rope, "Anchor points: 0.5 kilonewtons static load minimum before anyone clips in.", Agree},
		{rope, "Anchor points: 300 newtons static load minimum before anyone clips in.", Disagree},
		{rope, "Anchor points: at least 500 kilonewtons static load before anyone clips in.", Disagree},
	})
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

// TestTopicInWordsOfItsOwn: a question whose topic names nothing of the
// record ("Entrapment SLA" for "Response to passengers stuck in a
// lift") is found by its position when the position says the record's
// rule and names its things; a changed rule so found blocks. A near miss
// that names an object of its own in its topic and again in its position
// is still no answer.
func TestTopicInWordsOfItsOwn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	names := fileMeaning(t, e, []meaningRecord{
		{name: "lift", layer: debate.LayerSpec, topic: "Response to passengers stuck in a lift", position: "When passengers are stuck in a lift, an engineer must reach the site within 45 minutes; if no engineer can, the fire service is called to free them."},
		{name: "escalator", layer: debate.LayerSpec, topic: "Escalator stoppages", position: "A stopped escalator is barriered off within 10 minutes and inspected by an engineer before it restarts."},
		{name: "boiler", layer: debate.LayerSpec, topic: "Annual boiler service in council flats", position: "Every council flat boiler is serviced once every 12 months by a Gas Safe engineer; tenants get 7 days' notice of the visit."},
	})
	res := specCheck(t, e, "Entrapment SLA",
		"Ops note: anyone stuck in a lift car gets an engineer on site inside 45 minutes; where that can't happen we ring the fire service to free them.")
	if res.Status != CheckConsistent || res.Record == nil || res.Record.Name != names["lift"] {
		t.Errorf("the record's rule under a topic of its own: %s (record %v, topic %.2f, %v)", res.Status, res.Record, res.TopicScore, res.Comparison)
	}
	res = specCheck(t, e, "Entrapment SLA",
		"Ops note: anyone stuck in a lift car gets an engineer on site inside 90 minutes; where that can't happen we ring the fire service to free them.")
	if res.Status != CheckConflict && res.Status != CheckUnclear || res.Record == nil || res.Record.Name != names["lift"] {
		t.Errorf("another rule under a topic of its own: %s (record %v, %v)", res.Status, res.Record, res.Comparison)
	}
	res = specCheck(t, e, "Dumbwaiter breakdowns in the hotel kitchen",
		"When the kitchen dumbwaiter breaks down, an engineer must reach the site within 45 minutes.")
	if res.Status != CheckNone {
		t.Errorf("a near miss with an object of its own: %s (record %v, %v)", res.Status, res.Record, res.Comparison)
	}
}
