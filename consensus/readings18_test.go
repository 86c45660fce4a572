package consensus

import "testing"

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

// TestWhicheverComparative: "whichever is sooner" picks one of two
// limits, as "whichever comes first" does; it sets no condition aside.
// "whichever branch took it" still sets a condition aside.
func TestWhicheverComparative(t *testing.T) {
	t.Parallel()
	const filter = "Replace the intake filter every 300 running hours or every 6 months, whichever comes first, with the compressor isolated during the swap."
	const refund = "Deposits are refunded within 10 days to the card used for the booking."
	checkAgreements(t, []agreementCase{
		{filter, "Swap the intake filter at 300 running hours or 6 months, whichever is sooner, with the compressor isolated during the swap.", Agree},
		{filter, "Swap the intake filter at 300 running hours or 6 months, whichever is the earlier, with the compressor isolated during the swap.", Agree},
		{refund, "Deposits are refunded within 10 days, whichever branch took the booking, to the card used for it.", Agree},
	})
}
