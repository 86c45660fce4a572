package consensus

import "testing"

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
	})
}
