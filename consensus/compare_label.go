package consensus

import (
	"strings"
	"unicode"
)

// Labels a writer puts before what they say: "Handoff:", "Week 6 log:".
// A label names the kind of note, not a part of the rule, and read as
// words it adds a name or a number the filed rule never said.

// maxLabelWords is how long a label may be; a colon ends it.
const maxLabelWords = 3

// dropLabel drops the label that opens position when none of its words
// is a word of the filed position or of the record's topic: "Week 6 log:
// coated screens dry 12 hours" says what "Coated screens dry for 12
// hours" says. A label whose words the filed rule uses ("Drivers:
// hi-vis in the yard") is a part of the rule and stays, and so does one
// followed by fewer than four words ("Weekends: closed"). Labels inside
// the text stay: there they as often name a condition ("Peak season:
// full gallery within 10 weeks").
func dropLabel(position string, filed *analysis, topic string) string {
	if strings.IndexByte(position, ':') < 0 {
		return position
	}
	label, after, ok := sentenceLabel(position)
	if !ok {
		return position
	}
	own := analyze(label).words()
	if len(own) == 0 {
		return position
	}
	if hasAny(set(filed.words()), own) || hasAny(set(analyze(topic).words()), own) {
		return position
	}
	return after
}

// sentenceLabel splits a text that opens with a label ("Week 6 log:
// …") into the label and what follows the colon. A label is one to
// maxLabelWords words of letters and digits that ends in a letter (not
// "from 23:00"), and at least four words must follow it.
func sentenceLabel(s string) (label, after string, ok bool) {
	t := strings.TrimLeft(s, " \t\n")
	k := strings.IndexByte(t, ':')
	if k <= 0 || k > 40 {
		return "", "", false
	}
	label, after = t[:k], t[k+1:]
	words := strings.Fields(label)
	if len(words) == 0 || len(words) > maxLabelWords || len(strings.Fields(after)) < 4 {
		return "", "", false
	}
	for _, r := range label {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' && r != '-' {
			return "", "", false
		}
	}
	last := []rune(label)[len([]rune(label))-1]
	if !unicode.IsLetter(last) {
		return "", "", false
	}
	return label, strings.TrimLeft(after, " \t"), true
}

// hasAny reports whether m holds any of ws.
func hasAny(m map[string]bool, ws []string) bool {
	for _, w := range ws {
		if m[w] {
			return true
		}
	}
	return false
}
