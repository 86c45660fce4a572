package consensus

import "testing"

// TestCourtesiesAroundTheRule: a greeting that opens a position ("Dear
// Members,", "Hi everyone!", "Good morning team,"), a label that says
// nothing ("Please note", "Kindly note that") and a sign-off that closes
// it ("Thank you, Ioana", "Regards, Anil") are the message's, not the
// rule's; the rule inside them is compared as it is. A changed number or
// a dropped duty inside them is still a change.
func TestCourtesiesAroundTheRule(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Borrowed tools must be returned within 7 days; late returns pay 2 pounds a day.",
			"Dear Members, borrowed tools must be returned within 7 days, and late returns pay 2 pounds a day.", Agree},
		{"Borrowed tools must be returned within 7 days; late returns pay 2 pounds a day.",
			"Hi everyone! Borrowed tools have to come back within 7 days; a late return pays 2 pounds a day.", Agree},
		{"The kiln log must be signed by the technician after every firing and kept for 2 years.",
			"Please note the kiln log must be signed by the technician after every firing and kept for 2 years.", Agree},
		{"The kiln log must be signed by the technician after every firing and kept for 2 years.",
			"Kindly note that the kiln log must be signed by the technician after every firing and kept for 2 years.", Agree},
		{"The yard gate is locked at 6 pm and the key goes back to reception.",
			"Good evening all, the yard gate is locked at 6 pm and the key goes back to reception. Thank you, Ioana", Agree},
		{"The yard gate is locked at 6 pm and the key goes back to reception.",
			"The yard gate is locked at 6 pm and the key goes back to reception. Regards, Facilities", Agree},
		{"The kiln log is kept for 2 years.", "Just so you know, the kiln log is kept for 2 years.", Agree},
		{"Installers must arrive within the booked 2-hour window and phone the customer if they run late.",
			"Morning everyone, gentle reminder: installers arrive inside the booked 2-hour window and phone the customer when they run late.", Agree},
		{"Installers must arrive within the booked 2-hour window and phone the customer if they run late.",
			"Morning everyone, gentle reminder: installers arrive inside the booked 3-hour window and phone the customer when they run late.", Disagree},

		{"Borrowed tools must be returned within 7 days; late returns pay 2 pounds a day.",
			"Dear Members, borrowed tools must be returned within 10 days, and late returns pay 2 pounds a day.", Disagree},
		{"The kiln log must be signed by the technician after every firing and kept for 2 years.",
			"Please note the kiln log must be signed by the technician after every firing and kept for 5 years.", Disagree},
		{"Visitors must wear a badge at all times and be escorted by a member of staff.",
			"Good morning team, visitors must wear a badge at all times but need not be escorted.", Disagree},
		{"The yard gate is locked at 6 pm and the key goes back to reception.",
			"Hello all, the yard gate is locked at 7 pm and the key goes back to reception. Thanks, Ioana", Disagree},
	})
}

// TestCourtesyBounds: where the rule starts and ends in a message. A cue
// word that opens the rule itself, with no end to a greeting after it,
// leaves the text whole.
func TestCourtesyBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, rule string }{
		{"Dear Mr Patel, the gate is locked at 6 pm.", "the gate is locked at 6 pm."},
		{"Hello sisters! Reminder: the pot is drawn by lot.", "Reminder: the pot is drawn by lot."},
		{"Dear Team, please note leave must be booked 4 weeks ahead. Thank you, Ioana", "leave must be booked 4 weeks ahead."},
		{"Good morning, kindly note that returns close at noon. Kind regards, Box Office", "returns close at noon."},
		{"Hey is the name of the server that runs the nightly export.", "Hey is the name of the server that runs the nightly export."},
		{"Dear customers of the 3 branches, we open at 9.", "Dear customers of the 3 branches, we open at 9."},
		{"Hi, ok.", "Hi, ok."},
		{"Just so you know, the gate is locked at 6 pm.", "the gate is locked at 6 pm."},
		{"For your information: the gate is locked at 6 pm.", "the gate is locked at 6 pm."},
		{"Thanks are due to the volunteers. Thanks to them the shop opens at 9 on Saturdays.", "Thanks are due to the volunteers. Thanks to them the shop opens at 9 on Saturdays."},
	} {
		start, end := courtesyBounds(tc.text)
		if got := tc.text[start:end]; got != tc.rule {
			t.Errorf("courtesyBounds(%q) = %q, want %q", tc.text, got, tc.rule)
		}
	}
}

// TestWithinSaidOtherwise: "inside 28 days", "in 7 days max", "in 7 days
// at the latest" are within them; "surely", "definitely" only insist;
// "as well" is "also"; "together with" is "with", before or after what it
// goes with; "better if" only recommends. "after 7 days", "at the
// earliest" and a thing kept together with another are still changes.
func TestWithinSaidOtherwise(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Borrowed tools must be returned within 7 days; late returns pay 2 pounds a day.",
			"Borrowed tools must be returned inside 7 days; late returns pay 2 pounds a day.", Agree},
		{"Borrowed tools must be returned within 7 days; late returns pay 2 pounds a day.",
			"Borrowed tools must be returned in 7 days max; late returns pay 2 pounds a day.", Agree},
		{"Borrowed tools must be returned within 7 days; late returns pay 2 pounds a day.",
			"Borrowed tools must be returned in 7 days at the latest; late returns pay 2 pounds a day.", Agree},
		{"Disputed invoices are escalated to the finance lead within 2 working days.",
			"disputed invoices get escalated to the finance lead inside two working days", Agree},
		{"The kiln log must be signed by the technician after every firing and kept for 2 years.",
			"The kiln log must surely be signed by the technician after every firing and kept for 2 years.", Agree},
		{"The kiln log is signed by the technician and stored with the firing chart.",
			"The kiln log is signed by the technician and stored together with the firing chart.", Agree},
		{"Guests book only 3 days ahead and only together with a member.",
			"Guests book only 3 days ahead and only with a member together", Agree},
		{"Students bring their own apron and the studio provides gloves.",
			"Students bring their own apron as well and the studio provides gloves.", Agree},

		{"Borrowed tools must be returned within 7 days; late returns pay 2 pounds a day.",
			"Borrowed tools must be returned after 7 days; late returns pay 2 pounds a day.", Disagree},
		{"Borrowed tools must be returned within 7 days; late returns pay 2 pounds a day.",
			"Borrowed tools must be returned in 7 days at the earliest; late returns pay 2 pounds a day.", Disagree},
		{"Disputed invoices are escalated to the finance lead within 2 working days.",
			"Disputed invoices are escalated to the finance lead inside 5 working days.", Disagree},
		{"Deposits are returned within 14 days of check-out.",
			"Deposits are returned in 14 days at the earliest after check-out.", Disagree},
		{"Assembly is offered for wardrobes and beds only, at £60 per item, and must be booked at the same time as the delivery.",
			"Assembly is only for wardrobes and beds, £60 per item, and is better if the customer books it together with the delivery.", Disagree},
	})
}

// TestTimeOfDayInWords: "twenty past eight", "ten to six", "five past
// six in the morning" and "at ten thirty" are times of the day; "five to
// ten people" and "from five to ten" are ranges, and "once thirty items"
// no time at all.
func TestTimeOfDayInWords(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Breakfast club opens at 7:45 am and breakfast is served until 8:20 am.",
			"Breakfast club opens at quarter to eight and breakfast is served until twenty past eight.", Agree},
		{"Breakfast club opens at 7:45 am and breakfast is served until 8:20 am.",
			"doors open quarter to eight, food till twenty past eight", Agree},
		{"Last orders are at 10:30 pm and the bar closes at 11 pm.",
			"Last orders at ten thirty, bar shuts at eleven.", Agree},
		{"The early shift starts at 5:50 am and ends at 2 pm.",
			"Early shift: ten to six in the morning until two in the afternoon.", Agree},
		{"The early shift starts at 6:05 am and ends at 2 pm.",
			"Early shift: five past six in the morning until two in the afternoon.", Agree},
		{"Groups are five to ten people.", "Groups are of five to ten people.", Agree},
		{"Each session lasts ten to twelve minutes.", "Each session lasts 10 to 12 minutes.", Agree},
		{"Each session accepts at most 30 items, with no more than 2 items per visitor.",
			"Nobody may bring more than two things, and once thirty items are logged we stop taking any.", Agree},

		{"Breakfast club opens at 7:45 am and breakfast is served until 8:20 am.",
			"Breakfast club opens at quarter past seven and breakfast is served until twenty past eight.", Disagree},
		{"Last orders are at 10:30 pm and the bar closes at 11 pm.",
			"Last orders at ten forty-five, bar shuts at eleven.", Disagree},
		{"The early shift starts at 5:45 am and ends at 2 pm.",
			"Early shift: ten to six in the morning until two in the afternoon.", Disagree},
		{"Groups are five to ten people.", "Groups are of five to twelve people.", Disagree},
	})
}

// TestWordClockReadings: the value wordClock reads, in hours, or none.
func TestWordClockReadings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []float64
	}{
		{"open till twenty past eight", []float64{8 + 20.0/60}},
		{"from ten to six in the evening", []float64{10, 18}},
		{"arrive by ten to six", []float64{5 + 50.0/60}},
		{"arrive by twenty five past nine", []float64{9 + 25.0/60}},
		{"at ten thirty", []float64{10.5}},
		{"until six forty-five pm", []float64{18.75}},
		{"five to ten people", []float64{5, 10}},
		{"groups of five to ten", []float64{5, 10}},
		{"we need ten to twelve on Saturday", []float64{10, 12}},
		{"increase by five to ten", []float64{5, 10}},
		{"at ten thirty-minute intervals", []float64{10, 1800}},
	} {
		var got []float64
		for _, q := range analyze(tc.text).qty {
			got = append(got, q.value)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q: values %v, want %v", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if d := got[i] - tc.want[i]; d > 0.001 || d < -0.001 {
				t.Errorf("%q: values %v, want %v", tc.text, got, tc.want)
				break
			}
		}
	}
}

// TestUpToAPlace: "up to" before no amount ("goes up to the duty
// manager") is a direction, not a bound; before one ("up to 3 bags", "up
// to the first 10 days") it bounds.
func TestUpToAPlace(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Complaints not settled in 5 days go to the duty manager.",
			"Complaints not settled in 5 days go up to the duty manager.", Agree},
		{"Each guest may bring up to 3 bags.", "Each guest may bring at most three bags.", Agree},
		{"Each guest may bring up to 3 bags.", "Each guest may bring at least 3 bags.", Disagree},
		{"Children up to the age of 12 travel free.", "Children from the age of 12 travel free.", Disagree},
		{"Parking is free up to midday.", "Parking is free from midday.", Disagree},
		{"Bookings can be changed up to the day before the stay.", "Bookings can be changed on the day before the stay.", Disagree},
	})
}

// TestAllTheSession: "all the session", "all the match" span the whole
// of it, as "the whole session" does; "every session" is each of them.
// "accompany" and "escort" are near.
func TestAllTheSession(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A parent stays in the pool area for the whole session; one parent may accompany up to 3 swimmers.",
			"A parent stays in the pool area for all the session; one parent can escort maximum three swimmers.", Agree},
		{"The physio stays pitchside for the whole match.", "The physio is pitchside for all the match.", Agree},
		{"The physio stays pitchside for the whole match.", "The physio stays pitchside for every match.", Disagree},
		{"A parent stays in the pool area for the whole session; one parent may accompany up to 3 swimmers.",
			"A parent stays in the pool area for all the session; one parent can escort maximum five swimmers.", Disagree},
	})
}

// TestNegationCarriedOver: "this does not apply if X" sets the rule
// aside under X, as "unless X" does; a negation carries over "or" to the
// verb after it ("never close the account or change the address"); and
// a verb after "are" or "is" is a verb of its own, no object of a
// negated verb before it ("invoices that have not been paid are chased").
func TestNegationCarriedOver(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A late fee of 5 pounds is charged on returns after the due date, except for members over 65.",
			"Returns after the due date pay a 5 pound late fee; the fee does not apply if the member is over 65.", Agree},
		{"Boats keep to 5 knots inside the harbour, except for the lifeboat on a shout.",
			"Boats keep to 5 knots in the harbour. The limit doesn't apply when the lifeboat is on a shout.", Agree},
		{"The certificate provider must have known the donor for at least 2 years, unless they are a professional such as a GP.",
			"The certificate provider must have known the donor for 2 years or more. This doesn't apply when they're a professional, like a GP.", Agree},
		{"Contractors must not smoke or vape anywhere on site.",
			"No smoking on site for contractors, and they must not vape either.", Agree},
		{"Volunteers may sort donations but never price items or open the till.",
			"Volunteers can sort the donations but they never price items and they never open the till.", Agree},
		{"Unpaid invoices are chased after 30 days.",
			"Invoices that have not been paid are chased after 30 days.", Agree},
		{"Unsigned timesheets are returned to the team leader.",
			"Timesheets that were not signed are returned to the team leader.", Agree},
		{"Unsold tickets are released to the box office 2 hours before the show.",
			"Tickets that have not been sold go back to the box office two hours before the show.", Agree},

		{"A late fee of 5 pounds is charged on returns after the due date, except for members over 65.",
			"Returns after the due date pay a 5 pound late fee; the fee does not apply if the member is over 70.", Disagree},
		{"A late fee of 5 pounds is charged on returns after the due date.",
			"Returns after the due date pay a 5 pound late fee; the fee does not apply if the member is over 65.", Disagree},
		{"Volunteers may sort donations but never price items or open the till.",
			"Volunteers may sort donations and open the till, but never price items.", Disagree},
		{"Unpaid invoices are chased after 30 days.",
			"Invoices that have been paid are chased after 30 days.", Disagree},
		{"Staff must not delete the logs or rotate the keys.",
			"Staff must not delete the logs, but may rotate the keys.", Disagree},
		{"Unsold tickets are released to the box office 2 hours before the show.",
			"Tickets that were sold are released to the box office 2 hours before the show.", Disagree},
	})
}

// TestNamesInCourtesies: a name said only in a greeting or a sign-off
// is no name of the rule, set against one the filed rule names, nor does
// it say a name of the rule again; a name inside the rule still counts.
func TestNamesInCourtesies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		filed, position string
		changed         bool
	}{
		{"Deliveries use DPD on weekdays.", "Hi Ana, deliveries go by courier on weekdays. Thanks, Rob", false},
		{"Deliveries use DPD on weekdays.", "Dear Mr Osei, deliveries go by courier on weekdays.", false},
		{"Deliveries use DPD on weekdays.", "Hi Ana, deliveries use Evri on weekdays. Thanks, Rob", true},
		{"Deliveries use DPD on weekdays.", "Deliveries use Evri on weekdays.", true},
	} {
		got := compareNames(newSide(tc.filed, false), newSide(tc.position, false))
		if (len(got) > 0) != tc.changed {
			t.Errorf("compareNames(%q, %q) = %v, want a change: %v", tc.filed, tc.position, got, tc.changed)
		}
	}
	// A name said in a greeting says nothing of the rule either way.
	checkAgreements(t, []agreementCase{
		{"Invoices go to Finance for approval.", "Dear Finance team, invoices go to Legal for approval.", Disagree},
		{"Invoices go to Finance for approval.", "Dear Finance team, invoices go to Finance for approval.", Agree},
		{"Leave requests go to Priya.", "Hi Priya, leave requests go to HR.", Disagree},
		{"Leave requests go to Priya.", "Hi Sam, leave requests go to Priya. Thanks, Jen", Agree},
	})
}

// TestEverydayOptions: options of everyday rules (gross or net, the part
// of the day, chilled or at room temperature, how one pays, in person or
// online) changed for another are a change; the same
// options said again, or listed on both sides, are not.
func TestEverydayOptions(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Tenants qualify if their gross annual income is under 30,000 pounds.",
			"Tenants qualify when gross yearly income is below 30,000 pounds.", Agree},
		{"Tenants qualify if their gross annual income is under 30,000 pounds.",
			"Tenants qualify when net yearly income is below 30,000 pounds.", Disagree},
		{"The evening cleaner mops the changing rooms every Friday.",
			"Changing rooms get mopped by the evening cleaner each Friday.", Agree},
		{"The evening cleaner mops the changing rooms every Friday.",
			"Changing rooms get mopped by the morning cleaner each Friday.", Disagree},
		{"Opened jars of pesto are kept refrigerated and used within 5 days.",
			"Once opened, pesto jars are kept at room temperature and used within 5 days.", Disagree},
		{"Deposits are paid by bank transfer or cheque.", "Deposits: cheque or bank transfer.", Agree},
		{"Deposits are paid by bank transfer.", "Deposits are paid by cheque.", Disagree},
		{"Renewals are accepted online or in person at the library.", "You can renew in person at the library or online.", Agree},
		{"Renewals are accepted in person at the library.", "Renewals are accepted online.", Disagree},
	})
}

// TestNegationNotCarried: the negation of a condition, or one before a
// verb of the rule ("should", "must"), is not carried over "or"; nor to a
// place after a preposition; and a word negated by its own prefix
// ("unread") leaves a verb the other side bars said as it is.
func TestNegationNotCarried(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"If you can't attend the induction, phone the site office or email the safety lead.",
			"If you can't attend the induction, email the safety lead or phone the site office.", Agree},
		{"Volunteers who cannot do the Saturday shift should swap with a colleague or tell the rota lead.",
			"Volunteers who cannot do the Saturday shift should tell the rota lead or swap with a colleague.", Agree},
		{"Do not store boxes in the corridor or by the fire door.",
			"No boxes are stored in the corridor or by the fire door.", Agree},
		{"Volunteers who cannot do the Saturday shift should swap with a colleague or tell the rota lead.",
			"Volunteers who cannot do the Saturday shift should swap with a colleague; they must not tell the rota lead.", Disagree},
		{"Do not archive unread tickets.", "Unread tickets may be archived.", Disagree},
	})
}
