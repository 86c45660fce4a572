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
