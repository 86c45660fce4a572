package consensus

import "testing"

// TestMessagesAroundTheRule: a rule sent as a message keeps its rule and
// loses what only carries it: the discourse particles of Philippine and
// Singapore English ("po", "lah", "lang" where they end a clause), an
// agent's reasoning trace before its input or its answer, a label before
// a colon. A time of day is no label, and the rule inside is compared as
// before. (Greetings and sign-offs are left to the comparison: dropped,
// they made more rewordings read as edits of the filed sentence, on the
// sets it was tried on.)
func TestMessagesAroundTheRule(t *testing.T) {
	t.Parallel()
	const filed = "Livery horses are reshod every 6 weeks by the yard's farrier."
	checkAgreements(t, []agreementCase{
		{filed, "Hi po, reminder lang: livery horses are reshod every 6 weeks by the yard's farrier po.", Agree},
		{filed, "Livery horses are reshod every 6 weeks by the yard's farrier lah.", Agree},
		{filed, "Livery horses are reshod every 8 weeks by the yard's farrier lah.", Disagree},
		{"Applicants bring their old passport and a printed photo form.",
			"Thought: the applicant is at the counter and I must list what to bring. Action: consensus_check Action Input: applicants bring the old passport and a printed photo form", Agree},
		{"Applicants bring their old passport and a printed photo form.",
			"Thought: the applicant is at the counter. Action: consensus_check Action Input: applicants bring a printed photo form only, no old passport", Disagree},
		{"Applicants bring their old passport and a printed photo form.", "Reasoning: the counter checks both.\nFinal Answer: applicants bring their old passport and a printed photo form", Agree},
		{"Sound at the facade must not exceed 65 dB from 23:00 to 07:00.", "Please note that from 23:00 to 07:00 the sound at the facade must not go above 65 dB.", Agree},
	})
}

// TestAmountsSaidAloud: "three quarters of an hour" is 45 minutes, an
// amount with a decimal comma before a currency is that amount ("2,10
// pounds"), and digits read out one by one are the number they spell
// ("one-five seconds", "two-zero percent"). TestNumbersNotMisread keeps
// the numbers that only look like them.
func TestAmountsSaidAloud(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Notice appointments last 45 minutes.", "Notice appointments last three quarters of an hour.", Agree},
		{"Notice appointments last 45 minutes.", "Notice appointments last three-quarters of an hour.", Agree},
		{"Notice appointments last 30 minutes.", "Notice appointments last three quarters of an hour.", Disagree},
		{"Shearers are paid £2.10 per ewe and £3.50 per ram.", "Shearers get 2,10 pounds per ewe and 3,50 pounds per ram.", Agree},
		{"Shearers are paid £2.10 per ewe and £3.50 per ram.", "Shearers get 2,50 pounds per ewe and 3,50 pounds per ram.", Disagree},
		{"Each person stands in the air shower for at least 15 seconds.", "Each person stands in the air shower, minimum one-five seconds.", Agree},
		{"Regrind may make up at most 20% of the feed.", "Regrind maximum two-zero percent of the feed.", Agree},
		{"Regrind may make up at most 20% of the feed.", "Regrind maximum one-zero percent of the feed.", Disagree},
	})
}

// TestExceptionSaidAsAnExemption: "A unless C" is "A; if C, no A": the
// condition's outcome negates a word of the rule or makes its payment
// free ("no charge", "no need to pay"). The same condition with the rule
// kept, or without an outcome, still turns the exception around.
func TestExceptionSaidAsAnExemption(t *testing.T) {
	t.Parallel()
	const band = "Junior members may borrow a band instrument free of charge for up to 12 months; after that a £5 monthly fee applies unless they play in the youth band."
	const tables = "Tables not cancelled at least 24 hours ahead are charged £25 per booked guest, except when the restaurant itself had to move or change the booking."
	checkAgreements(t, []agreementCase{
		{tables, "If a guest does not cancel at least 24 hours before, we charge £25 for each booked person. But if the restaurant itself moved or changed the booking, no charge.", Agree},
		{band, "Juniors can borrow a band instrument free for up to 12 months. After that it is £5 per month, but if they play in the youth band then no need to pay.", Agree},
		{band, "Juniors can borrow a band instrument free for up to 12 months. After that it is £5 per month, and if they play in the youth band they pay too.", Disagree},
		{band, "Juniors can borrow a band instrument free for up to 12 months. After that it is £5 per month if they play in the youth band.", Disagree},
	})
}

// TestExceptionAfterItsWords: "trade account holders excepted" at the
// end of a clause is an exception whose words come before its cue, as
// "trade account holders are exempt" is; said where the filed rule has
// none, it is an exception added.
func TestExceptionAfterItsWords(t *testing.T) {
	t.Parallel()
	const filed = "The duty supervisor flags any customer with more than 3 refunds in 90 days, except trade account holders."
	checkAgreements(t, []agreementCase{
		{filed, "Any customer with more than three refunds in ninety days to be flagged by the duty supervisor, trade account holders excepted.", Agree},
		{filed, "Any customer with more than three refunds in ninety days to be flagged by the duty supervisor, trade accounts excluded.", Agree},
		{"The duty supervisor flags any customer with more than 3 refunds in 90 days.", "Any customer with more than three refunds in ninety days to be flagged by the duty supervisor, trade account holders excepted.", Disagree},
	})
}

// TestDaysAbbreviated: "Mon", "Thu" and "Fri" are the days they shorten;
// another day is another rule.
func TestDaysAbbreviated(t *testing.T) {
	t.Parallel()
	const filed = "Parcels are collected on Mondays and Thursdays from 10:00 to 13:00."
	checkAgreements(t, []agreementCase{
		{filed, "Parcels are collected Mon and Thu, 10:00 to 13:00.", Agree},
		{filed, "Parcels are collected Mon and Fri, 10:00 to 13:00.", Disagree},
	})
}

// TestLaterOnesNoBound: "and later ones at 100%" speaks of the later
// ones; read as "and later" (at least), it hid the two rates that traded
// places.
func TestLaterOnesNoBound(t *testing.T) {
	t.Parallel()
	const filed = "Cancellations between 24 and 48 hours before are charged at 50% of the booked time and later ones at 100%."
	checkAgreements(t, []agreementCase{
		{filed, "Between 24 and 48 hours before we charge 100% of the booked time, and anything later is 50%.", Disagree},
		{filed, "Cancellations between 24 and 48 hours before are charged at 50% of the booked time, and later ones at 100% of it.", Agree},
	})
}

// TestGreetingsAroundTheRule: a message's greeting, the thanks after it
// and its sign-off with the sender's name are no clause added to the
// rule; a clause of the rule added after the greeting or before the
// sign-off still is.
func TestGreetingsAroundTheRule(t *testing.T) {
	t.Parallel()
	const filed = "Every bus returning to the depot after 8 pm must be fuelled to at least 90% before it is parked for the night, and the night shunter must record each fill."
	checkAgreements(t, []agreementCase{
		{filed, "Hi Sam, thanks for raising this. Any bus that comes back to the depot after 8 pm is fuelled to at least 90% before it's parked for the night, and the night shunter records every fill. Cheers, Depot Operations", Agree},
		{filed, "Dear colleagues, every bus returning to the depot after 8 pm must be fuelled to at least 90% before it is parked for the night, and the night shunter must record each fill. Kind regards, Fleet Office", Agree},
		{filed, "Hi Sam, thanks for raising this. Every bus returning to the depot after 8 pm must be fuelled to at least 90% before it is parked for the night, and the night shunter must record each fill. Drivers must also report any oil leak to the controller. Cheers, Depot Operations", Disagree},
		{filed, "Hi Sam, thanks for raising this. Any bus that comes back to the depot after 8 pm is fuelled to at least 80% before it's parked for the night, and the night shunter records every fill. Cheers, Depot Operations", Disagree},
	})
}

// TestTemperatures: "°C", "degrees C", "35 C" and "-20C" are degrees
// Celsius, "°F" and "Fahrenheit" another scale; a temperature is a
// measure of its own, so "2 days" no longer matches the bare 2 of "2 °C";
// a changed unit of time in a word the record's topic names ("respite
// nights" → "respite weeks") is a measure changed, not the topic's object
// said in other words.
func TestTemperatures(t *testing.T) {
	t.Parallel()
	const fridge = "Vaccine fridges must hold 2 °C to 8 °C, with readings recorded twice a day."
	checkAgreements(t, []agreementCase{
		{fridge, "Vaccine fridges must hold 2 degrees C to 8 degrees C, with readings recorded twice a day.", Agree},
		{fridge, "Vaccine fridges must hold 2 to 8 C, with readings recorded twice a day.", Agree},
		{fridge, "Vaccine fridges must hold 2 °F to 8 °F, with readings recorded twice a day.", Disagree},
		{fridge, "Vaccine fridges must hold 2 °C to 10 °C, with readings recorded twice a day.", Disagree},
		{"Specimens are frozen at 20 °C below zero for 14 days.", "Specimens: 14 days at 20C below zero.", Agree},
		{"Buses go through the wash at least every 2 days; the wash is not used below 2 °C.", "Buses go through the wash at least every 2 weeks; the wash is not used below 2 °C.", Disagree},
	})
	checkAgreementsOn(t, "Respite nights for foster carers", []agreementCase{
		{"Each approved foster carer is entitled to 14 respite nights a year, booked at least 4 weeks ahead.", "Each approved foster carer is entitled to 14 respite weeks a year, booked at least 4 weeks ahead.", Disagree},
	})
}

// TestBelowZero: "-20 °C", "minus 20 °C" and "20 °C below zero" are one
// temperature, and 20 °C another; a configuration's signed offset
// ("offset_months: -2") is still the prose's "2 months earlier".
func TestBelowZero(t *testing.T) {
	t.Parallel()
	const filed = "Specimens are frozen at -20 °C for at least 14 days."
	checkAgreements(t, []agreementCase{
		{filed, "Specimens are frozen at minus 20 °C for at least 14 days.", Agree},
		{filed, "Specimens are frozen at 20 °C below zero for at least 14 days.", Agree},
		{filed, "Specimens: 14 days min at -20C.", Agree},
		{filed, "Specimens are frozen at 20 °C for at least 14 days.", Disagree},
		{"Keep the freezer between −25 °C and −15 °C.", "Keep the freezer between -25 °C and -15 °C.", Agree},
		{"Keep the freezer between −25 °C and −15 °C.", "Keep the freezer between -25 °C and 15 °C.", Disagree},
		{"Docketing sets an internal deadline 2 months before the filing deadline.", "internal_deadline_offset_months: -2", Agree},
	})
}

// TestLeadingMinus: a position that opens with a negative number keeps
// its sign; a "- " bullet before it is still a bullet.
func TestLeadingMinus(t *testing.T) {
	t.Parallel()
	const filed = "Episodes are mastered to -16 LUFS integrated with true peaks no higher than -1 dBTP."
	checkAgreements(t, []agreementCase{
		{filed, "-16 LUFS integrated, true peak capped at -1 dBTP.", Agree},
		{filed, "- -16 LUFS integrated, true peak capped at -1 dBTP.", Agree},
		{filed, "16 LUFS integrated, true peak capped at -1 dBTP.", Disagree},
	})
}
