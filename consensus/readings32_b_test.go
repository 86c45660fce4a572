package consensus

import "testing"

// TestConditionSaidAnotherWay: a condition or exception one side states
// in words the other side's reading counts as no condition at all: the
// rule's "otherwise" said as a case of its own ("if it falls short, …"),
// an exception put under an "exempt" label, a "no X of any kind" said
// "no X, whatever the type", an "only when" said "no … unless", a "when
// this is over" that only says what was said holds. Each
// beside the change it must still catch: a condition added beside the
// "otherwise", an exemption denied, a limit set aside, an "unless" said
// of another rule.
func TestConditionSaidAnotherWay(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		// The rule's other side, said as a case.
		{"otherwise as an if", "", "The booking deposit is refunded in full if the guest cancels at least 14 days before arrival; otherwise the deposit is kept by the hotel.",
			"Deposit policy: guest cancels 14+ days before arrival -> full deposit refund. If they cancel later than that, the hotel keeps the deposit.", Agree, ""},
		{"otherwise as an if, renewals", "", "A library book is renewed automatically only if no other member has reserved it; otherwise it must be returned by the due date.",
			"The book renews by itself only when nobody else has reserved it. If someone has, you must return it by the due date.", Agree, ""},
		{"otherwise kept, a condition added", "", "The booking deposit is refunded in full if the guest cancels at least 14 days before arrival; otherwise the deposit is kept by the hotel.",
			"The booking deposit is refunded in full if the guest cancels at least 14 days before arrival and if the guest is a loyalty member; otherwise the deposit is kept by the hotel.", Disagree, "condition added"},
		{"otherwise replaced by another case", "", "A student may resit the exam once only if the first attempt was below 40 percent; otherwise the mark stands as final.",
			"A student may resit the exam once if the first attempt was below 40 percent and if they attended every lecture; otherwise the mark stands as final.", Disagree, "condition added"},

		// An exception under an "exempt" label.
		{"exempt as a label", "", "Every new member must complete a gym induction before using the weights room; members transferring from a partner club are exempt.",
			"onboarding checklist - gym induction before the weights room: required for all new members - members transferring from a partner club: exempt", Agree, ""},
		{"exemption denied", "", "Residents need a permit to park on Elm Street after 6 pm; blue badge holders are exempt.",
			"Elm St after 18:00 = residents with permit only. Blue badge holders: not exempt.", Disagree, ""},
		{"exception made part of the rule", "", "Every new member must complete a gym induction before using the weights room; members transferring from a partner club are exempt.",
			"Every new member must complete a gym induction before using the weights room, members transferring from a partner club included.", Disagree, ""},

		// "Any" said again with "whatever".
		{"any customer data, of whatever size", "", "Declare a major incident when any customer data is exposed; a commander is named within 15 minutes.",
			"Any exposure of customer data, of whatever size, is a major incident, and a commander is named no later than 15 minutes in.", Agree, ""},
		{"a limit set aside", "", "No drone heavier than 250 g may be flown over the festival site.",
			"Pls remember: no drones over the festival site, whatever the weight.", Disagree, ""},
		{"a narrowed any set aside", "", "Before working on any circuit above 50 volts, lock off the isolator.",
			"Before working on any circuit, whatever its voltage, lock off the isolator.", Disagree, ""},
		{"a value set aside", "", "A courier travels with every loan valued over 1 million euros.",
			"A courier travels with every loan, whatever its value.", Disagree, ""},

		// "Only when" said "no … unless".
		{"only when as not unless", "", "Children enter the fire circle only when the leader invites them in person; the fire is lit only when the wind is below 20 mph.",
			"Kids may not step into the fire circle unless the leader invites them in. We only light it if the wind's under twenty miles an hour.", Agree, ""},
		{"not unless with a part dropped", "", "Kayaks go out only when the wind is below 15 knots and an instructor has checked the forecast.",
			"Kayaks don't go out unless the wind is below 15 knots.", Disagree, ""},
		{"an exemption after a negated rule is no condition", "", "During Friday prayers, 12:30 to 2:30 pm, worshippers must not use the mosque car park; blue badge holders are exempt.",
			"Worshippers must not use the mosque car park at any time; blue badge holders are exempt.", Disagree, ""},

		// A condition that says only that what was said holds.
		{"when this is over", "", "Unclaimed luggage is kept in the store for 90 days while the airline traces the owner; after that it is sold at auction within 30 days.",
			"Luggage nobody claims stays in our store 90 days while the airline looks for the owner. When this is over, it must go to auction within 30 days.", Agree, ""},
		{"only if all of this is met", "", "The audit passes if every fire door is closed and every extinguisher is tagged.",
			"Checklist: all fire doors shut, all extinguishers tagged. Only a pass if all of that is met.", Agree, ""},
		{"a case of its own beside the holding", "", "The audit passes if every fire door is closed and every extinguisher is tagged.",
			"The audit passes if every fire door is closed and every extinguisher is tagged, when the sprinklers are over ten years old.", Disagree, ""},

		// A case the record's topic states.
		{"the case the topic states", "Locking a stolen company phone", "When a company phone is reported stolen, IT locks it remotely within 1 hour and wipes it after 24 hours.",
			"IT locks it remotely within 1 hour; after 24 hours it gets wiped.", Agree, ""},
		{"the case the topic does not state", "Company phone security", "When a company phone is reported stolen, IT locks it remotely within 1 hour and wipes it after 24 hours.",
			"IT locks it remotely within 1 hour and wipes it after 24 hours.", Disagree, ""},
		{"a case with a number of its own", "Temperature alarm on vending machines", "If a vending machine stays above 8 °C for more than 30 minutes, it blocks sales and alerts the driver.",
			"The machine blocks sales and alerts the driver.", Disagree, "condition dropped"},
	})
}
