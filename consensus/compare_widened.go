package consensus

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// This file reads a rule's reach widened or narrowed by a kind named
// beside its own: "each adult reader" against "every reader, adult or
// child", "a student card" against "a student or staff card", "after every
// intelligent pig run" against "every pig run, cleaning or intelligent".
// The filed rule names one kind of a thing (the word right before it);
// the other side names that kind and another, joined by "or", beside the
// same thing, and says it of every kind ("every", "any", "whether"). The
// rule then covers a kind it did not, or the other way round.

// widenStop are the words that name no kind of a thing: articles,
// quantifiers, relations and the like. Written lower case.
var widenStop = wordSet("a an the of to in on at by for with or and is are be it its their they we you any all every each " +
	"no not nor that this these those than more less only after before then up down out over under above below within without " +
	"per one two both either whether from as if when where which who whom whose what how there here so but " +
	"|")

// compareWidened finds the kind of a thing the filed rule names that the
// position names beside another ("adult reader" → "adult or child"), or
// the other way round.
func compareWidened(k *kindTexts) []string {
	filed, position := k.filed, k.position
	if !strings.Contains(filed, "or") && !strings.Contains(position, "or") && !strings.Contains(filed, "OR") && !strings.Contains(position, "OR") {
		return nil // no "or" on either side: most positions
	}
	ft, pt := k.words()
	if d := widenedIn(ft, pt); d != "" {
		return []string{d}
	}
	if d := widenedIn(pt, ft); d != "" {
		from, to, _ := strings.Cut(d, " → ")
		return []string{to + " → " + from}
	}
	return nil
}

// kindTexts are the two texts the readings of a kind widened, joined or
// split compare, with their kindWords read once, by the first reading
// that gets past its own cheap test.
type kindTexts struct {
	filed, position string
	ft, pt          []string
	read            bool
}

// words are the kindWords of the filed text and of the position.
func (k *kindTexts) words() (ft, pt []string) {
	if !k.read {
		k.ft, k.pt, k.read = kindWords(k.filed), kindWords(k.position), true
	}
	return k.ft, k.pt
}

// kindWidened is widenedIn on two texts.
func kindWidened(rule, other string) string { return widenedIn(kindWords(rule), kindWords(other)) }

// widenedIn is the difference ("adult reader → adult or child") when the
// words of a rule rt name a kind of a thing (x right before h) that the
// words of another side ot say beside another kind y ("x or y", "y or x")
// near h, a kind the rule never names, or "".
func widenedIn(rt, ot []string) string {
	if len(rt) > maxSurface || len(ot) > maxSurface || !slices.Contains(ot, "or") {
		return ""
	}
	lx := theLexicon()
	folded := formsOf(rt)
	// A kind the rule does not name, in no other form of its words.
	unnamed := func(y string) bool { return !namedIn(rt, folded, y) }
	kindOf := func(w string) bool {
		return !widenStop()[w] && !isDigit(w[0]) && !anyUnit(w)
	}
	for i := 0; i+2 < len(ot); i++ {
		a, b := ot[i], ot[i+2]
		if ot[i+1] != "or" || !kindOf(a) || !kindOf(b) || a == b || !everyKind(ot, i) {
			continue
		}
		// The words near, five before and four after, in any form ("any
		// plant at all, indoor or outdoor" of "outdoor plants"; "any
		// game, adults or kids, where a team" of "an adult team").
		near := map[string]bool{}
		for _, w := range append(slices.Clone(ot[max(0, i-5):i]), ot[i+3:min(len(ot), i+7)]...) {
			near[lx.fold(stem(w))] = true
		}
		for _, p := range [][2]string{{a, b}, {b, a}} {
			x, y := p[0], p[1]
			fx := lx.fold(stem(x))
			if !folded[fx] || !unnamed(y) {
				continue
			}
			for j := 0; j+1 < len(rt); j++ {
				h := rt[j+1]
				if lx.fold(stem(rt[j])) != fx || h == y || !kindOf(h) || !near[lx.fold(stem(h))] {
					continue
				}
				// A kind the rule names in a list of its own ("water
				// suppression or on-tool extraction") may be named
				// otherwise.
				if slices.Contains(rt[max(0, j-2):j], "or") || slices.Contains(rt[max(0, j-2):j], "and") || j+2 < len(rt) && rt[j+2] == "or" {
					continue
				}
				return rt[j] + " " + h + " → " + a + " or " + b
			}
		}
	}
	return ""
}

// everyKind reports whether the words before ws[i] (the first of "x or
// y") say the rule covers every kind: "every reader, adult or child",
// "games of any kind, rated or casual", "no deploys to production or
// staging", "whether full-time or part-time". Without such a word, "x or
// y" is as often one kind said twice ("sick or unwell", "a bank or public
// holiday", "night or overnight shifts").
func everyKind(ws []string, i int) bool {
	for _, w := range ws[max(0, i-6):i] {
		switch w {
		case "any", "every", "all", "each", "whether", "both", "either", "no", "whatever", "whichever", "regardless":
			return true
		}
	}
	return false
}

// kindWords are the words of text, lower case, as compareWidened reads
// them: letters and digits, with a hyphen inside a word kept
// ("self-funded", "on-tool") and an underscore read as a space
// ("frozen_ground"); a mark between words ("ground", "licensed") stands
// as "|", so that words it parts are not read as one phrase.
func kindWords(text string) []string {
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed]
	}
	var out []string
	var b strings.Builder
	rs := []rune(strings.ToLower(text))
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case r == '-' && b.Len() > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			b.WriteRune(r)
		case unicode.IsSpace(r) || r == '_':
			flush()
		default:
			flush()
			if n := len(out); n > 0 && out[n-1] != "|" {
				out = append(out, "|")
			}
		}
	}
	flush()
	return out
}

// compareNotOnly reads a rule's reach widened by "not only" or "not just"
// before a kind the filed rule is said of: "carp over 2 kg must not be put
// in keepnets" against "no fish over 2 kg in a keepnet, not only carp";
// "marshals on road crossings also get a stop/go sign" against "stop/go
// sign for every marshal, not only road crossings". The position says the
// rule reaches past the kind the filed rule names. Not when the filed rule
// says "not only" or "including" itself ("every vehicle, not just cars"),
// nor when what the position adds beside it ("but also vans", "vans too")
// is named in the filed rule already.
func compareNotOnly(k *kindTexts) []string {
	position := k.position
	low := strings.ToLower(position)
	if !strings.Contains(low, "not only") && !strings.Contains(low, "not just") {
		return nil // most positions
	}
	ft, pt := k.words()
	if len(ft) > maxSurface || len(pt) > maxSurface {
		return nil
	}
	lx := theLexicon()
	folded := map[string]bool{}
	for _, w := range ft {
		folded[lx.fold(stem(w))] = true
	}
	named := func(w string) bool { return folded[lx.fold(stem(w))] }
	for i, w := range ft {
		if w == "including" || w == "not" && i+1 < len(ft) && (ft[i+1] == "only" || ft[i+1] == "just") {
			return nil
		}
	}
	// kinds are the words naming kinds from ws[j] on, up to a mark or
	// "but".
	kinds := func(ws []string) []string {
		var out []string
		for _, w := range ws {
			if w == "|" || w == "but" {
				break
			}
			if kindWord(w) && w != "too" && w != "also" && w != "well" {
				out = append(out, w)
			}
		}
		return out
	}
	allNamed := func(ws []string) bool {
		return len(ws) > 0 && !slices.ContainsFunc(ws, func(w string) bool { return !named(w) })
	}
	for i := 0; i+2 < len(pt); i++ {
		if pt[i] != "not" || pt[i+1] != "only" && pt[i+1] != "just" {
			continue
		}
		// The first word naming a kind, within three words ("not only
		// on road crossings").
		x := ""
		for _, w := range pt[i+2 : min(len(pt), i+5)] {
			if w == "|" {
				break
			}
			if kindWord(w) {
				x = w
				break
			}
			if !widenStop()[w] {
				break // "not only does", "not just 2"
			}
		}
		if x == "" || !named(x) {
			continue
		}
		// "not only X but (also) Y": Y named in the filed rule is the
		// rule said again.
		rest := pt[i+2:]
		if b := slices.Index(rest, "but"); b >= 0 && b < 6 && !slices.Contains(rest[:b], "|") && allNamed(kinds(rest[b+1:])) {
			continue
		}
		// "Y too, not only X", "Y as well, not just X".
		// The words before, back to a mark ("storeroom as well, not only
		// the kitchen": the clause before the comma).
		end := i
		if end > 0 && pt[end-1] == "|" {
			end--
		}
		start := end
		for start > 0 && pt[start-1] != "|" {
			start--
		}
		before := pt[start:end]
		if (slices.Contains(before, "too") || slices.Contains(before, "also") || slices.Contains(before, "well")) && allNamed(kinds(before)) {
			continue
		}
		return []string{x + " → not " + pt[i+1] + " " + x}
	}
	return nil
}

// notOnlyVerb are words after "not only" that start a clause rather than
// name a kind ("not only does it", "not only is it").
var notOnlyVerb = wordSet("does do did is was were has have had can will would should must may")

// compareOutOfScope reads a thing the filed rule covers put outside it by
// the position: "landing weight is not part of the check" against
// "... only when the saving exceeds the burn cost and the landing weight
// stays below the maximum"; "intake and packing checks aren't part of the
// rule" against "checked at intake, before cremation and before the ashes
// are packed"; "CI status is out of scope". The words before the phrase
// name the thing; one of them the filed rule names in a part of its own
// that sets nothing aside, where "servers are excluded and are moved by
// the contractor" against "servers are not part of that" is the rule said
// again.
func compareOutOfScope(k *kindTexts) []string {
	position := k.position
	low := strings.ToLower(position)
	if !strings.Contains(low, "part of") && !strings.Contains(low, "scope") && !strings.Contains(low, "covered") && !strings.Contains(low, "rule") {
		return nil // most positions
	}
	ft, pt := k.words()
	if len(ft) > maxSurface || len(pt) > maxSurface {
		return nil
	}
	lx := theLexicon()
	fold := func(w string) string { return lx.fold(stem(w)) }
	// clean are the words, folded, of the filed rule's parts that set
	// nothing aside.
	clean := map[string]bool{}
	for start := 0; start < len(ft); {
		end := start
		for end < len(ft) && ft[end] != "|" {
			end++
		}
		part := ft[start:end]
		if !slices.ContainsFunc(part, func(w string) bool { return scopeAside()[w] }) {
			for _, w := range part {
				clean[fold(w)] = true
			}
		}
		start = end + 1
	}
	kindOf := func(w string) bool {
		return w != "|" && !widenStop()[w] && !isDigit(w[0]) && !anyUnit(w) && !scopeAside()[w]
	}
	for i := 0; i < len(pt); i++ {
		n := outOfScopeAt(pt, i)
		if n == 0 {
			continue
		}
		start := i
		for start > 0 && pt[start-1] != "|" && i-start < 6 {
			start--
		}
		for _, w := range pt[start:i] {
			if kindOf(w) && len(w) > 1 && clean[fold(w)] {
				said := strings.Join(slices.DeleteFunc(slices.Clone(pt[i:i+n]), func(x string) bool { return x == "|" }), " ")
				said = strings.NewReplacer("isn t", "isn't", "aren t", "aren't").Replace(said)
				return []string{w + " → " + w + " " + said}
			}
		}
	}
	return nil
}

// outOfScopeAt is how many words from ws[i] on put what comes before
// outside the rule ("is not part of", "aren't part of", "are not
// covered", "is not in this rule", "out of scope", "not in scope"), or 0.
func outOfScopeAt(ws []string, i int) int {
	at := func(k int, w ...string) bool {
		if k+len(w) > len(ws) {
			return false
		}
		for j, x := range w {
			if ws[k+j] != x {
				return false
			}
		}
		return true
	}
	if at(i, "out", "of", "scope") {
		return 3
	}
	// "is not", "are not", "isn't", "aren't" (the apostrophe a mark).
	k := 0
	switch {
	case (at(i, "is") || at(i, "are")) && at(i+1, "not"):
		k = i + 2
	case (at(i, "isn") || at(i, "aren")) && at(i+1, "t"):
		k = i + 2
	case (at(i, "isn") || at(i, "aren")) && at(i+1, "|", "t"):
		k = i + 3
	default:
		return 0
	}
	for _, tail := range [][]string{{"covered"}, {"in", "scope"}, {"in", "this", "rule"}, {"in", "the", "rule"}} {
		if at(k, tail...) {
			return k - i + len(tail)
		}
	}
	// "part of" the rule, or of "that" or "it", not of any whole ("VAT
	// isn't part of the price").
	if at(k, "part", "of") && k+2 < len(ws) {
		w := ws[k+2]
		if (w == "the" || w == "this" || w == "that") && k+3 < len(ws) && ruleWord()[ws[k+3]] {
			return k - i + 4
		}
		if w == "that" || w == "this" || w == "it" || ruleWord()[w] {
			return k - i + 3
		}
	}
	return 0
}

// ruleWord are the words naming a rule as a whole ("not part of the
// check", "not part of the gate").
var ruleWord = wordSet("rule rules check checks policy gate process requirement requirements procedure checklist programme program scheme")

// scopeAside are the words by which a part of a rule sets a thing aside
// itself ("servers are excluded", "oak is exempt", "except for", "out
// of scope").
var scopeAside = wordSet("not no never except excluded exempt exempted excepted exclude excludes excluding unless other instead apart neither nor none outside scope")

// compareKindJoined reads a kind of a thing the position joins to the one
// the filed rule names, right before the thing they share: "a student
// card" against "a student or staff card", "night shifts" against "night
// or weekend shifts", "criminal hearings" against "criminal and family
// hearings". Where compareWidened needs a word that says the rule covers
// every kind ("any", "whether"), here the two kinds stand together before
// the one thing, so the second is a kind of it the rule did not reach.
// Only that way round: a position that names one kind of a list the rule
// joins ("knife and bow-saw work" → "knife work") often names the other
// in a word of its own ("bow saws").
func compareKindJoined(k *kindTexts) []string {
	filed, position := k.filed, k.position
	low := strings.ToLower(position + " " + filed)
	if !strings.Contains(low, " or ") && !strings.Contains(low, " and ") {
		return nil // most positions
	}
	ft, pt := k.words()
	if d := kindJoinedIn(ft, pt); d != "" {
		return []string{d}
	}
	return nil
}

// kindJoinedIn is the difference ("student card → student or staff card")
// when the words ot of one side say "x or y h" or "x and y h" where the
// words rt of the rule say "x h" (in any form of the words) and never name
// y, nor a word of x's meaning ("sick or unwell", "night or overnight
// shifts"); "" otherwise.
func kindJoinedIn(rt, ot []string) string {
	if len(rt) > maxSurface || len(ot) > maxSurface {
		return ""
	}
	lx := theLexicon()
	fold := func(w string) string { return lx.fold(stem(w)) }
	folded := formsOf(rt)
	unnamed := func(y string) bool { return !namedIn(rt, folded, y) }
	// A thing the rule says of every kind itself ("both nurses sign",
	// "all trials") is not narrowed by the kind it names elsewhere.
	allOf := func(h string) bool {
		for j := 1; j < len(rt); j++ {
			if fold(rt[j]) == h {
				switch rt[j-1] {
				case "both", "all", "every", "each", "any":
					return true
				}
			}
		}
		return false
	}
	for i := 0; i+3 < len(ot); i++ {
		// "every chilled and every frozen delivery": the word that says
		// every kind said again.
		at := i + 2
		if (ot[at] == "every" || ot[at] == "each" || ot[at] == "all" || ot[at] == "any") && at+2 < len(ot) {
			at++
		}
		x, y, h := ot[i], ot[at], ot[at+1]
		if ot[i+1] != "or" && ot[i+1] != "and" || !kindWord(x) || !kindWord(y) || !kindWord(h) || x == y || !unnamed(y) {
			continue
		}
		// Not a word of x's meaning, nor one with x in it ("night or
		// overnight shifts").
		fx, fy := fold(x), fold(y)
		if fx == fy || lx.near(fx, fy) || strings.Contains(y, x) || strings.Contains(x, y) || !folded[fx] || !folded[fold(h)] || allOf(fold(h)) {
			continue
		}
		for j := 0; j+1 < len(rt); j++ {
			if fold(rt[j]) != fx || fold(rt[j+1]) != fold(h) {
				continue
			}
			// A kind the rule names in a list of its own ("teachers and
			// support staff") is said of the list.
			if slices.Contains(rt[max(0, j-2):j], "or") || slices.Contains(rt[max(0, j-2):j], "and") {
				continue
			}
			return x + " " + h + " → " + strings.Join(ot[i:at+2], " ")
		}
	}
	// "contractors and delivery drivers must", "members and staff who
	// refer": a thing the rule names at the end of its phrase, joined to
	// things the rule never names, before what is said of them. A word the
	// rule says before another ("referring member earns") may be a kind
	// rather than the thing.
	headIn := func(w string) bool {
		for j, r := range rt {
			if fold(r) == w && (j+1 == len(rt) || !kindWord(rt[j+1])) {
				return true
			}
		}
		return false
	}
	for i := 0; i+2 < len(ot); i++ {
		x := ot[i]
		if ot[i+1] != "or" && ot[i+1] != "and" || !kindWord(x) || !headIn(fold(x)) {
			continue
		}
		k := i + 2
		e := k
		for e < len(ot) && e < k+3 && kindWord(ot[e]) {
			e++
		}
		if e == k || e == len(ot) || !joinedVerb()[ot[e]] {
			continue
		}
		// Not the thing said again of another kind ("service dogs and
		// guide dogs" of "service dogs"), as often one kind of the other.
		ys := ot[k:e]
		if slices.ContainsFunc(ys, func(y string) bool { return !unnamed(y) || fold(y) == fold(x) || lx.near(fold(x), fold(y)) }) {
			continue
		}
		return x + " → " + strings.Join(ot[i:e], " ")
	}
	// "national ID cards and passports from countries", "single-family
	// homes and condos with an LTV": a thing the rule names as a kind (a
	// word before it) right before a word that bounds it, with things the
	// rule never names joined to it before that word. Not a thing the rule
	// says with a number or a unit ("48 hours apart and drawn from"), nor a
	// bound said again ("30 strokes or fewer on").
	for i := 0; i+3 < len(ot); i++ {
		x := ot[i]
		if ot[i+1] != "or" && ot[i+1] != "and" || !kindWord(x) {
			continue
		}
		k := i + 2
		if ot[k] == "the" || ot[k] == "a" || ot[k] == "an" {
			k++
		}
		e := k
		for e < len(ot) && e < k+3 && kindWord(ot[e]) {
			e++
		}
		if e == k || e == len(ot) || !insertedBound()[ot[e]] {
			continue
		}
		fx, c := fold(x), ot[e]
		ys := ot[k:e]
		if slices.ContainsFunc(ys, func(y string) bool {
			return !unnamed(y) || fold(y) == fx || lx.near(fx, fold(y)) || comparedWords()[y]
		}) {
			continue
		}
		for j := 1; j+1 < len(rt); j++ {
			if fold(rt[j]) != fx || rt[j+1] != c || !kindWord(rt[j-1]) {
				continue
			}
			if slices.Contains(rt[max(0, j-3):j], "or") || slices.Contains(rt[max(0, j-3):j], "and") {
				continue // a kind of a list of the rule's own
			}
			return rt[j-1] + " " + rt[j] + " " + c + " → " + strings.Join(ot[i:e+1], " ")
		}
	}
	return ""
}

// insertedBound are the words after a thing that bound it, where a kind
// joined to the thing before them widens the rule: "cards and passports
// from countries with an extension".
var insertedBound = wordSet("from with within in on at for under over near without inside outside")

// comparedWords say a bound again rather than name a kind: "30 strokes or
// fewer", "5 days or longer".
var comparedWords = wordSet("fewer less more greater longer shorter higher lower later earlier sooner")

// joinedVerb are the words that follow the things a rule is said of:
// "contractors and delivery drivers must", "members and staff who refer".
var joinedVerb = wordSet("must may can shall should will need needs are get who")

// kindWord reports whether w, a word of kindWords, may name a kind of a
// thing: not a mark ("|"), a small word, a number, a unit, nor a verb
// that starts a clause ("does", "must").
func kindWord(w string) bool {
	return w != "|" && !widenStop()[w] && !isDigit(w[0]) && !anyUnit(w) && !notOnlyVerb()[w]
}

// formsOf are the words ws folded, any form of a word as one ("plant"
// and "plants"), as namedIn reads them.
func formsOf(ws []string) map[string]bool {
	lx := theLexicon()
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[lx.fold(stem(w))] = true
	}
	return m
}

// namedIn reports whether the words ws of a side (forms, their formsOf)
// name w in any form: folded alike, or a word of five letters or more
// that starts as w does ("contractors'", "contractor").
func namedIn(ws []string, forms map[string]bool, w string) bool {
	return forms[theLexicon().fold(stem(w))] || slices.ContainsFunc(ws, func(r string) bool { return len(r) >= 5 && len(w) >= 5 && r[:5] == w[:5] })
}

// clauseBreaks cuts text into the clauses compareListSplit reads: after
// a semicolon, a full stop, a colon, "!" or "?" before a space, at a dash
// between spaces, and at a new line.
func clauseBreaks(text string) []string {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		n := 0
		switch c := text[i]; {
		case strings.IndexByte(";.:!?", c) >= 0 && i+1 < len(text) && space(text[i+1]):
			n = 2
		case space(c):
			for _, d := range [...]string{"-", "–", "—"} {
				if e := i + 1 + len(d); e < len(text) && strings.HasPrefix(text[i+1:], d) && space(text[e]) {
					n = 2 + len(d)
				}
			}
			if n == 0 && c == '\n' {
				n = 1
			}
		}
		if n > 0 {
			out = append(out, text[start:i])
			start = i + n
			i = start - 1
		}
	}
	return append(out, text[start:])
}

// compareListSplit reads a kind of a thing the filed rule joins to
// another in one list, that the position lets off: "the main pool and the
// learner pool are closed" against "close the main pool only, learner pool
// stays in use"; "a vet must be on site for every performance and slack"
// against "for the main performances; slack runs can go ahead without a
// vet"; "a new datastore or a new external service needs an ADR" against
// "a new datastore needs one; new external services do not". The position
// says "only" beside the first kind in a phrase without the second, or
// says "not" of the second in a clause of its own without the first. A
// position that says both kinds in one phrase again, or a rule that says
// "not" or "only" of its list itself ("PVC and vinyl are never cut"), is
// no change of this kind.
func compareListSplit(k *kindTexts) []string {
	filed, position := k.filed, k.position
	low := strings.ToLower(filed)
	if !strings.Contains(low, " and ") && !strings.Contains(low, " or ") {
		return nil // most rules
	}
	ft, pt := k.words()
	if len(ft) > maxSurface || len(pt) > maxSurface {
		return nil
	}
	lx := theLexicon()
	fold := func(w string) string { return lx.fold(stem(w)) }
	// clausesOf are the clauses of text in folded words, and its phrases:
	// the clauses split at commas too ("the main pool only, learner pool
	// stays").
	clausesOf := func(text string) (clauses, phrases [][]string) {
		words := func(p string) []string {
			var ws []string
			for _, w := range kindWords(p) {
				ws = append(ws, fold(w))
			}
			return ws
		}
		for _, c := range clauseBreaks(text) {
			clauses = append(clauses, words(c))
			if !strings.Contains(c, ", ") {
				phrases = append(phrases, clauses[len(clauses)-1])
				continue
			}
			for _, p := range strings.Split(c, ", ") {
				phrases = append(phrases, words(p))
			}
		}
		return clauses, phrases
	}
	has := func(ws []string, w string) bool { return slices.Contains(ws, w) }
	// onlyBy reports whether "only" stands beside w in c: "the main pool
	// only", "only for the main unit".
	onlyBy := func(c []string, w string) bool {
		at := slices.Index(c, w)
		return at >= 0 && has(c[max(0, at-3):min(len(c), at+3)], "only")
	}
	negated := func(c []string) bool { return slices.ContainsFunc(c, func(w string) bool { return splitNeg()[w] }) }
	// The clauses and phrases of both sides, read once a list asks for
	// them: most lists name no kind the position could let off.
	var clauses, phrases, filedClauses, filedPhrases [][]string
	read := false
	for i := 1; i+2 < len(ft); i++ {
		if ft[i] != "and" && ft[i] != "or" || !kindWord(ft[i-1]) {
			continue
		}
		// The second kind: the words after the joining word, past "the",
		// up to three.
		k := i + 1
		for k < len(ft) && k < i+4 && (ft[k] == "the" || ft[k] == "a" || ft[k] == "an" || ft[k] == "every" || ft[k] == "any" || ft[k] == "all") {
			k++
		}
		e := k
		for e < len(ft) && e < k+3 && kindWord(ft[e]) {
			e++
		}
		if e == k {
			continue
		}
		// The first kind: the word before the joining word, or the word
		// before that when both kinds end in one thing ("main pool and the
		// learner pool"); the second, its first word the first does not
		// say ("new datastore or a new external service").
		x, shared := fold(ft[i-1]), false
		for m := k + 1; m < e; m++ {
			if fold(ft[m]) == x && i >= 2 && kindWord(ft[i-2]) {
				x, shared, e = fold(ft[i-2]), true, m+1
				break
			}
		}
		before := map[string]bool{}
		for _, w := range ft[max(0, i-3):i] {
			before[fold(w)] = true
		}
		y := ""
		for _, w := range ft[k:e] {
			if !before[fold(w)] {
				y = fold(w)
				break
			}
		}
		if y == "" || y == x || lx.near(x, y) {
			continue
		}
		if !read {
			clauses, phrases = clausesOf(position)
			filedClauses, filedPhrases = clausesOf(filed)
			read = true
		}
		// A list the rule itself says "not" or "only" of ("PVC and vinyl
		// are never cut", "the scanner only") is let off or narrowed by
		// the rule: the position saying so again is no change.
		if slices.ContainsFunc(filedClauses, func(c []string) bool { return has(c, x) && has(c, y) && (negated(c) || has(c, "only")) }) ||
			slices.ContainsFunc(filedPhrases, func(c []string) bool { return onlyBy(c, x) }) {
			continue
		}
		if slices.ContainsFunc(phrases, func(c []string) bool { return has(c, x) && has(c, y) }) {
			continue // both kinds in one phrase again
		}
		// "Only" beside the first of two kinds of one thing, where the
		// position speaks of the second in a phrase of its own ("learner
		// pool stays in use").
		only := shared && slices.ContainsFunc(phrases, func(c []string) bool { return has(c, x) && onlyBy(c, x) }) &&
			slices.ContainsFunc(phrases, func(c []string) bool { return has(c, y) && !has(c, x) })
		// The second kind opens a clause that lets it off ("slack runs can
		// go ahead without a vet", "new external services do not need
		// one"), which the rule does not say itself ("fruit eaten in the
		// field is not charged").
		free := !slices.ContainsFunc(filedClauses, func(c []string) bool { return has(c, y) && !has(c, x) && negated(c) }) &&
			slices.ContainsFunc(clauses, func(c []string) bool {
				at := slices.Index(c, y)
				return at >= 0 && at < 4 && !has(c, x) && slices.ContainsFunc(c[at+1:], func(w string) bool { return splitNeg()[w] })
			})
		if only || free {
			first := ft[i-1]
			if shared {
				first = ft[i-2] + " " + first
			}
			return []string{first + " " + ft[i] + " " + strings.Join(ft[k:e], " ") + " → " + first + " only"}
		}
	}
	return nil
}

// splitNeg are the words by which a clause of its own lets a kind off:
// "not", "without", "do not need", "doesn't" (the apostrophe a mark).
// Not "no", as often of another thing ("at no cost"), nor "except",
// read with the words folded as "exempt", which opens an exception of the
// rule itself ("except fixes to legal text").
var splitNeg = wordSet("not never without nor cannot don doesn isn aren")

// compareListWidened reads a rule said of one kind that the position
// says of every one of a larger thing, listing that kind beside others:
// "snowmobiles need 60 cm of ice" against "60 cm for any vehicle,
// snowmobiles, quads and Hägglunds alike"; "every pod with a stove"
// against "every unit on site, pods, bell tents and shepherd's huts";
// "an active leak" against "any emergency call-out, whether an active
// leak, a blocked toilet or a boiler". The larger thing ("vehicle") the
// filed rule never names; a thing it names ("every pinsetter, on lanes
// 1 to 12") is the rule said again.
func compareListWidened(k *kindTexts) []string {
	ft, pt := k.words()
	if len(ft) > maxSurface || len(pt) > maxSurface {
		return nil
	}
	folded := formsOf(ft)
	named := func(w string) bool { return namedIn(ft, folded, w) }
	for i := 0; i+3 < len(pt); i++ {
		switch pt[i] {
		case "any", "every", "all", "each":
		default:
			continue
		}
		// The larger thing: the kind words after "any", which the filed
		// rule never names.
		k := i + 1
		for k < len(pt) && k < i+3 && kindWord(pt[k]) {
			k++
		}
		if k == i+1 || named(pt[k-1]) {
			continue // the rule's own thing, perhaps of a kind it names ("any emergency call-out" of "a leak reported as an emergency" is larger)
		}
		larger := strings.Join(pt[i:k], " ")
		// Past at most two words to the mark that opens the list ("on
		// site,", "at all,"), or "whether".
		for n := 0; n < 2 && k < len(pt) && pt[k] != "|" && pt[k] != "whether"; n++ {
			k++
		}
		if k >= len(pt) || pt[k] != "|" && pt[k] != "whether" {
			continue
		}
		if k+1 < len(pt) && pt[k] == "|" && pt[k+1] == "whether" {
			k++
		}
		k++
		// The items, parted by marks, and the last by "and" or "or": each
		// one to three kind words, after "a" or "the".
		var items [][]string
		var cur []string
		last, ok := false, true
		for ; k < len(pt); k++ {
			w := pt[k]
			if w == "|" || w == "and" || w == "or" {
				if len(cur) == 0 || last {
					break
				}
				items = append(items, cur)
				cur = nil
				last = w != "|"
				continue
			}
			switch {
			case w == "a" || w == "an" || w == "the":
				if len(cur) > 0 {
					ok = false
				}
			case kindWord(w) && len(cur) < 3:
				cur = append(cur, w)
			default:
				ok = ok && last && len(cur) > 0 // the last item ends at a word of another kind
			}
			if !ok || last && len(cur) > 0 && !kindWord(w) {
				break
			}
		}
		if len(cur) > 0 && last {
			items = append(items, cur)
		}
		if !ok || !last || len(items) < 2 {
			continue
		}
		said, other := "", ""
		for _, it := range items {
			switch {
			case said == "" && named(it[len(it)-1]):
				said = strings.Join(it, " ")
			case other == "" && !slices.ContainsFunc(it, named):
				other = strings.Join(it, " ")
			}
		}
		if said != "" && other != "" {
			return []string{said + " → " + larger + ", " + other}
		}
	}
	return nil
}

// compareButNot reads a thing moved across the "but not" of a rule that
// lists what it covers and then what it does not: "gift cards pay for
// tickets and concessions, but not for private screenings or the
// deposit" against "… for tickets, concessions and private screenings,
// but not for the deposit". Both sides say the rule so; a thing the one
// sets aside after "but not" the other covers before it, and never sets
// aside: the rule's reach changed.
func compareButNot(k *kindTexts) []string {
	fl, pl := strings.ToLower(k.filed), strings.ToLower(k.position)
	if !strings.Contains(fl, "but not") || !strings.Contains(pl, "but not") {
		return nil // most positions
	}
	fs, ps := butNotParts(fl), butNotParts(pl)
	for _, f := range fs {
		for _, p := range ps {
			if !slices.ContainsFunc(f.in, func(w string) bool { return slices.Contains(p.in, w) }) {
				continue // two rules, not one said twice
			}
			if d := movedAcross(f, p); d != "" {
				return []string{"not " + d + " → " + d}
			}
			if d := movedAcross(p, f); d != "" {
				return []string{d + " → not " + d}
			}
		}
	}
	return nil
}

// butNot is a sentence of a rule split at its "but not": the words of
// what it covers (in) and of what it sets aside (out), stemmed and
// folded, with the first form each was written in.
type butNot struct {
	in, out []string
	written map[string]string
}

// butNotParts are the sentences of low (lower case) that say "but not",
// each split there.
func butNotParts(low string) []butNot {
	lx := theLexicon()
	words := func(s string, b *butNot) []string {
		var out []string
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }) {
			if widenStop()[w] || !kindWord(w) {
				continue
			}
			k := lx.fold(stem(w))
			if _, ok := b.written[k]; !ok {
				b.written[k] = w
			}
			out = append(out, k)
		}
		return out
	}
	var out []butNot
	for _, s := range strings.FieldsFunc(low, func(r rune) bool { return r == '.' || r == ';' || r == '!' || r == '?' || r == '\n' }) {
		before, after, ok := strings.Cut(s, "but not")
		if !ok || strings.Contains(after, "but not") {
			continue
		}
		b := butNot{written: map[string]string{}}
		b.in, b.out = words(before, &b), words(after, &b)
		out = append(out, b)
	}
	return out
}

// movedAcross is the first word x sets aside after its "but not" that y
// covers before its own and sets aside nowhere; "" when there is none.
func movedAcross(x, y butNot) string {
	for _, w := range x.out {
		if !slices.Contains(x.in, w) && slices.Contains(y.in, w) && !slices.Contains(y.out, w) {
			return x.written[w]
		}
	}
	return ""
}

// anyOtherRE finds a thing opened to every other of its kind: "at harvest
// or at any other time", "firm employees or anyone else present".
var anyOtherRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([\pL-]+),? or (?:(?:at|in|on|for|to|from|by) )?(?:any other|anyone else|anybody else|anything else|anywhere else|someone else|somebody else)\b`)
})

// compareAnyOther reads a thing the one side names that the other names
// with "or any other" beside it: "harvest gifts" against "food donations,
// at harvest or at any other time of year"; "two witnesses who are firm
// employees" against "they can be firm employees or anyone else present".
// The rule reaches past the thing it named. Not when the rule said so
// itself ("phones or other devices").
func compareAnyOther(k *kindTexts) []string {
	if d := anyOtherIn(k.position, k.filed); d != "" {
		return []string{d + " → " + d + " or any other"}
	}
	if d := anyOtherIn(k.filed, k.position); d != "" {
		return []string{d + " or any other → " + d}
	}
	return nil
}

// anyOtherIn is the thing wide opens with "or any other" that narrow
// names too and opens to nothing else; "" when there is none.
func anyOtherIn(wide, narrow string) string {
	low, nl := strings.ToLower(wide), strings.ToLower(narrow)
	if !strings.Contains(low, " else") && !strings.Contains(low, "any other") {
		return "" // most sides
	}
	for _, w := range []string{"other", "else", "whatever", "whoever", "wherever", "whichever"} {
		if slices.Contains(strings.FieldsFunc(nl, func(r rune) bool { return !unicode.IsLetter(r) }), w) {
			return ""
		}
	}
	lx := theLexicon()
	forms := map[string]bool{}
	for _, w := range strings.FieldsFunc(nl, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }) {
		forms[lx.fold(stem(w))] = true
	}
	for _, m := range anyOtherRE().FindAllStringSubmatch(low, -1) {
		if w := m[1]; kindWord(w) && forms[lx.fold(stem(w))] {
			return w
		}
	}
	return ""
}
