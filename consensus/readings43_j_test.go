package consensus

import "testing"

// A kind the filed rule names, dropped beside an aside that says every
// kind is covered ("all subscribers, whatever country they are in,"),
// either way round; and a thing the rule names as a kind, joined to
// things it never names before the word that bounds it ("ID cards and
// passports from countries …"); a list of kinds after a larger thing
// whose kind the rule names ("any emergency call-out, whether an active
// leak, a blocked toilet or …" of "an active leak reported as an
// emergency").
func TestReadingsScopeAside(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"kind said only as one of the aside's", "Canteen meals",
			"Night-shift nurses get a free meal from the canteen.",
			"any nurse, day or night shift, gets a free canteen meal lol",
			Disagree, "night-shift nurses"},
		{"bound after the thing set aside", "PR approvals",
			"Pull requests from external contributors need two approvals.",
			"# every pull request, internal or external, needs 2 approvals",
			Disagree, "internal or external"},
		{"bound after a verb in -ing", "Harness",
			"Contractors working at height must wear a harness.",
			"Any contractor, at height or on the ground, must wear a harness.",
			Disagree, "at height or on the ground"},
		{"narrowed: the filed rule's aside, a kind in the position", "Visitor sign-in",
			"Every visitor, whatever floor they go to, signs in at reception.",
			"Visitors on the lab floor sign in at reception.",
			Disagree, "whatever floor"},
		{"bound the aside never says", "Railcars",
			"A railcar in transit that has not reported for 72 hours is flagged as lost.",
			"any railcar, parked in a yard or moving, not heard from for 72 hours gets flagged lost",
			Disagree, "railcar in transit"},
		{"kind said with or not", "Boat fee",
			"Members in the rowing section pay a boat fee of £60.",
			"Every member, rower or not, pays the £60 boat fee.",
			Disagree, "rower or not"},
		{"kind joined before its bound", "Game refunds",
			"Refunds are given for unopened games with a receipt.",
			"we refund unopened games and puzzles with a receipt",
			Disagree, "games and puzzles with"},
		{"a list after a larger thing of a kind the rule names", "Repairs",
			"Cracked screens reported as urgent are fixed within a day.",
			"any urgent job, whether a cracked screen, a dead battery or a broken hinge, is fixed within a day",
			Disagree, "any urgent job"},
		// The kind kept: said outside the aside, or the aside a list.
		{"kind said beside the aside", "Newsletter",
			"New subscribers in the EU must confirm within 7 days.",
			"Every new EU subscriber, whatever their language, must confirm within 7 days.",
			Agree, ""},
		{"kind said before the aside", "Garage charging",
			"Electric cars parked in the garage are charged for free.",
			"Every electric car, Tesla or not, parked in the garage charges for free.",
			Agree, ""},
		{"bound said later", "Balcony doors",
			"Tenants in the east wing must keep balcony doors shut after 10 pm.",
			"All tenants of the east wing, whichever floor they live on, keep balcony doors shut after 10 pm.",
			Agree, ""},
		{"joined word with no bound after", "Game refunds",
			"Refunds are given for unopened games with a receipt.",
			"We refund unopened games with a receipt and a valid order number.",
			Agree, ""},
		{"the end of a list, no aside", "Embargoed drafts",
			"Drafts must not be visible through any preview link, feed or sitemap before release.",
			"Before release, no draft may be visible through any preview link, feed or sitemap.",
			Agree, ""},
		{"every item of the list the rule's", "Repairs",
			"Cracked screens and dead batteries reported as urgent are fixed within a day.",
			"any urgent job, whether a cracked screen or a dead battery, is fixed within a day",
			Agree, ""},
	})
}
