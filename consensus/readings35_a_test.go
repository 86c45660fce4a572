package consensus

import "testing"

// TestReadingsNegationRestated pins three ways an agreeing position says
// a negation of the filed rule in other words, each beside the change it
// must still catch: an option set aside only for a case ("a refund
// instead of a replacement" against "a refund instead"); a case whose
// outcome takes back what is stated elsewhere, which says what an
// exception says ("unless they show a medical certificate" against "if
// you have a medical certificate, then no charge"); and a clause denying
// a word of the rule to what the other side excepts ("except the dining
// room" against "no dogs in the dining room").
func TestReadingsNegationRestated(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		// An option set aside for a case, where the other side states
		// the same option as the rule and the case's choice beside it.
		{"set aside for a case, said with a bare instead", "",
			"Damaged parcels reported within 5 days are replaced free; a third claim in one year gets store credit instead.",
			"Damaged parcels reported within 5 days are replaced at no cost, and from the third claim in a year the customer receives store credit rather than a replacement.",
			Agree, ""},
		{"set aside for a case, said as its outcome", "",
			"Each gas detector is bump-tested every month and recalibrated if it drifts more than 5%, unless it is under warranty, in which case it is sent back to the maker.",
			"Monthly bump test for every gas detector, recalibrate on drift above 5%; detectors under warranty are sent back to the maker rather than recalibrated.",
			Agree, ""},
		{"set aside for good, stated as the rule", "",
			"Migrations on tables over 1 GB must run with pt-online-schema-change rather than a plain ALTER TABLE.",
			"Migrations on tables over 1 GB run with a plain ALTER TABLE; pt-online-schema-change is optional.",
			Disagree, "→"},
		{"set aside for a case, the case's choice left out", "",
			"Each gas detector is bump-tested every month and recalibrated if it drifts more than 5%; detectors under warranty are recalibrated too.",
			"Monthly bump test for every gas detector, recalibrate on drift above 5%; detectors under warranty are sent back to the maker rather than recalibrated.",
			Disagree, "recalibrat"},
		{"set aside for a case, the options traded", "",
			"Damaged parcels reported within 5 days are replaced free; a third claim in one year gets store credit instead of a replacement.",
			"Damaged parcels reported within 5 days get store credit, and a third claim in one year gets a replacement instead of store credit.",
			Disagree, "→"},

		// A case whose outcome takes back what was stated before it.
		{"a case with no charge", "",
			"Guests who cancel less than 24 hours before check-in pay one night, unless they show a medical certificate.",
			"Cancel under 24h before check-in = you pay 1 night. If you have a medical certificate, then no charge.",
			Agree, ""},
		{"a case where it is not needed", "",
			"Everyone on site wears a hard hat, except in the site office.",
			"Hard hat for everybody on site; if you are in the site office it is not needed.",
			Agree, ""},
		{"a case where it isn't free", "",
			"Delivery is free for orders over 50 dollars, except to islands, which pay a 10 dollar surcharge.",
			"Orders above 50 USD ship free. If it goes to an island, though, it isn't free: there is a 10 USD surcharge.",
			Agree, ""},
		{"a case that takes the rule back, against the opposite case", "",
			"Guests who cancel less than 24 hours before check-in pay one night, unless they show a medical certificate.",
			"Cancel under 24h before check-in = you pay 1 night. If you have a medical certificate, you pay two nights.",
			Disagree, ""},
		{"another thing in the place, no outcome", "",
			"Check every reefer container every 4 hours; a reading more than 2 °C off the set point raises an alarm to the reefer technician.",
			"Every reefer gets polled every four hours, and if one drifts more than two degrees off its set point the alarm goes to the vessel planner, not to the reefer techs.",
			Disagree, "reefer"},
		{"a case lifted, the word stated after it", "",
			"Riders must wear a helmet on all club rides, unless under a doctor's exemption.",
			"If a rider has a doctor's exemption, no helmet. All club rides otherwise need a helmet.",
			Agree, ""},

		// A clause that denies a word of the rule to what the other
		// side excepts from it.
		{"the exception denied the rule's word", "",
			"A lifeguard is on duty at every session, except private hires.",
			"lifeguard at all sessions. private hires don't get a lifeguard.",
			Agree, ""},
		{"the exception denied, said with no", "",
			"Dogs are welcome in every room except the dining room.",
			"No dogs in the dining room; every other room is fine.",
			Agree, ""},
		{"the exception denied, the case's word new", "",
			"Visitors wear a badge everywhere in the lab, except in the canteen.",
			"Visitors: badge on at all times in the lab. In the canteen visitors do not wear a badge.",
			Agree, ""},
		{"a denial where the rule denies, no exception", "",
			"No dogs are allowed except in the garden.",
			"No dogs in the garden.",
			Disagree, ""},
		{"the exception put back", "",
			"Visitors wear a badge everywhere in the lab, except in the canteen.",
			"Visitors wear a badge everywhere in the lab, in the canteen as well.",
			Disagree, ""},
		{"a negation flipped stays a change", "",
			"Drivers must not use a phone while driving.",
			"Drivers must use a phone while driving.",
			Disagree, "→"},
	})
}
