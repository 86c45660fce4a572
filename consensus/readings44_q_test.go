package consensus

import "testing"

// TestTimesSignInCode reads a code's "*" between an amount and a number as
// the times sign it is ("base_rate * 1.5" is the rate plus 50%, "0.7 * rps"
// 30% below it), and "40% below" or "20% above" an amount as its share
// less or more; another multiple stays a change, and a product of two
// numbers or a word marked in stars is no such sign.
func TestTimesSignInCode(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"plus 5% as times 1.05", "Late payment surcharge",
			"Invoices paid after the due date are charged the invoice total plus 5%.",
			"late_total = invoice_total * 1.05", Agree, ""},
		{"plus 5% against times 1.5", "Late payment surcharge",
			"Invoices paid after the due date are charged the invoice total plus 5%.",
			"late_total = invoice_total * 1.5", Disagree, "1.5"},
		{"minus 15% as times 0.85", "Member discount",
			"Members pay the list price minus 15%.",
			"member_price = list_price * 0.85", Agree, ""},
		{"minus 15% against times 0.75", "Member discount",
			"Members pay the list price minus 15%.",
			"member_price = list_price * 0.75", Disagree, "0.75"},
		{"20% above as times 1.2, unspaced", "Surge pricing cap",
			"During peak hours the fare can go up to 20% above the standard fare, never more.",
			"peak_fare_max = standard_fare*1.2", Agree, ""},
		{"20% above against times 1.4", "Surge pricing cap",
			"During peak hours the fare can go up to 20% above the standard fare, never more.",
			"peak_fare_max = standard_fare*1.4", Disagree, "1.4"},
		{"10% above as a multiple said first", "Budget overrun approval",
			"Any project spending more than 10% above its approved budget needs sign-off from the finance director.",
			"if spend > 1.1 * approved_budget then require finance_director_signoff", Agree, ""},
		{"10% above against 1.25 times", "Budget overrun approval",
			"Any project spending more than 10% above its approved budget needs sign-off from the finance director.",
			"if spend > 1.25 * approved_budget then require finance_director_signoff", Disagree, "1.25"},
		{"25% below as 0.75 times", "Minimum stock reorder",
			"hi team, we reorder when stock goes 25% below the safety level, ok?",
			"reorder_when: stock < 0.75*safety_level", Agree, ""},
		{"25% below against 0.25 times", "Minimum stock reorder",
			"hi team, we reorder when stock goes 25% below the safety level, ok?",
			"reorder_when: stock < 0.25*safety_level", Disagree, "0.25"},
		{"the limit plus 10% plus 2 mph", "Speeding fine threshold",
			"A fine is issued when a car is recorded at the limit plus 10% plus 2 mph or faster.",
			"fine if speed >= limit * 1.1 + 2 mph", Agree, ""},
		{"the limit plus 10% against times 1.2", "Speeding fine threshold",
			"A fine is issued when a car is recorded at the limit plus 10% plus 2 mph or faster.",
			"fine if speed >= limit * 1.2 + 2 mph", Disagree, "1.2"},
		{"a share of as a multiple after a call", "Training payback",
			"Anyone leaving within a year of a company-paid course pays back 50% of what it cost.",
			"on leave within 12 months: repayment = course.cost() * 0.5", Agree, ""},
		{"a share of against another multiple", "Training payback",
			"Anyone leaving within a year of a company-paid course pays back 50% of what it cost.",
			"on leave within 12 months: repayment = course.cost() * 0.25", Disagree, "0.25"},
		{"a word in stars is no times sign", "Working days notice",
			"Leave must be requested 5 working days ahead.",
			"Leave has to be requested 3 *working* days in advance.", Disagree, "3 working days"},
	})
	checkRelations(t, []relationCase{
		{"the limit * 1.10", relTimes},
		{"0.6 * baseline", relTimes},
		{"30 * 60", 0},
		{"5 *working* days", 0},
		{"40% below the week before", relUnder},
		{"20% above the set point", relOver},
		{"at 40% or below", 0},
	})
}

// TestRateFractionUnitOnce reads a fraction in digits said as a rate on both
// sides, its unit said on one side only, as the same rate ("0.75% a month"
// and a "0.75" moved to a monthly rate); another fraction stays another.
func TestRateFractionUnitOnce(t *testing.T) {
	filed := analyze("Larger loans are charged 0.75% a month.").qty
	for _, tc := range []struct {
		position string
		same     bool
	}{
		{"ELSE MOVE 0.75 TO MONTHLY-RATE-PCT. *> monthly rate on the balance", true},
		{"ELSE MOVE 0.5 TO MONTHLY-RATE-PCT. *> monthly rate on the balance", false},
		{"ELSE MOVE 0.75 TO YEARLY-RATE-PCT. *> yearly rate on the balance", false},
	} {
		qs := analyze(tc.position).qty
		if len(filed) == 0 || len(qs) == 0 {
			t.Fatalf("%q: no quantity read", tc.position)
		}
		if got := sameQuantity(filed[0], qs[0]); got != tc.same {
			t.Errorf("%+v against %+v: same %v, want %v", filed[0], qs[0], got, tc.same)
		}
	}
}
