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
		// "Or" opening a clause that says what happens when the rule is
		// not met, with a negation: the rule again.
		{"Parcels over 2 kg are shipped with a customs form.", "A parcel heavier than 2 kg needs a customs form, or it won't be shipped.", Agree},
		{"Every shift a trainee logs in the portal counts towards the certificate.", "Trainees have to log each shift in the portal, or else it doesn't count towards their certificate.", Agree},
		{"Claims under 25 EUR need no receipt.", "Claims under 25 EUR need a receipt, or they are not paid.", Disagree},
		{"Pay by card or cash.", "Pay by card or not at all.", Disagree},
		// Kept from doing something: suspended, excluded, disqualified.
		{"A player with two unpaid fines is suspended from entering tournaments.", "A player with two unpaid fines can't enter tournaments.", Agree},
		{"A player with two unpaid fines is suspended from entering tournaments.", "A player with two unpaid fines can enter tournaments.", Disagree},
		{"Members in arrears are excluded from voting at the AGM.", "Members in arrears may not vote at the AGM.", Agree},
		// A negated verb with a bound later in its clause bounds the
		// number: "never loaded on a sailing with more than 500" is
		// loaded only on sailings with at most 500.
		{"Trailers are never parked on a ramp with more than 8 degrees of slope.", "No trailer on a ramp sloping over 8 degrees.", Agree},
		{"Interns do not approve refunds of more than 200 USD.", "Interns never approve a refund for over 200 USD.", Agree},
		{"Trailers are never parked on a ramp with more than 8 degrees of slope.", "Trailers are parked on ramps with more than 8 degrees of slope.", Disagree},
		{"Retention jobs never delete a file under an active hold.", "Retention jobs delete files under an active hold.", Disagree},
		// Decks, rooms and courses of one kind or the other.
		{"Bikes are stored on the open upper deck.", "Bikes are kept on the upper deck, the enclosed one.", Disagree},
		{"Yoga classes are held outdoor from May to September.", "May through September, yoga is an indoor class.", Disagree},
		// What "rather than" or "instead of" sets aside is not done, a
		// phrase of a few words or an action as much as one word.
		{"Read the water level on the electronic sensor rather than the painted staff gauge.", "Read the water level on the electronic sensor, not the painted staff gauge.", Agree},
		{"Confirm each booking to the guest by phone, not by email.", "We call the guest to confirm each booking instead of emailing.", Agree},
		{"Confirm each booking to the guest by phone, not by email.", "We email the guest to confirm each booking.", Disagree},
		{"Rows older than a year are never deleted; they are archived.", "Archive rows older than a year rather than deleting them.", Agree},
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
		// The thing set apart, then its rule after a colon.
		{helmets, "Helmets older than 5 years are retired. Racing helmets: retired after 3 years.", Agree},
		{helmets, "Helmets older than 5 years are retired. Racing helmets: retired after 5 years too.", Disagree},
		{"Bins are emptied every 2 weeks, except garden waste bins, which are emptied every 4 weeks.",
			"Bins: emptied every 2 weeks. Garden waste bins: emptied every 4 weeks.", Agree},
		{"Bins are emptied every 2 weeks, except garden waste bins, which are emptied every 4 weeks.",
			"Bins: emptied every 4 weeks. Garden waste bins: emptied every 2 weeks.", Disagree},
	})
}

// TestConditionsSaidOtherwise: a condition said in other words ("subject
// to availability", "only if available"), a time that leaves no time out
// ("during any month"), and the rule not met said as a condition ("if it
// isn't paid, …" for "…, or …") are no condition added or dropped.
func TestConditionsSaidOtherwise(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Early check-in from 12:00 costs 20 GBP, subject to availability.", "Check-in from 12:00 is 20 GBP, only if available.", Agree},
		{"Early check-in from 12:00 costs 20 GBP, subject to availability.", "Check-in from 12:00 is 20 GBP.", Disagree},
		{"Early check-in from 12:00 costs 20 GBP.", "Early check-in from 12:00 costs 20 GBP, subject to manager approval.", Disagree},
		{"Seedlings are planted any month except January and February.", "We plant seedlings out during any month apart from January and February.", Agree},
		{"Hedges may be trimmed year-round except in April and May.", "Hedges can be cut back during any month except April and May.", Agree},
		{"Seedlings are planted any month except January and February.", "Seedlings are planted only during the summer months.", Disagree},
		{"A 30% deposit is paid within 5 days of booking, or the slot is released.", "Guests pay the 30% deposit within 5 days of booking. If it isn't paid by then, we release the slot.", Agree},
		{"A 30% deposit is paid within 5 days of booking, or the slot is released.", "The 30% deposit is paid within 5 days of booking; if the guest is not a member, the slot is released.", Disagree},
		// "Save where" is the drafter's "unless".
		{"Parcels are left with a neighbour unless the sender ticked signature required.", "Parcels are left with a neighbour, save where the sender ticked signature required.", Agree},
		{"Parcels are left with a neighbour unless the sender ticked signature required.", "Parcels are left with a neighbour where the sender ticked signature required.", Disagree},
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

// TestEditsSaidOtherwise: an edit of the filed sentence that says a word
// again in another ("shuts" for "closes", "begin" for "start", "the
// larger ones" for "larger parcels" named before) changes nothing; one
// that says another thing does.
func TestEditsSaidOtherwise(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The ticket office closes at 17:00 on Sundays.", "The ticket office shuts at 17:00 on Sundays.", Agree},
		{"The ticket office closes at 17:00 on Sundays.", "The ticket office opens at 17:00 on Sundays.", Disagree},
		{"Night shifts start at 22:00 and end at 06:00.", "Night shifts begin at 22:00 and end at 06:00.", Agree},
		{"Night shifts start at 22:00 and end at 06:00.", "Night shifts start at 22:00 and end at 07:00.", Disagree},
		{"A late return costs the borrower 5 loyalty points.", "A late return costs the borrower 5 loyalty pts.", Agree},
		{"The desk weighs small parcels on site and sends larger parcels to the depot.", "The desk weighs small parcels on site and sends the larger ones to the depot.", Agree},
		{"The desk weighs small parcels on site and sends larger parcels to the depot.", "The desk weighs small parcels on site and sends the larger ones to the post office.", Disagree},
		{"Refund faulty kettles in cash.", "Refund the faulty ones in cash.", Disagree}, // ones named nowhere
	})
}

// TestRuleSetAsideUnder: an exception said as the rule set aside under a
// condition ("skip it if", "may deviate if", "the limit does not apply
// during", "exception if") is the same exception, either way round; the
// condition alone turns the rule.
func TestRuleSetAsideUnder(t *testing.T) {
	t.Parallel()
	const filed = "Every returned rental bike gets a brake check before it goes back out, unless it was out for less than an hour."
	const waived = "A rider who leaves a scooter outside a bay is charged $25; the charge is waived when the app showed no free bay nearby."
	checkAgreements(t, []agreementCase{
		{filed, "Every returned rental bike gets a brake check before it goes back out; skip it only if it was out for less than an hour.", Agree},
		{filed, "Brake-check each rental bike that comes back before the next hire. Staff may skip the check if the bike was out for under an hour.", Agree},
		{filed, "Every returned rental bike gets a brake check before it goes back out; the rule does not apply if it was out for less than an hour.", Agree},
		{filed, "Every returned rental bike gets a brake check before it goes back out. Exception only if it was out for less than an hour.", Agree},
		{filed, "Every returned rental bike gets a brake check before it goes back out if it was out for less than an hour.", Disagree},
		{filed, "Every returned rental bike gets a brake check before it goes back out, even if it was out for less than an hour.", Disagree},
		{waived, "A rider who leaves a scooter outside a bay is charged $25, unless the app showed no free bay nearby.", Agree},
	})
}
