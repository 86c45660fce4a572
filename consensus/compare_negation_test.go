package consensus

import (
	"strings"
	"testing"
)

// TestCompareNegationInWords pins the readings of compare_negation.go and
// their limits, in wording of its own: a barrier said before an action is
// "cannot", a "while" that sets a second rule beside the first is no
// condition, a carve-out set aside by a cue changes the rule, and a person
// the rule leaves untold who is then emailed is a change.
func TestCompareNegationInWords(t *testing.T) {
	cases := []struct {
		name, filed, position string
		want                  Agreement
	}{
		{"barred from, said with cannot", "Volunteers are barred from opening the cash box alone.", "A volunteer cannot open the cash box on their own.", Agree},
		{"prevented from, said with may not", "Interns are prevented from merging to main.", "Interns may not merge to main.", Agree},
		{"unable to in an edit", "Guests may not enter the pool after 22:00.", "Guests are unable to enter the pool after 22:00.", Agree},
		{"barrier turned into permission", "Volunteers are barred from opening the cash box alone.", "Volunteers can open the cash box alone.", Disagree},
		{"blocked from a time is no negation", "Ticket sales are blocked from 18:00 on the day of the show.", "Ticket sales are blocked from 20:00 on the day of the show.", Disagree},
		{"contrastive while restated", "Staff badges open every door; visitor badges open only the lobby.", "Staff badges open every door, while visitor badges open the lobby only.", Agree},
		{"temporal while dropped", "The fan runs at full speed while the oven door is open.", "The fan runs at full speed.", Disagree},
		{"once a decade", "The roof is surveyed every 10 years.", "We survey the roof once a decade.", Agree},
		{"every fortnight", "Bins are emptied every 2 weeks.", "Bins are emptied fortnightly.", Agree},
		{"another period than a fortnight", "Bins are emptied every 3 weeks.", "Bins are emptied fortnightly.", Disagree},
		{"carve-out set aside", "Members get the newsletter by post; lapsed members are not sent it.", "Every member gets the newsletter by post, lapsed or not.", Disagree},
		{"whichever sets the exception aside", "Returns are accepted within 30 days only with a receipt; sale items are excluded.", "Returns are accepted within 30 days with a receipt, whichever item it is.", Disagree},
		{"whichever that picks stays a rewording", "Deliveries go to the depot that is nearest to the customer.", "Deliveries go to whichever depot is nearest to the customer.", Agree},
		{"all-negative rule with a cue", "Never open the hatch at sea; the log is signed every watch.", "The hatch is never opened at sea, whatever the weather; the log is signed every watch.", Agree},
		{"no exceptions against an exception", "Helmets are worn on the climbing wall, except on the bouldering mats.", "Helmets are worn on the whole climbing wall, no exceptions.", Disagree},
		{"per booking → per day", "Parking at the venue costs 12 euros per booking.", "Parking at the venue costs 12 euros per day.", Disagree},
		{"both bases named", "Each household may take at most 3 bags per visit.", "At most 3 bags per visit for each household.", Agree},
		{"basis left unsaid", "Parking at the venue costs 12 euros per booking.", "Parking at the venue is 12 euros.", Agree},
		{"condition said by pointing back", "The plumber arrives within 4 hours; if he is late, the call-out charge is waived.", "The plumber has 4 hours to get there, and if he does not, we waive the call-out charge.", Agree},
		{"condition dropped, nothing points back", "The plumber arrives within 4 hours; if he is late, the call-out charge is waived.", "The plumber arrives within 4 hours and the call-out charge is waived.", Disagree},
		{"condition added beside the filed one said plainly", "Allotment plots are let free of charge if the tenant has lived in the parish for 2 years and is on the waiting list for 6 months.", "Plots stay free for tenants with 2 years in the parish and 6 months on the waiting list, provided that they also join the allotment society.", Disagree},
		{"a permission said as a condition", "Members may use the pottery wheel at any time; the kiln is fired only by the technician.", "Members use the pottery wheel whenever they like, and only the technician fires the kiln.", Agree},
		{"narrowed in a checklist", "Any member of staff can book the minibus through the office.", "- [ ] restrict minibus bookings to drivers with a D1 licence - [ ] keep booking through the office", Disagree},
		{"removed in a checklist", "Late library returns are fined 20 cents a day, capped at 5 euros per item.", "- [x] remove the 5 euro cap per item - [ ] keep 20 cents a day", Disagree},
		{"keeps on where the rule stops", "The kiosk plays the safety video every 10 minutes and stops playing it at night.", "The kiosk plays the safety video every 10 minutes, and at night it keeps playing it for the cleaners.", Disagree},
		{"keeps on said again", "The pump keeps running while the tank is below 80%.", "While the tank is under 80%, the pump keeps running.", Agree},
		{"untold person emailed", "Refunds under 5 euros are issued automatically and the buyer is not notified.", "Refunds under 5 euros go out automatically and we email the buyer a receipt.", Disagree},
		{"untold person, no email sent", "Refunds under 5 euros are issued automatically and the buyer is not notified.", "Refunds under 5 euros go out automatically; we don't send the buyer any email about it.", Agree},
	}
	// "No exceptions" beside a rule that makes none sets nothing aside
	// (the rest of the comparison may still find an edit in it).
	for _, p := range [][2]string{
		{"Helmets are worn on the climbing wall; climbers without one are sent down.", "Nobody climbs without a helmet, no exceptions."},
		{"Dogs are admitted only with a vaccination certificate; dogs without one are turned away.", "No dog comes in without a vaccination certificate, no exceptions."},
	} {
		for _, d := range ComparePositions(p[0], p[1]).Differences {
			if strings.HasPrefix(d, "condition set aside") {
				t.Errorf("%q against %q: %q", p[1], p[0], d)
			}
		}
	}
	for _, c := range cases {
		got := ComparePositions(c.filed, c.position)
		if got.Agreement != c.want {
			t.Errorf("%s: got %v %.2f %q, want %v\n  filed:    %s\n  position: %s", c.name, got.Agreement, got.Score, got.Differences, c.want, c.filed, c.position)
		}
	}
}

// TestMissingIsWithout reads "missing" and "lacking" before what is
// missed as "without" it, and not a thing said to be missing.
func TestMissingIsWithout(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Claims missing a receipt are sent back to the employee.", "Claims without a receipt are sent back to the employee.", Agree},
		{"Forms lacking a signature are rejected at intake.", "Forms without a signature are rejected at intake.", Agree},
		{"Claims missing a receipt are sent back to the employee.", "Claims with a receipt are sent back to the employee.", Disagree},
		{"Forms lacking a signature are rejected at intake.", "Forms with a signature are rejected at intake.", Disagree},
	})
	for text, negated := range map[string]bool{
		"Requests missing X-rays wait.":   true,
		"The file is missing.":            true,
		"Tenants missing 2 payments pay.": false,
	} {
		a := analyze(text)
		if got := a.negs > 0; got != negated {
			t.Errorf("%q: negated %v, want %v", text, got, negated)
		}
	}
}
