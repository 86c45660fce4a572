package consensus

import "testing"

// TestReadNoThingBeforeEvent reads "no X before Y" as "X only after Y":
// the negation of a thing ("no reopening", "no samples") or of its verb
// ("are not discarded") with a "before" of an event in its clause waits
// for the event as "until" does, and the thing happens after it. Done
// before the event, or after another event, it stays a conflict.
func TestReadNoThingBeforeEvent(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"pool chat", "Reopening the pool", "The pool reopens only after a lifeguard checks the water.",
			"hey so pool stays shut, no reopening before a lifeguard has checked the water", Agree, ""},
		{"exam note", "Starting the exam", "The exam starts only once every candidate has shown photo ID.",
			"no exam starting before each candidate shows photo ID, ok?", Agree, ""},
		{"ferry terse", "Boarding the ferry", "Cars board the ferry only after foot passengers have boarded.",
			"cars no boarding before foot passengers are on board", Agree, ""},
		{"samples no", "Discarding samples", "Samples are discarded only after the lab manager signs the disposal form.",
			"No samples are discarded before the lab manager signs the disposal form.", Agree, ""},
		{"samples not", "Discarding samples", "Samples are discarded only after the lab manager signs the disposal form.",
			"Samples are not discarded before the lab manager signs the disposal form.", Agree, ""},
		{"samples object", "Discarding samples", "The lab discards samples only after the lab manager signs the disposal form.",
			"The lab discards no samples before the lab manager signs the disposal form.", Agree, ""},
		{"samples non-native", "Discarding samples", "Samples are discarded only after the lab manager signs the disposal form.",
			"no sample gets discarded before the lab manager signs the disposal form", Agree, ""},

		{"pool before", "Reopening the pool", "The pool reopens only after a lifeguard checks the water.",
			"pool reopens before a lifeguard checks the water", Disagree, ""},
		{"pool other doer", "Reopening the pool", "The pool reopens only after a lifeguard checks the water.",
			"pool reopens only after the manager checks the water", Disagree, ""},
		{"exam before", "Starting the exam", "The exam starts only once every candidate has shown photo ID.",
			"the exam begins before candidates have shown photo ID", Disagree, ""},
		{"ferry before", "Boarding the ferry", "Cars board the ferry only after foot passengers have boarded.",
			"cars board the ferry before foot passengers", Disagree, ""},
		{"samples before", "Discarding samples", "Samples are discarded only after the lab manager signs the disposal form.",
			"samples get thrown away before the lab manager signs the disposal form", Disagree, ""},
		{"samples other doer", "Discarding samples", "Samples are discarded only after the lab manager signs the disposal form.",
			"Samples are discarded only after any technician signs the disposal form.", Disagree, ""},
		{"payment before", "Releasing payment", "Payment is released to the seller only after the buyer confirms delivery.",
			"Payment is released to the seller before the buyer confirms delivery.", Disagree, ""},
	})
}
