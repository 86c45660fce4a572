package consensus

import (
	"maps"
	"slices"
	"strings"
)

// compareOnlyOr finds a thing one side restricts with "only" that the
// other lists beside another it never names: "entries by email only"
// against "you can send your entry by email or post", "cash only" against
// "pay by card or cash". The other thing is a second way, place or party
// the rule let in, or left out. Both sides saying "only" of the thing, or
// the other thing named on both sides ("only members and their guests"
// against "members and guests"), is no change.
func compareOnlyOr(a, b *side) []string {
	oa, ob := onlyOf(a), onlyOf(b)
	for _, k := range slices.Sorted(maps.Keys(oa)) {
		if _, ok := ob[k]; !ok {
			if y := listedWith(b, k, a); y != "" {
				return []string{oa[k] + " → " + y}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ob)) {
		if _, ok := oa[k]; !ok {
			if x := listedWith(a, k, b); x != "" {
				return []string{x + " → " + ob[k]}
			}
		}
	}
	return nil
}

// onlyOf maps the things s restricts with "only" to how it says so: the
// word after "only" ("only cash") or, where "only" ends its clause, the
// word before it ("cash only.").
func onlyOf(s *side) map[string]string {
	out := map[string]string{}
	ts := s.toks
	thing := func(t surfaceTok) bool {
		return !t.ignore && !t.quant && !strings.HasPrefix(t.key, "@") && t.key != ""
	}
	for i, t := range ts {
		if t.key != "@only" || t.end > len(s.text) {
			continue
		}
		if i+1 >= len(ts) || endsClause(s.text, t) {
			for j := i - 1; j >= 0 && j >= i-2; j-- {
				if endsClause(s.text, ts[j]) {
					break
				}
				if thing(ts[j]) {
					out[ts[j].key] = strings.TrimRight(s.text[ts[j].start:t.end], ".,;:!?")
					break
				}
			}
			continue
		}
		for j := i + 1; j < len(ts) && j <= i+3; j++ {
			if thing(ts[j]) {
				if _, ok := out[ts[j].key]; !ok {
					out[ts[j].key] = strings.TrimRight(s.text[t.start:ts[j].end], ".,;:!?")
				}
				break
			}
			if !ts[j].ignore || endsClause(s.text, ts[j]) {
				break // "only while the bar is locked", "only above 15°": a condition, a bound
			}
		}
	}
	return out
}

// listedWith is how s offers the thing of key k beside another thing,
// joined by "or" ("card or cash", "email or by post"), that the other
// side never names; "" when it offers none.
func listedWith(s *side, k string, other *side) string {
	ts := s.toks
	// "or" offers a choice; "and" as often joins two clauses ("above 15°
	// elevation and the station has confirmed") or names one thing ("bed
	// and breakfast").
	join := func(t surfaceTok) bool { return surfaceWord(s.text, t) == "or" }
	named := func(t surfaceTok) bool {
		return !t.ignore && !t.quant && !strings.HasPrefix(t.key, "@") && t.key != "" && t.key != k && !saysKey(other.toks, t.key)
	}
	// ends reports whether the thing of ts[j] ends its phrase: "card or
	// cash.", "email or post within 7 days"; not "the bar or take it
	// off", "a manager or senior manager".
	ends := func(j int) bool {
		if j+1 >= len(ts) || endsClause(s.text, ts[j]) {
			return true
		}
		return phraseEnders()[surfaceWord(s.text, ts[j+1])] && surfaceWord(s.text, ts[j+1]) != "or"
	}
	for i, t := range ts {
		if t.key != k {
			continue
		}
		// "cash or card", "email or by post": the join after the thing,
		// and the next word that names something, past a preposition.
		if i+1 < len(ts) && join(ts[i+1]) && !endsClause(s.text, t) {
			for j := i + 2; j < len(ts) && j <= i+3; j++ {
				if named(ts[j]) && ends(j) {
					return strings.TrimRight(s.text[t.start:ts[j].end], ".,;:!?")
				}
				if !ts[j].ignore || endsClause(s.text, ts[j]) {
					break
				}
			}
		}
		// "card or cash": the join before it, and the word before that.
		if i >= 2 && join(ts[i-1]) && named(ts[i-2]) && !endsClause(s.text, ts[i-2]) && ends(i) {
			return strings.TrimRight(s.text[ts[i-2].start:t.end], ".,;:!?")
		}
	}
	return ""
}
