package consensus

import "testing"

// TestRefusalSaidAsNotItsOther: "rejected" is "not accepted", "disabled"
// "not enabled", "excluded" "not included", "forbidden" "not allowed",
// in a sentence otherwise the same. The word alone against its other
// ("rejected" → "accepted"), or the negation kept with the refusal
// ("not rejected"), still changes the rule.
func TestRefusalSaidAsNotItsOther(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Access requests without a manager's approval are rejected.", "An access request with no manager approval is not accepted.", Agree},
		{"Expense claims filed after 60 days are refused.", "Expense claims filed after 60 days are not accepted.", Agree},
		{"Late entries to the photo contest are declined.", "Late entries to the photo contest are not accepted.", Agree},
		{"Autoplay is disabled on the kiosk screens.", "Autoplay is not enabled on the kiosk screens.", Agree},
		{"Swimwear is forbidden in the bar after 6 pm.", "Swimwear is not allowed in the bar after 6 pm.", Agree},
		{"Dogs are forbidden in the dining room.", "Dogs are not permitted in the dining room.", Agree},
		{"Dogs are not allowed in the dining room.", "Dogs are forbidden in the dining room.", Agree},
		{"Students are denied entry after 9 am without a note.", "Students are not allowed entry after 9 am without a note.", Agree},
		{"Students are denied entry after 9 am without a note.", "Staff are not allowed entry after 9 am without a note.", Disagree},

		{"Access requests without a manager's approval are rejected.", "Access requests without a manager's approval are accepted.", Disagree},
		{"Access requests without a manager's approval are rejected.", "Access requests without a manager's approval are not rejected.", Disagree},
		{"Expense claims filed after 60 days are refused.", "Expense claims filed after 90 days are not accepted.", Disagree},
		{"Autoplay is disabled on the kiosk screens.", "Autoplay is enabled on the kiosk screens.", Disagree},
		{"Dogs are forbidden in the dining room.", "Dogs are permitted in the dining room.", Disagree},
		// The other option of a choice of more than two is no negation:
		// not WebP is not JPEG.
		{"Thumbnails are served as JPEG.", "Thumbnails are not served as WebP.", Disagree},
	})
}

// TestWhateverRemains: "whatever's left", "whatever is left over" and
// "whatever remains" name what is left, and set no condition aside;
// "whatever the amount" still does, and "whichever comes first" in
// brackets or quotes picks one.
func TestWhateverRemains(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Donated books that have not sold after 4 weeks on the shelf are passed to the textbook recycler.", "Four weeks on our shelf, then whatever's left gets passed to the textbook recycler.", Agree},
		{"Surplus sandwiches from the conference lunch are given to the night shelter at 3 pm.", "At 3 pm whatever is left over from the conference lunch goes to the night shelter.", Agree},
		{"Seedlings that have not sold after 2 weekends move to the half-price table for 1 more weekend, and anything still unsold then goes to the allotment society.", "2 weekends at full price, then 1 weekend on the half-price table, then whatever's left goes to the allotment society.", Agree},

		{"Every expense over £20 needs an itemised receipt.", "Every expense needs an itemised receipt, whatever the amount.", Disagree},
	})
	for _, tc := range []struct{ text, want string }{
		{`[Policy(Trigger = "whichever comes first")]`, ""},
		{"then whatever is left over goes to the rag merchant", ""},
		{"every parcel goes by courier, whatever its weight", "whatever its weight"},
		{"whatever's the cost, we pay it", "whatever's the cost"},
	} {
		if got := disregards(tc.text); got != tc.want {
			t.Errorf("disregards(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestCountInAWindow: a count said in a window of time ("3 nights in any
// 14-day period") is the same count per that period ("3 nights per
// fortnight", "twice a week" for "2 in any 7 days"); per another period
// it changed, named with the window.
func TestCountInAWindow(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A member may book the squash court at most 3 times in any 7-day period.", "Squash court: 3 bookings a week max per member.", Agree},
		{"Volunteers work no more than 4 shifts in any 14-day period.", "No volunteer does more than 4 shifts per fortnight.", Agree},
		{"Each flat may use the guest parking bay for 2 nights in any 7-day period.", "Each flat gets the guest parking bay 2 nights a week at most.", Agree},

		{"A member may book the squash court at most 3 times in any 7-day period.", "Squash court: 3 bookings a fortnight max per member.", Disagree},
		{"Volunteers work no more than 4 shifts in any 14-day period.", "No volunteer does more than 4 shifts per week.", Disagree},
		{"Volunteers work no more than 4 shifts in any 14-day period.", "No volunteer does more than 5 shifts per fortnight.", Disagree},
		// A window that starts at an event is said once, not in every
		// such period.
		{"Community nurses make 3 visits in the 14 days after discharge.", "Community nurses make 3 visits per fortnight.", Disagree},
		{"Community nurses make 3 visits in the first 14 days.", "Community nurses make 3 visits per fortnight.", Disagree},
	})
}

// TestOptionalSaidAsADutyLifted: "optional" says what "need not", "do
// not have to", "not required", "not mandatory", "not obliged" and "no X
// is required" say, and "not optional" what "required" says. A duty
// kept, another case or another day is still a change.
func TestOptionalSaidAsADutyLifted(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The reflective log is optional for placement students.", "Placement students do not have to write the reflective log.", Agree},
		{"The reflective log is optional for placement students.", "Placement students need not write the reflective log.", Agree},
		{"The reflective log is optional for placement students.", "Placement students are not required to write the reflective log.", Agree},
		{"The reflective log is optional for placement students.", "For placement students the reflective log is not mandatory.", Agree},
		{"The flu jab is optional for office staff.", "Office staff are not obliged to have the flu jab.", Agree},
		{"A deposit is optional for bookings under £500.", "For bookings under £500 no deposit is required.", Agree},
		{"Hi-vis vests are required in the loading yard.", "Hi-vis vests are not optional in the loading yard.", Agree},
		{"Hi-vis vests are required in the loading yard.", "In the loading yard a hi-vis vest is not optional.", Agree},

		{"The reflective log is optional for placement students.", "Placement students must write the reflective log.", Disagree},
		{"The reflective log is optional for placement students.", "Placement students must not write the reflective log.", Disagree},
		{"Hi-vis vests are required in the loading yard.", "Hi-vis vests are optional in the loading yard.", Disagree},
		{"Hi-vis vests are required in the loading yard.", "Hi-vis vests are not optional in the car park.", Disagree},
		{"Uniform is optional on Fridays.", "Uniform is not required on Mondays.", Disagree},
		{"A deposit is optional for bookings under £500.", "For bookings under £1,000 no deposit is required.", Disagree},
		{"Sign-in is mandatory for all visitors.", "Visitors do not have to sign in.", Disagree},
		{"The staff survey is optional.", "Managers need not complete the staff survey, but everyone else must.", Disagree},
		// A duty the filed rule keeps beside its choice is not lifted.
		{"Advice is mandatory for transfers over £30,000; below that it is optional.", "Advice is not compulsory for transfers over £30,000.", Disagree},
	})
}

// TestKindWidened: the kind a rule names of a thing ("adult reader",
// "student card", "hire bikes") said beside another kind ("adult or
// child", "student or staff card") widens the rule, and the other way
// round narrows it. A kind the rule itself names in a list, another form
// of a word it says, or "or" between words of no kind, changes nothing.
func TestKindWidened(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Each adult member may bring 2 guests to the pool.", "Every member, adult or junior, may bring 2 guests to the pool.", Disagree},
		{"A lost staff badge is cancelled within 1 hour.", "Any lost badge, staff or contractor, is cancelled within 1 hour.", Disagree},
		{"Hire bikes must be back at the depot by 6 pm.", "All bikes, hire or private, must be back at the depot by 6 pm.", Disagree},
		{"All vans, diesel or petrol, are parked in bay C.", "Diesel vans are parked in bay C.", Disagree},

		{"Each adult member may bring 2 guests to the pool.", "Adult members can bring two guests each to the pool.", Agree},
		{"Masons must use water suppression or on-tool extraction when cutting stone.", "When cutting stone, masons use wet or on-tool extraction.", Agree},
		{"The records are released or a written refusal is issued within 20 days.", "Within 20 days the records are released or refused in writing.", Agree},
		{"Riders must be 122 cm tall to ride.", "Riders must be 122 cm or taller to ride.", Agree},
	})
	for _, tc := range []struct{ rule, other, want string }{
		{"each adult reader", "every reader, adult or child", "adult reader → adult or child"},
		{"frozen ground or where an ecologist found no nests", `exceptions = ["frozen_ground", "ecologist_found_no_nests"]`, ""},
		// One kind said twice, with no word for every kind.
		{"Full fare applies to adult passengers at peak times.", "Adult passengers pay full fare at peak or busy times.", ""},
		{"Sick pupils are sent home.", "Pupils who are sick or unwell are sent home.", ""},
		{"Public holiday shifts are paid at double time.", "Shifts on a bank or public holiday are paid at double time.", ""},
		{"Night shifts end at 7 am.", "Night or overnight shifts end at 7 am.", ""},
	} {
		if got := kindWidened(tc.rule, tc.other); got != tc.want {
			t.Errorf("kindWidened(%q, %q) = %q, want %q", tc.rule, tc.other, got, tc.want)
		}
	}
}

// TestSeasonsAndPeopleAreOptions: a season, a sex, adults or children
// named on one side and another on the other change the rule, in other
// words as in the same ones; named alike they do not.
func TestSeasonsAndPeopleAreOptions(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Dogs may use the main beach in winter only.", "Dogs are welcome on the main beach in summer.", Disagree},
		{"The lido opens at 6 am in summer.", "In autumn the lido opens its gates at 6 am.", Disagree},
		{"Female patients are seen by a female nurse on request.", "Male patients can ask to be seen by a male nurse.", Disagree},
		{"The 9 pm swim is for women only.", "Only men may use the pool at the 9 pm session.", Disagree},
		{"Adult tickets cost £12 at the door.", "At the door, children pay £12 a ticket.", Disagree},

		{"Adult tickets cost £12 at the door.", "A ticket for an adult is £12 at the door.", Agree},
		{"Boys and girls train together until age 11.", "Mixed training for boys and girls up to age 11.", Agree},
		{"Children under 8 must be supervised by an adult at all times.", "Kids under 8 must have an adult with them at all times.", Agree},
	})
}

// TestNoteTakingWith: "w/o" and "w/out" say "without", and "w/" says
// "with", in a note as in a sentence; "w/e" is none of them.
func TestNoteTakingWith(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Tickets without ID are refused at the door.", "Tickets w/o ID are refused at the door.", Agree},
		{"Guests without a booking are turned away after 9 pm.", "after 9pm guests w/out booking get turned away", Agree},
		{"Children under 12 must swim with an adult.", "kids <12 swim w/ an adult only", Agree},

		{"Tickets without ID are refused at the door.", "Tickets w/ ID are refused at the door.", Disagree},
		{"Children under 12 must swim with an adult.", "kids <12 can swim w/o an adult", Disagree},
	})
	for _, tc := range []struct {
		text string
		word string
		n    int
	}{
		{"w/o ID", "without", 3}, {"W/out a ticket", "without", 5}, {"w/ an adult", "with", 2}, {"w/e", "", 0}, {"kw/o", "", 0}, {"w/", "with", 2},
	} {
		at := 0
		if tc.text == "kw/o" {
			at = 1
		}
		if w, n := slashWith(tc.text, at); w != tc.word || n != tc.n {
			t.Errorf("slashWith(%q, %d) = %q, %d, want %q, %d", tc.text, at, w, n, tc.word, tc.n)
		}
	}
}
