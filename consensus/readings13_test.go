package consensus

import "testing"

// TestDecimalsInWords: "two point four" is 2.4, a number read out digit
// by digit after its point; another decimal is another number.
func TestDecimalsInWords(t *testing.T) {
	t.Parallel()
	const boat = "A dinghy on the club rack may be at most 4.2 m long and 1.65 m wide."
	checkAgreements(t, []agreementCase{
		{boat, "Dinghies on the club rack: no longer than four point two metres, no wider than one point six five.", Agree},
		{boat, "Dinghies on the club rack: no longer than four point eight metres, no wider than one point six five.", Disagree},
		{"Mix 0.5 litres of concentrate per bucket.", "Mix zero point five litres of concentrate per bucket.", Agree},
	})
	for _, text := range []string{"At one point two people asked for a refund.", "Two points are deducted per late day."} {
		for _, q := range analyze(text).qty {
			if q.value != 2 && q.value != 1 {
				t.Errorf("%q: read %v (%s)", text, q.value, q.text)
			}
		}
	}
}

// TestHalfHourBritish: "half six" is half past six, when it stands where
// a time of day does; "half six hours" and "two and a half" are no time.
func TestHalfHourBritish(t *testing.T) {
	t.Parallel()
	const cafe = "The café serves breakfast from 7:30 to 11 am on weekdays."
	checkAgreements(t, []agreementCase{
		{cafe, "Café does brekkie half seven till eleven, weekdays.", Agree},
		{cafe, "Café does brekkie half eight till eleven, weekdays.", Disagree},
		{"The warehouse gate shuts at 17:30.", "Warehouse gate shuts at half five in the afternoon.", Agree},
	})
	for _, text := range []string{"Cut the order by half six weeks before launch.", "Sell half six-packs only.", "Allow two and a half six-hour shifts."} {
		for _, q := range analyze(text).qty {
			if q.dim == "clock" {
				t.Errorf("%q: read a time of day, %v (%s)", text, q.value, q.text)
			}
		}
	}
}

// TestHourSaidAlone: a time of day said again as its hour alone ("at 7
// pm" → "at seven") is the same time; another hour is another time.
func TestHourSaidAlone(t *testing.T) {
	t.Parallel()
	const hall = "The hall opens at 6 pm and the bar closes at 11 pm."
	checkAgreements(t, []agreementCase{
		{hall, "Hall opens at six in the evening; the bar shuts at eleven.", Agree},
		{hall, "Hall opens at six in the evening; the bar shuts at ten.", Disagree},
		{"Kitchen orders stop at 21:00.", "Kitchen orders stop at nine.", Agree},
	})
}

// TestDutyLoosenedInOnePart: a position that makes one duty of the rule
// optional ("at the steward's discretion", "we encourage", "up to them")
// while keeping another binding changes the rule; an option the filed
// rule itself leaves ("guests may book at the desk if they wish") is no
// duty loosened.
func TestDutyLoosenedInOnePart(t *testing.T) {
	t.Parallel()
	const log = "Volunteers must sign the visitor log on arrival, and the duty steward must keep the log for 12 months."
	const pass = "Contractors must show a site pass at the gate; the gatekeeper checks bags only on request."
	const courts = "Members must book courts online; guests may book at the desk if they wish."
	checkAgreements(t, []agreementCase{
		{log, "Signing the visitor log on arrival is at the steward's discretion, and the duty steward must keep the log for 12 months.", Disagree},
		{log, "Volunteers sign the visitor log when they arrive if they choose; the log must be kept by the duty steward for 12 months.", Disagree},
		{log, "On arrival every volunteer signs the visitor log; the duty steward keeps it for twelve months.", Agree},
		{pass, "We encourage contractors to show a site pass at the gate. Bags are checked by the gatekeeper only on request.", Disagree},
		{pass, "Contractors show a site pass at the gate. Bags get checked by the gatekeeper only on request.", Agree},
		{courts, "Court bookings by members have to be made online. Guests can book at the desk if they wish.", Agree},
		{"Play may be stopped in lightning at the referee's discretion.", "The referee has the discretion to stop play when there is lightning.", Agree},
	})
	if got := strengthParts("one. two; three, and four but five"); len(got) != 5 {
		t.Errorf("parts: %q", got)
	}
}
