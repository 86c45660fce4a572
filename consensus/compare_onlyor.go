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
		// "card only now", "cash only please": nothing but small words
		// follow it to the end of its clause.
		trailing := true
		for j := i + 1; j < len(ts) && trailing; j++ {
			trailing = ts[j].ignore && !ts[j].quant
			if endsClause(s.text, ts[j]) {
				break
			}
		}
		if i+1 >= len(ts) || endsClause(s.text, t) || trailing {
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
		// "card or cash now", "cash or card please": small words only to
		// the end of the clause.
		for n := j + 1; n < len(ts) && ts[n].ignore && !ts[n].quant; n++ {
			if n+1 >= len(ts) || endsClause(s.text, ts[n]) {
				return true
			}
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

// compareOnlyNarrowed finds a thing one side names, that the other
// restricts with "only" to a kind the first never names: "every session
// of 4 hours or more needs a deposit" against "a deposit, but only for
// weekend sessions of 4 hours or more"; "points machines on running
// lines" against "only on the main lines"; "First-time candidates only:".
// Either way round: a rule narrowed, or widened.
func compareOnlyNarrowed(a, b *side) []string {
	if c := onlyNarrowed(a, b); c != "" {
		return []string{c}
	}
	if c := onlyNarrowed(b, a); c != "" {
		return []string{c}
	}
	return nil
}

// onlyNarrowed is how s restricts with "only" a thing other names to a
// kind other never names: the new words and the thing, after "only"
// (past small words) or before an "only" that ends its phrase; "" when
// it restricts none so. Not where other says "only" of the thing too.
func onlyNarrowed(s, other *side) string {
	ts := s.toks
	content := func(t surfaceTok) bool {
		return !t.ignore && !t.quant && !strings.HasPrefix(t.key, "@") && t.key != ""
	}
	// kind reports whether ts[from:to] is new words and then a word of
	// other: "weekend sessions", "main lines", "first-time candidates".
	kind := func(from, to int) bool {
		newWords, shared := 0, false
		for j := from; j < to; j++ {
			switch {
			case ts[j].ignore:
				if newWords > 0 {
					return false // "only for weekend, the sessions": no kind of it
				}
			case !content(ts[j]):
				return false
			case saysKey(other.toks, ts[j].key):
				if newWords == 0 || j != to-1 || !everyOf(other.toks, ts[j].key) {
					return false
				}
				shared = true
			default:
				newWords++
			}
		}
		return shared
	}
	onlyThere := func(key string) bool {
		for i, t := range other.toks {
			if t.key == "@only" && slices.ContainsFunc(other.toks[max(0, i-3):min(len(other.toks), i+4)], func(u surfaceTok) bool { return u.key == key }) {
				return true
			}
		}
		return false
	}
	for i, t := range ts {
		if t.key != "@only" {
			continue
		}
		// "only for weekend sessions": small words, then the kind.
		j := i + 1
		for j < len(ts) && ts[j].ignore && !endsClause(s.text, ts[j]) {
			j++
		}
		for k := j + 1; k < len(ts) && k <= j+3; k++ {
			if kind(j, k+1) && !onlyThere(ts[k].key) && (k+1 >= len(ts) || endsClause(s.text, ts[k]) || !content(ts[k+1]) || keptStop()[surfaceWord(s.text, ts[k+1])]) {
				return strings.TrimRight(s.text[t.start:ts[k].end], ".,;:!?")
			}
			if endsClause(s.text, ts[k]) {
				break
			}
		}
		// "First-time candidates only:", "the main pool only.": not "lend
		// objects only for exhibitions", where "only" is of what follows.
		if i+1 >= len(ts) || endsClause(s.text, t) {
			for j := i - 2; j >= 0 && j >= i-4; j-- {
				if j > 0 && endsClause(s.text, ts[j-1]) || j == 0 {
					if kind(j, i) && !onlyThere(ts[i-1].key) {
						return strings.TrimRight(s.text[ts[j].start:t.end], ".,;:!?")
					}
				}
				if kind(j, i) && !onlyThere(ts[i-1].key) && (ts[j-1].ignore || !content(ts[j-1])) {
					return strings.TrimRight(s.text[ts[j].start:t.end], ".,;:!?")
				}
			}
		}
	}
	return ""
}

// everyOf reports whether ts say "every", "each", "all" or "any" of the
// thing of key, one or two words before it: "every session", "all
// running lines".
func everyOf(ts []surfaceTok, key string) bool {
	for i, t := range ts {
		if t.key != key {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-2; j-- {
			if ts[j].key == "@dist" {
				return true
			}
		}
	}
	return false
}
