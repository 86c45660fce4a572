package consensus

import "testing"

// TestComparePositionsReachNarrowed reads a position that bounds the reach
// of the filed rule with "only" said by the verb that says the rule holds
// ("applies only to", "kicks in only for", "should only apply to"), to a
// case in words of its own: a condition added. An "only" that names the
// filed rule's own case, or restates its limit, stays consistent.
func TestComparePositionsReachNarrowed(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"applies only to, a case of its own", "Refund window",
			"Customers can return items within 30 days for a full refund.",
			"The 30-day full refund applies only to members of the loyalty club.", Disagree, "condition added: only to members"},
		{"should only apply to", "Data retention",
			"Access logs are kept for 90 days and then deleted.",
			"Per legal: the 90-day log retention should only apply to EU tenants; US tenants keep logs forever.", Disagree, "condition added: only apply to EU tenants"},
		{"only applies to, in a note", "Overtime approval",
			"Overtime must be approved by the line manager in advance.",
			"pre-approval of overtime by line manager only applies to part-time warehouse workers", Disagree, "condition added: only applies to part-time"},
		{"kicks in only for", "Late fees",
			"A late fee of 5 EUR is charged on every book returned after its due date.",
			"fyi the late fee kicks in only for reference books borrowed from the reserve shelf", Disagree, "only for reference books"},
		{"applies only to, a part of every building", "Fire drills",
			"A fire drill is held every term in each school building.",
			"Fire drills: the termly drill applies only to the science block and gym.", Disagree, "condition added: only to the science block"},
		{"applies only to, the filed rule's own case", "Refund window",
			"Members of the loyalty club can return items within 30 days for a full refund.",
			"The 30-day full refund applies only to members of the loyalty club.", Agree, ""},
		{"applies only to, the filed rule's own dorms", "Noise",
			"No loud music after 23:00 in first-year dorms.",
			"Quiet after 23:00 applies only to first-year dorms.", Agree, ""},
		{"applies to all, no only", "Parking permits",
			"Staff may park in the north car park with a permit.",
			"Staff with a permit can park in the north car park; the rule applies to all staff.", Agree, ""},
		{"only in a case of its own, after the verb's object", "Phone use",
			"Drivers must not use a handheld phone while driving.",
			"drivers cant use handheld phone while driving only in school zones, elsewhere ok", Disagree, "condition added: only in school zones"},
		{"only for a kind of its own", "Bag searches",
			"Bags are searched at the stadium entrance.",
			"bags searched at entrance only for away fans in the north stand", Disagree, "only for away fans"},
		{"only for, the filed rule's own limit reworded", "Stacking pallets",
			"Double-stacking is allowed only for pallets under 400 kg.",
			"Double-stacking only for pallets lighter than 400 kg, nothing heavier.", Agree, ""},
		{"only for, the filed rule's own kind", "Priority boarding",
			"Priority boarding is offered to families with children under 5.",
			"priority boarding only for families with kids under 5", Agree, ""},
		{"only restating a limit", "Guest limit",
			"Each resident may bring at most 2 guests.",
			"residents can bring only 2 guests max", Agree, ""},
	})
}
