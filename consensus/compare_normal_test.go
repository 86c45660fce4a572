package consensus

import (
	"strings"
	"testing"
)

// TestComparePositionsNormalised pins what the comparison normalises
// before it compares (normal.go, compare_change.go): a quantity in another
// unit, a configuration value whose unit its key carries, a number that
// names something, detail the filed rule does not speak to, and a removal
// or a switch the asker intends. Each reading has its conflict beside it:
// the same quantity changed, the same part removed.
func TestComparePositionsNormalised(t *testing.T) {
	for _, c := range []struct {
		why, filed, position string
		want                 Agreement
		diff                 string // a part of the differences, when want is not Agree
	}{
		// One quantity in other units.
		{"metres as centimetres", "Stacks are at most 1.8 m high.", "Stacks stay under 180 cm in height.", Agree, ""},
		{"metres as other centimetres", "Stacks are at most 1.8 m high.", "Stacks are at most 150 cm high.", Disagree, "1.8 m → 150 cm"},
		{"kilograms as grams", "Each parcel weighs at most 2 kg.", "Each parcel weighs no more than 2000 g.", Agree, ""},
		{"kilograms as other grams", "Each parcel weighs at most 2 kg.", "Each parcel weighs at most 2500 g.", Disagree, "→ 2500 g"},
		{"millilitres as litres", "Batches are at most 500 ml.", "A batch is half a litre at most.", Agree, ""},
		{"a litre for half of one", "Batches are at most 500 ml.", "Batches are at most 1 L.", Disagree, "500 ml → 1 l"},
		{"a speed is no length", "Forklifts drive at most 6 km/h indoors.", "Indoors forklifts keep to 6 km/h at most.", Agree, ""},
		{"a length and a mass are not one changed", "Pallets are at most 1.8 m high; each weighs at most 400 kg.", "Each pallet weighs at most 400 kg and is at most 180 cm high.", Agree, ""},
		{"an hour and a half", "Results are published within 90 minutes.", "Results go out within an hour and a half.", Agree, ""},
		{"an hour and a half is not two", "Results are published within 90 minutes.", "Results go out within two hours.", Disagree, "90 minutes"},
		{"two lengths of one unit", "Reminders go out 30 days and 7 days before expiry.", "We remind people 30 days before expiry and again a week before.", Agree, ""},
		// A configuration value whose unit its key carries.
		{"seconds in the key", "Idle players are kicked after 5 minutes.", "afk: {kick_after_s: 300}", Agree, ""},
		{"other seconds in the key", "Idle players are kicked after 5 minutes.", "afk: {kick_after_s: 600}", Disagree, "5 minutes"},
		{"centimetres in the key", "Divers need water at least 3.8 m deep.", "diving: {min_depth_cm: 380}", Agree, ""},
		{"days in the key", "Certificates are valid for 2 years.", "cert: {validity_days: 730}", Agree, ""},
		{"a minimum is no minute", "CI fails when coverage of changed files drops below 80%.", "coverage.changed_files.min = 80", Agree, ""},
		{"numbered days stay days", "Retry on days 1, 3 and 7 after the failure.", "Retries happen one, three and seven days after the failure.", Agree, ""},
		// A number that names something, and detail.
		{"a ticket id is no number", "The route planner caps each van route at 40 stops per shift.", "Per ticket ROUTE-77, a van may be given no more than forty stops in a single shift.", Agree, ""},
		{"a standard's number is a name", "Each sensor gets its own X.509 certificate.", "Every sensor is given an X.509 certificate of its own.", Agree, ""},
		{"a count the rule does not set", "Agents merge duplicate tickets only when both come from the same requester.", "You can merge two tickets only if the same person opened both.", Agree, ""},
		{"a measure beside a measure of the rule", "The on-call isolates a flagged laptop within 15 minutes.", "The on-call isolated the flagged laptop 11 minutes after the alert, inside the 15-minute limit.", Unsure, "11 minutes"},
		{"a measure the bound allows", "The wind must be below 15 km/h for spraying the vines.", "The vines were sprayed in a wind of 9 km/h.", Unsure, "9 km / h"},
		{"a measure a comparative allows", "Vehicles taller than 2.1 m go on the lower deck.", "The 2.9 m camper went on the lower deck.", Unsure, "2.9 m"},
		{"a measure a comparative does not allow", "Vehicles taller than 2.1 m go on the lower deck.", "Vehicles taller than 2.5 m go on the lower deck.", Disagree, "2.1 m → 2.5 m"},
		{"a number added in an edit", "Retry failed jobs.", "Retry failed jobs 3 times.", Unsure, "3"},
		// A condition said again by its numbers.
		{"a condition's two numbers said again", "A comment is hidden once 5 distinct users report it within 24 hours.", "A comment goes hidden when five separate people flag it inside 24 hours.", Agree, ""},
		{"a condition's number changed", "A comment is hidden once 5 distinct users report it within 24 hours.", "A comment goes hidden when five separate people flag it inside 48 hours.", Disagree, "24 hours → 48 hours"},
		// A removal or a switch the asker intends.
		{"a removal intended", "Sessions end after 30 minutes without events or at midnight, whichever comes first.", "I'm removing the midnight cut-off; sessions end after 30 minutes without events.", Disagree, "removed"},
		{"a removal instructed", "Honey is extracted only from frames below 18% moisture.", "Next step: drop the moisture check on the frames before honey is extracted.", Disagree, "removed"},
		{"a removal described", "Bids arriving later than 800 ms are discarded.", "Late bids (after 0.8 s) are dropped.", Agree, ""},
		{"a removal the rule makes", "Stale branches are deleted after 30 days.", "We delete stale branches after 30 days.", Agree, ""},
		{"drop off is no removal", "Shirts handed in before 9:00 are ready at 17:00.", "Drop your shirts off before 9 am and they are ready at 5 pm.", Agree, ""},
		{"a switch to another option", "Productions are exported with a Concordance DAT load file.", "Plan: switch the load file from Concordance DAT to a Relativity CSV.", Disagree, "Relativity"},
	} {
		got := ComparePositions(voicePosition(c.filed), voicePosition(c.position))
		if got.Agreement != c.want {
			t.Errorf("%s: %q vs %q: %s %v, want %s", c.why, c.filed, c.position, got.Agreement, got.Differences, c.want)
			continue
		}
		if c.want != Agree && !strings.Contains(strings.Join(got.Differences, "; "), c.diff) {
			t.Errorf("%s: differences %v lack %q", c.why, got.Differences, c.diff)
		}
	}
}

// TestChangeIntentsRead pins when compareRemoval and compareSwitch say
// nothing: a removal or a switch that describes the rule, or that the
// filed rule itself states, is no change.
func TestChangeIntentsRead(t *testing.T) {
	for _, c := range []struct{ filed, position string }{
		{"Release builds use -O2 with link-time optimisation.", "I'll switch the release builds to -O2 with link-time optimisation."},
		{"Stale branches are deleted after 30 days.", "We'll delete stale branches after 30 days."},
		{"Close idle connections at the load balancer after 60 seconds.", "The LB drops a connection after one minute without traffic."},
		{"Shirts handed in before 9:00 are ready at 17:00.", "Drop your shirts off before 9 am."},
		{"Vans move bikes when a station is below 20% full.", "When it drops below 20% full, a van moves bikes."},
	} {
		a := analyze(voicePosition(c.filed))
		p := voicePosition(c.position)
		if d := append(compareRemoval(a, p), compareSwitch(a, p)...); len(d) > 0 {
			t.Errorf("%q against %q: %v, want nothing", c.position, c.filed, d)
		}
	}
}

// TestNumbersThatName pins which numbers name a thing rather than count:
// glued to a name by a dash or a dot, or after a section sign; not a
// countdown's "T-30" nor a version.
func TestNumbersThatName(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int // quantities read
	}{
		{"Rope R-14 is retired.", 0},
		{"Per ROUTE-77 the cap holds.", 0},
		{"Use X.509 certificates.", 0},
		{"See §4.2 of the PRD.", 0},
		{"Cars are in the lane by T-30 min.", 1},
		{"Dependencies under Apache-2.0 are fine.", 1},
	} {
		if got := len(analyze(c.text).qty); got != c.n {
			t.Errorf("%q: %d numbers read (%+v), want %d", c.text, got, analyze(c.text).qty, c.n)
		}
	}
}
