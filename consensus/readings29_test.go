package consensus

import "testing"

// TestQuantifierBesideOtherRewording: "all", "every", "any" or "each"
// before words the other side says unchanged is the bare plural, even
// where the rest of the sentence is reworded too. Beside a change to the
// words it heads ("Laden trucks" → "All trucks", "Gutters above two
// storeys" → "All gutters") it widens the rule.
func TestQuantifierBesideOtherRewording(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Returned kayaks are hosed down with fresh water and hung on the rack before the shed is locked.", "Any returned kayak gets hosed down with fresh water and hung up on the rack before the shed is locked.", Agree},
		{"Any parcel heavier than 30 kg is sent by pallet courier and the customer is told the day before.", "Parcels heavier than 30 kg go by pallet courier, and the customer is told on the day before.", Agree},
		{"Unclaimed lost property is kept for 30 days and then donated to the charity shop.", "Any unclaimed lost property gets kept for 30 days, after which it is donated to the charity shop.", Agree},
		{"Damaged library books are withdrawn from loan and sent for repair within a week.", "All damaged library books get withdrawn from loan and are sent off for repair within a week.", Agree},

		{"Damaged library books are withdrawn from loan and sent for repair within a week.", "All library books get withdrawn from loan and are sent off for repair within a week.", Disagree},
		{"Laden trucks over 12 tonnes use the north gate and must book a slot a day ahead.", "All trucks over 12 tonnes use the north gate and have to book a slot a day ahead.", Disagree},
		{"Refrigerated containers at the quay are checked every 4 hours and logged.", "All containers at the quay get checked every 4 hours and are logged.", Disagree},
		{"Hired bikes with electric assist are charged overnight and inspected each morning.", "All hired bikes are charged overnight and get inspected every morning.", Disagree},
		{"All school minibuses must be inspected every month and logged by the transport lead.", "School minibuses used for trips abroad must be inspected every month and logged by the transport lead.", Disagree},
		// The clause ends after the change on the filed side only.
		{"Staff on the night shift, and cleaners, must wear badges at all times.", "All staff, and cleaners, have to wear badges at all times.", Disagree},
		{"Trainees on probation, and agency workers, are escorted in the lab.", "All trainees, and agency workers, are escorted in the lab.", Disagree},
	})
}

// TestPriceEach: "a" after a price says "per" what it prices: "£3 a
// copy" is "£3 per copy", "£40 for a room" is "£40 per room", "£15 a
// night" is "£15 per night". Another thing priced, or another amount, is
// still a change.
func TestPriceEach(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Consignors pay a minimum of 50 GBP per lot.", "Consignors pay minimum 50 GBP a lot.", Agree},
		{"Programmes cost £3 per copy at the door.", "Programmes cost £3 a copy at the door.", Agree},
		{"Each player pays £4 a match.", "Each player pays £4 per match.", Agree},
		{"Hire is £40 per room, plus a £20 deposit.", "Hire is £40 a room, plus a £20 deposit.", Agree},
		{"Hire is £40 for a room, plus a £20 deposit.", "Hire is £40 per room, plus a £20 deposit.", Agree},
		{"Dogs are allowed on the ground floor for £15 a night.", "Dogs are allowed on the ground floor for £15 per night.", Agree},
		{"The night porter walks the corridors twice a night.", "The night porter walks the corridors twice per night.", Agree},

		{"Programmes cost £3 per copy at the door.", "Programmes cost £3 a box at the door.", Disagree},
		{"Hire is £40 per room, plus a £20 deposit.", "Hire is £45 a room, plus a £20 deposit.", Disagree},
		{"Dogs are allowed on the ground floor for £15 a night.", "Dogs are allowed on the ground floor for £15 a week.", Disagree},
		{"Dogs are allowed on the ground floor for £15 a night.", "Dogs are allowed on the ground floor for £15 per stay.", Disagree},
		// A part of the day that names the kind of a thing, after a
		// number that is no amount of it.
		{"On ward 7 a night nurse checks the drips hourly.", "On ward 7 the night nurse checks the drips hourly.", Agree},
		{"In room 4 a morning class runs on Saturdays.", "In room 4 the morning class runs on Saturdays.", Agree},
		{"Rooms are £15 a night, bedding included.", "Rooms are £15 per night, bedding included.", Agree},
	})
}

// TestOnlyAgainstAChoice: a thing one side restricts with "only" that the
// other offers beside another thing, joined by "or", changes the rule in
// a rewording too, either way round. "and" joins clauses and names
// single things ("bed and breakfast") as often, and the other thing named
// on both sides is no change.
func TestOnlyAgainstAChoice(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Parking is £5, cash only.", "Parking costs £5 and you can pay by card or cash.", Disagree},
		{"Entries are accepted by email only.", "You can send your entry by email or post.", Disagree},
		{"The survey is in English or Welsh.", "The survey is available in English only.", Disagree},
		{"Deliveries are made on weekdays only.", "Deliveries arrive on weekdays or Saturdays.", Disagree},
		{"Lockers cost £2 a day, payable by card only.", "Lockers are £2 a day and we only take cash.", Disagree},
		// Small words after the "only" or the other thing, to the end of
		// the clause.
		{"fyi we're card only now", "fyi we take card or cash now", Disagree},
		{"Cash only please.", "Cash or card please.", Disagree},

		{"Entries are accepted by email only.", "Entries must be sent by email.", Agree},
		{"Only members may use the pool, on weekdays or at weekends.", "The pool is for members, weekdays or weekends.", Agree},
		{"Payment by bank transfer only.", "You pay by bank transfer, or by bank transfer in instalments.", Agree},
		{"Lockers cost £2 a day, payable by card only.", "Lockers are £2 a day, paid by card.", Agree},
		{"Show your membership card at the door and pay in cash.", "Pay cash at the door and show your membership card.", Agree},
		{"Telecommands may be uplinked only while the spacecraft is above 15° elevation and the station has confirmed carrier lock.", "Only above 15° elevation, and only after the station has confirmed carrier lock.", Agree},
	})
}

// TestOnlyOfAKind: a rule said of every thing of a kind, against a side
// that says "only" of a narrower kind the first never names ("every
// locker" against "only the ground-floor lockers", "every order over £50"
// against "UK orders only"), is narrowed, in a rewording too; the other
// way round, widened. "only" of a condition ("only then", "only by the
// security team") or of the same things is no change.
func TestOnlyOfAKind(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Every locker is emptied and cleaned at the end of term.", "Lockers get emptied and cleaned at end of term, but only the ground-floor lockers.", Disagree},
		{"Every visitor signs the fire register at reception.", "Reception: fire register signed by weekend visitors only.", Disagree},
		{"Each rental bike is inspected before it goes out.", "We inspect only electric bikes before they go out.", Disagree},
		{"Every order over £50 ships free.", "Free shipping on any order over £50, UK orders only.", Disagree},
		{"Only occupied rooms are cleaned daily.", "Each room gets cleaned every day.", Disagree},

		{"Each rental bike is inspected before it goes out.", "Bikes get checked before every hire, every single bike.", Agree},
		{"Every parcel is scanned at the gate.", "Scan each parcel at the gate; only then can it go in.", Agree},
		{"Every parcel is scanned at the gate.", "All parcels get scanned at the gate, only by the security team.", Agree},
		{"Objects are lent to other museums only for exhibitions, and a courier accompanies every object worth more than 1 million EUR.", "We lend objects only for exhibitions at other museums. Any object valued above EUR 1 million travels with a courier.", Agree},
		// "not only" and "the only" restrict nothing; a side that says
		// the rule of every one itself says more of some.
		{"Every guest must show ID at check-in.", "Not only foreign guests: every guest shows ID at check-in.", Agree},
		{"Each pupil gets a free lunch.", "Each pupil gets a free lunch, not only low-income pupils.", Agree},
		{"Every locker has its own key.", "Each locker has its own key - the only spare lockers are on floor 2.", Agree},
		{"Every room has a smoke alarm.", "Every room has a smoke alarm; only corner rooms have two.", Agree},
		{"All bags are searched at the door.", "All bags searched at the door, but only large bags go through the scanner.", Agree},
	})
}

// TestOnlyOnSomeDays: a rule one side restricts with "only" to days,
// seasons or parts of the day the other never names ("but only on
// Mondays and Tuesdays", "weekdays only though") holds less often, in a
// rewording too. The same days said both ways, or "only" of something
// else, is no change.
func TestOnlyOnSomeDays(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The car park barrier stays up for free exit after 6 pm.", "Free exit after 6pm, barrier up - weekdays only though.", Disagree},
		{"Guests may bring their own wine for a £10 corkage fee.", "BYO wine, £10 corkage, but only on Mondays and Tuesdays.", Disagree},
		{"Single kayaks are not rented when gusts exceed 22 knots.", "No single kayak goes out in gusts above 22 knots, but only on weekends and bank holidays.", Disagree},

		{"The outdoor pool opens at 7 am in summer only.", "In the summer months the outdoor pool opens at 7 am, and only then.", Agree},
		{"Bins are collected on Tuesdays only.", "Collection day for bins is Tuesday, no other day.", Agree},
		{"The café serves breakfast until 11 am.", "Breakfast is served until 11, only in the café.", Agree},
		{"Staff may work from home on Fridays.", "Working from home is allowed, but only on Fridays.", Agree},
		{"Monitoring scans are offered on Saturday mornings only.", "Saturday AM only for monitoring scans.", Agree},
		// The same days or part of the day in other words.
		{"The climbing wall is open to the public on Saturdays and Sundays.", "Public climbing wall sessions at weekends only.", Agree},
		{"Breakfast is served from 7 to 10 am.", "Breakfast 7-10am, mornings only.", Agree},
		{"Quiet hours run from 10 pm to 7 am.", "quiet hours are 10pm–7am, so at night only", Agree},
		{"The tennis courts can be booked between 6 and 9 pm on weekdays.", "Courts bookable 6-9pm, but only Monday through Friday.", Agree},
		{"Parking is free on weekends.", "Free parking on Saturdays and Sundays only.", Agree},
		{"Parking is free on weekends.", "Free parking on Sundays only.", Disagree},
	})
}

// TestNumbersTradedInWords: two things that traded their numbers, one
// side writing them in words ("Premium two and Standard four" against
// "Standard at most 2 and Premium at most 4"), or their names traded
// between two numbers, change the rule in a rewording; the same numbers
// kept with the same things do not.
func TestNumbersTradedInWords(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A Standard plan account may play at most 2 streams at the same time and a Premium account at most 4.", "Premium households can have two streams going at once and Standard ones four.", Disagree},
		{"Bisque firings are charged £6 per shelf and glaze firings £8 per shelf.", "Bisque is eight pounds a shelf and glaze is six.", Disagree},
		{"Adults pay 12 euros and students pay 8 euros.", "Students pay twelve euros, adults eight.", Disagree},
		{"The Basic tier allows 3 users and the Team tier 10 users.", "Team tier: three users. Basic tier: ten users.", Disagree},

		{"Adults pay 12 euros and students pay 8 euros.", "Students pay eight euros, adults twelve.", Agree},
		{"The Basic tier allows 3 users and the Team tier 10 users.", "Basic gets three seats, Team gets ten.", Agree},
		{"Bisque firings are charged £6 per shelf and glaze firings £8 per shelf.", "Glaze is eight pounds a shelf and bisque is six.", Agree},
	})
}

// TestExceptionDenied: a side that names the filed rule's exception and
// denies it ("being in hospital makes no difference", "contractors are no
// different", "even if the room is damaged", "like everywhere else")
// drops the exception, in a rewording too. A denial that names nothing
// of the exception ("even on weekends" beside "except juniors"), or a
// filed rule that says "even" itself, is no change.
func TestExceptionDenied(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Late returns are fined £1 a day, unless the borrower is in hospital.", "Late returns cost £1 a day; being in hospital makes no difference.", Disagree},
		{"All visitors sign in at reception, except contractors with a site pass.", "Everyone signs in at reception; contractors are no different, pass or not.", Disagree},
		{"The deposit is refunded in full unless the room is damaged.", "Full refund of the deposit, even if the room is damaged.", Disagree},
		{"Households may reserve at most 4 plots, except in the double-depth section, where a double grave counts as one plot.", "At most 4 plots per household; double-depth graves count as two plots, like everywhere else.", Disagree},
		{"Beginners do a walk test in the shop unless they decline in writing.", "Beginners must do the walk test in the shop, and a written refusal does not exempt them.", Disagree},

		{"The deposit is refunded in full unless the room is damaged.", "Full refund of the deposit, unless there is damage to the room.", Agree},
		{"Members pay £5 per session, except juniors, who pay £3.", "£5 a session for members, even on weekends; juniors pay £3.", Agree},
		{"Invoice numbers are never reused, even for cancelled invoices, except on the test ledger.", "A number stays used even when the invoice is cancelled, except on the test ledger.", Agree},
		// "like any other" as a comparison, and the exception kept.
		{"Library books are loaned for 3 weeks unless another reader has reserved them.", "Three-week loans, like any other library - unless someone else has reserved the book.", Agree},
		{"Staff must wear hard hats on site unless they are in the site office.", "Hard hats on site at all times, even for visitors, except inside the site office.", Agree},
		{"Students pay half price except during exam week.", "Students pay half price — like any other cinema — except in exam week.", Agree},
	})
}

// TestDutyLiftedSaidAgain: "don't have to" or "needn't" said of the case
// the filed rule exempts ("baby milk is exempt from the 100 ml limit",
// "parents looking after their own child do not need a licence") says
// the exemption again; said of the rule itself it still makes the rule
// optional.
func TestDutyLiftedSaidAgain(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"A licensed chaperone may look after no more than 12 performing children at once; parents chaperoning only their own child do not need a licence.", "Twelve performing children is the ceiling for any one licensed chaperone at a time, though a parent who is only looking after their own child needn't be licensed.", Agree},
		{"Liquids in cabin bags must be in containers of 100 ml or less; baby milk and prescribed medicines are exempt from the 100 ml limit.", "Every container has to be 100ml or under. Baby milk and prescription medicines don't have to meet the 100ml limit.", Agree},
		{"Staff must complete the fire module every year; new starters in their first month are not required to.", "Everyone does the fire module yearly, though new starters needn't in their first month.", Agree},

		{"Staff must complete the fire module every year; new starters in their first month are not required to.", "Staff needn't do the fire module every year.", Disagree},
		{"Visitors must wear a hard hat on site; delivery drivers who stay in their cab are exempt.", "Visitors don't have to wear a hard hat on site; drivers in the cab neither.", Disagree},
	})
}

// TestMicrogramsAndOunces: "µg" (the micro sign or the Greek mu), "mcg"
// and "micrograms" weigh a millionth of a gram, "µl" a thousandth of a
// millilitre, and "ounces" weigh as "oz" does: against milligrams or
// grams they change the rule, said again in their own unit they do not.
func TestMicrogramsAndOunces(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Samples are submitted as dried digests of at least 1 µg per sample.", "Dried digests, minimum 1 mg per sample.", Disagree},
		{"Samples are submitted as dried digests of at least 1 µg per sample.", "Dried digests, at least 1 microgram each.", Agree},
		{"Each dose holds 50 mcg of the vitamin.", "Each dose holds 0.05 mg of the vitamin.", Agree},
		{"Load 5 µl of each sample into the well.", "Put 5 ml of every sample into the well.", Disagree},
		{"Its gas cylinder must weigh within 2 grams of the printed weight, checked every year.", "Every year the cylinder is checked, and it has to be within 2 ounces of the printed weight.", Disagree},
		{"Its gas cylinder must weigh within 2 oz of the printed weight, checked every year.", "Every year the cylinder is checked, and it has to be within 2 ounces of the printed weight.", Agree},
	})
}
