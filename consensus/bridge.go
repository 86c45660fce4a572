package consensus

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A question often names the record's object in a shorter form of the
// record's own words: an abbreviation made of their initials ("late CDRs"
// for "late call detail records", "station QC" for "quality control",
// "dashboard MVs" for "materialized views"), a word cut short ("sitemap
// regen cron" for "sitemap regeneration job", "bank rec"), a compound
// written as one word ("keycard validity" for "guest key cards") or two,
// or "e-" for "electronic" ("e-signature rules" for "electronic
// sign-off"). No list of
// abbreviations or compounds can know a team's own; the record at hand
// does. bridge rewrites such a form into the record's words, and only when
// the record spells it out: a word of the question that the record already
// uses, or one that the record's words do not spell, is left as it is, so
// a near miss ("SPC alerts on the paint line" against "the stamping line")
// keeps the word that marks it.

// maxBridgeRun is the longest run of the record's words an abbreviation
// may stand for.
const maxBridgeRun = 5

// bridge returns text with its abbreviations and compounds of the
// record's words (rec: the record's topic and final position) written as
// the record writes them.
func bridge(text, rec string) string {
	out, _ := rewriteInWords(text, rec, false)
	return out
}

// rewriteInWords is bridge's reading, and whether it changed text; with
// acronymsOnly it rewrites the acronyms alone, and none of two letters
// the lexicon reads as a word of its own (knownPair), as spellOut wants.
func rewriteInWords(text, rec string, acronymsOnly bool) (string, bool) {
	if text == "" || rec == "" {
		return text, false
	}
	rw := bridgeWords(rec)
	if len(rw) == 0 {
		return text, false
	}
	has := make(map[string]bool, len(rw))
	for _, w := range rw {
		has[w] = true
	}
	var b strings.Builder
	changed := false
	words := bridgeSpans(text)
	last := 0
	for i := 0; i < len(words); i++ {
		sp := words[i]
		w := text[sp[0]:sp[1]]
		lw := strings.ToLower(w)
		repl := ""
		skip := 0
		switch {
		case has[lw]:
		case isAbbreviation(w):
			if !acronymsOnly || !knownPair(w) {
				repl = expandAbbreviation(w, rw, has)
			}
		case acronymsOnly:
		case strings.Contains(w, "-") && isAbbreviation(w[:strings.IndexByte(w, '-')]):
			// "PR-based stories": the abbreviation before the hyphen.
			head := w[:strings.IndexByte(w, '-')]
			if x := expandAbbreviation(head, rw, has); x != "" {
				repl = x + w[len(head):]
			}
		case strings.HasPrefix(lw, "e-") && len(lw) > 4 && has["electronic"] && !has[lw[2:]]:
			// "e-signature": electronic signature.
			repl = "electronic " + lw[2:]
		default:
			if r := splitCompound(lw, rw); r != "" {
				repl = r
				break
			}
			if i+1 < len(words) && words[i+1][0] == sp[1]+1 {
				// Two words the record writes as one: "key card" for
				// "keycard".
				next := strings.ToLower(text[words[i+1][0]:words[i+1][1]])
				if j := lw + next; len(lw) >= 3 && len(next) >= 3 && !has[next] {
					for _, form := range []string{j, j + "s", strings.TrimSuffix(j, "s")} {
						if has[form] {
							repl, skip = form, 1
							break
						}
					}
				}
			}
			if repl == "" {
				repl = unclip(lw, rw)
			}
		}
		if repl == "" {
			continue
		}
		b.WriteString(text[last:sp[0]])
		b.WriteString(repl)
		last = words[i+skip][1]
		i += skip
		changed = true
	}
	if !changed {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// bridgeSpans are the byte spans of the words of s: letters and digits,
// with the hyphens and apostrophes inside a word ("e-signature", "key's").
func bridgeSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !inWord && (r == '-' || r == '\'') && start >= 0 && i+1 < len(s) {
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			inWord = unicode.IsLetter(next) || unicode.IsDigit(next)
		}
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// bridgeWords are the words of the record's text, lower case, hyphenated
// words split into their parts ("sign-off": sign, off; "non-conformance":
// non, conformance), in order.
func bridgeWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// isAbbreviation reports whether w is written as an abbreviation: two to
// six letters, capitals but for one plural "s" at the end ("QC", "CDRs").
func isAbbreviation(w string) bool {
	core := strings.TrimSuffix(w, "s")
	if len(core) < 2 || len(core) > 6 {
		return false
	}
	for i := 0; i < len(core); i++ {
		if core[i] < 'A' || core[i] > 'Z' {
			return false
		}
	}
	return true
}

// expandAbbreviation is the run of the record's words (rw) whose initials
// spell abbreviation a ("CDRs": call detail records), or "" when none
// does, or when the record uses a itself (has).
func expandAbbreviation(a string, rw []string, has map[string]bool) string {
	plural := strings.HasSuffix(a, "s") && len(a) > 2
	core := strings.ToLower(strings.TrimSuffix(a, "s"))
	if has[core] || !plural && has[strings.ToLower(a)] {
		return ""
	}
	for i := range rw {
		if rw[i] == "" || rw[i][0] != core[0] {
			continue
		}
		if j := initialsRun(core, rw, i); j > i {
			return strings.Join(rw[i:j], " ")
		}
	}
	return ""
}

// initialsRun is the end of the run of words starting at rw[i] whose
// initials spell letters (a linking "of", "and" or "the" may stand between
// them without a letter: "proof of concept", PoC), or i when none does.
func initialsRun(letters string, rw []string, i int) int {
	j, k := i, 0
	for j < len(rw) && j-i < maxBridgeRun+2 && k < len(letters) {
		w := rw[j]
		switch {
		case w != "" && w[0] == letters[k]:
			k++
		case j > i && (w == "of" || w == "and" || w == "the"):
		default:
			return i
		}
		j++
	}
	if k < len(letters) || j-i < 2 {
		return i
	}
	return j
}

// splitCompound is w written as two consecutive words of the record
// ("keycard": key card) or "" when the record has no such pair.
func splitCompound(w string, rw []string) string {
	if len(w) < 6 {
		return ""
	}
	for i := 0; i+1 < len(rw); i++ {
		a, b := rw[i], rw[i+1]
		if len(a) >= 3 && len(b) >= 3 && strings.HasPrefix(w, a) && compoundRest(w[len(a):], b) {
			return a + " " + b
		}
	}
	return ""
}

// minClipped is how many letters a clipped word keeps at least, and
// minClippedOff how many it drops at least ("regen" of "regeneration",
// "rec" of "reconciliation"; "car" is no clipping of "cart").
const (
	minClipped    = 3
	minClippedOff = 3
)

// unclip is the one word of the record (rw) that w is the start of, w
// being a clipped form ("regen": regeneration, "dedup": deduplicating), or
// "" when no word of the record or more than one starts with it.
func unclip(w string, rw []string) string {
	if len(w) < minClipped || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
		return ""
	}
	if lx := theLexicon(); lx.stop[stem(w)] || lx.generic[lx.fold(stem(w))] {
		return "" // "can" is no clipped "cancel"
	}
	found := ""
	for _, x := range rw {
		if len(x) >= len(w)+minClippedOff && strings.HasPrefix(x, w) && x != found && !inflected(x, w) {
			if found != "" && !strings.HasPrefix(x, found) && !strings.HasPrefix(found, x) && stem(x) != stem(found) {
				return ""
			}
			if found == "" || len(x) < len(found) {
				found = x
			}
		}
	}
	return found
}

// inflected reports whether x is w with an ending that makes another form
// of the same word ("refreshing" of "refresh", "payments" of "payment"),
// not a longer word it is clipped from.
func inflected(x, w string) bool {
	if stem(x) == stem(w) {
		return true
	}
	switch x[len(w):] {
	case "s", "es", "ed", "d", "ing", "er", "ers", "or", "ors", "ment", "ments", "ion", "ions", "ation", "ations",
		"al", "ally", "ly", "able", "ability", "ness", "ity", "ive", "ize", "ise", "ized", "ised", "ization", "isation":
		return true
	}
	return false
}

// compoundRest reports whether rest, the end of a compound, is the word b
// or its plural either way ("keycards" for "key card", "keycard" for "key
// cards"), or another form of it ("verify" of "verification").
func compoundRest(rest, b string) bool {
	if rest == b || rest == b+"s" || rest+"s" == b || rest == b+"es" || rest+"es" == b {
		return true
	}
	// Another form of the same word: "autoverify" for "auto-verification".
	r := strings.TrimRight(rest, "ye")
	return len(r) >= 4 && strings.HasPrefix(b, r)
}
