package consensus

import (
	"slices"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestShareInEvery: "one in every twenty" is the share "1 in 20"; a
// measure after the second number makes no share ("1 post in every 50 m"
// is a post every 50 metres, and 50 km is another rule), nor does a
// counted word before "in" ("1 bag in every 10" stays the numbers 1 and
// 10, as "1 bag per 10" says them).
func TestShareInEvery(t *testing.T) {
	t.Parallel()
	const audit = "Auditors sample 1 in 20 expense claims each month."
	const posts = "Fit 1 post in every 50 m of footpath."
	checkAgreements(t, []agreementCase{
		{audit, "Each month the auditors sample one in every twenty claims.", Agree},
		{audit, "Each month the auditors sample one in every ten claims.", Disagree},
		{posts, "Fit 1 post in every 50 km of footpath.", Disagree},
		{posts, "Fit one post in each 50 m of footpath.", Agree},
		{"Customs opens 1 bag in every 10.", "Customs opens 1 bag per 10.", Agree},
	})
}

// TestTopicFoundByRestatedRule: a question that names what it asks of in
// words of its own ("audio" for the recorded calls, "TTL" for how long
// they are kept), which its position says again, is found when the
// position restates the record's rule in other words, every number of
// it. A position that keeps the filed sentence and puts another object
// in it is another question, and so is one where both objects are words
// the lexicon knows apart (TestCheckQuestionBackedByItsPosition: memory
// and disk).
func TestTopicFoundByRestatedRule(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const calls = "Recorded support calls are kept for 18 months and then deleted, except calls tied to an open dispute, which are kept until 3 months after the dispute closes."
	e.fileRule(t, debate.LayerVerify, "20261130-verify-calls-aaaaaa", "Retention period for recorded support calls", calls)
	e.fileRule(t, debate.LayerVerify, "20261130-verify-wash-aaaaaa", "washing delivery trucks at the depot", "Delivery trucks go through the wash at least every 3 days with the water reclaim switched on; no washing when the air is below 2 °C.")
	checkFound(t, e, debate.LayerVerify, []foundCase{
		{"words of its own, rule restated", "Support call audio TTL",
			"Support call audio is held 18 months, then auto-deleted; audio tied to an open dispute stays until 3 months after the dispute closes.", CheckConsistent, "verify-retention-period-for-recorded-support-calls"},
		{"the filed sentence with another object", "washing depot forklifts",
			"Depot forklifts go through the wash at least every 3 days with the water reclaim switched on; no washing when the air is below 2 °C.", CheckNone, ""},
	})
}

// TestWhicheverComparative: "whichever is sooner" picks one of two
// limits, as "whichever comes first" does; it sets no condition aside,
// and "whichever is later" picks the other limit. "whichever branch took
// it" still sets a condition aside.
func TestWhicheverComparative(t *testing.T) {
	t.Parallel()
	const filter = "Replace the intake filter every 300 running hours or every 6 months, whichever comes first, with the compressor isolated during the swap."
	const refund = "Deposits are refunded within 10 days to the card used for the booking."
	checkAgreements(t, []agreementCase{
		{filter, "Swap the intake filter at 300 running hours or 6 months, whichever is sooner, with the compressor isolated during the swap.", Agree},
		{filter, "Swap the intake filter at 300 running hours or 6 months, whichever is the earlier, with the compressor isolated during the swap.", Agree},
		// The other limit, read before as a condition set aside.
		{filter, "Swap the intake filter at 300 running hours or 6 months, whichever is the later, with the compressor isolated during the swap.", Disagree},
		{filter, "Replace the intake filter every 300 running hours or every 6 months, whichever is later, with the compressor isolated during the swap.", Disagree},
		{refund, "Deposits are refunded within 10 days, whichever branch took the booking, to the card used for it.", Agree},
	})
	// The difference is the limit chosen, not a condition set aside.
	c := ComparePositions(filter, "Replace the intake filter every 300 running hours or every 6 months, whichever is later, with the compressor isolated during the swap.")
	if !slices.Contains(c.Differences, "first → last") {
		t.Errorf("differences %q, want first → last", c.Differences)
	}
}

// TestEverydayWordsNear: everyday words that rules swap for each other
// ("refund" and "reimburse", "inspect" and "check", "fee" and "charge") name
// no other object: a question in the one finds a record in the other.
func TestEverydayWordsNear(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fileRule(t, debate.LayerSpec, "20261130-spec-class-aaaaaa", "Refunds for cancelled evening classes", "When an evening class is cancelled, every booked learner is refunded in full within 5 working days.")
	e.fileRule(t, debate.LayerSpec, "20261130-spec-ladder-aaaaaa", "Inspection of ladders before use", "Every ladder is inspected by the person using it before each use, and a damaged ladder is tagged out of service.")
	e.fileRule(t, debate.LayerSpec, "20261130-spec-key-aaaaaa", "Fee for a lost locker key", "A lost locker key costs £15 to replace; the fee is waived for staff.")
	checkFound(t, e, debate.LayerSpec, []foundCase{
		{"reimburse for refund", "Reimbursement when an evening class is cancelled",
			"A cancelled evening class means each learner who booked is reimbursed in full inside 5 working days.", CheckConsistent, "spec-refunds-for-cancelled-evening-classes"},
		{"check for inspect", "Checking ladders before use",
			"Whoever uses a ladder checks it before each use, and a damaged one is tagged out of service.", CheckConsistent, "spec-inspection-of-ladders-before-use"},
		{"charge for fee", "Charge for a lost locker key",
			"Losing a locker key is charged at £15 for the replacement, with no charge for staff.", CheckConsistent, "spec-fee-for-a-lost-locker-key"},
	})
}

// TestEverydayWordsApart: words that look near but change the rule stay
// apart: who pays back ("repay" and "refund"), how quiet a room is, a
// contest against an appeal, a support ticket against a fare.
func TestEverydayWordsApart(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Borrowers repay the hardship loan within 12 months.", "Borrowers are refunded the hardship loan within 12 months.", Disagree},
		{"The second floor is a quiet study area after 6 pm.", "The second floor is a silent study area after 6 pm.", Disagree},
		{"Members may enter the annual photo contest once.", "Members may enter the annual photo appeal once.", Disagree},
		{"Support tickets are answered within 4 hours.", "Support fares are answered within 4 hours.", Disagree},
	})
}

// TestMissingFromIsNotOn: "missing from the list" and "absent from
// school" say what "not on the list" and "not in school" say; the list
// or the school said plainly is the other rule.
func TestMissingFromIsNotOn(t *testing.T) {
	t.Parallel()
	const stock = "Any item missing from the stock list is reported to the duty manager."
	const pupils = "Pupils absent from school for 3 days in a row get a call from the office."
	const guest = "A guest missing from the list is turned away at the door."
	checkAgreements(t, []agreementCase{
		{stock, "Any item not on the stock list is reported to the duty manager.", Agree},
		{stock, "Any item on the stock list is reported to the duty manager.", Disagree},
		{pupils, "Pupils who are not in school for 3 days in a row get a call from the office.", Agree},
		{pupils, "Pupils in school for 3 days in a row get a call from the office.", Disagree},
		{guest, "If a guest isn't on the list, they are turned away at the door.", Agree},
		{guest, "A guest on the list is turned away at the door.", Disagree},
	})
}
