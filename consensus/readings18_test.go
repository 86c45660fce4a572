package consensus

import (
	"slices"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// TestShareInEvery: "one in every twenty" and "1 invoice in every 50" are
// the shares "1 in 20" and "1 in 50", whichever way round the counted
// word stands; "3 sessions in 30 days" is a count in a period, no share.
func TestShareInEvery(t *testing.T) {
	t.Parallel()
	const audit = "Auditors sample 1 in 20 expense claims each month."
	const rekey = "1 invoice in every 50 is re-keyed by a second clerk before payment."
	const slot = "A member who misses 3 sessions in 30 days loses the Tuesday slot."
	checkAgreements(t, []agreementCase{
		{audit, "Each month the auditors sample one claim in every twenty.", Agree},
		{audit, "Each month the auditors sample one claim in every ten.", Disagree},
		{rekey, "Before payment a second clerk re-keys one in every fifty invoices.", Agree},
		{rekey, "Before payment a second clerk re-keys 1 in every 50 invoices.", Agree},
		{rekey, "Before payment a second clerk re-keys 1 in every 25 invoices.", Disagree},
		{slot, "Miss 3 sessions within 30 days and the Tuesday slot goes.", Agree},
		{slot, "A member who misses 3 sessions in 60 days loses the Tuesday slot.", Disagree},
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
// ("late" and "overdue", "inspect" and "check", "fee" and "charge") name
// no other object: a question in the one finds a record in the other.
func TestEverydayWordsNear(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fileRule(t, debate.LayerSpec, "20261130-spec-fines-aaaaaa", "Fees for overdue library books", "Overdue books are charged 20p per day, up to £5 per book.")
	e.fileRule(t, debate.LayerSpec, "20261130-spec-ladder-aaaaaa", "Inspection of ladders before use", "Every ladder is inspected by the person using it before each use, and a damaged ladder is tagged out of service.")
	e.fileRule(t, debate.LayerSpec, "20261130-spec-key-aaaaaa", "Fee for a lost locker key", "A lost locker key costs £15 to replace; the fee is waived for staff.")
	checkFound(t, e, debate.LayerSpec, []foundCase{
		{"late for overdue", "Charges on late library books",
			"Late books: 20p for each day, capped at £5 a book.", CheckConsistent, "spec-fees-for-overdue-library-books"},
		{"check for inspect", "Checking ladders before use",
			"Whoever uses a ladder checks it before each use, and a damaged one is tagged out of service.", CheckConsistent, "spec-inspection-of-ladders-before-use"},
		{"charge for fee", "Charge for a lost locker key",
			"Losing a locker key is charged at £15 for the replacement, with no charge for staff.", CheckConsistent, "spec-fee-for-a-lost-locker-key"},
	})
}
