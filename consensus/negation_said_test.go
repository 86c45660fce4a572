package consensus

import "testing"

// TestNegationSaidOtherwise: a thing said not to be there ("the photo is
// missing", "exempt from the test"), "nothing … until", a bound said as
// "no older than" and a consequence after "otherwise" say what the
// plainer wording says; the other side of each is still a change.
func TestNegationSaidOtherwise(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		// What is missing or absent is not there.
		{"Badges whose photo is missing are reissued at the front desk.", "Badges with no photo are reissued at the front desk.", Agree},
		{"Badges whose photo is missing are reissued at the front desk.", "Badges with a photo are reissued at the front desk.", Disagree},
		{"When the signature is absent, the form goes back to the applicant.", "Forms without a signature go back to the applicant.", Agree},
		// Exempt from a thing: it is not needed.
		{"Pupils under 8 are exempt from the swimming test.", "Pupils under 8 don't need to take the swimming test.", Agree},
		{"Pupils under 8 are exempt from the swimming test.", "Pupils under 8 must take the swimming test.", Disagree},
		// Nothing, nobody or no one does it until: only after.
		{"Orders ship only after the invoice is paid.", "Nothing ships until the invoice is paid.", Agree},
		{"Visitors enter the clean room only after signing the log.", "No visitor enters the clean room until they have signed the log.", Agree},
		{"Visitors enter the clean room only after signing the log.", "Visitors enter the clean room and sign the log later.", Disagree},
		// A bound said as "no older than".
		{"Applicants send a bank statement at most 3 months old.", "Applicants send a bank statement no older than 3 months.", Agree},
		{"Applicants send a bank statement at most 3 months old.", "Applicants send a bank statement at least 3 months old.", Disagree},
		// What happens otherwise, said with a negation, is the rule again.
		{"Apprentices may weld only while a supervisor is present.", "A supervisor has to be present, otherwise no welding by apprentices.", Agree},
		{"Use the EU region for EU customers.", "Use the EU region for EU customers; otherwise use the US region.", Agree},
		// An option said in a word near it is said: "logged" is written.
		{"Every invoice line written by the billing job carries the customer id taken from the account.",
			"The billing job reads the customer id from the account, and every invoice line it logs carries it.", Agree},
	})
}

// TestExceptionSetApart: an exception with a rule of its own ("except
// racing helmets, which are retired after 3 years") said as a rule of its
// own in a sentence apart is the same rule; with its numbers swapped, or
// the thing no longer set apart, it is not.
func TestExceptionSetApart(t *testing.T) {
	t.Parallel()
	const helmets = "Helmets older than 5 years are retired, except racing helmets, which are retired after 3 years."
	const lots = "Every consignment over 2,000 EUR needs a provenance check, except items bought at auction, which need only the sale invoice."
	checkAgreements(t, []agreementCase{
		{helmets, "Helmets over 5 years old are retired. Racing helmets are retired after 3 years.", Agree},
		{helmets, "Helmets over 3 years old are retired. Racing helmets are retired after 5 years.", Disagree},
		{helmets, "Helmets over 5 years old are retired, racing helmets included.", Disagree},
		{lots, "Every consignment over 2,000 EUR needs a provenance check; items bought at auction need only the sale invoice.", Agree},
		{lots, "Every consignment over 2,000 EUR needs a provenance check, items bought at auction too.", Disagree},
	})
}

// TestUntilInIdentifiers: "until" inside a configuration key
// ("hold_until", "no_refund_until_days") shares its word with the words
// before it; reading "no … until" there must not cut the text backwards.
func TestUntilInIdentifiers(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		`{"hold_until": "paid", "no_refund_until_days": 14}`,
		"INSERT INTO holds (item, hold_until, never_until) VALUES ('kayak', 'paid', 'x');",
		"no-until",
	} {
		surfaceTokens(text)
		if c := ComparePositions(text, text); c.Agreement != Agree {
			t.Errorf("%q against itself: %v %v", text, c.Agreement, c.Differences)
		}
	}
}
