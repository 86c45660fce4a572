package consensus

import "testing"

// TestKindsTraded reads two kinds that traded places in an edit, each put
// where the other was beside a word of its own ("Every expense claim …,
// except mileage claims" → "Every mileage claim …, except travel expense
// claims"), and a doer replaced who is then named only as the one who
// pays ("the landlord must book … at their own expense" → "the tenant
// must book … at the landlord's expense"), as the rule said of other
// things, not as words only moved; the rule said again in other words,
// or with a word only moved, still agrees.
func TestKindsTraded(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"claims traded around the exception", "expense receipts",
			"Every expense claim needs a receipt, except mileage claims, which need a signed log sheet instead.",
			"Every mileage claim needs a receipt, except travel expense claims, which need a signed log sheet instead.", Disagree, "mileage"},
		{"changes traded around the exception", "review approvals",
			"Every code change needs two approvals, except docs changes, which need one approval from a maintainer.",
			"Every docs change needs two approvals, except risky code changes, which need one approval from a maintainer.", Disagree, "docs"},
		{"the exception said again", "expense receipts",
			"Every expense claim needs a receipt, except mileage claims, which need a signed log sheet instead.",
			"All expense claims need a receipt - mileage claims excepted, those need a signed log sheet.", Agree, ""},
		{"the exception in notes", "review approvals",
			"Every code change needs two approvals, except docs changes, which need one approval from a maintainer.",
			"Code changes: 2 approvals each. Docs-only changes: one maintainer approval is enough.", Agree, ""},
		{"a word only moved", "controlled drugs register",
			"Every dispensing of a controlled drug is entered in the register within 24 hours.",
			"Each time a controlled drug is dispensed it is entered in the register within 24 hours.", Agree, ""},
		{"a clause moved first", "key safe codes",
			"Codes are kept only in the rota app and changed within 48 hours of a carer leaving.",
			"When a carer leaves, codes are changed within 48 hours; codes are kept only in the rota app.", Agree, ""},
		{"parcels said in the passive", "parcel handling",
			"Scan each parcel into the tracker and hand damaged ones to the depot supervisor before 6 pm.",
			"Each parcel is scanned into the tracker; damaged parcels are handed to the depot supervisor before 6 pm.", Agree, ""},
		{"a duty handed to another, the first now paying", "boiler repairs",
			"If the boiler fails, the landlord must book an engineer within 24 hours at their own expense.",
			"If the boiler fails, the tenant must book an engineer within 24 hours at the landlord's expense.", Disagree, "landlord"},
		{"the one who pays named for the pronoun", "boiler repairs",
			"If the boiler fails, the landlord must book an engineer within 24 hours at their own expense.",
			"If the boiler fails, the landlord must book an engineer within 24 hours at the landlord's expense.", Agree, ""},
		{"the pronoun said as a chat", "boiler repairs",
			"If the boiler fails, the landlord must book an engineer within 24 hours at their own expense.",
			"Boiler broken? Landlord books an engineer within 24 hours and pays for it.", Agree, ""},
		{"the doer's team", "visitor badges",
			"The site manager issues visitor badges at reception.",
			"The site manager's team issues visitor badges at reception.", Agree, ""},
	})
}
