package consensus

import "testing"

// TestExceptionNamedByItsWord reads an exception said with the word
// itself, outside any condition ("Exception: bank hols, it shuts at
// 18:00", "the only exception is the shielded room") as setting its case
// aside as "except" or "unless" does: the rule is reworded, not its
// exception dropped. "No exceptions" and "exceptions are never made"
// name none, and an exception the other side does not set aside at all
// stays a change.
func TestExceptionNamedByItsWord(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"exception as a label, terse note", "gym opening hours",
			"The gym is open until 10 pm every day, except on bank holidays, when it closes at 6 pm.",
			"gym: open till 22:00 daily. Exception: bank hols, it shuts at 18:00.", Agree, ""},
		{"the one exception, chat", "taking the company van home",
			"Staff may not take the company van home overnight, except the on-call engineer.",
			"nobody takes the van home at night - the one exception is whoever is on call (engineer)", Agree, ""},
		{"the only exception, legal voice", "smoking on the premises",
			"Smoking is prohibited anywhere on the premises, except in the designated shelter behind the warehouse.",
			"Smoking shall not occur on any part of the premises; the sole designated shelter located behind the warehouse is the only exception.", Agree, ""},

		{"no exceptions said", "gym opening hours",
			"The gym is open until 10 pm every day, except on bank holidays, when it closes at 6 pm.",
			"The gym is open until 10 pm every day, no exceptions, bank holidays too.", Disagree, ""},
		{"the exception dropped, config voice", "laptop encryption",
			"All company laptops must have full-disk encryption enabled, except loaner devices kept in the IT cupboard.",
			"disk_encryption: required  # every company laptop, loaners too, no exceptions", Disagree, ""},
	})
}
