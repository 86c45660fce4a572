package consensus

import (
	"regexp"
	"strings"
	"sync"
)

// An agent often answers in labelled sections: "Assumptions: … Rule: …
// Next action: …", "DECISION: … BECAUSE: …". Only the section that states
// the rule is the position; what the agent assumed, why it decided and
// what it will do next are not part of the rule and add nothing to it.

// sectionLabelRE finds a section's label at the start of the text, of a
// line or of a sentence.
var sectionLabelRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[.!?\n])[ \t]*(assumptions?|context|background|rationale|reasoning|reasons?|because|why|justification|next[ \t]+(?:steps?|actions?)|evidence|sources?|rule|decision|answer|policy|conclusion)[ \t]*:`)
})

// isRuleSection reports whether a section's label (lower case) is one of
// those that state the rule.
func isRuleSection(label string) bool {
	switch label {
	case "rule", "decision", "answer", "policy", "conclusion":
		return true
	}
	return false
}

// ruleSection keeps, of an answer in labelled sections, the sections that
// state the rule, when it has one of them and another section beside it;
// any other text is returned as it is.
func ruleSection(s string) string {
	if strings.IndexByte(s, ':') < 0 || !containsFold(s, "rule") && !containsFold(s, "decision") && !containsFold(s, "answer") &&
		!containsFold(s, "policy") && !containsFold(s, "conclusion") {
		return s // no section that states a rule: the common case, by fast searches
	}
	ms := sectionLabelRE().FindAllStringSubmatchIndex(s, 16)
	if len(ms) < 2 {
		return s
	}
	rule, other := false, false
	for _, m := range ms {
		if isRuleSection(strings.ToLower(strings.Join(strings.Fields(s[m[4]:m[5]]), " "))) {
			rule = true
		} else {
			other = true
		}
	}
	if !rule || !other {
		return s
	}
	var b strings.Builder
	for i, m := range ms {
		end := len(s)
		if i+1 < len(ms) {
			end = ms[i+1][0] + (ms[i+1][3] - ms[i+1][2]) // keep the sentence's end before the next label
		}
		if isRuleSection(strings.ToLower(s[m[4]:m[5]])) {
			b.WriteString(strings.TrimSpace(s[m[1]:end]))
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String())
}
