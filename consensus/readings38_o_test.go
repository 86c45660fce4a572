package consensus

import "testing"

// TestReadingsOtherwiseForFiledCase pins a filed case said by the other
// side with "otherwise": "if they come in later, the hours are paid with
// the next payroll" for "…, otherwise the hours are paid with the next
// payroll". The "otherwise" stands for the case only when it says the
// case's outcome; an outcome of its own ("otherwise the table is kept",
// "otherwise the hours are not paid at all") is no restatement, and a
// changed number beside it is still a conflict.
func TestReadingsOtherwiseForFiledCase(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"otherwise, chat voice", "late timesheets",
			"Timesheets must be submitted by Friday noon; if they come in later, the hours are paid in the next month's payroll.",
			"pls get timesheets in by fri 12:00, otherwise hours get paid with next month's payroll",
			Agree, ""},
		{"otherwise, terse", "library fines",
			"Books must be returned within 21 days; if they are returned late, a fine of 20p a day is charged.",
			"Return books within 21 days, otherwise you are charged a fine of 20p per day.",
			Agree, ""},
		{"otherwise, plain", "parcel collection",
			"Parcels are held for 7 days at the depot; if they are not collected, they are returned to the sender.",
			"Parcels wait 7 days at the depot, otherwise they go back to the sender.",
			Agree, ""},
		{"otherwise with a changed rate", "invoice payment",
			"The invoice is payable within 30 days; if it is not paid by then, interest of 8% a year is added.",
			"Payment within 30 days of the invoice, otherwise 5% annual interest is added.",
			Disagree, "5 %"},
		{"otherwise with a changed hold", "parcel collection",
			"Parcels are held for 7 days at the depot; if they are not collected, they are returned to the sender.",
			"Parcels wait 14 days at the depot, otherwise they go back to the sender.",
			Disagree, "14 days"},
		// An "otherwise" with an outcome of its own does not say the
		// filed case: the case stays unsaid.
		{"otherwise, another outcome negated", "late timesheets",
			"Timesheets must be submitted by Friday noon; if they come in later, the hours are paid in the next month's payroll.",
			"Timesheets are due Friday noon, otherwise the hours are not paid at all.",
			Unsure, ""},
		{"otherwise, another outcome", "booking confirmation",
			"Bookings must be confirmed 48 hours ahead; if they are not confirmed, the table is released to the waiting list.",
			"Bookings must be confirmed 48 hours ahead, otherwise the table is kept and the deposit is charged.",
			Unsure, ""},
	})
}
