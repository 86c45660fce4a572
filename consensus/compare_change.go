package consensus

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// removalRE matches a position that says it takes away a part of a rule,
// as an intention ("I'm removing the midnight cut-off", "we'll drop the
// join against the test accounts") or an instruction opening a clause
// ("Plan: scrap the cap"). Group 1 is the verb, group 2 what follows it in
// its clause. A verb that describes ("late bids are dropped", "the LB
// drops a connection", "when it drops below 20%") is none.
var removalRE = sync.OnceValue(func() *regexp.Regexp {
	const verbs = `remove|removing|drop|dropping|delete|deleting|scrap|scrapping|ditch|ditching|eliminate|eliminating|lift|lifting|get rid of|getting rid of`
	const intent = `\b(?:i|we)(?:'ll|'m|'re|\s+will|\s+am|\s+are|\s+shall)?\s+(?:(?:just|now|also|then)\s+)?(?:(?:going|planning|about|want|plan|intend|propose)\s+to\s+)?`
	return regexp.MustCompile(`(?i)(?:^\s*|[.;:!?]\s+|\[[ x]\]\s+|` + intent + `)(` + verbs + `)\s+([^.;:!?,\n]{1,80})`)
})

// removalObject is how many content words after a removal verb name what
// it takes away.
const removalObject = 3

// compareRemoval finds a part of the filed rule that the new position says
// it takes away (removalRE): a word of the filed rule, not negated there,
// among the first words after the verb. A filed rule that itself removes
// with that verb ("stale branches are deleted" against "delete stale
// branches") is left to the other parts of the comparison: a removal said
// again is no change.
func compareRemoval(a *analysis, position string) []string {
	position = readPart(position)
	if !strings.ContainsAny(position, "dDrRsSeElLgG") {
		return nil
	}
	ms := removalRE().FindAllStringSubmatch(strings.ReplaceAll(position, "’", "'"), 4)
	if len(ms) == 0 {
		return nil
	}
	lx := theLexicon()
	stated := map[string]bool{}
	for _, t := range a.terms {
		if !t.neg && !lx.generic[t.w] && !lx.stop[t.w] && !lx.light[t.w] {
			stated[t.w] = true
		}
	}
	var out []string
	for _, m := range ms {
		verb := strings.ToLower(m[1])
		stem := verb[:min(len(verb), 4)]
		if slices.ContainsFunc(a.terms, func(t term) bool {
			return removalWords()[strings.ToLower(t.text)] && strings.HasPrefix(strings.ToLower(t.text), stem)
		}) {
			continue // the filed rule removes with the same verb
		}
		words := strings.Fields(m[2])
		if strings.HasPrefix(verb, "drop") && slices.ContainsFunc(words[:min(len(words), 4)], func(w string) bool {
			return strings.EqualFold(w, "off") || strings.EqualFold(w, "by") || strings.EqualFold(w, "out")
		}) {
			continue // "drop your shirts off", "drop by": no removal
		}
		if len(words) > 6 {
			m[2] = strings.Join(words[:6], " ")
		}
		obj := analyze(m[2])
		for _, o := range obj.terms[:min(len(obj.terms), removalObject)] {
			if stated[o.w] && !o.neg {
				out = append(out, strings.TrimSpace(m[2])+" removed")
				break
			}
		}
	}
	return out
}

// removalWords are the forms of the removal verbs a filed rule may state
// its own removals in.
var removalWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"remove": true, "removes": true, "removing": true, "removed": true,
		"drop": true, "drops": true, "dropping": true, "dropped": true,
		"delete": true, "deletes": true, "deleting": true, "deleted": true,
		"scrap": true, "scrapped": true, "ditch": true, "ditched": true,
		"eliminate": true, "eliminated": true, "rid": true, "lift": true, "lifted": true,
	}
})

// switchRE matches a position that says it moves a rule to another
// option, as an intention or an instruction opening a clause ("Plan:
// switch the fraud job to AT_LEAST_ONCE checkpointing", "I'll move the
// builds to -Ofast"), or narrows it to some ("restrict logging to
// supervisors"). Group 2 is what it moves to, up to the end of the
// clause.
var switchRE = sync.OnceValue(func() *regexp.Regexp {
	const verbs = `switch|switching|change|changing|move|moving|migrate|migrating|convert|converting|restrict|restricting|limit|limiting`
	const intent = `\b(?:i|we)(?:'ll|'m|'re|\s+will|\s+am|\s+are|\s+shall)?\s+(?:(?:just|now|also|then)\s+)?(?:(?:going|planning|about|want|plan|intend|propose)\s+to\s+)?`
	return regexp.MustCompile(`(?i)(?:^\s*|[.;:!?]\s+|\[[ x]\]\s+|` + intent + `)(` + verbs + `)\b[^.;:!?\n]{0,80}?\bto\s+([^.;:!?,\n]{1,60})`)
})

// switchObject is how many content words after "to" name the option a
// position switches to.
const switchObject = 2

// compareSwitch finds an option the new position says it switches the
// rule to (switchRE) that the filed rule does not state as its own: none
// of the first words after "to" is a word the filed rule asserts. An
// option the filed rule names ("switch to -O2" against "builds use -O2")
// is the rule said again.
func compareSwitch(a *analysis, position string) []string {
	position = readPart(position)
	if !strings.Contains(position, "to ") && !strings.Contains(position, "TO ") && !strings.Contains(position, "To ") {
		return nil
	}
	ms := switchRE().FindAllStringSubmatch(strings.ReplaceAll(position, "’", "'"), 4)
	if len(ms) == 0 {
		return nil
	}
	lx := theLexicon()
	asserted := map[string]bool{}
	for _, t := range a.terms {
		if !t.neg && (t.cond < 0 || a.conds[t.cond].kind != "unless") {
			asserted[t.w] = true
		}
	}
	var out []string
	for _, m := range ms {
		obj := analyze(m[2])
		var named []term
		for _, o := range obj.terms {
			if !o.neg && !lx.generic[o.w] && !lx.stop[o.w] && !lx.light[o.w] && !strings.HasPrefix(o.w, "#") {
				named = append(named, o)
			}
			if len(named) == switchObject {
				break
			}
		}
		if len(named) == 0 || slices.ContainsFunc(named, func(o term) bool { return asserted[o.w] }) {
			continue
		}
		out = append(out, "→ "+strings.TrimSpace(m[2]))
	}
	return out
}

// readPart is the part of a position the comparison reads (maxAnalyzed
// bytes): what follows it is read by no other part either, and a removal
// or a switch must not cost more on hostile text than the analysis does.
func readPart(position string) string {
	if len(position) > maxAnalyzed {
		return position[:maxAnalyzed]
	}
	return position
}
