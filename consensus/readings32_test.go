package consensus

import (
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestNegationWithForce: "at any time", "at any point", "ever", "under
// any circumstances" and "for any reason" after a negation only say the
// negation with force: "cannot be claimed at any time" is "never
// claimable", "may not be used under any circumstances" no bound ("not
// under"), while a permission "at any time" and a negation of "always"
// stay what they were.
func TestNegationWithForce(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The normal commute is never claimable.", "The normal commute cannot be claimed at any time.", Agree},
		{"Fire doors must never be propped open.", "Fire doors must not be propped open at any point.", Agree},
		{"Staff must not share passwords at any time.", "Staff must never share passwords.", Agree},
		{"Company cards are never used for personal purchases.", "Company cards may not be used for personal purchases under any circumstances.", Agree},
		{"Deposits are non-refundable.", "Deposits won't ever be refunded, for any reason.", Agree},
		{"pls never leave the till open", "the till must not be left open at any time!!", Agree},
		{"Do not call customers after 8 pm.", "Don't ring customers at any point after 8pm.", Agree},

		{"The normal commute is never claimable.", "The normal commute can be claimed at any time.", Disagree},
		{"Staff must not share passwords at any time.", "Staff may share passwords at any time.", Disagree},
		{"Company cards are never used for personal purchases.", "Company cards may be used for personal purchases in any circumstances.", Disagree},
		{"The normal commute is not always claimable.", "The normal commute cannot be claimed at any time.", Disagree},
		{"Do not call customers after 8 pm.", "Don't ring customers at any point after 9pm.", Disagree},
	})
	// "not under any circumstances" is no bound: nothing is at least
	// anything.
	for _, q := range analyze("Company cards may not be used under any circumstances.").qty {
		t.Errorf("read a quantity %q", q.text)
	}
	for _, w := range analyze("Company cards may not be used under any circumstances.").words() {
		if w == "atleast" || w == "circumstanc" {
			t.Errorf("read %q", w)
		}
	}
}

// TestTopicWordFamilies: a topic may name the people of an act or the
// act ("minibus drivers", "who may drive the minibus"; "leavers",
// "when leaving"), a quality or the thing that has it ("eligibility",
// "who is eligible"; "seasonal staff", "staff for the season"): another
// word of one family counts for most of a shared one. Another object is
// still another question.
func TestTopicWordFamilies(t *testing.T) {
	t.Parallel()
	topicsFound(t, [][2]string{
		{"who may drive the minibus", "minibus drivers"},
		{"when are owners reminded about the MOT renewal", "reminders for MOT renewal"},
		{"who is eligible for the hardship fund", "eligibility for the hardship fund"},
		{"season staff contracts", "seasonal staff contracts"},
		{"key return for leavers", "returning keys when leaving"},
		{"is the venue accessible", "accessibility of the venue"},
		{"photography at weddings", "photographers at weddings"},
		{"pay for shearers", "what we pay for shearing"},
	})
	topicsApart(t, [][2]string{
		{"who may drive the minibus", "minibus parking"},
		{"eligibility for the hardship fund", "eligibility for the travel fund"},
		{"reminders for MOT renewal", "reminders for insurance renewal"},
		{"minimum age for minibus drivers", "maximum age for minibus drivers"},
	})
}

// TestTopicVerbAndNoun: a verb and its noun whose letters part after
// one stem ("extend" and "extension", "respond" and "response",
// "supervise" and "supervision", "describe" and "description",
// "explain" and "explanation", "publish" and "publication") and an
// adjective and its noun ("compliant" and "compliance", "urgent" and
// "urgency") are one family in a topic; "plan" and "plant", "star" and
// "start", "public" and "publish" are not.
func TestTopicVerbAndNoun(t *testing.T) {
	t.Parallel()
	topicsFound(t, [][2]string{
		{"who can extend a library loan", "library loan extensions"},
		{"how fast we respond to noise complaints", "response to noise complaints"},
		{"who supervises the climbing wall", "supervision of the climbing wall"},
		{"how to describe lost property in the log", "lost property descriptions in the log"},
		{"when a referee must explain a red card", "referee explanation of red cards"},
		{"when do we publish exam results", "publication of exam results"},
		{"are the food vans compliant with hygiene rules", "food van compliance with hygiene rules"},
		{"tenant deposit protection", "tenancy deposit protection"},
		{"how much may a checked bag weigh", "checked bag weight"},
		{"who is allowed to submit expense claims late", "late submission of expense claims"},
	})
	topicsApart(t, [][2]string{
		{"star ratings for volunteer drivers", "start times for volunteer drivers"},
		{"public access to the archive", "publishing the archive"},
		{"who can extend a library loan", "who can renew a library card"},
		{"supervision of the climbing wall", "booking the climbing wall"},
	})
	for _, p := range [][2]string{{"plan", "plant"}, {"star", "start"}, {"public", "publish"}, {"contact", "contract"}, {"process", "procedure"}} {
		if kin(p[0], p[1]) || kin(p[1], p[0]) {
			t.Errorf("%q and %q read as one family", p[0], p[1])
		}
	}
}

// TestAcronymSpelledOut: an acronym one topic spells out in the other
// asks about the words it stands for ("TOIL" and "time off in lieu",
// "DBS checks" and "Disclosure and Barring Service checks", "MTTR" and
// "mean time to recovery"), as the lookup's bridge reads them; letters
// joined to a number or a reference ("LN2", "2FA", "PJ-20931") stay as
// they are, and so do two letters the lexicon reads as a word ("CI" is
// no "customer integrations").
func TestAcronymSpelledOut(t *testing.T) {
	t.Parallel()
	topicsFound(t, [][2]string{
		{"TOIL usage", "using time off in lieu"},
		{"KIT days on maternity leave", "keeping-in-touch days during maternity leave"},
		{"AED checks at the pavilion", "automated external defibrillator checks at the pavilion"},
		{"PPE for the paint shop", "personal protective equipment in the paint shop"},
		{"DBS checks for volunteers", "Disclosure and Barring Service checks for volunteers"},
		{"RTC callouts on the motorway", "road traffic collision callouts on the motorway"},
		{"checkout MTTR goal", "mean time to recovery target for the checkout service"},
		{"road traffic collision callouts on the motorway", "RTC callouts on the motorway"},
		{"when do SEN pupils get a taxi escort", "taxi escorts for special educational needs pupils"},
	})
	topicsApart(t, [][2]string{
		{"TOIL usage", "using time off for illness"},
		{"PPE for the paint shop", "personal protective equipment in the print shop"},
		{"RTC callouts on the motorway", "RTC callouts on the A-roads"},
		{"Lifetime of API keys for customer integrations", "Lifetime of API keys for CI bots"},
	})
	for _, p := range [][2]string{
		{"LN2 level checks - embryo tanks", "liquid nitrogen level checks on embryo tanks"},
		{"Do admins need 2FA?", "Two-factor authentication for admins"},
		{"Cancellation of my charter flight, booking ref PJ-20931", "Cancellation charges for private jet charter bookings"},
		{"COVID-19 testing for crew", "crew vaccination"},
	} {
		if got, changed := spellOut(p[0], p[1]); changed {
			t.Errorf("%q against %q spelled out as %q", p[0], p[1], got)
		}
	}
}

// TestCheckFindsAnAcronym: a question that names a record's topic by its
// acronym finds it in a vault of other records, whether the record or
// the question spells it out, and not the record beside it that shares
// its other words ("Retention of the payments audit log").
func TestCheckFindsAnAcronym(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	file := func(id, topic, position string) { e.fileRule(t, debate.LayerSpec, id, topic, position) }
	file("20261130-spec-dlq-aaaaaa", "Retention in the dead letter queue of the payments consumer", "Events in the payments dead letter queue are kept for 14 days, then deleted.")
	file("20261130-spec-toil-aaaaaa", "TOIL for weekend call-outs", "Each weekend call-out earns time off in lieu equal to the hours worked, to be taken within 3 months.")
	file("20261130-spec-queue-aaaaaa", "Retention of the payments audit log", "The payments audit log is kept for 7 years.")
	file("20261130-spec-leave-aaaaaa", "Carrying over annual leave", "Up to 5 days of annual leave may be carried into the next year.")
	checkFound(t, e, debate.LayerSpec, []foundCase{
		{"the question's acronym", "payments DLQ retention", "Payment events in the DLQ are kept for 14 days and then deleted.", CheckConsistent, "spec-retention-in-the-dead-letter-queue-of-the-payments-consumer"},
		{"the record's acronym", "time off in lieu for weekend call-outs", "Lieu hours match the hours worked and expire after 6 months.", CheckConflict, "spec-toil-for-weekend-call-outs"},
	})
}
