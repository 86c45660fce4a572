package consensus

import (
	"slices"
	"testing"
)

// TestDeadlinesBeforeAnEvent: "up to 24 hours before departure" and
// "until 48 hours before the match" set the same deadline as "at least 24
// hours before" and "no later than 48 hours before"; "book up to 7 days
// ahead" is how far ahead, at most.
func TestDeadlinesBeforeAnEvent(t *testing.T) {
	t.Parallel()
	const refund = "Season tickets can be refunded in full up to 24 hours before kick-off."
	const booking = "Members may book the tennis courts up to 7 days ahead."
	checkAgreements(t, []agreementCase{
		{refund, "A full refund is given when the season ticket is returned at least 24 hours before kick-off.", Agree},
		{refund, "A full refund is given when the season ticket is returned no later than 24 hours before kick-off.", Agree},
		{refund, "Season tickets can be refunded in full until 24 hours before kick-off.", Agree},
		{refund, "Season tickets can be refunded in full until 24 days before kick-off.", Disagree},
		{refund, "A full refund is given when the season ticket is returned at most 24 hours before kick-off.", Disagree},
		{booking, "Members can book the tennis courts at most 7 days ahead.", Agree},
		{booking, "Members can book the tennis courts at least 7 days ahead.", Disagree},
	})
}

// TestThousandsWithDots: "45.000 rupiah", "600.000 dong" and "1.500.000"
// group thousands with dots, as much of the world writes them; one dot
// and three digits is a decimal unless a currency's name follows
// ("2.500 mm" is 2.5 mm). Currencies named in words are units of their
// own.
func TestThousandsWithDots(t *testing.T) {
	t.Parallel()
	const fee = "Each household pays a water levy of 45,000 rupiah a month."
	checkAgreements(t, []agreementCase{
		{fee, "Every household pays water levy 45.000 rupiah per month.", Agree},
		{fee, "Every household pays water levy 4.500 rupiah per month.", Disagree},
		{fee, "Every household pays water levy 45 rupiah per month.", Disagree},
		{"The parish has 1,250,000 registered voters.", "The parish has 1.250.000 registered voters.", Agree},
		{"Gaps are kept under 2.5 mm.", "Gaps are kept under 2.500 mm.", Agree},
		{"A bowl of pho costs 40,000 dong.", "A bowl of pho costs 40.000 VND.", Agree},
		{"Lunch costs 12 yuan for residents.", "Lunch costs 12 RMB for residents.", Agree},
		{"Lunch costs 12 yuan for residents.", "Lunch costs 12 dollars for residents.", Disagree},
	})
}

// TestTimesOfDaySaid: an hour with its part of the day said in words
// ("9 in morning", "8 in the evening"), "a quarter to seven", and an hour
// written without "am" or "pm" ("by 8:30" beside "8 pm") may be the
// afternoon's; "08:30" and "8 in the morning" are not.
func TestTimesOfDaySaid(t *testing.T) {
	t.Parallel()
	const hours = "The allotment office is open from 9 am to 5 pm."
	const match = "Darts matches start at 8 pm and teams must be complete by 8:30 pm."
	checkAgreements(t, []agreementCase{
		{hours, "Allotment office is open from 9 in morning to 5 in afternoon.", Agree},
		{hours, "The allotment office is open from nine in the morning to five in the evening.", Agree},
		{hours, "The allotment office is open from 9 in the morning to 5 in the morning.", Disagree},
		{match, "Darts matches start 8 in evening and teams must be complete by half past eight.", Agree},
		{match, "Matches start at 8pm; a team has to be complete by 8:30.", Agree},
		{match, "Matches start at 8pm; a team has to be complete by 08:30.", Disagree},
		{match, "Matches start at 8pm; a team has to be complete by half past nine.", Disagree},
		{"The last ferry leaves at 6:45 pm.", "The last ferry leaves at a quarter to seven in the evening.", Agree},
		{"The last ferry leaves at 6:45 pm.", "The last ferry leaves at a quarter past seven in the evening.", Disagree},
		{"Keep a quarter of the budget in reserve.", "Keep 25% of the budget in reserve.", Agree},
	})
}

// TestAndOver: "aged 60 and over" is at least 60, as "60 or more" is;
// "60 and over the limit" is no bound, nor "over 60" the same bound.
func TestAndOver(t *testing.T) {
	t.Parallel()
	const lunch = "Residents aged 60 and over pay 12 yuan for lunch."
	checkAgreements(t, []agreementCase{
		{lunch, "Residents aged 60 or more pay 12 yuan for lunch.", Agree},
		{lunch, "Residents aged 60 or older pay 12 yuan for lunch.", Agree},
		{lunch, "Residents aged 60 or under pay 12 yuan for lunch.", Disagree},
		{lunch, "Residents aged 65 and over pay 12 yuan for lunch.", Disagree},
	})
	if a := analyze("Bookings of 6 and over the weekend limit are refused."); slices.ContainsFunc(a.terms, func(tm term) bool { return tm.w == "atleast" }) {
		t.Errorf("\"6 and over the weekend limit\" read as at least 6")
	}
}

// TestPerSaidAsFor: "two novices for one leader", "1 euro for metre" and
// "1 euro a metre" count per leader and per metre, as "for each" does;
// "valid for one year" is a length of time.
func TestPerSaidAsFor(t *testing.T) {
	t.Parallel()
	const ratio = "No more than 2 learners per qualified instructor on the climbing wall."
	const pitch = "Day traders pay 2 euros per metre of stall frontage."
	checkAgreements(t, []agreementCase{
		{ratio, "Maximum two learners for one qualified instructor on the climbing wall.", Agree},
		{ratio, "Maximum three learners for one qualified instructor on the climbing wall.", Disagree},
		{pitch, "Day trader pays 2 euro for metre of stall frontage.", Agree},
		{pitch, "Day traders pay 2 euros a metre of stall frontage.", Agree},
		{pitch, "Day traders pay 2 euros for 3 metres of stall frontage.", Disagree},
		{"The permit is valid for one year and costs 20 euros.", "The permit costs 20 euros per year.", Disagree},
	})
}

// TestMoneySaidAloud: "one euro fifty" is 1.50 euros, "two pounds
// twenty" £2.20; "5 euros three times a year" is 5 euros.
func TestMoneySaidAloud(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A night surcharge of 1.50 euros applies after midnight.", "After midnight there's a night surcharge of one euro fifty.", Agree},
		{"A night surcharge of 1.50 euros applies after midnight.", "After midnight there's a night surcharge of one euro twenty.", Disagree},
		{"A locker costs £2.20 a day.", "A locker is two pounds twenty a day.", Agree},
		{"Members pay 5 euros 3 times a year.", "Members pay 5 euros three times a year.", Agree},
		{"One booking covers up to 3 items for £30.", "For thirty pounds one booking takes up to three items.", Agree},
	})
}

// TestRangesSaidWithUntil: "Monday until Friday", "from 10 until 14" and
// "11:00 until 12:30" are ranges, as "to" says them.
func TestRangesSaidWithUntil(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The office is open Monday to Friday from 9 am to 5 pm.", "The office is open Monday until Friday from 9 am until 5 pm.", Agree},
		{"Lunch is served from 11 am to 12:30 pm.", "Lunch is served 11:00 until 12:30.", Agree},
		{"Lunch is served from 11 am to 12:30 pm.", "Lunch is served 11:00 until 13:30.", Disagree},
		{"Each flat sends one adult to the spring clean-up, 10 am to 2 pm.", "Each flat sends one adult to the spring clean-up, from 10 until 14.", Agree},
	})
}

// TestPoundsWeighOrPay: "pounds" with no sign is a weight or an amount,
// as the other side's unit says: "12 pound" against "12 kg" is a unit
// changed, "26.5 pound" the same weight, "5 pounds" against "£5" the same
// amount.
func TestPoundsWeighOrPay(t *testing.T) {
	t.Parallel()
	const mask = "Every fencing mask must pass a 12 kg punch test before use."
	checkAgreements(t, []agreementCase{
		{mask, "Every fencing mask must pass a 12 pound punch test before use.", Disagree},
		{mask, "Every fencing mask must pass a 26.5 pound punch test before use.", Agree},
		{"A day pass for the gym costs £5.", "A day pass for the gym costs 7 pounds.", Disagree},
	})
}
