package consensus

import (
	"slices"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestOrdinalsInDigits: "3rd", "5th" and "21st" are ordinals read as
// "third" is: a count where the words around them make it one ("the 3rd
// floor", "every 5th build", "by the 5th"), a name where they do not
// ("fly 1st class", "1st line support"); a name changed is a change.
func TestOrdinalsInDigits(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Phones are switched to silent on the third floor of the library.", "Phones go on silent on the 3rd floor of the library.", Agree},
		{"Phones are switched to silent on the 3rd floor of the library.", "On the third floor of the library, phones are on silent.", Agree},
		{"Phones are switched to silent on the third floor of the library.", "Phones are switched to silent on the 4th floor of the library.", Disagree},
		{"Every 5th nightly build runs the soak tests.", "The soak tests run on every fifth nightly build.", Agree},
		{"Every 5th nightly build runs the soak tests.", "The soak tests run on every tenth nightly build.", Disagree},
		{"Meter readings are taken on the first working day of each month.", "Meter readings: 1st working day of every month.", Agree},
		{"Rent is due by the 5th of each month.", "Tenants pay rent by the fifth.", Agree},
		{"Rent is due on the 1st of the month.", "Rent is due on the 28th of the month.", Disagree},
		{"Invoices are sent on the 1st.", "Invoices are sent on the 15th.", Disagree},
		{"The canteen is on the 1st floor.", "The canteen is on the 2nd floor.", Disagree},
		{"Team meetings are on the 2nd.", "Team meetings are on the 3rd.", Disagree},
		// Names: a class of travel, a line of support, a place.
		{"Directors fly 1st class.", "Directors fly business class.", Disagree},
		{"Staff travel 2nd class.", "Staff travel 1st class.", Disagree},
		{"Tickets go to 1st line support.", "Tickets go to 2nd line support.", Disagree},
		{"1st place gets a trophy.", "3rd place gets a trophy.", Disagree},
		// A list of ordinals counts as its first does.
		{"Stock is counted on the 1st and 15th of each month.", "Stock is counted on the 1st and the 15th of every month.", Agree},
		{"Bins go out on the 2nd and 4th Monday of the month.", "Bins go out on the 2nd and the 4th Monday of the month.", Agree},
		{"Stock is counted on the 1st and 15th of each month.", "Stock is counted on the 1st and 20th of each month.", Disagree},
		// A day of the month is no period changed: a detail added.
		{"Rent is collected monthly.", "Rent is collected on the 3rd of each month.", Unsure},
	})
	for _, c := range []struct {
		text string
		want float64
	}{
		{"3rd", 3}, {"5th", 5}, {"12th", 12}, {"1st", 1}, {"third", 3}, {"2nd", 2}, {"21st", 21}, {"113th", 113},
		{"3th", 0}, {"11st", 0}, {"first", 0}, {"4thly", 0}, {"th", 0},
	} {
		if got := ordinalOf(c.text); got != c.want {
			t.Errorf("ordinalOf(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestCoupleOf: "a couple of" is two of what follows (not "a couple of
// hundred"); "a pair of gloves" is one thing, and "the couple" two
// people, not a number.
func TestCoupleOf(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Glassware is wrapped in two sheets of tissue before boxing.", "Glassware is wrapped in a couple of sheets of tissue before boxing.", Agree},
		{"Glassware is wrapped in three sheets of tissue before boxing.", "Glassware is wrapped in a couple of sheets of tissue before boxing.", Disagree},
		{"Kitchen porters get one pair of gloves per shift.", "Kitchen porters get a pair of gloves per shift.", Agree},
		{"Wear a pair of cut-resistant gloves on the slicer.", "Wear cut-resistant gloves on the slicer.", Agree},
		{"The float is capped at a couple of hundred euros.", "The float is capped at 2 euros.", Disagree},
		{"Hearings over 3 hours get two interpreters who take turns.", "Hearings over 3 hours get a pair of interpreters who take turns.", Agree},
	})
	if q := analyze("The couple must sign the venue contract.").qty; len(q) != 0 {
		t.Errorf(`"the couple" read as a number: %+v`, q)
	}
}

// TestWholeAgainstShare: a refund (or fare, or team) said whole ("in
// full", "the full fare") and the same said as a share ("half", "50%",
// "partial") are two rules; "full-time" and "full stop" are no whole,
// "100%" is whole, and "partial payments are not accepted" asks for the
// whole.
func TestWholeAgainstShare(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Lessons cancelled by the instructor are refunded in full.", "If your instructor cancels, you get half the lesson fee back.", Disagree},
		{"Lessons cancelled by the instructor are refunded in full.", "Lessons the instructor cancels are refunded at 50%.", Disagree},
		{"Lessons cancelled by the instructor are refunded in full.", "Lessons the instructor cancels get a partial refund.", Disagree},
		{"Lessons cancelled by the instructor are refunded in full.", "Lessons the instructor cancels get a 100% refund.", Agree},
		{"Lessons cancelled by the instructor are refunded in full.", "If the instructor cancels a lesson, the whole fee is refunded.", Agree},
		{"Students aged 16 to 18 pay half the adult fare.", "Students aged 16 to 18 pay the full adult fare.", Disagree},
		{"Students aged 16 to 18 pay half the adult fare.", "16-18 year old students pay 50% of the adult fare.", Agree},
		{"Full-time staff get 28 days of annual leave.", "Staff working full time get twenty-eight days' annual leave.", Agree},
		{"Partial payments are not accepted.", "Payments must be made in full.", Agree},
	})
	// Two kinds of a thing, each the subject of a rule of its own.
	findsNothing(t, comparePartial, [][2]string{
		{"Partial refunds are approved by a supervisor.", "Full refunds are issued automatically."},
		{"Partial shifts are paid by the hour.", "Full shifts are paid at the shift rate."},
	})
	if w := wholeWordSaid(analyze("Members get a discount on climbing classes, full stop.")); w != "" {
		t.Errorf(`"full stop" read as a whole: %q`, w)
	}
}

// TestOnlyJoined: what a rule restricts with "only" said again with
// something else beside it ("the duty nurse and the ward clerk") covers
// more; the same thing alone, or with what the rule names too, does not.
func TestOnlyJoined(t *testing.T) {
	t.Parallel()
	const drugs = "Only the duty nurse may open the controlled drugs cupboard."
	const keys = "Only the bar manager and the head chef hold keys to the cellar."
	checkAgreements(t, []agreementCase{
		{drugs, "The duty nurse and the ward clerk may open the controlled drugs cupboard.", Disagree},
		{drugs, "The controlled drugs cupboard is opened by the duty nurse or a healthcare assistant.", Disagree},
		{drugs, "The controlled drugs cupboard is opened by the duty nurse alone.", Agree},
		{drugs, "The controlled drugs cupboard may be opened by the duty nurse and nobody else.", Agree},
		{drugs, "The controlled drugs cupboard is for the duty nurse to open, no one else.", Agree},
		{"The cellar stock sheet is signed only by the bar manager.", "The bar manager and the owner sign the cellar stock sheet.", Disagree},
		{"Parking permits are issued only to residents.", "Residents and their visitors are issued parking permits.", Disagree},
		// The rule's own list, in another order or shortened.
		{keys, "Cellar keys: head chef and bar manager, nobody else.", Agree},
		{keys, "Two people hold cellar keys: the bar manager and the HC.", Agree},
		{keys, "The bar manager, the head chef and the sous chef hold keys to the cellar.", Disagree},
		// "and" with a verb after it lists no one.
		{"Court bookings are open only to club members.", "Court bookings are for club members only, and members book and pay online.", Agree},
		// A kind of what the rule names, one thing said with "and", and
		// the rule's object in a list of its own.
		{"Only managers approve expenses.", "Line managers and senior managers approve expenses.", Agree},
		{"Only service dogs are allowed in the dining room.", "Service dogs and guide dogs are allowed in the dining room.", Agree},
		{"Guests at the inn get only breakfast, no dinner.", "The inn offers bed and breakfast, no dinner.", Agree},
	})
	findsNothing(t, compareJoined, [][2]string{
		{"Only managers approve expenses.", "Managers approve travel and expenses."},
		{"Only managers approve refunds.", "Managers approve refunds and team leads process them."},
		// Another rule of the same people: the rest of it differs.
		{"Only staff may enter the plant room.", "Staff and visitors may enter the lobby."},
		{"Only admins can delete channels.", "Admins and moderators can pin messages."},
	})
}

// TestOpeningHours: "opens at 6 and closes at 10" is the span "open from
// 6 to 10": the closing is its end, no negation of opening.
func TestOpeningHours(t *testing.T) {
	t.Parallel()
	const gym = "The gym is open from 6 am to 10 pm on weekdays."
	checkAgreements(t, []agreementCase{
		{gym, "On weekdays the gym opens at 6 am and closes at 10 pm.", Agree},
		{gym, "Monday to Friday the gym opens at six in the morning and shuts at ten at night.", Agree},
		{"The gym opens at 6 am and closes at 10 pm on weekdays.", gym, Agree},
		{gym, "On weekdays the gym opens at 6 am and closes at 9 pm.", Disagree},
		{gym, "The gym is closed on weekdays.", Disagree},
		{"The café is open from 8 am to 4 pm and closed on Mondays.", "The café opens at 8 am and closes at 4 pm, and it is open on Mondays.", Disagree},
		{"The café is open from 8 am to 4 pm and closed on Mondays.", "The café opens at 8 am and closes at 4 pm; Mondays closed.", Agree},
		{"The pool opens at 6 and closes at 10.", "The pool is open from 6 to 10.", Agree},
		// The same span from its other end: the closings line up.
		{"The library opens at 8 am and closes at 8 pm.", "The library is closed from 8 pm to 8 am.", Agree},
		// A second closing is a rule of its own.
		{"The clinic is open from 9 to 5 on weekdays.", "The clinic opens at 9 and closes at 5 on weekdays, and closes at 1 on Fridays.", Disagree},
		{"The shop is open from 10 am to 6 pm every day.", "The shop opens at 10 am and closes at 6 pm, but closes at 4 pm on Sundays.", Disagree},
	})
}

// TestCutOffIsALimit: "cut-off" is a time limit, near "deadline" and
// "limit", so a question in those words finds the record of a cut-off;
// "cut off the supply" is still a cut.
func TestCutOffIsALimit(t *testing.T) {
	t.Parallel()
	lx := theLexicon()
	cut := analyze("the payroll cut-off").words()
	if !slices.Contains(cut, "cutoff") {
		t.Fatalf(`"cut-off" read as %v`, cut)
	}
	for _, w := range []string{"deadline", "limit"} {
		if !lx.near("cutoff", lx.fold(stem(w))) {
			t.Errorf(`"cut-off" is not near %q`, w)
		}
	}
	if lx.near(lx.fold(stem("deadline")), lx.fold(stem("limit"))) {
		t.Error(`"deadline" and "limit" became near in meaning through "cut-off"`)
	}
	if slices.Contains(analyze("Cut off the water supply before draining.").words(), "cutoff") {
		t.Error(`"cut off the supply" read as a cut-off`)
	}
	e := newEnv(t)
	e.fileRule(t, debate.LayerSpec, "20261206-spec-cutoff-aaaaaa", "Payroll cut-off for expense claims",
		"Expense claims must be approved by noon on the 20th to be paid with that month's salary.")
	checkFound(t, e, debate.LayerSpec, []foundCase{
		{"deadline", "Deadline for expense claims to reach payroll", "Expense claims must be approved by noon on the 20th to be paid with that month's salary.", CheckConsistent, "spec-payroll-cut-off-for-expense-claims"},
	})
}

// TestExclusives: "nobody but", "no one except", "no-one other than",
// "nothing but" say what "only" says, in the analysis and in an edit of
// the filed sentence; "anyone but" does not.
func TestExclusives(t *testing.T) {
	t.Parallel()
	const safe = "Only the shift supervisor may reset the cash safe code."
	checkAgreements(t, []agreementCase{
		{safe, "Nobody but the shift supervisor may reset the cash safe code.", Agree},
		{safe, "No one except the shift supervisor may reset the cash safe code.", Agree},
		{safe, "No-one other than the shift supervisor may reset the cash safe code.", Agree},
		{safe, "Nobody but the store manager may reset the cash safe code.", Disagree},
		{safe, "Anyone on shift may reset the cash safe code.", Disagree},
		{"Only distilled water goes in the autoclave reservoir.", "Nothing but distilled water goes in the autoclave reservoir.", Agree},
		{"Only distilled water goes in the autoclave reservoir.", "Nothing apart from distilled water goes in the autoclave reservoir.", Agree},
		{safe, "No-one apart from the shift supervisor may reset the cash safe code.", Agree},
		{"Only members may use the climbing wall after 8 pm.", "After 8 pm nobody except members may use the climbing wall.", Agree},
		{"Only members may use the climbing wall after 8 pm.", "After 8 pm anyone but members may use the climbing wall.", Disagree},
	})
}

// TestNobodyWithout: "nobody … without a helmet" is everyone with one, as
// "no stunt … without a paramedic" was, and "no laptop leaves …
// unencrypted" every laptop encrypted: the two negations cancel.
func TestNobodyWithout(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Riders must wear a helmet on the track at all times.", "Nobody goes on the track without a helmet.", Agree},
		{"Every pallet leaving the yard carries a signed delivery note.", "Nothing leaves the yard without a signed delivery note.", Agree},
		{"Nobody enters the clean room without a gown.", "Visitors may enter the clean room without a gown.", Disagree},
		{"Nobody enters the clean room without a gown.", "Everyone entering the clean room wears a gown.", Agree},
		// "no … unencrypted", "nobody … unsupervised" cancel too.
		{"Laptops are encrypted before they leave the office.", "No laptop leaves the office unencrypted.", Agree},
		{"Laptops are encrypted before they leave the office.", "Laptops may leave the office unencrypted.", Disagree},
		{"Work on the roof is always supervised.", "Nobody works unsupervised on the roof.", Agree},
		{"Nobody works unsupervised on the roof.", "Staff may work unsupervised on the roof.", Disagree},
		{"Unpaid invoices are never written off.", "No unpaid invoice is written off.", Agree},
		// An exception to "nobody … without" may do without.
		{"Nobody enters the plant room without a permit, unless accompanied by the engineer.", "Anyone accompanied by the engineer may enter the plant room without a permit.", Agree},
		{"Nothing is refunded without a receipt, except items that arrive broken.", "Items that arrive broken are refunded without a receipt.", Agree},
	})
}

// TestFreeAgainstAPrice: a thing given free on one side and priced on the
// other ("ship free" against "for a flat $5 fee") is a change; a price of
// something else beside "free" on both sides, a price denied ("won't cost
// a single lira") and "gluten-free" are none.
func TestFreeAgainstAPrice(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Orders over $50 ship free.", "Orders over $50 ship for a flat $5 fee.", Disagree},
		{"Returns are free within 30 days.", "Returns within 30 days cost £3.95.", Disagree},
		{"Entry is free for members.", "Members pay £5 to get in.", Disagree},
		{"Returns are free within 30 days.", "Returns within 30 days are free; after that a £3.95 fee applies.", Agree},
		{"Entry is free for members.", "Members get in free; guests pay £5.", Agree},
		{"The replacement card is free of charge.", "A replacement card won't cost you a single euro.", Agree},
	})
	findsNothing(t, compareFree, [][2]string{{"Every lunch box is gluten-free.", "Every lunch box costs £4."}})
}

// findsNothing checks that compare finds no difference between each pair
// of filed rule and position.
func findsNothing(t *testing.T, compare func(a, b *analysis) []string, pairs [][2]string) {
	t.Helper()
	for _, c := range pairs {
		if d := compare(analyze(c[0]), analyze(c[1])); len(d) > 0 {
			t.Errorf("%q against %q: %v", c[1], c[0], d)
		}
	}
}

// TestWholeWeek: "Monday to Friday" reworded as "weekdays" in an edit of
// the filed sentence is no change; "seven days a week" is the whole week,
// every day.
func TestWholeWeek(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The pharmacy counter is staffed Monday to Friday.", "The pharmacy counter is staffed on weekdays.", Agree},
		{"The pharmacy counter is staffed Monday to Friday.", "The pharmacy counter is staffed seven days a week.", Disagree},
		{"The pharmacy counter is staffed 7 days a week.", "The pharmacy counter is staffed every day of the week.", Agree},
		{"The pharmacy counter is staffed 7 days a week.", "The pharmacy counter is staffed on weekdays only.", Disagree},
		{"The climbing wall is open 7 days a week from 10 am.", "The climbing wall opens at 10 am every day.", Agree},
		{"The climbing wall is open 7 days a week from 10 am.", "The climbing wall opens at 10 am five days a week.", Disagree},
	})
}

// TestOnOffByDefault: "off by default" is "disabled by default", and "on
// by default" "enabled by default", in the analysis and in an edit;
// "default on a loan" is no setting.
func TestOnOffByDefault(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Location sharing is off by default.", "Location sharing is disabled by default.", Agree},
		{"Location sharing is off by default.", "Location sharing is on by default.", Disagree},
		{"New plugins ship behind a flag, off by default.", "Every new plugin is gated by a flag that is on by default.", Disagree},
		{"Location sharing is enabled by default.", "Location sharing is on by default.", Agree},
	})
	if a := analyze("Borrowers who default on a loan lose the discount."); slices.Contains(a.words(), theLexicon().fold(stem("enable"))) {
		t.Errorf(`"default on a loan" read as a setting: %v`, a.words())
	}
}
