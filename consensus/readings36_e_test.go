package consensus

import "testing"

// An acronym one side of a rule spells out in the other's words reads as
// those words (spellOutRule), but not when two runs of words spell it,
// when it is a shorter name inside a word of the other side, or when the
// run holds a denial.
func TestReadings36AcronymInRule(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		{"terms of business as TOB", "Broker fees",
			"The fee is disclosed in writing before the client signs the terms of business.",
			"Fee goes to the client in writing before they sign the TOB.", Agree, ""},
		{"right of way as ROW", "Pipeline patrol",
			"The right of way is patrolled by aircraft every 2 weeks.",
			"Fixed-wing patrol of the ROW fortnightly.", Agree, ""},
		{"game masters as GMs", "Escape rooms",
			"Game masters watch each group on camera for the whole session.",
			"GMs watch each group on camera for the whole session.", Agree, ""},
		{"time off in lieu as TOIL", "Leave",
			"Staff may take time off in lieu within 3 months of the overtime.",
			"TOIL must be taken within 3 months of the overtime.", Agree, ""},
		{"TOIL, another limit", "Leave",
			"Staff may take time off in lieu within 3 months of the overtime.",
			"TOIL must be taken within 6 months of the overtime.", Disagree, "6 months"},
		{"DOC beside DOCX is another format", "Uploads",
			"The portal accepts uploads in PDF and DOCX only, checked by content.",
			"The portal accepts uploads in PDF, DOCX and DOC, checked by content.", Disagree, ""},
	})
}

func TestReadings36SpellOutRule(t *testing.T) {
	for _, c := range []struct{ text, other, want string }{
		{"sign the TOB", "signs the terms of business", "sign the terms of business"},
		{"GMs record each hint", "Game masters log every hint", "game masters record each hint"},
		// Two runs spell "CL": it is left.
		{"outside the CL", "outside the control limits or beside the centre line", "outside the CL"},
		// A denial in the run: left.
		{"pts with DNR", "patients with a do not resuscitate order", "pts with DNR"},
		// The other side writes it: left.
		{"the SLA", "the SLA, the service level agreement", "the SLA"},
	} {
		if got := spellOutRule(c.text, c.other); got != c.want {
			t.Errorf("spellOutRule(%q, %q) = %q, want %q", c.text, c.other, got, c.want)
		}
	}
}
