package consensus

import "testing"

// TestRolesTraded: two people (or things) that trade what is said of
// them change the rule, whether each part is a clause of its own, a
// condition ("while …") or an item after "and"; the same pairs said in
// other words, the passive for the active or the parts in the other
// order, do not. A list both sides keep ("blades and nacelles") is no
// pair of parts.
func TestRolesTraded(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Invoices are entered by the accounts clerk and approved by the finance director.", "fyi invoices: finance director enters them, accounts clerk approves", Disagree},
		{"The caretaker locks the gates at 22:00 while the duty nurse checks the fire doors.", "From tonight the duty nurse locks the gates at 22:00 and the caretaker checks the fire doors.", Disagree},
		{"The referee keeps time and the fourth official shows the added minutes.", "fourth official keeps the time, referee shows added minutes", Disagree},
		{"The lab manager orders the solvents and the safety officer signs the waste forms.", "Hereby agreed: the safety officer shall order solvents and the lab manager shall sign waste forms.", Disagree},
		{"The best man gives the first toast and the father of the bride introduces the couple.", "father of bride do first toast, best man introduce the couple", Disagree},
		{"The night supervisor writes the handover note and the day supervisor reads it aloud at 07:00.", "The day supervisor writes the handover note and the night supervisor reads it aloud at 07:00.", Disagree},
		{"Applications are screened by the programme officer and scored by two external reviewers.", "Applications are screened by two external reviewers and scored by the programme officer.", Disagree},
		{"The invigilator collects the phones and the exam officer seals the scripts.", "Exam officer collects phones; invigilator seals the scripts.", Disagree},

		{"Invoices are entered by the accounts clerk and approved by the finance director.", "The accounts clerk enters each invoice; the finance director approves it.", Agree},
		{"The caretaker locks the gates at 22:00 while the duty nurse checks the fire doors.", "At 22:00 the gates are locked by the caretaker, and the fire doors are checked by the duty nurse.", Agree},
		{"The referee keeps time and the fourth official shows the added minutes.", "Time is kept by the referee, while the added minutes are shown by the fourth official.", Agree},
		{"The best man gives the first toast and the father of the bride introduces the couple.", "Father of the bride introduces the couple, best man does the first toast.", Agree},
		{"The night supervisor writes the handover note and the day supervisor reads it aloud at 07:00.", "Handover note written by night supervisor, read out loud by day supervisor at 07:00.", Agree},
		{"The invigilator collects the phones and the exam officer seals the scripts.", "Phones are collected by the invigilator; scripts are sealed by the exam officer.", Agree},
		// A list both sides say, its items in either order.
		{"Inspect the pumps and valves by drone every 6 months, and repaint them when rust shows.", "A drone looks over the valves and pumps every six months; they get repainted once rust shows.", Agree},
		{"Tenants with a dog or cat must hold pet damage cover for the whole tenancy.", "Any tenant keeping a cat or dog carries pet damage cover for the full tenancy.", Agree},
	})
}

// TestOptionTradedBesideItsName: among three or more options of a choice
// (ways to pay), one use traded for another changes the rule, though the
// first option is still named in other uses ("ID card", "card desk"):
// both sides name the choice as often. An option only added beside the
// same uses, or a choice of two said in another turn of phrase, is not.
func TestOptionTradedBesideItsName(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The library card is renewed at the card desk for £3, payable by card.", "Library card renewal at the card desk costs £3, payable in cash.", Disagree},
		{"A replacement staff card is issued at the card office for £10, payable by card only.", "Replacement staff cards come from the card office, £10, and only cash is taken.", Disagree},

		{"The library card is renewed at the card desk for £3, payable by card.", "Renewing your library card at the card desk is £3 and we take card payment.", Agree},
		{"A replacement staff card is issued at the card office for £10, payable by card only.", "The card office issues replacement staff cards for £10; pay by card, please.", Agree},
	})
}

// TestLeftoversGoElsewhere: what happens to what is left (composted,
// donated, discarded) is a choice: another one changes the rule; the
// same one in other words ("thrown away", "into the compost") does not.
func TestLeftoversGoElsewhere(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Bread left at closing is composted.", "Leftover bread at closing is donated to the night shelter.", Disagree},
		{"Unclaimed samples are discarded after 30 days.", "Samples not claimed within 30 days get donated to the teaching lab.", Disagree},
		{"Unsold flowers are donated to the hospice on Mondays.", "Unsold flowers are thrown away on Mondays.", Disagree},

		{"Bread left at closing is composted.", "any bread left over at close goes to the compost bin", Agree},
		{"Unclaimed samples are discarded after 30 days.", "after 30 days we throw away samples nobody claimed", Agree},
		{"Unsold flowers are donated to the hospice on Mondays.", "On Mondays the flowers we did not sell go to the hospice as a donation.", Agree},
	})
}

// TestWaysToBeSeen: in person, online, by phone, by video call, by
// email, by letter are the ways of one choice: another one changes the
// rule, the same one in other words does not.
func TestWaysToBeSeen(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"The first review is held in person and later reviews by video call.", "The first review is in person; later reviews are a phone call.", Disagree},
		{"Residents renew their parking permit only by phone.", "Parking permits can be renewed only in person at the town hall.", Disagree},

		{"The first review is held in person and later reviews by video call.", "first review face to face (in person), after that on a video call", Agree},
		{"Residents renew their parking permit only by phone.", "Parking permit renewals: residents phone the council, nothing else.", Agree},
	})
}

// TestNumbersTraded: two numbers that trade what is said of them change
// the rule ("two blasts call the swimmers out, one starts the race"
// against the other way round), numbers written as words too; the same
// pairs in another order do not.
func TestNumbersTraded(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Two whistle blasts call the swimmers out of the water, one blast starts the race, and three blasts stop it.", "One blast calls the swimmers out, two blasts start the race, three stop it.", Disagree},
		{"Two whistle blasts call the swimmers out of the water, one blast starts the race, and three blasts stop it.", "Swimmers out of the water: two blasts. Race start: one blast. Stop: three blasts.", Agree},
		// A number word after "and" starts a part of its own, as a digit does.
		{"Three short sirens clear the yard and one long siren means work can restart.", "one long siren clears the yard, three short ones mean work can restart", Disagree},
		{"Three short sirens clear the yard and one long siren means work can restart.", "Work restarts after one long siren; three short sirens clear the yard.", Agree},
	})
}
