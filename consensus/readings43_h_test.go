package consensus

import "testing"

// TestSlotWordOfTheTopic reads a near copy of the filed rule that puts
// another word in a slot the topic names ("see their GP" → "see their
// community pharmacist" on a topic of GP referrals) as another option in
// that slot, not the record's object named in other words: that is left
// to a word that opens its clause ("Every accident repair" → "Every crash
// repair") and to rewordings, which stay consistent.
func TestSlotWordOfTheTopic(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"dentist for pharmacist", "Referral to a dentist after a school screening",
			"When the screening finds decay in two or more teeth, the school nurse sends a letter telling the parents to book their dentist within 4 weeks.",
			"When the screening finds decay in two or more teeth, the school nurse sends a letter telling the parents to book their pharmacist within 4 weeks.",
			Disagree, "dentist → pharmacist"},
		{"caretaker for headteacher", "Handing keys to the caretaker at the end of term",
			"At the end of term every teacher leaves the classroom keys with the caretaker before 4 pm on the last day.",
			"At the end of term every teacher leaves the classroom keys with the headteacher before 4 pm on the last day.",
			Disagree, "caretaker → headteacher"},
		{"GP for community pharmacist", "Blood pressure readings that trigger GP referral",
			"If the average of two readings is 150/95 or higher, the pharmacy advises the customer to see their GP within a week; at 180/110 or higher it advises going to A&E.",
			"If the average of two readings is 150/95 or higher, the pharmacy advises the customer to see their practice nurse within a week; at 180/110 or higher it advises going to A&E.",
			Disagree, "GP"},
		{"dentist reworded", "Referral to a dentist after a school screening",
			"When the screening finds decay in two or more teeth, the school nurse sends a letter telling the parents to book their dentist within 4 weeks.",
			"Decay in 2+ teeth at screening -> nurse writes to the parents: see your dentist within 4 weeks.",
			Agree, ""},
		{"caretaker reworded", "Returning keys to the caretaker",
			"At the end of term every teacher hands the classroom keys to the caretaker before 4 pm on the last day.",
			"End of term: classroom keys go back to the caretaker by 4 pm on the final day, thanks all.",
			Agree, ""},
		{"subject renamed", "Written estimates for accident repairs",
			"Every accident repair needs a written estimate approved by the customer or their insurer before work starts on the car.",
			"Every crash repair needs a written estimate approved by the customer or their insurer before work starts on the car.",
			Agree, ""},
		{"subject renamed, short", "Avatar upload size limit",
			"Reject avatar uploads larger than 2 MB with an error message shown in the profile editor.",
			"Reject profile pictures larger than 2 MB with an error message shown in the profile editor.",
			Agree, ""},
		{"subject renamed, permits", "Car park permits for contractors",
			"Contractor car park permits are issued by the security office for one week at a time.",
			"Vendor car park permits are issued by the security office for one week at a time.",
			Agree, ""},
	})
}

// TestContentWordForLightPhrase reads a word of the filed rule put out of
// an edit for words that only rewording swaps freely ("come", "serve")
// and said nowhere in the position as another option: "released by
// ballot" → "released first come, first served". Light words standing
// for a word said again, and a light verb for a verb, stay a rewording.
func TestContentWordForLightPhrase(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"ballot for first come", "Allocation of allotment plots",
			"Vacant allotment plots are offered by ballot each spring to people on the waiting list.",
			"Vacant allotment plots are offered first come, first served each spring to people on the waiting list.",
			Disagree, "ballot"},
		{"tickets by ballot", "Extra graduation tickets",
			"Extra guest tickets are released by ballot 3 weeks before the ceremony, 2 per graduand.",
			"Extra guest tickets are released first come, first served 3 weeks before the ceremony, 2 per graduand.",
			Disagree, "ballot"},
		{"ballot kept", "Allocation of allotment plots",
			"Vacant allotment plots are offered by ballot each spring to people on the waiting list.",
			"Each spring the free allotment plots go to people on the waiting list by ballot.",
			Agree, ""},
		{"get to for arrive", "Driver arrival at the depot",
			"Drivers must arrive at the depot 15 minutes before the first collection of the day.",
			"Drivers must get to the depot 15 minutes before the first collection of the day.",
			Agree, ""},
		{"set off and come back", "Ferry timetable",
			"The ferry departs from pier 3 at 07:30 and returns from the island at 17:00.",
			"The ferry sets off from pier 3 at 07:30 and comes back from the island at 17:00.",
			Agree, ""},
		{"light words for as many", "Refund processing",
			"Refund requests received before noon are processed on the next business day.",
			"Refund requests received before noon are processed on the following working day.",
			Agree, ""},
		{"give back for return", "Dining hall trays",
			"Students return their trays to the rack after eating in the dining hall.",
			"Students give their trays back to the rack after eating in the dining hall.",
			Agree, ""},
	})
}
