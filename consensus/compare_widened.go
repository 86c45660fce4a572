package consensus

import (
	"slices"
	"strings"
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
func compareWidened(filed, position string) []string {
	if !strings.Contains(filed, "or") && !strings.Contains(position, "or") && !strings.Contains(filed, "OR") && !strings.Contains(position, "OR") {
		return nil // no "or" on either side: most positions
	}
	ft, pt := kindWords(filed), kindWords(position)
	if d := widenedIn(ft, pt); d != "" {
		return []string{d}
	}
	if d := widenedIn(pt, ft); d != "" {
		from, to, _ := strings.Cut(d, " → ")
		return []string{to + " → " + from}
	}
	return nil
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
	said := set(rt)
	lx := theLexicon()
	folded := map[string]bool{}
	for _, w := range rt {
		folded[lx.fold(stem(w))] = true
	}
	// A kind the rule does not name, in no other form of its words.
	unnamed := func(y string) bool {
		if said[y] || folded[lx.fold(stem(y))] {
			return false
		}
		return !slices.ContainsFunc(rt, func(w string) bool { return len(w) >= 5 && len(y) >= 5 && w[:5] == y[:5] })
	}
	kindOf := func(w string) bool {
		return !widenStop()[w] && !isDigit(w[0]) && !anyUnit(w)
	}
	for i := 0; i+2 < len(ot); i++ {
		a, b := ot[i], ot[i+2]
		if ot[i+1] != "or" || !kindOf(a) || !kindOf(b) || a == b || !everyKind(ot, i) {
			continue
		}
		near := set(append(slices.Clone(ot[max(0, i-5):i]), ot[i+3:min(len(ot), i+5)]...))
		for _, p := range [][2]string{{a, b}, {b, a}} {
			x, y := p[0], p[1]
			if !said[x] || !unnamed(y) {
				continue
			}
			for j := 0; j+1 < len(rt); j++ {
				h := rt[j+1]
				if rt[j] != x || h == y || !kindOf(h) || !near[h] {
					continue
				}
				// A kind the rule names in a list of its own ("water
				// suppression or on-tool extraction") may be named
				// otherwise.
				if slices.Contains(rt[max(0, j-2):j], "or") || slices.Contains(rt[max(0, j-2):j], "and") || j+2 < len(rt) && rt[j+2] == "or" {
					continue
				}
				return x + " " + h + " → " + a + " or " + b
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
func compareNotOnly(filed, position string) []string {
	low := strings.ToLower(position)
	if !strings.Contains(low, "not only") && !strings.Contains(low, "not just") {
		return nil // most positions
	}
	ft, pt := kindWords(filed), kindWords(position)
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
	kindOf := func(w string) bool {
		return w != "|" && !widenStop()[w] && !isDigit(w[0]) && !anyUnit(w) && !notOnlyVerb()[w]
	}
	// kinds are the words naming kinds from ws[j] on, up to a mark or
	// "but".
	kinds := func(ws []string) []string {
		var out []string
		for _, w := range ws {
			if w == "|" || w == "but" {
				break
			}
			if kindOf(w) && w != "too" && w != "also" && w != "well" {
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
			if kindOf(w) {
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
func compareOutOfScope(filed, position string) []string {
	low := strings.ToLower(position)
	if !strings.Contains(low, "part of") && !strings.Contains(low, "scope") && !strings.Contains(low, "covered") && !strings.Contains(low, "rule") {
		return nil // most positions
	}
	ft, pt := kindWords(filed), kindWords(position)
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
