package consensus

import (
	"context"
	"slices"
	"testing"

	"github.com/parleyhq/parley/debate"
)

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
	noQuantity(t, "a decimal", func(q quantity) bool { return q.value != 2 && q.value != 1 },
		"At one point two people asked for a refund.", "Two points are deducted per late day.")
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
	noQuantity(t, "a time of day", func(q quantity) bool { return q.dim == "clock" },
		"Cut the order by half six weeks before launch.", "Sell half six-packs only.", "Allow two and a half six-hour shifts.")
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
	if got := strengthParts("rest 2.5 hours. then go."); len(got) != 2 {
		t.Errorf("parts of a text with a decimal: %q", got)
	}
}

// TestHexValues: a registry value ("dword:0000001e") or "0x1e" is a
// number in hexadecimal; a word with such letters is not.
func TestHexValues(t *testing.T) {
	t.Parallel()
	const rota = "Night porters take a break of 30 minutes after 6 hours on shift."
	checkAgreements(t, []agreementCase{
		{rota, `"BreakMinutes"=dword:0000001e "BreakAfterHours"=dword:00000006 (night porters)`, Agree},
		{rota, `"BreakMinutes"=dword:00000030 "BreakAfterHours"=dword:00000006 (night porters)`, Disagree},
		{"Retry at most 16 times.", "max_retries = 0x10", Agree},
	})
	noQuantity(t, "a hexadecimal number", func(q quantity) bool { return q.value == 18 },
		"Use the cafe0x12 account.", "The badge code is dword:12 only.")
}

// TestMeasureNames: "kilo" and "kg", "metre" and "meter" name one unit;
// "a metre" after "within", "at least" or "up to" is one metre.
func TestMeasureNames(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Apples are sold at £2.20 per kilo.", "Apples: 2.20 GBP per kg.", Agree},
		{"Apples are sold at £2.20 per kilo.", "Apples: 2.20 GBP per lb.", Disagree},
		{"Nobody stands within 1 metre of the kiln door.", "No one may stand within a metre of the kiln door.", Agree},
		{"Nobody stands within 2 metres of the kiln door.", "No one may stand within a metre of the kiln door.", Disagree},
		{"Offcuts cost 5 euros a metre.", "Offcuts cost 5 euros per metre.", Agree},
		{"Sow 20 g of seed per square metre.", "Sow 20 g of seed per m².", Agree},
		{"Sow 20 g of seed per square metre.", "Sow 20 g of seed per square foot.", Disagree},
	})
}

// TestEarliestBeforeAnEvent: "no earlier than 24 hours before the trip"
// is at most 24 hours before it, as "no later than 8 weeks before" is at
// least 8 weeks before.
func TestEarliestBeforeAnEvent(t *testing.T) {
	t.Parallel()
	const keys = "Cabin keys are collected no earlier than 24 hours before arrival."
	checkAgreements(t, []agreementCase{
		{keys, "Cabin keys are collected not more than a day before arrival.", Agree},
		{keys, "Cabin keys are collected at most 24 hours before arrival.", Agree},
		{keys, "Cabin keys are collected at least 24 hours before arrival.", Disagree},
		{keys, "Cabin keys are collected no later than 24 hours before arrival.", Disagree},
		{"Banns are read no later than 4 weeks before the wedding.", "Banns are read at least four weeks before the wedding.", Agree},
	})
}

// TestFreeOf: "pain-free", "nut-free" say without pain, without nuts.
func TestFreeOf(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The tea room keeps one table nut-free.", "One table in the tea room is kept without nuts.", Agree},
		{"The tea room keeps one table nut-free.", "One table in the tea room is kept with nuts.", Disagree},
		{"Physio resumes once the patient can climb 10 stairs without pain.", "Physio resumes once the patient manages ten pain-free stairs.", Agree},
	})
}

// TestAgeGroups: "under-5s", "the over-60s", "under-14 games" name people
// of an age, not seconds.
func TestAgeGroups(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Children under 5 swim free.", "Under-5s swim free.", Agree},
		{"Children under 5 swim free.", "Under-7s swim free.", Disagree},
		{"Swimmers over 60 pay half price.", "The over-60s pay half price.", Agree},
	})
	noQuantity(t, "a length of time", func(q quantity) bool { return q.dim == "time" }, "Under-5s swim free.")
}

// TestIfYes: "If yes, …" after a question the text asks names the case
// just asked, no condition of its own.
func TestIfYes(t *testing.T) {
	t.Parallel()
	const ward = "Patients with a fever above 38 °C are seen by a doctor within 1 hour."
	checkAgreements(t, []agreementCase{
		{ward, "Check for a fever above 38 °C. If yes, a doctor sees the patient within 1 hour.", Agree},
		{ward, "Check for a fever above 38 °C. If so, a doctor sees the patient within one hour.", Agree},
		{ward, "Check for a fever above 38 °C. If yes and the patient is over 65, a doctor sees them within 1 hour.", Disagree},
	})
}

// TestBoundBeforeEventHostile: the rewrite of "no earlier than … before"
// reads past contractions, whose words overlap in the text ("don't").
func TestBoundBeforeEventHostile(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"Keys: no earlier than we don't say before arrival.",
		"not later than can't won't shan't before",
		"no sooner than",
		"no earlier than 5 ,,,;;; before",
	} {
		ComparePositions("Cabin keys are collected no earlier than 24 hours before arrival.", text)
		ComparePositions(text, text)
	}
}

// TestGluedMetres: "3m" glued, read as minutes where configuration
// writes durations so, is 3 metres against a length in metres; against
// a length of time it stays minutes.
func TestGluedMetres(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Only staff fell trees taller than 3 metres.", "tree_felling: {staff_only_over: 3m}", Agree},
		{"Only staff fell trees taller than 3 metres.", "tree_felling: {staff_only_over: 5m}", Disagree},
		{"Garden fences may be at most 1.8 m high.", "Max garden fence height 1.8m.", Agree},
		{"Idle sessions time out after 10 minutes.", "idle_session_timeout: 10m", Agree},
		{"Idle sessions time out after 10 minutes.", "idle_session_timeout: 10 metres", Disagree},
	})
}

// TestHowOftenAsked: "how often" asks what a rule that says every how
// long answers; asked of a rule that sets no period, it names something
// the record does not say.
func TestHowOftenAsked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	names := fileMeaning(t, e, []meaningRecord{
		{name: "hoist", layer: debate.LayerSpec, topic: "servicing of patient hoists on the ward", position: "Patient hoists on the ward are serviced by the manufacturer's engineer every 6 months, and a hoist that fails its service is labelled out of use the same day."},
		{name: "deposit", layer: debate.LayerSpec, topic: "deposits for loaned walking frames", position: "A deposit of £20 is taken for each loaned walking frame and refunded when it comes back clean."},
	})
	res := specCheck(t, e, "how often do the ward's lifting hoists get looked at by the maker's engineer?",
		"The maker's engineer services the ward's patient hoists twice a year; any hoist that fails gets an out-of-use label that same day.")
	if res.Record == nil || res.Record.Name != names["hoist"] || res.Status != CheckConsistent {
		t.Errorf("how often, asked of a rule with a period: %s, record %v", res.Status, res.Record)
	}
	res = specCheck(t, e, "how often do loaned walking frames get their deposits checked?",
		"Each loaned walking frame is checked by the ward clerk, who logs its deposit of £20.")
	if res.Status == CheckConsistent {
		t.Errorf("how often, asked of a rule with no period: %s, record %v", res.Status, res.Record)
	}
	// The cover of the question read against the record: "how often"
	// stands where the record's topic says "patient", a mark of a near
	// miss, unless the record's rule has a period.
	q, qp := analyze("how often are the hoists on the ward serviced?"), analyze("The hoists on the ward are serviced every 6 months by the engineer.")
	r := wordsOnly(analyze("servicing of patient hoists on the ward"))
	if c := coverOf(q, qp, r, analyze("Patient hoists on the ward are serviced by the engineer every 6 months.")); c.clash || c.foreign {
		t.Errorf("how often, of a rule with a period: clash %v, foreign %v", c.clash, c.foreign)
	}
	if c := coverOf(q, qp, r, analyze("Patient hoists on the ward are serviced by the engineer.")); !c.clash {
		t.Errorf("how often, of a rule without a period: no clash")
	}
}

// noQuantity fails t for each quantity of texts that wrong picks out:
// what the text must not be read as saying.
func noQuantity(t *testing.T, what string, wrong func(quantity) bool, texts ...string) {
	t.Helper()
	for _, text := range texts {
		for _, q := range analyze(text).qty {
			if wrong(q) {
				t.Errorf("%q: read %s, %v (%s)", text, what, q.value, q.text)
			}
		}
	}
}

// TestAnotherStepOfTheSameObject: a question whose topic is only near a
// record's and whose position speaks of other things asks about another
// step of the same object (how a locker's parcels are paid for, not how
// long they stay): no record answers it, and the near one is listed as
// related. A question near in topic that speaks of the same things still
// conflicts.
func TestAnotherStepOfTheSameObject(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	names := fileMeaning(t, e, []meaningRecord{
		{name: "locker", layer: debate.LayerSpec, topic: "how long parcels stay in the station lockers", position: "Parcels stay in the station lockers for 72 hours; after that the courier takes them back to the depot and emails the customer."},
		{name: "gym", layer: debate.LayerSpec, topic: "gym locker deposits", position: "Gym lockers take a £1 coin, returned when the locker is opened."},
	})
	res := specCheck(t, e, "paying for parcels in the station lockers",
		"Cash on delivery is not offered at the station lockers: card payment at checkout only, and refunds go back to the same card.")
	if res.Status != CheckNone || !slices.ContainsFunc(res.Related, func(h Hit) bool { return h.Record.Name == names["locker"] }) {
		t.Errorf("another step of the same object: %s (topic %.2f, %v), related %v", res.Status, res.TopicScore, res.Comparison, res.Related)
	}
	res = specCheck(t, e, "how long do parcels stay in the lockers at the station?",
		"Parcels stay in the station lockers for 48 hours; after that the courier takes them back to the depot and emails the customer.")
	if res.Status != CheckConflict {
		t.Errorf("the same question, another number: %s (topic %.2f, %v)", res.Status, res.TopicScore, res.Comparison)
	}
}

// specCheck asks e's store the spec question topic with position.
func specCheck(t *testing.T, e *env, topic, position string) *CheckResult {
	t.Helper()
	res, err := e.s.Check(context.Background(), debate.LayerSpec, topic, position)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
