package consensus

import "testing"

// TestWholeOfOneIsEachOne: "for the whole event" is all of one event, as
// "per event" and "every session" say, not a count summed across them;
// "counting every clinic" sums across them as "across all clinics" does,
// and "covering every row" counts neither way. A count per thing against
// one summed across them stays a change.
func TestWholeOfOneIsEachOne(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"one per event, one for the whole event", "", "Changes after the lock need admin approval and are limited to one per event.",
			"After the lock any change needs an admin to approve it, and you only get one change for the whole event.", Agree, ""},
		{"every session, the whole session each time", "", "A parent must stay in the room for every session with a child under 8.",
			"For a child under 8, a parent must be in the room for the whole session, every time.", Agree, ""},
		{"each point, the entire race", "", "Each crossing point is staffed by a marshal for the whole race.",
			"There is a marshal at every crossing point for the entire race.", Agree, ""},
		{"counting every branch", "", "Donations are capped at 500 GBP per donor per year, counted across all branches.",
			"The cap is £500 a year for each donor, counting every branch together.", Agree, ""},
		{"covering every field", "", "Soil samples are taken across every field of the farm before sowing.",
			"Before sowing we take soil samples covering every field on the farm.", Agree, ""},
		{"summed over all stands", "", "The club may sell at most 300 season tickets, counted across all stands.",
			"Max 300 season tickets, summed over every stand in the ground.", Agree, ""},
		{"shared across all projects", "", "Each project gets 50 GB of storage.", "50 GB of storage is shared across all projects.", Disagree, ""},
		{"each branch its own count", "", "Donations are capped at 500 GBP per donor per year, counted across all branches.",
			"Each branch may take up to 500 GBP per donor per year.", Disagree, ""},
		{"summed over its keys", "", "The API allows 60 requests per minute per API key.",
			"Count the 60 requests per minute per account, summed over all of its API keys.", Disagree, ""},
		{"only the first point", "", "Each crossing point is staffed by a marshal for the whole race.",
			"Only the first crossing point has a marshal for the race.", Disagree, ""},
	})
}

// TestQuantifierStaysInItsClause: "every" and "only" name the thing after
// them in their own clause: "every week; customers …" says nothing of the
// customers, "only when all units are fixed" restricts no unit, and a
// bar of a table ends what "only" restricts.
func TestQuantifierStaysInItsClause(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"every week; customers", "", "Houses are cleaned every 4 weeks and shop fronts every week; customers with ground-floor windows only can choose every 8 weeks instead.",
			"Houses: every 4 weeks · Shop fronts: every week · Ground-floor-only customers: may choose every 8 weeks", Agree, ""},
		{"each half year, lifts", "", "Passenger lifts are inspected every 6 months, goods-only lifts every 12 months.",
			"Lifts carrying passengers: inspection each half year, lifts for goods only once per year.", Agree, ""},
		{"only once all units", "", "Worktops are templated only once all base units are fixed and levelled.",
			"Nobody templates the worktops until every base unit is fixed and level.", Agree, ""},
		{"any against only some", "", "Members may play at any club in the league.", "Members may only play at their own club in the league.", Disagree, ""},
		{"every against only some", "", "Every rider must wear a helmet on the trail.", "Only riders under 16 need a helmet on the trail.", Disagree, ""},
	})
}

// TestOnceOnlyIsACount: "used once only" and "only twice a year" bound a
// count, as "single-use" does; they restrict nothing "every needle" covers.
// "Only once a support is fitted" is a time, and stays one.
func TestOnceOnlyIsACount(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"once only", "", "Every needle is single-use and opened in front of the client.",
			"Needles are used once only and unwrapped while the client watches.", Agree, ""},
		{"only from sealed packs", "", "Every needle is single-use.", "Only needles from sealed packs are used.", Disagree, ""},
		{"only once a support is fitted", "", "Before anyone climbs a wooden pole it must be hammer-tested; poles older than 40 years may be climbed only once a pole support is fitted.",
			"Before a man goes up a wooden pole he must test it with the hammer. If the pole is more than 40 years old, first the pole support must be fitted, only then he may climb.", Agree, ""},
	})
	for _, c := range []struct {
		text string
		only bool
	}{
		{"Needles are used once only.", false},
		{"Each voucher may be used only twice.", false},
		{"Each voucher may be used only once a month.", false},
		{"Poles may be climbed only once a pole support is fitted.", true},
		{"Only members may use the pool.", true},
	} {
		if got := analyze(c.text).only; got != c.only {
			t.Errorf("%q: only %v, want %v", c.text, got, c.only)
		}
	}
}

// TestWeekdaysCountedPerWeek: "every Tuesday and Friday" is twice a week,
// as a rewording that also names the days says; one day a week, or three,
// is another rule.
func TestWeekdaysCountedPerWeek(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"twice a week, the days named", "", "Town-centre glass bins are emptied every Tuesday and Friday before 07:00.",
			"The glass bins in the centre of town get emptied twice a week, Tuesdays and Fridays, always before 7 am.", Agree, ""},
		{"three times a week", "", "Glass bins are emptied every Tuesday and Friday.", "Glass bins are emptied three times a week.", Disagree, ""},
		{"once a week", "", "Glass bins are emptied every Tuesday and Friday.", "Glass bins are emptied once a week.", Disagree, ""},
		{"one day, twice a week", "", "Glass bins are emptied every Tuesday.", "Glass bins are emptied twice a week.", Disagree, ""},
	})
}

// TestAGivenDayIsAnyDay: "on a given day" says what "on any day" says; a
// day of another kind stays a change.
func TestAGivenDayIsAnyDay(t *testing.T) {
	t.Parallel()
	checkComparisons(t, []comparisonCase{
		{"a given day", "", "The sections are reset on a rotation so that no more than one of the five sections is closed on any day.",
			"The sections are reset on a rotation so that no more than one of the five sections is closed on a given day.", Agree, ""},
		{"any given day", "", "No more than two rooms are booked for exams on any day.", "No more than two rooms are booked for exams on any given day.", Agree, ""},
		{"a weekday", "", "No more than one lane may be closed on any day.", "No more than one lane may be closed on a weekday.", Disagree, ""},
	})
}
