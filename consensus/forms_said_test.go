package consensus

import "testing"

// TestDotTimes: "7.30 pm", "6.45am" and "7.30 in the morning" are times
// of day, as "19:30" is; "the 7.30 train" with no part of the day stays a
// number.
func TestDotTimes(t *testing.T) {
	t.Parallel()
	const kitchen = "The community kitchen serves hot meals from 6:30 pm and stops taking orders at 8:15 pm."
	const post = "Parcels handed in by 10:45 am go out the same day."
	checkAgreements(t, []agreementCase{
		{kitchen, "The community kitchen serves hot meals from 6.30pm and stops taking orders at 8.15 pm.", Agree},
		{kitchen, "Community kitchen serves hot meals from 6.30 in the evening and stops taking orders at 8.15 in evening.", Agree},
		{kitchen, "The community kitchen serves hot meals from 6.30 am and stops taking orders at 8.15 am.", Disagree},
		{kitchen, "The community kitchen serves hot meals from 7.30pm and stops taking orders at 8.15 pm.", Disagree},
		{post, "Parcels handed in by 10.45 in morning are sent on the same day.", Agree},
		{post, "Parcels handed in by 10.45 in the evening are sent on the same day.", Disagree},
	})
	if q := analyze("Take the 7.30 train to the depot.").qty; len(q) != 1 || q[0].dim == "clock" {
		t.Errorf("the 7.30 train: read as %+v, want one number that is no time of day", q)
	}
}

// TestHalfWithoutArticle: "one and half hour" and "2 and half days" are
// one and a half hours and two and a half days, as some write it.
func TestHalfWithoutArticle(t *testing.T) {
	t.Parallel()
	const soak = "Soak the chickpeas for at least 90 minutes before boiling."
	checkAgreements(t, []agreementCase{
		{soak, "Chickpeas must soak minimum one and half hour before they are boiled.", Agree},
		{soak, "Chickpeas must soak minimum one and half day before they are boiled.", Disagree},
		{"Loan tools come back within 2.5 days.", "Borrowed tools are returned inside 2 and half days.", Agree},
		{"Loan tools come back within 2.5 days.", "Borrowed tools are returned inside 2 days.", Disagree},
	})
}

// TestAndUpTo: "over 160 cm and up to 250 cm" bounds the size from above
// at 250 cm ("and up" alone, "18 and up", is a lower bound).
func TestAndUpTo(t *testing.T) {
	t.Parallel()
	const kayak = "Kayaks longer than 3 m and no longer than 5 m go on the upper rack."
	checkAgreements(t, []agreementCase{
		{kayak, "A kayak over 3 m and up to 5 m long is stored on the upper rack.", Agree},
		{kayak, "A kayak over 3 m and at least 5 m long is stored on the upper rack.", Disagree},
		{"The climbing wall is open to children aged 8 and up.", "Children 8 years and older may use the climbing wall.", Agree},
	})
}

// TestYearGroupsAreNames: "a Year 6 monitor" and "a Week 2 quiz" name a
// year group and a week of a course; "a year" alone is a length of time.
func TestYearGroupsAreNames(t *testing.T) {
	t.Parallel()
	const lunch = "A Year 6 helper may serve at the salad bar while a dinner lady is present."
	checkAgreements(t, []agreementCase{
		{lunch, "Year 6 helpers can serve at the salad bar as long as a dinner lady is there.", Agree},
		{lunch, "Year 5 helpers can serve at the salad bar as long as a dinner lady is there.", Disagree},
	})
	for _, q := range analyze("A Week 2 quiz is marked by the tutor.").qty {
		if q.dim == "time" {
			t.Errorf("a Week 2 quiz: read a length of time %+v", q)
		}
	}
	if q := analyze("Members renew once a year.").qty; len(q) == 0 || q[0].dim != "time" {
		t.Errorf("once a year: read as %+v, want a period", q)
	}
}

// TestFirstStretch: "in the first hour" is the first 60 minutes; "on the
// first day of term" names a day and is no length of time.
func TestFirstStretch(t *testing.T) {
	t.Parallel()
	const pool = "Swimmers may not leave the pool during the first 60 minutes of the gala."
	checkAgreements(t, []agreementCase{
		{pool, "No swimmer leaves the pool in the first hour of the gala.", Agree},
		{pool, "No swimmer leaves the pool in the first two hours of the gala.", Disagree},
	})
	for _, q := range analyze("Lockers are assigned on the first day of term.").qty {
		if q.dim == "time" {
			t.Errorf("on the first day of term: read a length of time %+v", q)
		}
	}
}

// TestSpeedInWords: "thirty miles an hour" and "50 kilometres per hour"
// are speeds, as "30 mph" and "50 km/h" are.
func TestSpeedInWords(t *testing.T) {
	t.Parallel()
	const cones = "Traffic cones are set out when the limit on the road is above 40 mph."
	checkAgreements(t, []agreementCase{
		{cones, "Cones go out if the road's limit is higher than forty miles an hour.", Agree},
		{cones, "Cones go out if the road's limit is higher than forty kilometres an hour.", Disagree},
		{"Site vehicles keep below 15 km/h.", "Vehicles on site stay under 15 kilometres per hour.", Agree},
		{"Site vehicles keep below 15 km/h.", "Vehicles on site stay under 15 miles per hour.", Disagree},
	})
}

// TestAmountGluedToItsCode: "EUR50", "GBP12" give the amount after the
// code of its currency, as fare tables write it.
func TestAmountGluedToItsCode(t *testing.T) {
	t.Parallel()
	const bike = "A folding bike travels free; a full-size bike costs 12 euros per journey."
	checkAgreements(t, []agreementCase{
		{bike, "FOLDING BIKE FREE / FULL SIZE BIKE EUR12 PER JOURNEY", Agree},
		{bike, "FOLDING BIKE FREE / FULL SIZE BIKE EUR15 PER JOURNEY", Disagree},
		{bike, "FOLDING BIKE FREE / FULL SIZE BIKE GBP12 PER JOURNEY", Disagree},
	})
	if _, _, ok := codeAmount("abc123"); ok {
		t.Error("abc123 read as an amount")
	}
}

// TestAgentConfidence: the confidence an agent appends to its answer
// ("Confidence: 0.8", "(confidence: high)") grades the answer and is no
// number of the rule; a rule about confidence keeps it.
func TestAgentConfidence(t *testing.T) {
	t.Parallel()
	const hives = "Inspect each hive every 7 days between April and August."
	checkAgreements(t, []agreementCase{
		{hives, "Plan: inspect every hive once every 7 days from April to August. Confidence: 0.8", Agree},
		{hives, "Every hive is inspected weekly, April through August (confidence: high)", Agree},
		{hives, "Plan: inspect every hive once every 10 days from April to August. Confidence: 0.8", Disagree},
		{"A household may keep at most 3 cats.", "A household may keep at most 3 cats. Confidence: 0.8", Agree},
		{"A household may keep at most 3 cats.", "A household may keep at most 4 cats. Confidence: 0.8", Disagree},
		{"Escalate a transcription when the model's confidence is below 0.8.", "Escalate a transcription when the model's confidence is below 0.6.", Disagree},
	})
}

// TestAnnouncementGreeting: "Ladies and gentlemen, …" and "Thank you."
// around an announcement add nothing to the rule.
func TestAnnouncementGreeting(t *testing.T) {
	t.Parallel()
	const ferry = "Vehicle decks close 20 minutes before the ferry sails."
	checkAgreements(t, []agreementCase{
		{ferry, "Ladies and gentlemen, the vehicle decks will close twenty minutes before sailing. Thank you.", Agree},
		{"Lifeguards check the changing rooms every 30 minutes, and any bag left there overnight is taken to lost property.",
			"Ladies and gentlemen, our lifeguards will check the changing rooms every thirty minutes. Any bag left there overnight will be taken to lost property. Thank you.", Agree},
		{"Lifeguards check the changing rooms every 30 minutes, and any bag left there overnight is taken to lost property.",
			"Ladies and gentlemen, our lifeguards will check the changing rooms every hour. Any bag left there overnight will be taken to lost property. Thank you.", Disagree},
		{ferry, "Ladies and gentlemen, the vehicle decks will close ten minutes before sailing. Thank you.", Disagree},
	})
}

// TestSpreadsheetTimes: a spreadsheet's TIME(h,m,s) taken from a time is
// that long before it; compared with a time, a time of day.
func TestSpreadsheetTimes(t *testing.T) {
	t.Parallel()
	const cutoff = "Market traders must be set up 45 minutes before opening."
	checkAgreements(t, []agreementCase{
		{cutoff, `=B2-TIME(0,45,0)  // latest set-up for traders, B2 = opening time`, Agree},
		{cutoff, `=B2-TIME(0,15,0)  // latest set-up for traders, B2 = opening time`, Disagree},
		{"Late fees apply to returns after 17:00.", `=IF(return_time>TIME(17,0,0), "late fee", "")`, Agree},
		{"Late fees apply to returns after 17:00.", `=IF(return_time>TIME(18,0,0), "late fee", "")`, Disagree},
	})
}

// TestNumbersTradedWithTheCondition: two numbers that traded places
// between the rule and its condition change the rule; a rewording that
// moves the condition keeps each number on its side.
func TestNumbersTradedWithTheCondition(t *testing.T) {
	t.Parallel()
	const nursery = "Each room holds between 6 and 10 children, except during the summer scheme, when up to 16 are allowed."
	checkAgreements(t, []agreementCase{
		{nursery, "Rooms take 6 to 16 children normally, and up to 10 during the summer scheme.", Disagree},
		{nursery, "Rooms take 6 to 10 children normally, and up to 16 during the summer scheme.", Agree},
	})
}

// TestLinkedData: a rule kept as Turtle (":Thing :property value ;")
// reads as its properties and values, camelCase names split into words.
func TestLinkedData(t *testing.T) {
	t.Parallel()
	const sauna = "The sauna is heated to between 80 °C and 90 °C, and towels are provided free of charge."
	const kiln = "Members may fire the kiln only after induction, and firings end by 9 pm."
	checkAgreements(t, []agreementCase{
		{sauna, `:GymSauna :minTemperatureC 80 ; :maxTemperatureC 90 ; :towelsProvided true ; :towelCharge :FreeOfCharge .`, Agree},
		{sauna, `:GymSauna :minTemperatureC 70 ; :maxTemperatureC 90 ; :towelsProvided true ; :towelCharge :FreeOfCharge .`, Disagree},
		{sauna, `:GymSauna :minTemperatureC 80 ; :maxTemperatureC 90 ; :towelsProvided false .`, Disagree},
		{kiln, `ex:KilnUse ex:requiresInduction true ; ex:firingsEndBy "21:00" .`, Agree},
	})
	if got := turtleValues("Note: keep it: simple; ok."); got != "Note: keep it: simple; ok." {
		t.Errorf("plain text rewritten as linked data: %q", got)
	}
}

// TestRuleLabel: "Rule:", "Key rule:" and "Remember:" before a position
// label it, as "The rule:" and "Reminder:" do.
func TestRuleLabel(t *testing.T) {
	t.Parallel()
	const dogs = "Dogs are allowed in the beer garden but not inside the pub."
	checkAgreements(t, []agreementCase{
		{dogs, "Rule: dogs are allowed in the beer garden but not inside the pub.", Agree},
		{dogs, "Rule: dogs are allowed inside the pub but not in the beer garden.", Disagree},
		{dogs, "Remember: dogs are allowed in the beer garden but not inside the pub.", Agree},
		{dogs, "Key rule: dogs are allowed in the beer garden but not inside the pub.", Agree},
	})
}

// TestEmailSpelledWithHyphen: "e-mail" is "email" in an edit of the
// filed sentence too.
func TestEmailSpelledWithHyphen(t *testing.T) {
	t.Parallel()
	const minutes = "The clerk sends the minutes to every councillor by email within 5 working days."
	checkAgreements(t, []agreementCase{
		{minutes, "The clerk sends the minutes to every councillor by e-mail within 5 working days.", Agree},
		{minutes, "The clerk sends the minutes to every councillor by post within 5 working days.", Disagree},
	})
}

// TestPoundsSaidAsNotes: "a tenner" and "a fiver" are £10 and £5.
func TestPoundsSaidAsNotes(t *testing.T) {
	t.Parallel()
	const deposit = "Members pay a £10 deposit for a locker key, refunded when the key is returned."
	checkAgreements(t, []agreementCase{
		{deposit, "Members put down a tenner for a locker key and get it back when they hand the key in.", Agree},
		{deposit, "Members put down a fiver for a locker key and get it back when they hand the key in.", Disagree},
	})
}

// TestCodeForms: a Lisp association list ("(max-nights . 14)", "#t") and
// a designated initializer (".max_nights = 14") give keys and values as a
// configuration does.
func TestCodeForms(t *testing.T) {
	t.Parallel()
	const kennel = "Dogs stay at most 14 nights, check-in is from 2 pm, and vaccination certificates are required."
	checkAgreements(t, []agreementCase{
		{kennel, `'((max-nights . 14) (check-in-from . "14:00") (vaccination-certificate-required . #t))`, Agree},
		{kennel, `'((max-nights . 21) (check-in-from . "14:00") (vaccination-certificate-required . #t))`, Disagree},
		{kennel, `const kennel = .{ .max_nights = 14, .check_in_from = "14:00", .vaccination_certificate_required = true };`, Agree},
		{kennel, `const kennel = .{ .max_nights = 14, .check_in_from = "14:00", .vaccination_certificate_required = false };`, Disagree},
	})
	if got := codeForms("See fig. 3 (left . right) and x.y = 2"); got != "See fig. 3 (left . right) and x.y = 2" {
		t.Errorf("prose rewritten: %q", got)
	}
}

// TestAgentSections: an answer in labelled sections ("Assumptions: …
// Rule: … Next action: …", "DECISION: … BECAUSE: …") is its rule section;
// a LaTeX table row's rules and row end are no words of the rule.
func TestAgentSections(t *testing.T) {
	t.Parallel()
	const kennel = "Dogs stay at most 14 nights, check-in is from 2 pm, and vaccination certificates are required."
	checkAgreements(t, []agreementCase{
		{kennel, "Assumptions: the owner books online. Rule: dogs stay 14 nights at most, check in from 2 pm, vaccination certificate required. Next action: confirm the booking.", Agree},
		{kennel, "Assumptions: the owner books online. Rule: dogs stay 21 nights at most, check in from 2 pm, vaccination certificate required. Next action: confirm the booking.", Disagree},
		{kennel, "DECISION: dogs stay 14 nights at most, check-in from 2 pm, vaccination certificates required. BECAUSE: the kennel has limited space.", Agree},
		{kennel, `Dog stays at most 14 nights & check-in from 2 pm & vaccination certificate required \\ \hline`, Agree},
		{kennel, `Dog stays at most 14 nights & check-in from 3 pm & vaccination certificate required \\ \hline`, Disagree},
	})
	if got := ruleSection("Because: x. Why: y."); got != "Because: x. Why: y." {
		t.Errorf("sections without a rule rewritten: %q", got)
	}
}
