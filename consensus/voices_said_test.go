package consensus

import "testing"

// TestRuleNumberedInItsBook: "Rule 14:", "Bye-law 5:", "Regulation 9 —"
// before a rule number it in its rule book; the number is no number of
// the rule, and the label is no clause added to it.
func TestRuleNumberedInItsBook(t *testing.T) {
	t.Parallel()
	const filed = "Pairs must be seated by 7:10 pm; a pair arriving late plays only if the director agrees."
	checkAgreements(t, []agreementCase{
		{filed, "Rule 12: pairs must be seated by 7:10 pm; a pair arriving late plays only if the director agrees.", Agree},
		{filed, "Bye-law 5: Pairs shall be seated by 19:10. A late pair may play only with the consent of the director.", Agree},
		{filed, "Regulation 9 — pairs must be seated by 7:10 pm; a pair arriving late plays only if the director agrees.", Agree},
		{filed, "Rule 12: pairs must be seated by 7:20 pm; a pair arriving late plays only if the director agrees.", Disagree},
	})
}

// TestFailTo: "fails to report" is "does not report"; "fail" alone stays
// the word it is.
func TestFailTo(t *testing.T) {
	t.Parallel()
	const filed = "Bikes that do not pass the brake check are taken off the hire fleet."
	checkAgreements(t, []agreementCase{
		{filed, "Bikes that fail to pass the brake check are taken off the hire fleet.", Agree},
		{filed, "Bikes that pass the brake check are taken off the hire fleet.", Disagree},
		{"The contact calls the rescue team if the walkers have not reported back by 18:00.", "Should the walkers fail to report back by 18:00, the contact calls the rescue team.", Agree},
	})
}

// TestChatSpelling: "u" and "ur" are "you" and "your": no condition of
// their own.
func TestChatSpelling(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Petrol models may only be started in the marked engine bay.", "u can only start a petrol model in the marked engine bay, and someone has to hold it while u do", Agree},
	})
}

// TestLatestAsADeadline: "latest 4 pm", "latest on the 5th" and "by
// Friday at the latest" say a deadline as "by" does; "the latest
// version" is which version.
func TestLatestAsADeadline(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Meal orders must be placed by 4 pm the day before.", "Meal orders must be placed latest 4 pm the day before.", Agree},
		{"Meal orders must be placed by 4 pm the day before.", "Meal orders must be placed by 4 pm the day before at the latest.", Agree},
		{"Meal orders must be placed by 4 pm the day before.", "Meal orders must be placed latest 5 pm the day before.", Disagree},
		{"Rent is paid to the board by the 5th of each month.", "Rent is paid to the board latest on the 5th of each month.", Agree},
		{"Install the latest version of the app before the trip.", "Install the newest version of the app before the trip.", Agree},
	})
}

// TestExceptionNamedAfterItsWords: "emergencies are the exception" is
// "except in an emergency".
func TestExceptionNamedAfterItsWords(t *testing.T) {
	t.Parallel()
	const filed = "Headlights must be off within 50 metres of the telescopes, except in an emergency."
	checkAgreements(t, []agreementCase{
		{filed, "Headlights must be off within 50 metres of the telescopes; emergencies are the exception.", Agree},
		{"Headlights must be off within 50 metres of the telescopes.", "Headlights must be off within 50 metres of the telescopes; emergencies are the exception.", Disagree},
	})
}

// TestKeysWithTheirUnit: a PHP or Ruby key quoted with single quotes
// ("'max_height_m' => 120") is read as a key; "m" after a word of length
// is metres, so 120 m against 120 feet is a unit changed.
func TestKeysWithTheirUnit(t *testing.T) {
	t.Parallel()
	const filed = "Kites must not be flown higher than 120 metres above the beach."
	checkAgreements(t, []agreementCase{
		{filed, "$kite_rules = ['max_height_m' => 120];", Agree},
		{filed, "max_height_m: 120", Agree},
		{filed, "max_height_m: 150", Disagree},
		{"Kites must not be flown higher than 120 feet above the beach.", "$kite_rules = ['max_height_m' => 120];", Disagree},
	})
}
