package consensus

import (
	"slices"
	"strings"
	"sync"
)

// sameCaseCues say that a case is covered by the rule like the rest,
// as the words of a part it stands in: "students are no different",
// "treated like everyone else", "no exemption", "children's books too",
// "agency staff included", "also on the closed park paths", "incl.
// those on insulin". Each is a run of words as written.
var sameCaseCues = sync.OnceValue(func() [][]string {
	var out [][]string
	for _, c := range []string{"no different", "not different", "no differently", "no separate rule", "no special rule", "no exemption", "no exception",
		"no exceptions", "not exempt", "like everyone else", "like everybody else", "like everything else", "like anyone else", "like any other",
		"like all the others", "like the rest", "same as the rest", "same as everyone else", "same as everything else",
		"too", "as well", "also", "included", "including", "incl", "alike", "even"} {
		out = append(out, strings.Fields(c))
	}
	return out
})

// partsApartWords open a part of a rule that keeps a case apart from the
// rule said before it ("except catamarans", "unless the guest asks",
// "but not the boardroom").
var partsApartWords = wordSet("except excepting excluding unless but apart other than save")

// ownTreatment are words that say a case kept apart is treated its own
// way ("the security team renews them manually instead").
var ownTreatment = wordSet("instead separately different differently own manually exempt exemption exception")

// filedCovers are words by which a clause of the filed rule says a case
// is covered, besides sameCaseCues: "even encrypted", "the fee
// includes paper".
var filedCovers = wordSet("even include includes")

// evenNotCase are the words after "even" that make it no case covered:
// a condition ("even if", "even when"), a count ("even one", "even a
// single"), a degree ("even more").
var evenNotCase = wordSet("if when though whether one a an single more less so then")

// ownDoing are words that, beside "too", "also" or "as well", say more
// the case does rather than that the rule covers it: a modal, an
// auxiliary, a verb of its own, a condition ("if the second one fails
// as well").
var ownDoing = wordSet("must may might can could should shall will would has have had need needs do does did works work if when where whenever provided once eligible allowed accepted permitted")

// sameCaseBlockers are words that, in the part of a case said to be
// covered, say it is not covered after all: "students are exempt too",
// "sale items also cannot be returned", "no allowance for agency staff
// either". A cue's own "no" ("no exemption") is read before them.
var sameCaseBlockers = wordSet("solely not never no none nothing nobody without exempt exempted except unless only skip skips skipped waived excluded free either neither nor instead don't doesn't isn't aren't can't cannot won't")

// compareSameCase finds a case the filed rule keeps apart in a part of
// its own ("…; students are exempt from the fee", "…, except
// children's books, which are never fined") that the position says the
// rule covers like the rest, in so many words: "students are no
// different, they pay it too", "children's books included", "no
// exemption for students". The exception is dropped. A case the
// position names with its own outcome ("students are exempt too"), or
// one the filed rule's first part names itself ("staff and contractors
// park free"), says nothing of the kind.
func compareSameCase(filed, position string) []string {
	if !mayCoverCase(position) {
		return nil // no cue, no need to split either text
	}
	fparts := textParts(filed)
	if len(fparts) < 2 {
		return nil
	}
	// The filed rule's first part, up to where it first keeps a case
	// apart: what the rule says of all.
	main := map[string]bool{}
	apart := make([]bool, len(fparts))
	seenApart := false
	for i, p := range fparts {
		label := i == 1 && len(fparts[0].words) <= 3 && p.semi // "Acceptance test: …": a label, not the rule
		if i > 0 && !label && (p.sentence || p.semi || p.aside || len(p.words) > 0 && partsApartWords()[p.words[0]]) {
			seenApart = true
		}
		if !seenApart {
			for _, w := range p.keys {
				main[w] = true
			}
			continue
		}
		apart[i] = true
	}
	if !seenApart {
		return nil
	}
	// Whether each part kept apart says a treatment of its own: opened
	// by "except", "unless", or holding a negation, "instead", or a
	// number the first part does not say ("…; patients with a history
	// of anaphylaxis wait 30 minutes"), in it or the parts that go on
	// its sentence or clause. A part that only says more of the rule
	// ("…; badges are worn at all times") is covered by "also" and
	// "too" as much as the rest.
	mainNums := map[string]bool{}
	for i, p := range fparts {
		if apart[i] {
			break
		}
		for _, w := range p.words {
			if isNumber(w) {
				mainNums[w] = true
			}
		}
	}
	own := make([]bool, len(fparts))
	except := make([]bool, len(fparts)) // own, by a word that says so, not a number
	for i := 0; i < len(fparts); {
		j := i + 1
		for j < len(fparts) && !(fparts[j].sentence || fparts[j].semi || fparts[j].aside || partsApartWords()[fparts[j].words[0]]) {
			j++
		}
		marked, excepted := false, false
		for _, p := range fparts[i:j] {
			e := partsApartWords()[p.words[0]] || slices.ContainsFunc(p.words, func(w string) bool {
				return sameCaseBlockers()[w] || ownTreatment()[w] || strings.HasSuffix(w, "n't")
			})
			excepted = excepted || e
			marked = marked || e || slices.ContainsFunc(p.words, func(w string) bool { return isNumber(w) && !mainNums[w] })
		}
		// A clause of the filed rule that itself says a case is covered
		// ("…, even encrypted", "the fee includes paper", "the request
		// also needs …") keeps nothing apart.
		covers := slices.ContainsFunc(fparts[i:j], func(p textPart) bool {
			return hasSameCaseCue(p.words) || slices.ContainsFunc(p.words, func(w string) bool { return filedCovers()[w] })
		})
		for k := i; k < j; k++ {
			own[k], except[k] = marked, excepted
			apart[k] = apart[k] && !covers
		}
		i = j
	}
	pparts := textParts(position)
	var out []string
	for i, p := range pparts {
		rest, ok := withoutSameCaseCue(p.words)
		// "no different", "like everyone else": a cue of more than one word,
		// not "as well", said of any case; "too", "also" and "included"
		// only of one kept apart with a treatment of its own.
		strong := ok && (len(rest) < len(p.words)-1 && !slices.Contains(p.words, "well") || slices.Contains(p.words, "even") && !slices.Contains(rest, "even"))
		if !ok || slices.ContainsFunc(rest, func(w string) bool { return sameCaseBlockers()[w] || strings.HasSuffix(w, "n't") }) {
			continue
		}
		if !strong && slices.ContainsFunc(rest, func(w string) bool { return ownDoing()[w] }) {
			continue // "a driving licence works too", "head of year must sign it also": more of the rule, not a case covered
		}
		keys := partKeys(rest)
		alone := len(keys) == 0 && len(rest) == 0 // "…, no exceptions": of the part before
		if len(keys) == 0 && (len(rest) > 0 || strong) && i > 0 {
			// "…, there is no different rule for them": the case is the
			// part before.
			prev := pparts[i-1]
			if slices.ContainsFunc(prev.words, func(w string) bool { return sameCaseBlockers()[w] || strings.HasSuffix(w, "n't") }) {
				continue
			}
			keys = prev.keys
		}
		// A word of the case the filed rule says only in a part kept
		// apart: "sale" of "sale items", not "items".
		for j, fp := range fparts {
			// "…, no exceptions" alone insists on what was said before:
			// it drops an exception only of a part the filed rule says
			// is one ("…; same-size replacements need no approval"), not
			// of a further rule ("…; guests must sit on a towel").
			if !apart[j] || !strong && !own[j] || alone && !except[j] {
				continue
			}
			hit := ""
			for _, w := range keys {
				if !main[w] && slices.Contains(fp.keys, w) && !theLexicon().generic[w] && !theLexicon().light[w] {
					hit = w
					break
				}
			}
			if hit != "" {
				out = append(out, "exception dropped: "+strings.Join(p.words, " "))
				break
			}
		}
		if len(out) > 0 {
			break
		}
	}
	return out
}

// mayCoverCase reports whether position holds a piece of one of
// sameCaseCues ("too", "as well", "differen…", "like", …): a text with
// none says no case is covered like the rest.
func mayCoverCase(position string) bool {
	low := strings.ToLower(position)
	for _, piece := range [...]string{"too", "well", "also", "incl", "alike", "even", "differen", "exempt", "exception", "like", "same", "rule"} {
		if strings.Contains(low, piece) {
			return true
		}
	}
	return false
}

// textPart is a part of a text as compareSameCase reads it: its words as
// written (lower case) and its content words folded.
type textPart struct {
	words, keys []string
	// What opened it: a new sentence, a semicolon, a bracket.
	sentence, semi, aside bool
}

// textParts splits text into its parts: sentences, clauses after a
// semicolon, a colon or a dash set off by spaces, bracketed asides and
// the phrases between commas (or " + ", " & ").
func textParts(text string) []textPart {
	low := strings.ToLower(strings.ReplaceAll(text, "’", "'"))
	low = strings.ReplaceAll(low, "incl.", "including") // "incl. those on insulin": one part
	var out []textPart
	start, opener := 0, ""
	part := func(end int) {
		ws := lettersOf(low[start:end])
		if len(ws) == 0 {
			return
		}
		p := textPart{words: ws, keys: partKeys(ws)}
		p.sentence = opener == "." || opener == "!" || opener == "?" || opener == "\n"
		p.semi = opener == ";" || opener == ":" || opener == "—" || opener == "–" || opener == "-"
		p.aside = opener == "(" || opener == "["
		out = append(out, p)
	}
	for i := 0; i < len(low); {
		sep, n := partSep(low, i)
		if n == 0 {
			i++
			continue
		}
		part(i)
		opener, start = sep, i+n
		if sep == "." && start < len(low) && isDigit(low[start]) {
			opener = "" // "7.5": a number, not a sentence's end
		}
		i += n
	}
	part(len(low))
	return out
}

// partSep is the separator of parts that starts at low[i] and its length
// in bytes, or 0: one of ";:,.!?()[]" or a line's end, or a dash, "+" or
// "&" with a space each side (the dash, "+" or "&" alone is returned).
func partSep(low string, i int) (string, int) {
	if strings.IndexByte(";:,.!?()[]\n", low[i]) >= 0 {
		return low[i : i+1], 1
	}
	if !asciiSpace(low[i]) || i+1 >= len(low) {
		return "", 0
	}
	for _, mark := range [...]string{"—", "–", "-", "+", "&"} {
		if end := i + 1 + len(mark); strings.HasPrefix(low[i+1:], mark) && end < len(low) && asciiSpace(low[end]) {
			return mark, end + 1 - i
		}
	}
	return "", 0
}

// asciiSpace reports whether b is a space, a tab or a line's end.
func asciiSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' }

// lettersOf are the words of seg: runs of a–z, digits and apostrophes.
func lettersOf(seg string) []string {
	var out []string
	from := -1
	for i := 0; i <= len(seg); i++ {
		if i < len(seg) && (seg[i] >= 'a' && seg[i] <= 'z' || seg[i] >= '0' && seg[i] <= '9' || seg[i] == '\'') {
			if from < 0 {
				from = i
			}
			continue
		}
		if from >= 0 {
			out = append(out, seg[from:i])
			from = -1
		}
	}
	return out
}

// partKeys are the words of ws that are not stop words, stemmed and
// folded as terms are.
func partKeys(ws []string) []string {
	lx := theLexicon()
	var out []string
	for _, w := range ws {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'")
		if len(w) < 2 || lx.stopWord[w] || lx.stop[stem(w)] || isNumber(w) || w == "them" || w == "rule" || w == "there" {
			continue
		}
		out = append(out, lx.fold(stem(w)))
	}
	return out
}

// hasSameCaseCue reports whether ws hold a cue of sameCaseCues.
func hasSameCaseCue(ws []string) bool {
	_, ok := withoutSameCaseCue(ws)
	return ok
}

// withoutSameCaseCue is ws without the first cue of sameCaseCues it
// holds, and whether it held one.
func withoutSameCaseCue(ws []string) ([]string, bool) {
	for i := range ws {
		for _, c := range sameCaseCues() {
			// "too", "as well" and "alike" end the part they cue ("children's
			// books too"), not "too late".
			last := c[len(c)-1] == "too" || c[len(c)-1] == "well" || c[0] == "alike"
			// "may be included solely where …": a verb, not a cue.
			passive := c[0] == "included" && i > 0 && (ws[i-1] == "be" || ws[i-1] == "is" || ws[i-1] == "are" || ws[i-1] == "been")
			// "even if …" is a condition (compareEvenCovered reads it),
			// "even one question" a count.
			if c[0] == "even" && i+1 < len(ws) && (isNumber(ws[i+1]) || evenNotCase()[ws[i+1]]) {
				continue
			}
			if i+len(c) <= len(ws) && slices.Equal(ws[i:i+len(c)], c) && (!last || i+len(c) == len(ws)) && !passive {
				return append(slices.Clone(ws[:i]), ws[i+len(c):]...), true
			}
		}
	}
	return ws, false
}
