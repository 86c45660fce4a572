package consensus

import (
	"slices"
	"strings"
	"testing"
)

// TestReportFrames: a position that opens with who reports the rule ("the
// caretaker said that …", "the handbook should say …"), an interjection
// ("yup") or a mark ("📌", "☐") says what the rule after it says; the
// rule after it is compared as ever.
func TestReportFrames(t *testing.T) {
	t.Parallel()
	const kiln = "Kiln shelves are vacuumed after every firing and kiln wash is reapplied every 10 firings."
	checkAgreements(t, []agreementCase{
		{kiln, "Our technician said that kiln shelves are vacuumed after every firing and kiln wash is reapplied every 10 firings.", Agree},
		{kiln, "The studio handbook should say kiln shelves are vacuumed after every firing and kiln wash is reapplied every 10 firings.", Agree},
		{kiln, "The studio handbook should say kiln shelves are vacuumed after every firing and kiln wash is reapplied every 20 firings.", Disagree},
		{kiln, "Jo mentioned that kiln shelves are vacuumed after every firing and kiln wash is never reapplied.", Disagree},
		{kiln, "yup kiln shelves are vacuumed after every firing and kiln wash is reapplied every 10 firings", Agree},
		{kiln, "📌 Reminder everyone: kiln shelves are vacuumed after every firing and kiln wash is reapplied every 10 firings.", Agree},
		{kiln, "✅ Studio notice: kiln shelves are vacuumed after every firing and kiln wash is reapplied every 10 firings", Agree},
		{kiln, "✅ Studio notice: kiln shelves are vacuumed after every firing and kiln wash is reapplied every 12 firings", Disagree},
		// A verb that is the rule's own action, and a report denied, are
		// no frame.
		{"The chair announces the result of every vote before the meeting moves on.", "The secretary states the result of every vote before the meeting moves on.", Disagree},
		{"The ward clerk records every transfer in the bed board within 15 minutes.", "The porter notes every transfer in the bed board within 15 minutes.", Disagree},
		{"Bank holiday shifts are paid at double time.", "Nobody ever said bank holiday shifts are paid at double time.", Disagree},
		{"Bank holiday shifts are paid at double time.", "Payroll never said that bank holiday shifts are paid at double time.", Disagree},
		// A scope before a participle names no one who reports.
		{"Every fault is logged within 24 hours.", "Only reported faults are logged within 24 hours.", Disagree},
	})
}

// TestDropReport: what dropReport takes away, and what it leaves: a
// report whose words the filed rule uses is part of the rule, and so is
// one followed by fewer than four words.
func TestDropReport(t *testing.T) {
	t.Parallel()
	const vents = "Fume cupboard airflow is tested every 6 months."
	for _, c := range []struct{ filed, position, want string }{
		{vents, "The clerk reported that fume cupboard airflow is tested every 6 months.", "fume cupboard airflow is tested every 6 months."},
		{vents, "Facilities says fume cupboard airflow is tested twice a year.", "fume cupboard airflow is tested twice a year."},
		// Who reports is the rule's subject.
		{"The pilot reports any runway light that is out to the tower.", "The pilot reports that a runway light is out to the tower.", "The pilot reports that a runway light is out to the tower."},
		// Too little follows: no rule after the frame.
		{vents, "The clerk said that it is fine.", "The clerk said that it is fine."},
		// No verb of a report.
		{vents, "The clerk tests that fume cupboard airflow is right every 6 months.", "The clerk tests that fume cupboard airflow is right every 6 months."},
	} {
		if got := dropReport(c.position, analyze(c.filed), nil); got != c.want {
			t.Errorf("dropReport(%q) = %q, want %q", c.position, got, c.want)
		}
	}
}

// TestAnyUnderNegation: "any" under a negation ("hasn't got any unpaid
// balance") opens nothing up, so it does not stand against the "only" of
// the filed rule; "any" that opens the rule to others still does.
func TestAnyUnderNegation(t *testing.T) {
	t.Parallel()
	const mower = "Only members of the grounds team may drive the ride-on mower."
	checkAgreements(t, []agreementCase{
		{"Rate-limit increases are granted within 2 business days, only if the account has had no abuse flags in the last 90 days.",
			"Rate-limit increases are granted inside two working days, provided the account hasn't picked up any abuse flag over the previous ninety days.", Agree},
		{mower, "Any volunteer may drive the ride-on mower.", Disagree},
		// A barrier negated lets anyone: "nothing stops anyone".
		{mower, "Nothing stops anyone from driving the ride-on mower.", Disagree},
		{mower, "We have never prevented anyone driving the ride-on mower.", Disagree},
		// A negation that denies something else leaves "anyone" open.
		{mower, "Without a permit anyone may drive the ride-on mower.", Disagree},
		{mower, "Training isn't required and anyone can drive the ride-on mower.", Disagree},
	})
}

// TestBareDayBefore: "by 18:00 day before" in a note without articles is
// "the day before"; "two days before" is another deadline.
func TestBareDayBefore(t *testing.T) {
	t.Parallel()
	const van = "Orders for the bakery van must be in by 6 pm the day before delivery."
	checkAgreements(t, []agreementCase{
		{van, "Bakery van orders: must be in by 18:00 day before delivery.", Agree},
		{van, "Bakery van orders must be in on day before delivery, 6 pm latest.", Agree},
		{van, "Bakery van orders: must be in by 18:00 two days before delivery.", Disagree},
		{van, "Bakery van orders must be in by 6 pm the day after delivery.", Disagree},
		// The night before is the day before, said by its part; the
		// morning after is the next day.
		{"Match kit is packed by 9 pm the night before the fixture.", "Match kit packed by 21:00 day before the fixture.", Agree},
		{"Loan laptops are returned to the library desk by 10 am the morning after the exam.", "Loan laptops back at the library desk by 10:00, the next day after the exam.", Agree},
		{"Match kit is packed by 9 pm the night before the fixture.", "Match kit packed by 21:00 two days before the fixture.", Disagree},
		// A part of the day before a daily event is the same day.
		{"Residents take one tablet each night before bed.", "Residents take one tablet at night before bed.", Agree},
		{"Medication is taken before breakfast.", "Medication is taken in the morning before breakfast.", Agree},
	})
}

// TestSmallWordsTradeNothing: a small word ("only", "if") does not trade
// places with a content word: "the job is done by the yard foreman only"
// and "only the yard foreman does the job" say the same; another limit
// is another rule.
func TestSmallWordsTradeNothing(t *testing.T) {
	t.Parallel()
	const chain = "The chain on the log splitter is replaced every 150 running hours, or sooner if the wood shows burn marks deeper than 2 mm; the job is done by the yard foreman only, never while the yard is open."
	checkAgreements(t, []agreementCase{
		{chain, "Replace the chain on the log splitter every 150 running hours, or sooner when burn marks in the wood are deeper than 2 mm. Only the yard foreman does the job, never while the yard is open.", Agree},
		{chain, "Replace the chain on the log splitter every 150 running hours, or sooner when burn marks in the wood are deeper than 4 mm. Only the yard foreman does the job, never while the yard is open.", Disagree},
		{"When a swimming lesson is cancelled, every booked child is offered a free make-up lesson.", "A cancelled swimming lesson means every booked child is offered a free make-up lesson.", Agree},
	})
}

// TestLeadFields: leadFields are strings.Fields' first n, whatever the
// spaces between them.
func TestLeadFields(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "   ", "one", " one two\tthree\nfour  ", "a\u00a0b c", "x y z w v u t s r q p o n"} {
		for n := 0; n <= 12; n++ {
			want := strings.Fields(s)
			want = want[:min(n, len(want))]
			if got := leadFields(s, n); !slices.Equal(got, want) {
				t.Errorf("leadFields(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}
