package consensus

import (
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestFoundByItsNumbers: a question whose words for the record's things
// are all its own ("pots" for "stoneware", "the first time" and "once
// glazed" for "bisque" and "glaze") is found when its position says the
// record's numbers; a change of one of them is then unclear, not a
// conflict. A copy of the record's sentence with one object swapped, or
// another object named in the question's topic and said again, is no
// answer, however many numbers it keeps.
func TestFoundByItsNumbers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	file := func(id, topic, position string) { e.fileRule(t, debate.LayerSpec, id, topic, position) }
	file("20261202-spec-kiln-aaaaaa", "Firing schedule for stoneware",
		"Stoneware is bisque-fired to 1000 °C and glaze-fired to 1240 °C; above 600 °C the kiln cools by at most 100 °C per hour.")
	file("20261202-spec-ferry-aaaaaa", "Ferry boarding cut-off for foot passengers",
		"Foot passengers must reach the gate 20 minutes before departure; the ramp closes 5 minutes before departure.")
	const kiln = "spec-firing-schedule-for-stoneware"
	checkFound(t, e, debate.LayerSpec, []foundCase{
		{"the numbers told in words of its own", "How hot do the pots get in each firing?",
			"The pots go to 1000 °C the first time and 1240 °C once glazed, and over 600 °C we let them cool no faster than 100 °C an hour.",
			CheckConsistent, kiln},
		{"one number told otherwise", "How hot do the pots get in each firing?",
			"The pots go to 1000 °C the first time and 1280 °C once glazed, and over 600 °C we let them cool no faster than 100 °C an hour.",
			CheckUnclear, kiln},
		{"the numbers of another object's rule, in the same words", "How hot does porcelain get in each firing?",
			"Porcelain is bisque-fired to 1000 °C and glaze-fired to 1240 °C; above 600 °C the kiln cools by at most 100 °C per hour.",
			CheckNone, ""},
		{"another object named and said again", "Boarding cut-off for cars on the ferry",
			"Cars must be in the lanes 20 minutes before departure, and the ramp shuts 5 minutes before the ship leaves.",
			CheckNone, ""},
		{"a rule with one number is no fingerprint", "When do walk-on travellers have to be at the gate?",
			"Walk-on travellers have to be at the gate by 20 minutes ahead of sailing.",
			CheckNone, ""},
	})
}
