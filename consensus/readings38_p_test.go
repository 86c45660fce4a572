package consensus

import "testing"

// TestPermissionBoundByOnly reads a permission that "only" bounds as the
// rule it sets: "contractors may park only in the north lot" is
// "contractors park only in the north lot", and "must" or "shall park
// only there" says no more. Where "only" is gone, the place moved or the
// permission turned, the rule changed.
func TestPermissionBoundByOnly(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"may park only, terse note", "parking for contractors", "Contractors may park only in the north lot.",
			"contractors park only in north lot pls", Agree, ""},
		{"may park only, must park only", "parking for contractors", "Contractors may park only in the north lot.",
			"Contractors must park only in the north lot.", Agree, ""},
		{"may park only, shall park only", "parking for contractors", "Contractors may park only in the north lot.",
			"Contractors shall park only in the north lot.", Agree, ""},
		{"only before the permission", "who approves refunds", "Only the line manager may approve a refund.",
			"Only the line manager approves a refund.", Agree, ""},
		{"may go out only, chat", "deploy windows", "Releases may go out only on Tuesdays.",
			"releases go out only on tuesdays", Agree, ""},
		{"may use only when, with a condition", "lab access", "Students may use the lab only when a technician is present.",
			"Students use the lab only when technician is there.", Agree, ""},
		{"may change only via, config voice", "config", "Admins may change the retention setting only via the console.",
			"admins change retention setting only via console", Agree, ""},
		{"may keep only with consent, legal", "tenant pets", "The tenant may keep a cat only with the landlord's written consent.",
			"Tenant shall keep a cat only with written consent of the landlord.", Agree, ""},

		{"only dropped", "parking for contractors", "Contractors may park only in the north lot.",
			"Contractors may park in the north lot.", Disagree, "north"},
		{"another lot", "parking for contractors", "Contractors may park only in the north lot.",
			"Contractors may park only in the south lot.", Disagree, "south"},
		{"permission turned", "parking for contractors", "Contractors may park only in the north lot.",
			"Contractors may not park in the north lot.", Disagree, "not park"},
		{"card to cash", "payment at the kiosk", "Customers may pay only by card at the kiosk.",
			"Customers pay only by cash at the kiosk.", Disagree, "cash"},
		{"monthly to weekly", "reports frequency", "Team leads may send the report only monthly.",
			"Team leads send the report only weekly.", Disagree, "weekly"},
		{"a permission without only made a duty", "tenant pets", "The tenant may keep a cat.",
			"The tenant must keep a cat.", Disagree, "must keep"},
	})
}

// TestAdvisedThatNotice reads "are advised that" as a notice of the rule,
// not advice: "swimmers are advised that the pool closes at 21:00" states
// the closing time. "Are advised to" still only recommends, and a weak cue
// inside the notice still loosens the rule.
func TestAdvisedThatNotice(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"notice of a closing time", "pool hours", "The pool closes at 21:00 on weekdays.",
			"Swimmers are advised that the pool closes at 21:00 on weekdays.", Agree, ""},
		{"notice of a collection day", "bin collection", "Bins are collected every Tuesday morning.",
			"Residents are advised that bins are collected every Tuesday morning.", Agree, ""},
		{"notice of a duty", "hard hats", "Hard hats must be worn on the scaffold at all times.",
			"Contractors are advised that hard hats must be worn on the scaffold at all times.", Agree, ""},
		{"notice, terse", "visitor badges", "Visitors must wear a badge in the building.",
			"all visitors are advised that wearing a badge in the building is mandatory", Agree, ""},

		{"notice of another time", "pool hours", "The pool closes at 21:00 on weekdays.",
			"Please be advised that the pool closes at 22:00 on weekdays.", Disagree, "22:00"},
		{"notice of another day", "bin collection", "Bins are collected every Tuesday morning.",
			"Residents are advised that bins are collected every Friday morning.", Disagree, "Friday"},
		{"advised to: advice", "hard hats", "Hard hats must be worn on the scaffold at all times.",
			"Contractors are advised to wear hard hats on the scaffold.", Disagree, "advised"},
		{"a recommendation inside the notice", "hard hats", "Hard hats must be worn on the scaffold at all times.",
			"Staff are advised that hard hats are recommended on the scaffold.", Disagree, "recommended"},
	})
}
