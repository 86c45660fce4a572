package consensus

import "testing"

// TestProvidedOpensACondition: "provided" with no "that" opens a
// condition when a subject follows it, or a thing after a comma ("…,
// provided the library has signed off their induction"): a condition
// added to the rule, and one said again with "if" or "required" as
// before. The verb and its participle open none ("provided by
// facilities", "provided free of charge").
func TestProvidedOpensACondition(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"provided, a condition added", "Loan of library laptops", "Students may borrow a laptop for 7 days.",
			"Students may borrow a laptop for 7 days, provided the library has signed off their induction.", Disagree, "condition added: if"},
		{"provided, a card said as required", "Loan of library laptops", "Students may borrow a laptop for 7 days provided they show a valid student card.",
			"laptops: 7-day loan, valid student card required.", Agree, ""},
		{"provided, said with if", "Parking at the depot", "Contractors may park in bay C provided they display a visitor permit.",
			"Contractors can use bay C if they have a visitor permit on the dashboard.", Agree, ""},
		{"provided, the manager ok with it", "Working from home", "Staff may work from home two days a week, provided their manager agrees.",
			"WFH: up to 2 days/week if the manager is ok with it.", Agree, ""},
		{"provided by, a participle", "Use of the meeting room projector", "The projector is provided by facilities and must be returned by 5 pm.",
			"Facilities provides the projector; it must be back by 17:00.", Agree, ""},
		{"provided free, a participle", "Tea in the office", "Tea and coffee are provided free of charge to all staff.",
			"All staff get free tea and coffee.", Agree, ""},
		{"provided, the same guest rule", "Guests at the club", "Members may bring one guest if they sign them in at the desk.",
			"A member can bring 1 guest provided they sign the guest in at the desk.", Agree, ""},
	})
}

// TestTimeOfAConditionSaidAgain: a length of time of a condition said
// again by the other side in the same role ("if it is brought back
// within 7 days" and "bring the bike back inside 7 days") is a word of
// the condition said; not a period ("every 7 days").
func TestTimeOfAConditionSaidAgain(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"within 7 days, inside 7 days", "Free retests", "A bike that fails inspection gets a free retest if it is brought back within 7 days.",
			"Bring the bike back inside 7 days and the retest costs nothing.", Agree, ""},
		{"within 10 days of the results", "Exam resits", "A student who fails may resit once if they apply within 10 days of the results.",
			"Resit allowed once, apply within ten days of results.", Agree, ""},
		{"within 12 months of purchase", "Warranty repairs", "A laptop is repaired for free if the fault is reported within 12 months of purchase.",
			"Free repair for laptop faults reported within 12 months from the purchase date.", Agree, ""},
		{"within 48 hours of the deadline", "Late assignments", "An essay handed in late is marked without penalty if it arrives within 48 hours of the deadline.",
			"essays that come in no more than 48 hours after the deadline get no late penalty", Agree, ""},
	})
}

// TestWhicheverSetOff: "whichever", "whatever" or "wherever" right after
// a comma sets aside what the filed rule narrows by ("visitors entering
// the scaffold zone" against "all visitors, whichever zone they enter");
// not where it names a thing ("whichever desk is free", "whatever coffee
// is left").
func TestWhicheverSetOff(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"whichever zone, set off", "Helmets on the site", "Visitors entering the scaffold zone must wear a helmet.",
			"All visitors, whichever zone they enter, must wear a helmet.", Disagree, "condition set aside"},
		{"whatever room, set off", "Visitor lanyards", "Contractors working in the server room must wear a red lanyard.",
			"All contractors, whatever room they work in, must wear a red lanyard.", Disagree, "condition set aside"},
		{"whatever company, nothing narrowed", "Visitor lanyards", "Every contractor must wear a red lanyard.",
			"All contractors, whatever their company, wear a red lanyard.", Agree, ""},
		{"whichever helmet is free", "Helmets on the site", "Everyone on site must wear a helmet.",
			"Staff can use whichever helmet is free from the rack; everyone on site wears one.", Agree, ""},
		{"whichever desk is free", "Desk booking", "Staff may book any free desk on the 3rd floor.",
			"staff can book whichever desk is free on floor 3", Agree, ""},
		{"whatever coffee is left", "Coffee", "Staff may take coffee from the kitchen.",
			"staff can take whatever coffee is left in the kitchen", Agree, ""},
	})
}

// TestButOnlyNarrows: "but only on", "in", "for" or "during" and a phrase
// of words the other side mostly never says narrows the rule to a case
// ("…, but only on sunrise flights", "…, only for residents of the top
// two floors"); the same case said on both sides is no change.
func TestButOnlyNarrows(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"only for residents of the top floors", "Roof terrace", "Tenants may use the roof terrace until 10 pm.",
			"roof terrace open to tenants till 22:00, only for residents of the top two floors", Disagree, "only for residents"},
		{"but only on sunrise flights", "Balloon passengers", "Each passenger is weighed at check-in; anyone over 120 kg pays a 50 EUR supplement.",
			"Passengers over 120 kg pay a 50 EUR supplement, but only on sunrise flights; everyone is weighed at check-in.", Disagree, "only on sunrise flights"},
		{"but only on the first run", "Foreshots", "The first 250 ml of every spirit run on the still is discarded.",
			"we discard the first 250 ml of spirit runs on the still, but only on the first run after a clean-down", Disagree, "only on the first run"},
		{"but only for the same tenants", "Roof terrace", "Tenants on the top two floors may use the roof terrace until 10 pm.",
			"roof terrace till 22:00, but only for tenants on the top two floors", Agree, ""},
		{"but only in the basement, said", "Bike storage", "Residents may store bikes in the basement.",
			"Bikes can be kept by residents, but only in the basement.", Agree, ""},
		{"but only on the lower deck, said", "Dogs on the ferry", "Dogs are allowed on the lower deck of the ferry.",
			"dogs ok on the ferry but only on the lower deck", Agree, ""},
		{"and only with the fob, said", "Gym access", "Members can use the gym from 6 am to 10 pm with a valid key fob.",
			"gym 06:00-22:00 for members, and only with a valid key fob", Agree, ""},
	})
}
