package consensus

import "testing"

// TestConfigValueWords: a configuration value that names a case or an
// action in camelCase, of three words or more, reads as its words, a day
// or a month with its capital; a name of one or two humps stays as it is
// written. A key a number ends ("freeBagsLevel2: 2") is a key, not a
// time; a time and a ratio stay what they are.
func TestConfigValueWords(t *testing.T) {
	checkVoiced(t, []voicedCase{
		{"deposit_refund: full; refund_waived_if: GuestDamagedRoom", "deposit refund full; refund waived if guest damaged room"},
		{"luxCheck = { instrument = CalibratedLightMeter, schedule = EveryMondayBeforeOpening }", "lux check { instrument calibrated light meter, schedule every Monday before opening }"},
		{"start = AprilFirstEachYear", "start April first each year"},
		{"approver: LineManagerOnly", "approver: line manager only"},
		{"approver: LineManagerOnly }", "approver: line manager only }"},
		{"nit: MaxPlotsPerHousehold should be 4", "nit: MaxPlotsPerHousehold should be 4"},
		{"onTimeout: EscalateToTeamLead", "on timeout escalate to team lead"},
		{"billing.db_engine: PostgreSQL", "billing db engine PostgreSQL"},
		{"repo_host: GitHub", "repo host GitHub"},
		{"freeBagsLevel2: 2", "free bags level2 2"},
		{"forklift_max_kmh_zone3: 10", "forklift max kmh zone3 10"},
		{"pool.weekday_open: 06:30", "pool weekday open 06:30"},
		{"body_text_min_contrast: 4.5:1", "body text min contrast 4.5:1"},
		{`intake: {closesAt: "02:00"}`, "intake: {closes at 02:00}"},
	})
}

// TestConfigValueWordsCompared: the case a camelCase value names agrees
// with the rule that says it in words, and a number a key ending in a
// number sets is read against the rule's; another case, another number,
// another product stays a conflict.
func TestConfigValueWordsCompared(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"the exception a camelCase value names", "Deposit refunds", "The deposit is refunded in full unless the guest damaged the room.",
			voicePosition("deposit_refund: full; refund_waived_if: GuestDamagedRoom"), Agree, ""},
		{"the condition a camelCase value names", "Sharing progress reports", "Progress reports are shared with parents only if the student has consented.",
			voicePosition("shareWithParents: OnlyIfStudentConsented"), Agree, ""},
		{"the case and the action in camelCase", "Missed deliveries", "Parcels are left with a neighbour when nobody is home.",
			voicePosition("whenNobodyHome = LeaveWithNeighbour"), Agree, ""},
		{"a weekday inside a camelCase value", "Lux checks", "Light levels are measured with the calibrated light meter every Monday before opening.",
			voicePosition("luxCheck = { instrument = CalibratedLightMeter, schedule = EveryMondayBeforeOpening }"), Agree, ""},
		{"another weekday inside a camelCase value", "Lux checks", "Light levels are measured with the calibrated light meter every Monday before opening.",
			voicePosition("luxCheck = { instrument = CalibratedLightMeter, schedule = EveryFridayBeforeOpening }"), Disagree, "Monday → Friday"},
		{"the penalty and its waiver in PowerShell", "Embargo breaches", "A journalist who breaks an embargo is removed from the advance list for 6 months, unless the breach was caused by a publishing system fault.",
			voicePosition("$Embargo = @{ BreachPenalty = 'RemoveFromAdvanceList'; PenaltyMonths = 6; PenaltyWaivedIf = 'PublishingSystemFault' }"), Agree, ""},
		{"another length beside the waiver", "Embargo breaches", "A journalist who breaks an embargo is removed from the advance list for 6 months, unless the breach was caused by a publishing system fault.",
			voicePosition("$Embargo = @{ BreachPenalty = 'RemoveFromAdvanceList'; PenaltyMonths = 12; PenaltyWaivedIf = 'PublishingSystemFault' }"), Disagree, "6 months → 12"},
		{"a product's name as written", "Billing database", "The billing service stores its data in PostgreSQL.",
			voicePosition("billing.db_engine: PostgreSQL"), Agree, ""},
		{"another product", "Billing database", "The billing service stores its data in PostgreSQL.",
			voicePosition("billing.db_engine: MySQL"), Disagree, "PostgreSQL → MySQL"},
		{"a key a number ends", "Bag allowance", "Level 2 members may check 2 bags for free.",
			voicePosition("freeBagsLevel2: 2"), Agree, ""},
		{"another count under a key a number ends", "Bag allowance", "Level 2 members may check 2 bags for free.",
			voicePosition("freeBagsLevel2: 1"), Disagree, "2 → 1"},
	})
}

// TestPairBetween: "between two duty periods" names the two things a
// gap lies between, not a count the rule sets: a position that leaves it
// unsaid agrees. A choice between so many counts the options, and
// another number of them stays a conflict.
func TestPairBetween(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"rest between two duty periods", "Crew rest", "Cabin crew get at least 12 hours of rest between two duty periods.",
			voicePosition("min_rest_between_duty_periods_h: 12"), Agree, ""},
		{"less rest between two duty periods", "Crew rest", "Cabin crew get at least 12 hours of rest between two duty periods.",
			voicePosition("min_rest_between_duty_periods_h: 10"), Disagree, "12 hours → 10"},
		{"a gap between two appointments", "Appointment gap", "The booking system keeps at least 10 minutes free between two consecutive appointments.",
			voicePosition("min_gap_between_appointments: 10m"), Agree, ""},
		{"a shorter gap between two appointments", "Appointment gap", "The booking system keeps at least 10 minutes free between two consecutive appointments.",
			voicePosition("min_gap_between_appointments: 5m"), Disagree, "10 minutes → 5"},
		{"the two in prose", "Driver rest", "Drivers get at least 11 hours of rest between two shifts, or 9 hours when they sleep at a depot hotel.",
			"Eleven hours off at least; nine hours is fine if they sleep at the depot hotel.", Agree, ""},
		{"less rest in prose", "Driver rest", "Drivers get at least 11 hours of rest between two shifts, or 9 hours when they sleep at a depot hotel.",
			"Eight hours off at least; nine hours if they sleep at the depot hotel.", Disagree, "11 hours → eight hours"},
		{"a choice between so many", "Plans", "Customers choose between two plans.",
			"Customers choose between three plans.", Disagree, "two → three"},
	})
}
