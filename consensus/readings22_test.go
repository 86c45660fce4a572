package consensus

import (
	"slices"
	"strings"
	"testing"
)

// TestConditionInAnotherForm: a condition whose words the filed rule says
// in another form of the same word ("a reaction" and "if you react",
// "at collection" and "when it is collected", "the last players" and "the
// last ones playing") is the rule said as a condition, not a condition
// added. A condition with words of its own is still one.
func TestConditionInAnotherForm(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A diner with any reaction to the tasting course is offered the plain menu for the rest of the evening.",
			"If a diner reacts at all to the tasting course, they get the plain menu for the rest of the evening.", Agree},
		{"Parcels that are more than 5 kg at collection are charged the heavy rate.",
			"If a parcel weighs more than 5 kg when it is collected, it is charged the heavy rate.", Agree},
		{"After every lift inspection the engineer signs the logbook in the plant room.",
			"When they inspect a lift, the engineer signs the logbook in the plant room.", Agree},
		{"The last players on the court must switch the floodlights off.",
			"If you're the last ones playing on the court, switch the floodlights off.", Agree},
		{"Any objection to a planning notice is logged by the clerk.",
			"If anyone objects to a planning notice, the clerk logs it.", Agree},
		// Words of its own: a condition added or dropped.
		{"A diner with any reaction to the tasting course is offered the plain menu for the rest of the evening.",
			"If a diner complains to the manager, they get the plain menu for the rest of the evening.", Disagree},
		{"The last players on the court must switch the floodlights off.",
			"If it is raining, the last players on the court must switch the floodlights off.", Disagree},
		{"After every lift inspection the engineer signs the logbook in the plant room.",
			"After every lift inspection the engineer signs the logbook in the plant room, if the building manager is on site.", Disagree},
		// A form of the rule's own subject ("cleaners", "when cleaning"),
		// or a condition with a word of its own beside the form, is a
		// condition added.
		{"Window cleaners wear a harness on the roof.", "Window cleaners wear a harness on the roof when cleaning skylights.", Disagree},
		{"Drivers log their hours on the tablet.", "Drivers log their hours on the tablet if they drive abroad.", Disagree},
		{"Officers carry a radio on patrol.", "Officers carry a radio on patrol when away from the office.", Disagree},
		// A condition the rule holds in anyway ("even if") is no form of
		// the rule's words.
		{"Only members signed off on the kiln induction may fire the kiln, and they stay in the room while it heats.",
			"Only full members signed off on the kiln induction may fire the kiln (associate members may not, even if inducted), and they stay in the room while it heats.", Disagree},
	})
	// One word of two said in another form ("informed" and "informal")
	// does not say the condition.
	for _, p := range [][2]string{
		{"Informal meetings need no minutes.", "Meetings need no minutes if the chair is informed."},
		{"Meetings need no minutes if the chair is informed.", "Informal meetings need no minutes."},
	} {
		if c := ComparePositions(p[0], p[1]); c.Agreement == Agree {
			t.Errorf("%q against %q: %v, want no agreement", p[1], p[0], c.Agreement)
		}
	}
	for _, c := range []struct {
		short, long string
		want        bool
	}{
		{"react", "reaction", true}, {"collect", "collection", true}, {"fact", "factual", true},
		{"play", "player", true}, {"inspect", "inspector", true}, {"allergi", "allergic", true},
		{"react", "reactor", true}, {"fact", "factory", false}, {"play", "playground", false},
		{"lat", "later", false}, {"cost", "costume", false}, {"react", "react", false},
	} {
		if got := kin(c.short, c.long); got != c.want {
			t.Errorf("kin(%q, %q) = %v, want %v", c.short, c.long, got, c.want)
		}
	}
}

// TestEveryCaseForTheTopicsOne: where the filed rule names the one case
// the record's topic is about and a position says its rule of every case
// ("intimate examinations" → "all examinations", "after a filter
// change" → "after any repair"), the rule is widened, not the object
// named in other words. Without "all", "any" or "every" the topic's
// words are still only left out or named otherwise.
func TestEveryCaseForTheTopicsOne(t *testing.T) {
	t.Parallel()
	checkAgreementsOn(t, "Supervision of evening pottery classes", []agreementCase{
		{"Evening pottery classes must have a first-aider on site.", "All classes must have a first-aider on site.", Disagree},
		{"Evening pottery classes must have a first-aider on site.", "Any class must have a first-aider on site.", Disagree},
		{"Evening pottery classes must have a first-aider on site.", "Classes must have a first-aider on site.", Agree},
		{"Evening pottery classes must have a first-aider on site.", "The evening sessions must have a first-aider on site.", Agree},
		{"All evening pottery classes must have a first-aider on site.", "All classes in the evening must have a first-aider on site.", Agree},
	})
	checkAgreementsOn(t, "Leak test after changing a dishwasher pump", []agreementCase{
		{"After a dishwasher pump change the technician runs a rinse cycle and checks for leaks.",
			"After every repair on a dishwasher the technician runs a rinse cycle and checks for leaks.", Disagree},
		{"After a dishwasher pump change the technician runs a rinse cycle and checks for leaks.",
			"After the pump job the technician runs a rinse cycle and checks for leaks.", Agree},
	})
	for _, c := range []struct {
		change string
		want   bool
	}{
		{"Intimate examinations → All examinations", true},
		{"overnight sailing → any sailing", true},
		{"all staff → every staff member", false},
		{"east wing → eastern block, all floors", false},
		{"unlimited → any number", false},
		{"full → all the money", false},
		{"night shifts → shifts", false},
		{"no arrow here", false},
	} {
		if got := everyCase(c.change); got != c.want {
			t.Errorf("everyCase(%q) = %v, want %v", c.change, got, c.want)
		}
	}
}

// TestSaveAndNotCountingExcept: "save" that opens its clause before "for",
// "on", "in", "at" or "during" is "except", as "save where" is; "not
// counting" is "excluding". "save" inside a clause ("save on fuel") and
// "not counted towards" are no exception.
func TestSaveAndNotCountingExcept(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Lockers are emptied every Friday evening, except during the exam weeks.",
			"Lockers are emptied each Friday evening, save during the exam weeks.", Agree},
		{"The ferry sails every hour, except on public holidays.", "The ferry leaves hourly, save on public holidays.", Agree},
		{"The ferry sails every hour, except on public holidays.", "The ferry leaves hourly, public holidays included.", Disagree},
		{"Volunteers get 20 days of leave a year, public holidays excluded.", "volunteers: 20 days leave per year not counting public holidays", Agree},
		{"Volunteers get 20 days of leave a year including public holidays.", "volunteers: 20 days leave per year not counting public holidays", Disagree},
		{"Volunteers get 20 days of leave a year including public holidays.", "Volunteers get 20 days of leave a year, public holidays included.", Agree},
	})
	for _, c := range []struct {
		text string
		want bool // read as an exception
	}{
		{"Lockers are emptied on Fridays, save during exam weeks.", true},
		{"Lockers are emptied on Fridays, save for the staff lockers.", true},
		{"Drivers who save on fuel get a bonus.", false},
		{"Leave is 20 days, not counting bank holidays.", true},
		{"Sick days are not counted towards the 20 days.", false},
	} {
		a := analyze(c.text)
		if got := slices.ContainsFunc(a.conds, func(cd condition) bool { return cd.kind == "unless" }); got != c.want {
			t.Errorf("%q: an exception read %v, want %v (%+v)", c.text, got, c.want, a.conds)
		}
	}
}

// TestDeferredFrom: "deferred from donating" and "a deferral from
// donating" keep the donor from it, as "barred from" does: "cannot donate"
// says the same, "may donate" changes it.
func TestDeferredFrom(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Donors with a recent tattoo are deferred from donating for 4 months.", "If you've had a tattoo recently you can't donate for 4 months.", Agree},
		{"Donors with a recent tattoo are deferred from donating for 4 months.", "Donors with a recent tattoo get a 4-month deferral from donating.", Agree},
		{"Donors with a recent tattoo are deferred from donating for 4 months.", "Donors with a recent tattoo can donate straight away.", Disagree},
		{"Pilots who fail the medical are deferred from flying until a review.", "A pilot who fails the medical may keep flying until a review.", Disagree},
	})
	// Both readers judge a deferral alike (deferralBars): the surface
	// tokens say the bar where the analysis does, and only there.
	for _, c := range []struct {
		text string
		bars bool
	}{
		{"Donors are deferred from donating for 3 months.", true},
		{"Donors get a deferral from donating for 3 months.", true},
		{"Course starts are deferred from opening day to the Monday.", false},
		{"Shops get a deferral from paying rates until April.", false},
	} {
		neg := slices.ContainsFunc(surfaceTokens(c.text), func(t surfaceTok) bool { return t.key == "@neg" })
		if neg != c.bars {
			t.Errorf("surfaceTokens(%q) reads a bar %v, want %v", c.text, neg, c.bars)
		}
	}
}

// TestExceptionSaidIncluded: an exception of the filed rule that a
// position names as included ("pens and calendars included", "including
// the staff car park", "even the guide dogs") is dropped, as one stated
// plainly in the rule is. Said as an exception again, or only mentioned
// beside a negation, it stays.
func TestExceptionSaidIncluded(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Every bag is searched at the gate; clear plastic bags are exempt.",
			"Every bag, clear plastic bags included, is searched at the gate.", Disagree},
		{"All vans are washed on Mondays, except the refrigerated vans.",
			"All vans, including the refrigerated vans, are washed on Mondays.", Disagree},
		{"Dogs are not allowed in the cafe, except guide dogs.",
			"No dogs in the cafe at all, not even guide dogs.", Disagree},
		{"Every bag is searched at the gate; clear plastic bags are exempt.",
			"Bags get searched at the gate, but clear plastic ones are exempt.", Agree},
		{"All vans are washed on Mondays, except the refrigerated vans.",
			"Vans, including the ones on loan, are washed on Mondays, apart from the refrigerated vans.", Agree},
	})
}

// TestSetAsideWhatTheRuleNames: a position that says a thing the filed
// rule speaks of does not matter ("booked or not", "whether or not it is
// a weekend", "receipt or no receipt", "no matter when") sets the rule's
// qualifier aside, though the rule states it with no condition word
// ("members who have not booked", "weekday visits"). A "whatever" that
// names a thing ("whatever is left over") sets nothing aside, nor a phrase
// about a thing the rule does not speak of.
func TestSetAsideWhatTheRuleNames(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A member who turns up without booking pays the drop-in rate of 8 pounds.",
			"drop-in rate is 8 pounds for anyone who turns up, booked or not", Disagree},
		{"Returns without a receipt get store credit only.",
			"Returns get store credit only, receipt or no receipt.", Disagree},
		{"Season tickets bought in the last 30 days are refunded in full.",
			"Season tickets are refunded in full, no matter when they were bought.", Disagree},
		{"Weekday visits to the archive need an appointment.",
			"Visits to the archive need an appointment, whether or not it is a weekday.", Disagree},
		{"Leftover soup is frozen in labelled tubs at the end of service.",
			"At the end of service whatever soup is left over goes into labelled tubs in the freezer.", Agree},
	})
	for _, c := range []struct{ text, want string }{
		{"the fee is 8 pounds, booked or not", "booked or not"},
		{"store credit only, receipt or no receipt.", "receipt or no receipt"},
		{"credit or no credit", "credit or no credit"},
		{"a yes or no answer", ""},
	} {
		if got := disregards(c.text); !strings.HasSuffix(got, c.want) || c.want == "" && got != "" {
			t.Errorf("disregards(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestNotExceptionsAfterAll: the words these readings take for an
// exception or a bar in their other uses. "save" as the verb (after a
// label's colon, "save at least", "save for retirement"), "not counting"
// as a verb ("the counter is not counting"), a deferral that puts a
// payment off, "discouraged from" (a recommendation, not a bar), "all"
// before a plural that says all already.
func TestNotExceptionsAfterAll(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Reporters must save drafts in the newsroom folder, not on their laptops.",
			"Reporters: save in the newsroom folder, never on your laptop.", Agree},
		{"Members save at least 10% on tickets bought before May.",
			"On tickets bought before May, members save at least 10%.", Agree},
		{"The footfall counter stops counting when the doors are locked.",
			"When the doors are locked the footfall counter is not counting.", Agree},
		{"Sick days with a note do not count towards the absence limit.",
			"Sick days with a note are not counting towards the absence limit.", Agree},
		{"Course starts are deferred from the first Monday to the second Monday of term.",
			"Courses start on the second Monday of term instead of the first.", Agree},
		{"Visitors are discouraged from feeding the ducks.",
			"Feeding the ducks is discouraged.", Agree},
		{"Ferries leave every hour, except in January.", "All ferries leave every hour, save in January.", Agree},
		{"Quotes exclude delivery.", "Quotes: delivery excluded.", Agree},
		// The bars these readings do read.
		{"Riders who fail the vet check are deferred from racing for 7 days.", "A rider who fails the vet check may race the next day.", Disagree},
		{"Riders who fail the vet check get a deferral from racing for 7 days.", "Riders who fail the vet check are barred from racing for 7 days.", Agree},
	})
	for _, c := range []struct {
		text string
		want int
	}{
		{"a deferral from racing for 7 days", 2},
		{"a deferral from paying business rates", 0},
		{"deferred from donating for 3 months", 2},
		{"deferred from opening day to the Monday", 0},
		{"discouraged from feeding the ducks", 0},
	} {
		toks := lex(c.text)
		i := slices.IndexFunc(toks, func(t rawTok) bool { return strings.HasPrefix(t.low, "defer") || t.low == "discouraged" })
		if got := barrierAt(toks, i); got != c.want {
			t.Errorf("barrierAt(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestTradedNamesOfSeveralWords: two names of several words that trade
// places ("the shift supervisor … the duty nurse" → "the duty nurse … the
// shift supervisor") align too little to read as an edit, and were read as
// a rewording; they trade roles as one-word names do.
func TestTradedNamesOfSeveralWords(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The shift supervisor calls the ward and visits with the duty nurse.",
			"The duty nurse calls the ward and visits with the shift supervisor.", Disagree},
		{"The night porter locks the gate and checks it with the estates officer.",
			"The estates officer locks the gate and checks it with the night porter.", Disagree},
		{"The shift supervisor signs the controlled drugs book and the duty nurse countersigns it.",
			"The controlled drugs book is signed by the shift supervisor and countersigned by the duty nurse.", Agree},
		{"Tea and fresh coffee are served at the morning break.", "Fresh coffee and tea are served at the morning break.", Agree},
	})
}

// TestIncludedSetAsideAndAllWhereNot: what a third review found these
// readings taking in. "including" and "even" mark the exception only
// right before it, "included" only right after it at the end of its
// clause; "regardless of" sets aside its next two words, not the rule's
// own subject; "all" under a condition or a negation, "any" for a thing
// the other side names, and "each" per item are changes.
func TestIncludedSetAsideAndAllWhereNot(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		// "even" and "including" in other roles.
		{"Trams run every 10 minutes, except on Sundays.", "Trams run every 10 minutes; on Sundays they run only at even hours.", Agree},
		{"Every member may vote at the meeting, except honorary members.",
			"Members vote at the meeting. Honorary members are included in the count but do not vote.", Agree},
		// The rule's own subject, or a thing it says of every case.
		{"Parcels are scanned at the depot before loading.", "Every parcel is scanned at the depot before loading, regardless of parcel size.", Agree},
		{"The outdoor market opens at 8 in all weather.", "Regardless of the weather the outdoor market opens at 8.", Agree},
		// "all", "any" and "each" that change the rule.
		{"Evacuate the hall when the alarms sound.", "Evacuate the hall when all alarms sound.", Disagree},
		{"The bot does not answer questions about refunds.", "The bot does not answer all questions about refunds.", Disagree},
		{"If the fire alarm sounds, lifts return to the ground floor.", "If any fire alarm sounds, lifts return to the ground floor.", Disagree},
		{"Guests must check out by 11 am.", "All guests must check out by 11 am.", Agree},
		{"Drivers log the mileage of the vans.", "Drivers log the mileage of all the vans.", Agree},
	})
}

// TestExceptionRestatedWithItsRule: an exception whose own rule the other
// side states ("except the staff car park, which is gritted by 6 am"
// against "the staff car park gets gritted by 6 am") or which it labels
// as one ("Exception: …") is said again, not turned by a negation. The
// exception's thing put under the rule, or given another rule, still is.
func TestExceptionRestatedWithItsRule(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Paths are gritted by 8 am on icy days, except the staff car park, which is gritted by 6 am.",
			"On icy days we grit the paths by 8 am; the staff car park gets done earlier, by 6 am.", Agree},
		{"Residents pay the full fee for garden waste bins, except pensioners, who pay half.",
			"Garden waste bins cost residents the full fee. Exception: pensioners pay half.", Agree},
		{"Every entrant pays the 20 EUR race fee, except club juniors, who run free.",
			"entry fee 20 EUR for every runner; club juniors run free", Agree},
		{"Parents must stop all cough syrups 3 days before the sleep study, except prescribed steroids, which are taken as normal.",
			"sleep_study_prep: stop => ['cough syrups'], stop_days_before => 3, continue_as_normal => ['prescribed steroids']", Agree},
		{"Every rider taps a card on the reader before boarding, except toddlers under 3, who ride free.",
			"Before boarding every rider must tap the card on the reader; toddlers younger than three ride free and don't need it.", Agree},
		// A sibling labelled the exception instead, or the exception
		// labelled but negated.
		{"Every entrant pays the 20 EUR race fee, except club juniors, who run free.",
			"Every entrant pays the 20 EUR race fee. Exception: club veterans run free; there's no discount for anyone else.", Disagree},
		{"Stop all blood thinners 5 days before surgery, except low-dose aspirin, which is continued.",
			"Stop all blood thinners 5 days before surgery. Exception: high-dose aspirin is continued, not the low-dose one.", Disagree},
		// The exception's thing under the rule, or with another rule.
		{"Lockers are emptied every Friday, except staff lockers, which are emptied monthly.",
			"Lockers are emptied every Friday; staff lockers are emptied every Friday too.", Disagree},
		{"Every entrant pays the 20 EUR race fee, except club juniors, who run free.",
			"Every entrant pays the 20 EUR race fee, club juniors too.", Disagree},
		{"Paths are gritted by 8 am on icy days, except the staff car park, which is gritted by 6 am.",
			"On icy days we grit the paths by 8 am; the staff car park gets done by 10 am.", Disagree},
	})
}

// TestConditionSaidByItsTime: a condition of one word and a length of
// time ("if she is older than 65 years", "if younger than 5 years") whose
// time the other side states is said again ("anyone over 65", "children
// under 5"), as a measure of distance or weight was. Another time, or a
// condition with words of its own, still changes the rule.
func TestConditionSaidByItsTime(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Anyone over 65 gets the flu jab free at the pharmacy.",
			"At the pharmacy, if she is older than 65 years, the flu jab is free.", Agree},
		{"Children under 5 travel free on the ferry.",
			"On the ferry, if a child is younger than 5 years, they travel free.", Agree},
		{"Anyone over 65 gets the flu jab free at the pharmacy.",
			"At the pharmacy, if she is older than 70 years, the flu jab is free.", Disagree},
		{"Anyone over 65 gets the flu jab free at the pharmacy.",
			"At the pharmacy, if she is older than 65 years and registered with the surgery, the flu jab is free.", Disagree},
	})
}
