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
	for i, t := range ts {
		if t.key != "@only" || t.end > len(s.text) || !restricts(s, i) {
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
		return thing(t) && t.key != k && !saysKey(other.toks, t.key)
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
	// kindred reports whether other says a word of ts[j]'s family.
	kindred := func(j int) bool {
		return slices.ContainsFunc(other.toks, func(u surfaceTok) bool { return kin(ts[j].key, u.key) || kin(u.key, ts[j].key) })
	}
	// kind reports whether ts[from:to] is new words and then a thing of
	// other, of one word or more: "weekend sessions", "main lines",
	// "first-time candidates", "weekend night shifts".
	kind := func(from, to int) bool {
		newWords, shared := 0, 0
		for j := from; j < to; j++ {
			switch {
			case ts[j].ignore:
				if newWords > 0 {
					return false // "only for weekend, the sessions": no kind of it
				}
			case kindMark(s.text, ts[j]):
				if shared > 0 {
					return false
				}
				newWords++ // "first-time", whatever its pieces say
			case !thing(ts[j]):
				return false
			case saysKey(other.toks, ts[j].key):
				if newWords == 0 {
					return false
				}
				shared++
			case kindred(j):
				return false // "inducted members only" of "members … only after the induction"
			case shared > 0:
				return false // "weekend night staff": a word of other's inside the kind
			default:
				newWords++
			}
		}
		switch {
		case shared == 1:
			return everyOf(other.toks, ts[to-1].key) || generalOf(other, surfaceWord(s.text, ts[to-1]))
		case shared > 1:
			// "only weekend night shifts" of "Night shifts need two
			// nurses": the other's thing of more than one word, said
			// as a whole.
			return wholeRun(other, ts[to-shared:to])
		}
		return false
	}
	onlyThere := func(key string) bool {
		for i, t := range other.toks {
			if t.key == "@only" && slices.ContainsFunc(other.toks[max(0, i-3):min(len(other.toks), i+4)], func(u surfaceTok) bool { return u.key == key }) {
				return true
			}
		}
		return false
	}
	// ends reports whether nothing but small words follow ts[k] to the end
	// of its clause: "but only on UK orders.", "only weekend sessions
	// please"; not "only corner rooms have two".
	ends := func(k int) bool {
		for ; k < len(ts); k++ {
			if endsClause(s.text, ts[k]) {
				return true
			}
			if k+1 < len(ts) && (!ts[k+1].ignore || ts[k+1].quant) {
				return false
			}
		}
		return true
	}
	// boundedKind is the last token of a thing at ts[j] that other says
	// of every one, bounded by a word of kindBounds to a kind in words
	// other never says ("candidates from the three largest parties",
	// "lockers on floor 2"), or -1. With stop below 0 the kind ends at a
	// small word after its first new word ("… parties need"); else it
	// runs to ts[stop], the "only" that ends it ("on lanes 1–12 only").
	boundedKind := func(j, stop int) int {
		if j+2 >= len(ts) || !thing(ts[j]) || !saysKey(other.toks, ts[j].key) || onlyThere(ts[j].key) || endsClause(s.text, ts[j]) {
			return -1
		}
		if !everyOf(other.toks, ts[j].key) && !generalOf(other, surfaceWord(s.text, ts[j])) || !kindBounds()[surfaceWord(s.text, ts[j+1])] {
			return -1
		}
		last := -1
		for k := j + 2; k < len(ts) && k <= j+7; k++ {
			if k == stop {
				if last >= 0 {
					return k - 1
				}
				return -1
			}
			switch {
			case ts[k].quant:
			case ts[k].ignore:
				if last >= 0 && stop < 0 && !onlyDeterminers()[surfaceWord(s.text, ts[k])] {
					return last
				}
			case !thing(ts[k]) || saysKey(other.toks, ts[k].key) || kindred(k):
				if last >= 0 && stop < 0 {
					return last // "… the company must wear"
				}
				return -1
			default:
				last = k
			}
			if endsClause(s.text, ts[k]) {
				if last >= 0 {
					return k
				}
				return -1
			}
		}
		if last >= 0 && stop < 0 {
			return last
		}
		return -1
	}
	for i, t := range ts {
		if t.key != "@only" {
			continue
		}
		if !restricts(s, i) {
			continue // "not only foreign guests", "the only spare lockers"
		}
		// "only for weekend sessions": small words, then the kind.
		j := i + 1
		for j < len(ts) && ts[j].ignore && !endsClause(s.text, ts[j]) {
			j++
		}
		// "only candidates from the three largest parties": the thing,
		// bounded to a kind in words the other side never says; not
		// "only one job at the same time", a count of it.
		if e := boundedKind(j, -1); e > 0 {
			return strings.TrimRight(s.text[t.start:ts[e].end], ".,;:!?")
		}
		for j < len(ts) && (ts[j].ignore || ts[j].quant && !kindMark(s.text, ts[j])) && !endsClause(s.text, ts[j]) {
			j++ // "only on the 10 most-played cabinets"
		}
		for k := j + 1; k < len(ts) && k <= j+5; k++ {
			// A side that says the rule of every one of the things itself
			// narrows it only in a phrase of its own: "any order over
			// £50, but only UK orders"; not "every room has one; only
			// corner rooms have two", which says more of some.
			if kind(j, k+1) && !onlyThere(ts[k].key) && (k+1 >= len(ts) || endsClause(s.text, ts[k]) || !thing(ts[k+1]) || keptStop()[surfaceWord(s.text, ts[k+1])]) && (!everyOf(ts, ts[k].key) || ends(k)) {
				return strings.TrimRight(s.text[t.start:ts[k].end], ".,;:!?")
			}
			if endsClause(s.text, ts[k]) {
				break
			}
		}
		// "of the pinsetters on lanes 1–12 only".
		if i+1 >= len(ts) || endsClause(s.text, t) {
			for j := i - 2; j >= 0 && j >= i-6; j-- {
				if boundedKind(j, i) == i-1 {
					return strings.TrimRight(s.text[ts[j].start:t.end], ".,;:!?")
				}
			}
		}
		// "First-time candidates only:", "the main pool only.": not "lend
		// objects only for exhibitions", where "only" is of what follows.
		if i+1 >= len(ts) || endsClause(s.text, t) {
			for j := i - 2; j >= 0 && j >= i-4; j-- {
				// The kind opens its clause or follows small words.
				if kind(j, i) && !onlyThere(ts[i-1].key) && (j == 0 || endsClause(s.text, ts[j-1]) || ts[j-1].ignore || !thing(ts[j-1])) {
					return strings.TrimRight(s.text[ts[j].start:t.end], ".,;:!?")
				}
			}
		}
	}
	return ""
}

// kindMark reports whether t is a piece of a word joined by a hyphen or
// an apostrophe that the tokens read as a number or unit, but is said in
// letters: "first-time", "children's", "most-played"; not "two", "20-sample".
func kindMark(text string, t surfaceTok) bool {
	w := text[t.start:t.end]
	return t.quant && strings.ContainsAny(w, "-'’") && !strings.ContainsAny(w, "0123456789")
}

// wholeRun reports whether the tokens run, a thing of more than one
// word, stand together in s as a whole: opening a clause or after
// "every", "each", "all" or "any": "Night shifts need", "every group
// therapy session".
func wholeRun(s *side, run []surfaceTok) bool {
	ts := s.toks
	for i := 0; i+len(run) <= len(ts); i++ {
		if !slices.EqualFunc(ts[i:i+len(run)], run, func(a, b surfaceTok) bool { return a.key == b.key }) {
			continue
		}
		if i == 0 || endsClause(s.text, ts[i-1]) || ts[i-1].key == "@dist" || i >= 2 && ts[i-2].key == "@dist" && ts[i-1].ignore {
			return true
		}
	}
	return false
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

// generalOf reports whether s says the thing written w as a bare plural
// that opens its clause and is said of as a whole: "Candidates show photo
// ID", "Boats may stay on the fuel berth"; not "Boats under 10 m may
// stay", a kind of them, nor "the boats", some.
func generalOf(s *side, w string) bool {
	ts := s.toks
	if !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") {
		return false
	}
	for i, t := range ts {
		if surfaceWord(s.text, t) != w || i > 0 && !endsClause(s.text, ts[i-1]) || endsClause(s.text, t) {
			continue
		}
		if i+1 < len(ts) && kindBounds()[surfaceWord(s.text, ts[i+1])] {
			continue
		}
		return true
	}
	return false
}

// kindBounds are the words after a thing that open what bounds it to a
// kind: "boats under 10 m", "staff who joined", "lots from one supplier".
var kindBounds = wordSet("who whom whose that which with without from in on at of under over above below aged between except but other")

// compareOnlyWhen finds a time the rule holds that one side restricts
// with "only" and the other never names: "single kayaks are not rented
// in winds above 15 knots" against "…, but only on weekends and bank
// holidays"; "vans must leave by 07:00" against "by 07:00 on Saturdays
// only". The rule said of fewer days than the other side's. a and b are
// the two sides' analyses, whose times of day it reads.
func compareOnlyWhen(a, b *analysis, sa, sb *side) []string {
	if c := onlyWhen(sb, sa, a); c != "" {
		return []string{"condition added: " + c}
	}
	if c := onlyWhen(sa, sb, b); c != "" {
		return []string{"condition dropped: " + c}
	}
	return nil
}

// onlyWhen is how s restricts with "only" the days, seasons or parts of
// the day its rule holds ("only on weekends", "on Saturdays only", "only
// in summer"), in words other never uses; "" when it does not. otherA is
// other's analysis.
func onlyWhen(s, other *side, otherA *analysis) string {
	ts := s.toks
	when := func(t surfaceTok) bool {
		w := strings.TrimSuffix(surfaceWord(s.text, t), "s")
		return weekdays()[w] || monthWords()[w] || dayParts()[w] || whenWords()[w]
	}
	// What other says of days and times of day is read only once a time
	// after "only" asks for it: most positions say "only" of no time.
	var otherDays daySet
	var otherAM, otherPM, read bool
	readOther := func() {
		if !read {
			otherDays, otherAM, otherPM, read = daysNamed(other.text), clockHalves(otherA, true), clockHalves(otherA, false), true
		}
	}
	// times reports whether ts[from:to] are small words and times of
	// the rule, at least one, that other never names.
	times := func(from, to int) bool {
		// The same days in other words: "at weekends only" against
		// "Saturdays and Sundays", "only Monday through Friday" against
		// "weekdays".
		readOther()
		sameDays := otherDays != 0 && daysNamed(s.text[ts[from].start:ts[to-1].end]) == otherDays
		n := 0
		for j := from; j < to; j++ {
			w := strings.TrimSuffix(surfaceWord(s.text, ts[j]), "s")
			switch {
			case ts[j].ignore:
			case !when(ts[j]) || saysKey(other.toks, ts[j].key):
				return false // "Saturday mornings only" against "Saturday AM only": the other names the day
			case sameDays && (weekdays()[w] || w == "weekend" || w == "weekday"):
				return false
			case w == "morning" && otherAM, (w == "evening" || w == "night") && otherPM:
				return false // "mornings only" against "from 7 to 10 am"
			default:
				n++
			}
		}
		return n > 0
	}
	for i, t := range ts {
		if t.key != "@only" || !restricts(s, i) {
			continue
		}
		// "only on weekends and bank holidays", to the end of the clause.
		end := i + 1
		for end < len(ts) && !endsClause(s.text, ts[end]) {
			end++
		}
		if end < len(ts) {
			end++
		}
		if !endsClause(s.text, t) && end > i+1 && end-i <= 7 && times(i+1, end) { // not "evenings only, Monday to Friday"
			return strings.TrimLeft(strings.TrimRight(s.text[t.start:ts[end-1].end], ".,;:!?"), "(")
		}
		// "on Saturdays only", "weekdays only though": the clause's last
		// words before it.
		if i+1 >= len(ts) || endsClause(s.text, t) || asideAfter(s, i) {
			start := i
			for start > 0 && i-start < 4 && !endsClause(s.text, ts[start-1]) && (ts[start-1].ignore || when(ts[start-1])) {
				start--
			}
			// After "on", "in", "at" or "during", or opening its stretch
			// ("barrier up - weekdays only").
			// A bracket opening the stretch is part of its first token
			// ("(weekdays only)").
			opens := start == 0 || strings.ContainsAny(s.text[min(ts[start-1].end, ts[start].start):ts[start].start], ",;:.!?-–(") ||
				strings.HasPrefix(s.text[ts[start].start:], "(")
			if start < i && (opens || slices.Contains([]string{"on", "in", "at", "during"}, surfaceWord(s.text, ts[start]))) {
				if times(start, i) {
					return strings.TrimLeft(strings.TrimRight(s.text[ts[start].start:t.end], ".,;:!?"), "(")
				}
			}
		}
	}
	return ""
}

// whenWords are the other words that name when a rule holds: "weekends",
// "weekdays", "bank holidays", "school holidays", the seasons.
var whenWords = wordSet("weekend weekday holiday bank public school summer winter autumn spring term termtime")

// asideAfter reports whether what follows s.toks[i] to the end of its
// clause is an aside that says nothing of the rule: "weekdays only
// though", "cash only please".
func asideAfter(s *side, i int) bool {
	ts := s.toks
	for j := i + 1; j < len(ts); j++ {
		if !ts[j].ignore && !asides()[surfaceWord(s.text, ts[j])] {
			return false
		}
		if endsClause(s.text, ts[j]) || j+1 == len(ts) {
			return true
		}
	}
	return false
}

// asides are the words that close a clause without saying anything of
// the rule.
var asides = wordSet("though tho please pls mind thanks ta")

// onlyDeterminers before "only" make it "sole": "the only spare lockers",
// "their only exit".
var onlyDeterminers = wordSet("the a an its their our my your his her whose")

// restricts reports whether the "only" at s.toks[i] restricts what it
// is said of: not "not only foreign guests" (that and more) nor "the only
// spare lockers" (the sole ones).
func restricts(s *side, i int) bool {
	ts := s.toks
	return i == 0 || endsClause(s.text, ts[i-1]) || ts[i-1].key != "@neg" && !onlyDeterminers()[surfaceWord(s.text, ts[i-1])]
}

// daysNamed is the set of days of the week text names by name, by a
// range ("Mon–Fri") or as "weekdays" or "weekends", whatever it says of
// them.
func daysNamed(text string) daySet {
	p := dayRE()
	var d daySet
	for _, m := range p.rng.FindAllStringSubmatchIndex(text, -1) {
		if a, b := dayIndex(text[m[2]:m[3]]), dayIndex(text[m[4]:m[5]]); a >= 0 && b >= 0 {
			d |= spanOf(a, b)
		}
	}
	for _, m := range p.group.FindAllStringSubmatchIndex(text, -1) {
		if strings.HasPrefix(strings.ToLower(text[m[2]:m[3]]), "weekday") {
			d |= weekdaysSet
		} else {
			d |= weekendSet
		}
	}
	for _, m := range p.day.FindAllStringSubmatchIndex(text, -1) {
		d |= 1 << dayIndex(text[m[2]:m[3]])
	}
	return d
}

// clockHalves reports whether the analysis a reads a time of day in the
// morning (noon too: "before noon"), or with morning false one in the
// afternoon or at night (midnight too).
func clockHalves(a *analysis, morning bool) bool {
	for _, q := range a.qty {
		if q.dim != "clock" {
			continue
		}
		if morning && q.value > 0 && q.value <= 12 || !morning && (q.value >= 12 || q.value == 0) {
			return true
		}
	}
	return false
}

// thing reports whether t names something: a word that is no small word,
// number or function word ("@only", "@neg").
func thing(t surfaceTok) bool {
	return !t.ignore && !t.quant && !strings.HasPrefix(t.key, "@") && t.key != ""
}

// compareButOnly finds a case one side narrows its rule to with "but
// only" and a phrase of its own, in words the other side mostly never
// uses: "anyone over 120 kg pays a supplement" against "…, but only on
// sunrise flights"; "an adult in the room" against "…, but only in the
// horror-themed rooms". Either way round: a condition added, or dropped.
// Not a case the other side names too ("but only on weekends" against
// "on weekends").
func compareButOnly(a, b *side) []string {
	if c := butOnly(b, a, true); c != "" {
		return []string{"condition added: " + c}
	}
	if c := butOnly(a, b, false); c != "" {
		return []string{"condition dropped: " + c}
	}
	return nil
}

// butOnly is the phrase after "but only on", "in", "at", "for" or
// "during" in s, up to the end of its clause, whose words other mostly
// never says (nor a word of their kin); "" when there is none. With
// added, s is the position, and a condition after "but only" ("if",
// "when", "once") is read too: a filed rule's, said by a position in the
// shape of a setting ("justification_required=…"), is no case left out.
// A position may also bound the rule's reach with "only" said by the verb
// that says it holds ("applies only to BTC", "kicks in only for customers
// on …", "should only apply to"), or with "only in", "for" or "to" after
// its words, where the filed rule says "only" of nothing ("blocks a driver
// only in markets where …"): not a number or a time the other says.
func butOnly(s, other *side, added bool) string {
	ts := s.toks
	for i, t := range ts {
		if t.key != "@only" || i == 0 || i+2 >= len(ts) || endsClause(s.text, t) {
			continue
		}
		// "the review applies only to BTC", "kicks in only for customers
		// on …", "should only apply to": the rule's reach said of a case.
		reach, loose := false, false
		if !opensOnly(s, i) {
			if !added {
				continue
			}
			reach = true
			if !appliesOnly(s, i) {
				// "blocks a driver only in markets where …": where the
				// filed rule says "only" of nothing; not "only for
				// pallets lighter than 400 kg" of "allowed only for
				// pallets under 400 kg", its own limit reworded.
				switch surfaceWord(s.text, ts[i+1]) {
				case "in", "for", "to":
				default:
					continue
				}
				if saysKey(other.toks, "@only") {
					continue
				}
				loose = true
			}
		}
		p := i
		if reach && appliesAfter(surfaceWord(s.text, ts[i+1])) {
			p++ // "only apply to"
		}
		if p+2 >= len(ts) {
			continue
		}
		cond := false
		switch surfaceWord(s.text, ts[p+1]) {
		case "on", "in", "at", "for", "during":
		case "to", "within", "inside":
			if !reach {
				continue
			}
		default:
			if reach {
				continue
			}
			if !added || ts[i+1].key != "@if" || countedOnce(s, i+1) || saysCondition(other) {
				continue
			}
			// "…, and only once a DBA has approved the PR", "and only
			// when the child attends two days a week": a condition where
			// the other side states none, read as a case is. Against a
			// condition of the other's it may be that one reworded ("only
			// after the nurse agrees" for "only once the nurse says ok").
			cond = true
		}
		things, fresh, end := 0, 0, p+1
		for k := p + 2; k < len(ts) && k <= p+8; k++ {
			end = k
			if (cond || loose) && ts[k].quant && saysKey(other.toks, ts[k].key) {
				fresh = -len(ts) // "only when it is within an 8-minute drive": the other's measure
			}
			if w := strings.TrimSuffix(surfaceWord(s.text, ts[k]), "s"); loose && (weekdays()[w] || monthWords()[w] || dayParts()[w]) {
				// "only in the evening": a time of the rule, which
				// compareOnlyWhen reads against the other's hours.
				fresh = -len(ts)
			}
			if thing(ts[k]) {
				things++
				key := ts[k].key
				if !saysKey(other.toks, key) && !slices.ContainsFunc(other.toks, func(u surfaceTok) bool { return kin(key, u.key) || kin(u.key, key) }) {
					fresh++
				}
			}
			if endsClause(s.text, ts[k]) {
				break
			}
		}
		if things > 0 && fresh > 0 && 2*fresh >= things {
			return strings.TrimRight(s.text[t.start:ts[end].end], ".,;:!?")
		}
	}
	return ""
}

// appliesOnly reports whether the "only" at s.toks[i] bounds the reach of
// the rule: after a word that says a rule holds ("applies only to",
// "kicks in only for", "bites only for") or before one ("only applies
// to", "should only apply to").
func appliesOnly(s *side, i int) bool {
	ts := s.toks
	if !endsClause(s.text, ts[i-1]) && appliesWords()[surfaceWord(s.text, ts[i-1])] {
		return true
	}
	return i+1 < len(ts) && appliesAfter(surfaceWord(s.text, ts[i+1])) && !endsClause(s.text, ts[i+1])
}

// appliesAfter reports whether w, said after "only", says a rule holds:
// "only applies to"; not "only in", a case.
func appliesAfter(w string) bool {
	return w != "in" && appliesWords()[w]
}

// appliesWords say that a rule holds, or where: "applies", "kicks in",
// "bites", "is valid".
var appliesWords = wordSet("apply applies applied applying in bites bite kicks valid holds hold")

// saysCondition reports whether s states a condition or a moment its
// rule waits for: "if", "when", "once", "provided", "unless", "until",
// "after", "subject to", "only with written notice".
func saysCondition(s *side) bool {
	for i, t := range s.toks {
		switch t.key {
		case "@if", "@unless":
			return true
		}
		switch surfaceWord(s.text, t) {
		case "until", "till", "after", "providing", "subject": // "subject to availability"
			return true
		}
		if t.key == "@only" && i+1 < len(s.toks) {
			switch surfaceWord(s.text, s.toks[i+1]) {
			case "with", "upon", "on":
				return true
			}
		}
	}
	return false
}

// countedOnce reports whether the "once" at s.toks[i] counts times
// rather than opening a condition: "only once a term", "only once per
// visit", "only once each month"; not "only once a DBA has approved".
func countedOnce(s *side, i int) bool {
	ts := s.toks
	if surfaceWord(s.text, ts[i]) != "once" || i+1 >= len(ts) {
		return false
	}
	if endsClause(s.text, ts[i]) || ts[i+1].key == "@dist" || ts[i+1].quant {
		return true
	}
	switch surfaceWord(s.text, ts[i+1]) {
	case "a", "an", "per":
		return i+2 >= len(ts) || countPeriods()[strings.TrimSuffix(surfaceWord(s.text, ts[i+2]), "s")]
	}
	return false
}

// countPeriods are the stretches of time a count of times is said per:
// "once a week", "once per term".
var countPeriods = wordSet("day week fortnight month quarter year term semester season shift visit session night lifetime period cycle meeting")

// opensOnly reports whether the "only" at ts[i] opens a phrase of its
// own: after "but" or "and", or after a comma ("…, only on sunrise
// flights").
func opensOnly(s *side, i int) bool {
	ts := s.toks
	if endsClause(s.text, ts[i-1]) {
		return strings.HasSuffix(strings.TrimSpace(s.text[ts[i-1].start:ts[i-1].end]), ",") || s.text[ts[i-1].end] == ','
	}
	w := surfaceWord(s.text, ts[i-1])
	return w == "but" || w == "and"
}

// compareScopeOpened finds a case one side opens a sentence with, set off
// by a comma, that narrows its rule to it in words the other side mostly
// never says, the rest of the position said in the filed one's words:
// "For datasets funded by UKRI, tabular data must be deposited as CSV"
// against "Tabular data must be deposited as CSV"; "On spans crossing
// private land, vegetation will be surveyed …". Either way round: a
// condition added, or dropped. Not a case the other side names in its own
// place ("On weekdays, staff may park …" against "… on weekdays"), one
// said of every thing ("For every production server,"), a number
// (compareQuantities reads it), nor a phrase that frames the saying ("In
// practice,", "For the avoidance of doubt,"). A position in words of its
// own may say the case in them: "At the bed of the patient, …" for "at
// the bedside".
func compareScopeOpened(a, b *side) []string {
	if c, from, to := scopeOpened(b, a); c != "" && restates(b, a, from, to) {
		return []string{"condition added: " + c}
	}
	if c, from, to := scopeClosing(b, a); c != "" && restates(b, a, from, to) && restates(a, b, 0, 0) {
		return []string{"condition added: " + c}
	}
	if c, _, _ := scopeOpened(a, b); c != "" && restates(b, a, 0, 0) && thingsSaid(b) >= minRestated {
		return []string{"condition dropped: " + c}
	}
	return nil
}

// restatedShare is the share of the things a position says, but the
// case it opens with, that must be the filed position's words for a case
// one side alone opens with to change the rule.
const restatedShare = 0.8

// minRestated is how many things a position must say for a case the
// filed one opens with, left out, to change the rule: "16 °C" for "At
// night, office thermostats are set to 16 °C" answers the number alone.
const minRestated = 3

// thingsSaid is how many things s names.
func thingsSaid(s *side) int {
	n := 0
	for _, t := range s.toks {
		if thing(t) {
			n++
		}
	}
	return n
}

// restates reports whether at least restatedShare of the things s says
// outside s.toks[from:to] are words of other or their kin.
func restates(s, other *side, from, to int) bool {
	n, said := 0, 0
	for k, t := range s.toks {
		if k >= from && k < to || !thing(t) {
			continue
		}
		n++
		if saysKin(other, t.key) {
			said++
		}
	}
	return n > 0 && float64(said) >= restatedShare*float64(n)
}

// saysKin reports whether s says the word of key, or a word of its kin.
func saysKin(s *side, key string) bool {
	return saysKey(s.toks, key) || slices.ContainsFunc(s.toks, func(u surfaceTok) bool { return kin(key, u.key) || kin(u.key, key) })
}

// scopeOpened is the phrase "on", "in", "for", "during" or "at" (perhaps
// after "only") that opens a sentence of s and ends at a comma, with a
// clause after it, whose words other mostly never says (nor a word of
// their kin), and the tokens it spans; "" when there is none.
func scopeOpened(s, other *side) (string, int, int) {
	ts := s.toks
	for i := range ts {
		if i > 0 && (!endsClause(s.text, ts[i-1]) || strings.HasSuffix(strings.TrimSpace(s.text[ts[i-1].start:ts[i-1].end]), ",") || ts[i-1].end < len(s.text) && s.text[ts[i-1].end] == ',') {
			continue // "…, in shops and online alike, …": an aside, not the case the sentence opens with
		}
		p := i
		if ts[p].key == "@only" && p+1 < len(ts) {
			p++
		}
		switch surfaceWord(s.text, ts[p]) {
		case "on", "in", "for", "during", "at":
		default:
			continue
		}
		if endsClause(s.text, ts[p]) {
			continue
		}
		things, fresh, end, lastFresh := 0, 0, -1, false
		for k := p + 1; k < len(ts) && k <= p+7; k++ {
			t := ts[k]
			if t.key == "@dist" || t.key == "@neg" || t.key == "@if" || t.quant || framingWords()[surfaceWord(s.text, t)] {
				break // "For every server,", "In practice,", "For twelve hours,"
			}
			if thing(t) {
				things++
				lastFresh = !saysKin(other, t.key)
				if lastFresh {
					fresh++
				}
			}
			if endsClause(s.text, t) {
				if strings.HasSuffix(strings.TrimSpace(s.text[t.start:t.end]), ",") || t.end < len(s.text) && s.text[t.end] == ',' {
					end = k
				}
				break
			}
		}
		if end < 0 || end+1 >= len(ts) {
			continue
		}
		if fresh == 1 && things > 1 && lastFresh {
			continue // "On Forestry ground," for "on Forestry land": the same kind, its noun reworded
		}
		if things > 0 && 2*fresh >= things {
			return strings.TrimRight(s.text[ts[i].start:ts[end].end], ".,;:!?"), i, end + 1
		}
	}
	return "", 0, 0
}

// framingWords open a phrase that frames what is said rather than the
// case it is said of: "In practice,", "For the avoidance of doubt,", "In
// my view,", "For safety reasons,".
var framingWords = wordSet("practice general short summary sum fact example instance clarity reference record now today principle theory particular addition future case cases words view opinion doubt avoidance line accordance light terms respect reason reasons safety security purpose purposes sake convenience compliance hygiene privacy my our your their this that these those other meantime brief effect turn")

// scopeClosing is the phrase "on", "in", "for", "during" or "within"
// that closes a clause of s, of two things or more that other never
// says (nor a word of their kin), and the tokens it spans; "" when there
// is none: "… within 10 days for guests on the loyalty programme;",
// "… must not exceed 20 mph within the village limits, …".
func scopeClosing(s, other *side) (string, int, int) {
	ts := s.toks
	for i := 1; i < len(ts); i++ {
		switch surfaceWord(s.text, ts[i]) {
		case "on", "in", "for", "during", "within":
		default:
			continue // not "at the point of departure", a time said again
		}
		if endsClause(s.text, ts[i-1]) || endsClause(s.text, ts[i]) || thanked(s, i) {
			continue // "Thanks for reaching out!"
		}
		things := 0
		for k := i + 1; k < len(ts) && k <= i+6; k++ {
			t := ts[k]
			if strings.HasPrefix(t.key, "@") || t.quant || framingWords()[surfaceWord(s.text, t)] {
				break
			}
			if thing(t) {
				if saysKin(other, t.key) {
					break
				}
				things++
			}
			if endsClause(s.text, t) || k+1 == len(ts) {
				if things >= 2 {
					return strings.TrimRight(s.text[ts[i].start:t.end], ".,;:!?"), i, k + 1
				}
				break
			}
		}
	}
	return "", 0, 0
}

// thanked reports whether s thanks someone right before s.toks[i]:
// "Thanks for", "thank you for".
func thanked(s *side, i int) bool {
	for k := i - 1; k >= 0 && k >= i-2; k-- {
		switch surfaceWord(s.text, s.toks[k]) {
		case "thanks", "thank", "thx", "ty":
			return true
		}
	}
	return false
}
