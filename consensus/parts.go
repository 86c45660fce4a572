package consensus

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file reads the parts of a position that carry meaning whatever the
// wording around them: the names it gives (products, formats, codes,
// people and places), a condition it explicitly sets aside ("whatever the
// amount"), how strongly it binds (must or should), and whether it counts
// per thing or across all of them.

// name is a name a text gives: a capitalised word inside a sentence
// ("Inter", "Bitwarden"), an acronym ("TMX", "CMYK"), or a word mixing
// letters and digits ("UTF-8", "1Password"), with a number that follows a
// name ("Code 128").
type name struct {
	key   string   // folded, for comparing
	text  string   // as written
	words []string // each word folded as surfaceTokens folds it
}

// maxNames bounds the names read from a text.
const maxNames = 32

// names returns the names text gives, in order, each once.
func names(text string) []name {
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed]
	}
	lx := theLexicon()
	var out []name
	// A Title Case Text tells nothing by its capitals.
	title := titleCase(text)
	start := true // at the start of a sentence or a clause
	prevName := false
	for i := 0; i < len(text) && len(out) < maxNames; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if strings.ContainsRune(".!?:;\n•*#>|-", r) && (r != '-' || i == 0 || text[i-1] == ' ' || text[i-1] == '\n') {
				start = true
			}
			if r != ' ' && r != '-' && r != '.' {
				prevName = false
			}
			i += size
			continue
		}
		// A word, with the hyphens and dots inside it ("UTF-8", "1.4b").
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			inner := (r == '-' || r == '.') && j+1 < len(text) && isWordByte(text[j+1])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !inner {
				break
			}
			j += size
		}
		w := text[i:j]
		isName := false
		switch {
		case hasLetter(w) && hasDigit(w):
			isName = !isQuantityWord(w)
		case isAcronym(w) && emphasis(lx, w):
			// "MUST", "SHALL NOT", "ONLY": a word of the sentence
			// written in capitals, not a name.
		case isAcronym(w) && currencies()[w]:
			// "EUR 10,000": the unit of an amount, which
			// compareQuantities reads.
		case isAcronym(w) || innerUpper(w):
			isName = true
		case !start && !title && startsUpper(w) && !lx.stop[stem(strings.ToLower(w))]:
			isName = true
		case prevName && isNumber(w):
			isName = true // "Code 128", "TMX 1.4b"
		}
		if isName && prevName && len(out) > 0 && (hasDigit(w) || startsUpper(w)) {
			// "Code 128", "Playfair Display": one name.
			last := &out[len(out)-1]
			last.text += " " + w
			last.key += " " + strings.ToLower(w)
			last.words = append(last.words, nameWords(lx, w)...)
		} else if isName {
			low := strings.ToLower(w)
			k := lx.fold(stem(low))
			if !slices.ContainsFunc(out, func(n name) bool { return n.key == k }) {
				out = append(out, name{key: k, text: w, words: nameWords(lx, w)})
			}
		}
		prevName = isName
		start = false
		i = j
	}
	return out
}

// compact is s in lower case without what separates its parts.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// compactIn reports whether a name of letters and digits is in text
// written without its separators or with others: "SHA-256" in "sha256
// sums", "UTF-8" in "utf8", "RFC 3339 UTC" in "rfc3339 utc".
func compactIn(n, text string) bool {
	c := compact(n)
	if len(c) < 4 || !hasLetter(c) || !hasDigit(c) {
		return false
	}
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed] // only the start of a long text is read
	}
	for _, w := range strings.Fields(text) {
		if compact(w) == c {
			return true
		}
	}
	// A longer one across words: "RFC 3339 UTC" in "rfc3339 utc".
	return len(c) >= 6 && strings.Contains(compact(text), c)
}

// nameWords are the words of w folded as surfaceTokens folds them
// ("UTF-8" is "utf" and "8").
func nameWords(lx *lexicon, w string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' }) {
		if p = strings.Trim(p, "."); p != "" {
			out = append(out, surfaceKey(lx, p, 0, 0).key)
		}
	}
	return out
}

// titleCase reports whether three words in four of text (of four or
// more) start with a capital.
func titleCase(text string) bool {
	words, upper := 0, 0
	for _, w := range strings.Fields(text) {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsLetter(r) {
			continue
		}
		words++
		if unicode.IsUpper(r) {
			upper++
		}
	}
	return words >= 4 && 4*upper > 3*words
}

// innerUpper reports whether a capital follows a small letter in w:
// "WebP", "VoiceOver".
func innerUpper(w string) bool {
	lower := false
	for _, r := range w {
		if unicode.IsUpper(r) && lower {
			return true
		}
		lower = unicode.IsLower(r)
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}

func hasLetter(w string) bool { return strings.IndexFunc(w, unicode.IsLetter) >= 0 }
func hasDigit(w string) bool  { return strings.IndexFunc(w, unicode.IsDigit) >= 0 }

func isNumber(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != ',' }) < 0
}

// isQuantityWord reports whether a word mixing letters and digits is a
// number with its unit glued ("48h", "10ms", "5k", "2x") or a time of day
// ("10pm"), which compareQuantities reads.
func isQuantityWord(w string) bool {
	k := strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != ',' })
	if k <= 0 {
		return false
	}
	suffix := strings.TrimPrefix(strings.ToLower(w[k:]), "-") // "15-minute"
	return suffix == "x" || suffix == "k" || suffix == "am" || suffix == "pm" || shortUnits()[suffix] != "" || isUnitWord(suffix) ||
		suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th"
}

// emphasis reports whether w, written in capitals, is a word of the
// sentence rather than a name: a keyword of requirements ("MUST",
// "SHALL", "SHOULD", "MAY", "REQUIRED"), a function word ("NOT", "ONLY",
// "ALL") or a stop word.
func emphasis(lx *lexicon, w string) bool {
	low := strings.ToLower(w)
	if _, ok := functionClasses()[low]; ok {
		return true
	}
	switch low {
	case "recommended", "optional", "forbidden", "prohibited", "always", "ever", "ok", "okay", "asap":
		return true
	}
	return lx.stop[low] || lx.negCue[low]
}

// currencies are the codes written beside an amount ("EUR 10,000",
// "25 USD").
var currencies = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"EUR": true, "USD": true, "GBP": true, "CHF": true, "JPY": true, "CAD": true, "AUD": true, "NZD": true,
		"CNY": true, "INR": true, "SEK": true, "NOK": true, "DKK": true, "PLN": true, "CZK": true, "HUF": true, "BRL": true, "MXN": true, "ZAR": true, "SGD": true, "HKD": true}
})

// isAcronym: two or more capitals and nothing else ("TMX", "HR").
func isAcronym(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 2
}

func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// compareNames finds the names of a choice changed: the filed position
// names something the new one does not mention at all, and the new one
// names something the filed one does not ("TMX → Excel", "Code 128 →
// QR"). A name only added, or only left out, decides nothing here.
func compareNames(a, b *side) []string {
	na, nb := a.names, b.names
	if len(na) == 0 || len(nb) == 0 {
		return nil
	}
	// A name is said again only by the rule, not by a greeting or a
	// sign-off around it ("Dear Finance team, invoices go to Legal").
	filed, fa := ruleOnly(a)
	position, fb := ruleOnly(b)
	mentioned := func(n name, keys []string, text string, names []name) bool {
		return slices.Contains(keys, n.key) || strings.Contains(strings.ToLower(text), strings.ToLower(n.text)) || compactIn(n.text, text) ||
			wordsSaid(n, keys) || spelled(n.text, text) || slices.ContainsFunc(names, func(m name) bool { return shortened(n, m) || shortened(m, n) || spelled(m.text, n.text) })
	}
	// A name only in a greeting or a sign-off ("Hi Sam,", "Thanks,
	// Ioana") is the message's, no choice of the rule.
	courteous := func(n name, text string) bool {
		return text != "" && !strings.Contains(text, n.text)
	}
	inRule := func(ns []name, text string) []name {
		return slices.DeleteFunc(slices.Clone(ns), func(n name) bool { return courteous(n, text) })
	}
	ra, rb := inRule(na, filed), inRule(nb, position)
	var gone, come []string
	for _, n := range ra {
		if !mentioned(n, fb, position, rb) {
			gone = append(gone, n.text)
		}
	}
	for _, n := range rb {
		if !mentioned(n, fa, filed, ra) {
			come = append(come, n.text)
		}
	}
	if len(gone) == 0 || len(come) == 0 {
		return nil
	}
	return []string{strings.Join(gone, " ") + " → " + strings.Join(come, " ")}
}

// ruleOnly is the text of x within its courtesies (courtesyBounds) and
// the keys of the tokens there.
func ruleOnly(x *side) (string, []string) {
	start, end := courtesyBounds(x.text)
	if start == 0 && end == len(x.text) {
		return x.text, keysOf(x.toks)
	}
	var keys []string
	for _, t := range x.toks {
		if t.start >= start && t.end <= end {
			keys = append(keys, t.key)
		}
	}
	return x.text[start:end], keys
}

// wordsSaid reports whether every word of a name of several words is
// said on the other side ("HL7 v2.5.1 ORU" in "HL7 version 2.5.1 ORU
// messages"), a version's "v" aside.
func wordsSaid(n name, keys []string) bool {
	if len(n.words) < 2 {
		return false
	}
	for _, w := range n.words {
		if !slices.Contains(keys, w) && !slices.Contains(keys, strings.TrimPrefix(w, "v")) {
			return false
		}
	}
	return true
}

// spelled reports whether an acronym (capitals, with a plural "s": "CFO",
// "PCBs") is spelled by the initials of consecutive words of text ("Chief
// Financial Officer", "printed circuit boards"), "of", "and" and "the"
// passed over.
func spelled(acronym, text string) bool {
	acronym = strings.TrimSuffix(acronym, "s")
	if len(acronym) < 2 || len(acronym) > 6 || !isAcronym(acronym) {
		return false
	}
	init := strings.ToLower(acronym)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	for i := range words {
		k, j := 0, i
		for ; j < len(words) && k < len(init); j++ {
			w := words[j]
			if w[0] == init[k] {
				k++
				continue
			}
			if k == 0 || w != "of" && w != "and" && w != "the" && w != "for" {
				break
			}
		}
		if k == len(init) {
			return true
		}
	}
	return false
}

// shortened reports whether name m is n shortened ("Dec" for "December",
// "Macs" for "macOS"): the same first three letters or more, and one a
// start of the other up to a plural. Two options of one choice
// ("Java", "JavaScript") are not.
//
// A name of several words is shortened word by word ("Dec 20" for
// "December 20").
func shortened(n, m name) bool {
	xs, ys := strings.Fields(strings.ToLower(n.text)), strings.Fields(strings.ToLower(m.text))
	if len(xs) != len(ys) || n.text == m.text {
		return false
	}
	for i := range xs {
		x, y := strings.TrimSuffix(xs[i], "s"), ys[i]
		if xs[i] == y {
			continue
		}
		if len(x) < 3 || len(x) >= len(y) || !strings.HasPrefix(y, x) || strings.Contains(y, "-") {
			return false
		}
	}
	lx := theLexicon()
	return lx.altGroup[n.key] == 0 || lx.altGroup[m.key] == 0
}

// disregardCues set a condition aside: "whatever their licence date",
// "open complaint or not", "wherever they live". Written lower case.
var disregardCues = []string{"regardless", "irrespective", "no matter", "whatever", "wherever", "or not", "either way", "in any case", "in all cases", "does not matter", "doesn't matter", "do not matter", "don't matter",
	"as often as", "as many times as", "any number of times", "unlimited",
	// Every case named, none left out: "whichever account it comes from",
	// "public and private alike".
	"whichever", "alike"}

// emphaticCues say a rule has no exception: they set aside only an
// exception the filed rule makes ("no dog without a certificate, no
// exceptions" is "dogs only with a certificate" said again).
var emphaticCues = []string{"no exceptions", "no exception", "without exception", "no special cases", "no special case", "across the board", "not even"}

// deniedCues deny an exception the filed rule makes when their clause
// names it: "no exemption", "no yearly waiver", "self-employed jurors are
// no different", "being in hospital makes no difference", "islands
// included, like any other address", "even if both captains agree". Not
// where their clause names nothing of it ("£5 a session, even on
// weekends" beside "except juniors").
var deniedCues = []string{"no exemption", "no exemptions", "not exempt", "no waiver", "no different", "no difference", "like any other", "like everything else",
	"like everyone else", "like everywhere else", "like the rest", "same as the rest", "same as everyone", "even if", "even when", "even though", "even for", "even on"}

// disregards returns the cue by which text sets a condition aside, or "".
func disregards(text string) string {
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed]
	}
	low := strings.ToLower(text)
	for _, c := range disregardCues {
		if k := indexWord(low, c); k >= 0 {
			end := k + len(c)
			// The cue and the words after it, up to the end of the clause.
			for end < len(low) && !strings.ContainsRune(",;.!?\n", rune(low[end])) && end-k < 60 {
				end++
			}
			said := strings.TrimSpace(low[k:end]) // low: lowering may change the length of invalid UTF-8
			if (c == "wherever" || c == "whatever" || c == "whichever") && superlative(said) {
				continue // "wherever the median ping is lowest" picks one
			}
			if c == "whatever" && remainder(said[len(c):]) {
				continue // "whatever's left goes to the rag merchant": what remains
			}
			if c == "or not" {
				// "cancelled or not", "special diet or not": what is set
				// aside stands before the cue.
				if !strings.HasSuffix(strings.TrimSpace(low[:k]), "whether") {
					said = strings.TrimSpace(wordsBefore(low, k, 2) + " " + said)
				}
			}
			return said
		}
	}
	return orNoSame(low)
}

// wordsBefore is the last n words of s[:k] within its clause.
func wordsBefore(s string, k, n int) string {
	start := k
	for start > 0 && !strings.ContainsRune(",;.!?:(\n", rune(s[start-1])) {
		start--
	}
	ws := strings.Fields(s[start:k])
	return strings.Join(ws[max(0, len(ws)-n):], " ")
}

// orNoSame finds "X or no X" in low ("notice or no notice", "receipt or
// no receipt"): X set aside. It returns the phrase, or "".
func orNoSame(low string) string {
	for off := 0; off < len(low); {
		k := strings.Index(low[off:], " or no ")
		if k < 0 {
			return ""
		}
		k += off
		before := strings.Fields(wordsBefore(low, k, 1))
		rest := low[k+len(" or no "):]
		if len(before) == 1 && len(before[0]) > 2 && indexWord(rest, before[0]) == 0 {
			return before[0] + " or no " + before[0]
		}
		off = k + 1
	}
	return ""
}

// remainder reports whether the words after "whatever" (after) make it
// the subject of what remains: "whatever's left", "whatever is left
// over", "whatever remains". It names a thing, and sets nothing aside.
func remainder(after string) bool {
	ws := strings.Fields(strings.NewReplacer("'s ", " is ", "’s ", " is ").Replace(after + " "))
	if len(ws) > 0 && (ws[0] == "is" || ws[0] == "was" || ws[0] == "are") {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return false
	}
	switch strings.Trim(ws[0], ".,;:!?()") {
	case "left", "remains", "remaining", "over", "unsold", "unused", "leftover":
		return true
	}
	return false
}

// superlative reports whether a clause names a superlative ("lowest",
// "most", "best"), or "sooner", "earlier" or "later" ("whichever is
// sooner" is "whichever comes first"): "wherever the ping is lowest"
// chooses a place rather than setting the place aside.
func superlative(clause string) bool {
	for _, w := range strings.Fields(clause) {
		w = strings.Trim(w, ".,;:!?()[]{}\"'")
		switch w {
		case "most", "least", "best", "worst", "first", "last", "fewest",
			"sooner", "earlier", "later":
			return true
		}
		if len(w) > 5 && strings.HasSuffix(w, "est") && !strings.HasSuffix(w, "rest") && !strings.HasSuffix(w, "quest") && !strings.HasSuffix(w, "gest") {
			return true
		}
	}
	return false
}

// indexWord is strings.Index of w in s at word boundaries.
func indexWord(s, w string) int {
	for off := 0; off < len(s); {
		k := strings.Index(s[off:], w)
		if k < 0 {
			return -1
		}
		k += off
		before := k == 0 || !isWordByte(s[k-1])
		after := k+len(w) == len(s) || !isWordByte(s[k+len(w)])
		if before && after {
			return k
		}
		off = k + 1
	}
	return -1
}

// compareDisregard finds a condition, an exception or a limit of the
// filed position that the new one explicitly sets aside: "drivers must
// have held a licence for 2 years" against "whatever their licence date".
func compareDisregard(a, b *analysis, filed, position string) []string {
	cue := disregards(position)
	if cue == "" {
		cue = emphatic(a, b, filed, position)
	}
	if cue == "" || disregards(filed) != "" {
		return nil
	}
	if everyAlready(a, cue, filed, position) {
		return nil // "no confetti of any kind" said "no confetti whatever the type"
	}
	if len(a.conds) == 0 && len(a.qty) <= len(b.qty) && !a.only && !carveOutLost(a, b, position) && !(plainlyAside(cue) && namesAside(a, cue, filed, position)) && !(setOff(cue, position) && namesAside(a, setOffHead(cue), filed, position)) {
		return nil // nothing the filed rule sets that could be set aside
	}
	always := theLexicon().fold(stem("always"))
	if slices.ContainsFunc(a.terms, func(t term) bool { return t.w == always && !t.neg }) {
		return nil // "islands always go by post" is "islands: post, whatever the weight"
	}
	return []string{"condition set aside: " + cue}
}

// everyAlready reports whether the position sets aside, right after a
// thing ("no confetti whatever the type", "any customer data, of whatever
// size"), what the filed rule does not speak of at all, of a thing the
// filed rule already takes whole: "no confetti of any kind", "when any
// customer data is exposed", with no number in its clause and nothing
// after it that narrows it. Not "any circuit above 50 volts" against "any
// circuit, whatever its voltage", nor "every lot valued over £5,000"
// against "every lot, whatever its value".
func everyAlready(a *analysis, said, filed, position string) bool {
	var rest string
	for _, c := range []string{"whatever", "regardless of", "irrespective of", "no matter"} {
		if strings.HasPrefix(said, c) {
			rest = said[len(c):]
		}
	}
	low := strings.ToLower(position)
	k := strings.Index(low, said)
	if rest == "" || k < 0 {
		return false
	}
	// The thing right before the cue, a comma and an "of" aside:
	// "confetti", "data".
	before := strings.Fields(low[max(0, k-80):k])
	for len(before) > 0 && (before[len(before)-1] == "of" || before[len(before)-1] == ",") {
		before = before[:len(before)-1]
	}
	if len(before) == 0 || strings.ContainsAny(before[len(before)-1], ";:.!?()") {
		return false
	}
	thing := stem(strings.Trim(before[len(before)-1], ",\"'"))
	// Nothing the cue sets aside is said by the filed rule.
	lx := theLexicon()
	filedWords := set(a.words())
	for _, w := range analyze(rest).words() {
		if filedWords[w] && !lx.generic[w] && !lx.light[w] && !lx.stop[w] {
			return false
		}
	}
	// The filed rule says the thing whole: "any", "every", "all" or "no"
	// up to two words before it, then a verb, the end of the clause, or
	// "of any kind".
	ws := strings.FieldsFunc(strings.ToLower(filed), func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' })
	ends := func(i int) bool {
		if i >= len(ws) {
			return true
		}
		switch strings.Trim(ws[i], "\"'()") {
		case "is", "are", "was", "were", "may", "must", "can", "shall", "will", "should", "of", "whatsoever":
			return i+1 >= len(ws) || ws[i] != "of" || ws[i+1] == "any" || ws[i+1] == "every" || ws[i+1] == "all"
		}
		return false
	}
	for i, w := range ws {
		if w != "any" && w != "every" && w != "all" && w != "no" {
			continue
		}
		for j := i + 1; j < len(ws) && j <= i+3; j++ {
			word := strings.TrimRight(ws[j], ".,;:!?)")
			if stem(word) != thing {
				if word != ws[j] {
					break // the clause ends before the thing
				}
				continue
			}
			if word == ws[j] && !ends(j+1) {
				break // "any circuit above 50 volts": narrowed
			}
			// No number in the clause the thing stands in.
			from, to := i, j
			for from > 0 && !strings.ContainsAny(ws[from-1], ",;:.") {
				from--
			}
			for to < len(ws)-1 && !strings.ContainsAny(ws[to], ",;:.") {
				to++
			}
			if !strings.ContainsAny(strings.Join(ws[from:to+1], " "), "0123456789") {
				return true
			}
			break
		}
	}
	return false
}

// plainlyAside reports whether the set-aside phrase said says in so many
// words that a thing does not matter ("cancelled or not", "no matter
// when", "regardless of the weather", "notice or no notice"), not a
// "whatever" or "whichever" that may only name a thing ("whatever is left
// over").
func plainlyAside(said string) bool {
	for _, c := range []string{"or not", "regardless", "irrespective", "no matter", " or no "} {
		if strings.Contains(said, c) {
			return true
		}
	}
	return false
}

// setOff reports whether the set-aside phrase said opens with "whatever",
// "whichever" or "wherever" right after a comma: an aside that says the
// thing does not matter ("all visitors, whichever floor they are going
// to, …", "before anyone leaves the lab, whatever they worked on"), not
// one that names a thing or a place the rule goes on with ("use
// whichever desk is free", "alarms wherever there is a boiler").
func setOff(said, position string) bool {
	if !strings.HasPrefix(said, "whatever") && !strings.HasPrefix(said, "whichever") && !strings.HasPrefix(said, "wherever") {
		return false
	}
	low := strings.ToLower(position)
	k := strings.Index(low, said)
	return k > 0 && strings.HasSuffix(strings.TrimRight(low[:k], " "), ",")
}

// setOffHead is the set-aside phrase said cut to its cue and the word
// it sets aside: "whichever floor" of "whichever floor they are going
// to", "whatever worked" of "whatever they worked on". The rule must
// name that word to narrow by it: "whichever branch took the booking"
// sets no branch aside from "refunded to the card used for the booking".
func setOffHead(said string) string {
	ws := strings.Fields(said)
	for i := 1; i < len(ws); i++ {
		switch ws[i] {
		case "the", "a", "an", "their", "his", "her", "its", "your", "our", "they", "he", "she", "we", "you", "it", "i":
			continue
		}
		return ws[0] + " " + ws[i]
	}
	return said
}

// namesAside reports whether the filed rule a says a content word of the
// phrase a position sets aside ("affected" of "affected or not", "notice"
// of "notice or no notice", the two words after "regardless of"): the
// rule speaks of what the position says does not matter ("customers
// whose data was affected are notified", "a flat that has not given
// notice"). Not a word the position says outside the phrase too (the
// rule's subject: "every parcel, regardless of parcel size"), one of a
// list ("members and non-members"), one the rule says of every case ("in
// all weather"), nor one in a sentence of the rule the position does not
// otherwise speak of.
func namesAside(a *analysis, said, filed, position string) bool {
	lx := theLexicon()
	// What is set aside: "X or not", "X or no X", or the few words after
	// "regardless of", "irrespective of", "no matter" ("regardless of the
	// weather the market opens at 8" sets aside the weather).
	phrase := said
	for _, c := range []string{"regardless of", "irrespective of", "regardless", "irrespective", "no matter"} {
		if k := strings.Index(said, c); k >= 0 {
			ws := strings.Fields(said[k+len(c):])
			for len(ws) > 0 && slices.Contains([]string{"the", "a", "an", "their", "its", "his", "her", "your", "how", "when", "what", "whether", "who", "which", "where"}, ws[0]) {
				ws = ws[1:]
			}
			phrase = strings.Join(ws[:min(len(ws), 2)], " ")
			break
		}
	}
	words := set(analyze(phrase).words())
	// A word the position says outside the phrase is what the rule is
	// about ("every parcel …, regardless of parcel size"), not its
	// qualifier.
	rest := strings.Replace(strings.ToLower(position), said, " ", 1)
	outside := set(analyze(rest).words())
	lowFiled := strings.ToLower(filed)
	return slices.ContainsFunc(a.terms, func(t term) bool {
		if !words[t.w] || lx.generic[t.w] || lx.light[t.w] || strings.HasPrefix(t.w, "#") || outside[t.w] || t.listed {
			return false
		}
		// "…; in bad weather the stalls are covered": named in a sentence
		// of the rule the position does not speak of.
		if !slices.ContainsFunc(a.terms, func(u term) bool {
			return u.w != t.w && a.sentence(u.clause) == a.sentence(t.clause) && outside[u.w]
		}) {
			return false
		}
		// "in all weather", "of every rank", "on every ride": the rule
		// names every case of it.
		if tt := strings.ToLower(t.text); tt != "" {
			for _, p := range []string{"of ", "in ", "on ", "for ", "at ", "from "} {
				for _, q := range []string{"all ", "every ", "any ", "each "} {
					if strings.Contains(lowFiled, p+q+tt) {
						return false
					}
				}
			}
		}
		return true
	})
}

// Modality: how strongly a rule binds. strongCues command; weakCues only
// recommend or allow. Lower case, matched at word boundaries.
var (
	strongCues = []string{"must", "shall", "required", "mandatory", "compulsory", "have to", "has to", "need to", "needs to", "always", "at all times", "obligatory", "without exception",
		// A choice said not to be one.
		"not optional", "not voluntary", "not discretionary", "no longer optional"}
	weakCues = []string{"where possible", "if possible", "when possible", "ideally", "recommended", "encouraged", "preferably", "optional", "try to", "nice to have", "if feasible", "best effort",
		"soft target", "soft limit", "soft cap", "advisory", "non-blocking", "not enforced", "not blocking", "only a warning", "just a warning", "a warning only",
		// A requirement said not to be one.
		"not required", "not mandatory", "not compulsory", "not obligatory", "not a must", "no need to", "need not", "needn't",
		"do not have to", "does not have to", "don't have to", "doesn't have to",
		// A need said not to be one ("they do not need to attend the
		// unpacking", "nobody needs to take laptops out any more", "the
		// declaration is no longer needed").
		"do not need to", "does not need to", "don't need to", "doesn't need to", "nobody needs to", "no one needs to", "no longer needed", "no longer required",
		"a recommendation", "at their discretion", "at the discretion", "discretionary", "voluntary",
		"rather than mandatory", "rather than required", "rather than compulsory", "instead of mandatory", "instead of required",
		"aim for", "aim to", "aims for", "aims to", "strive to", "strives to",
		"better if", "it is better", "it's better", "best if", "it is best", "it's best", "would be nice", "would be good",
		"recommend", "recommends", "as a guideline", "as guidance", "is advised", "are advised", "advisable", "suggested", "we suggest",
		"discretion", "if they choose", "if they wish", "up to them", "their judgement", "their judgment", "we encourage", "encourage", "where practical",
		"if practical", "where practicable", "not strictly required", "not strictly necessary", "a guideline", "may ignore", "can ignore", "decide for themselves",
		"is preferred", "are preferred",
		// A duty left to its doer's own judgement, or kept only where it
		// is easy: "pilots may use their own judgement", "wherever
		// possible", "should normally get 21 days".
		"own judgement", "own judgment", "judgement call", "judgment call", "wherever possible", "whenever possible", "if at all possible",
		"where feasible", "when feasible", "when practical", "should normally", "should generally", "should usually", "should typically"}
)

// discretionCues leave a step to its doer's choice: "the clinic may
// choose to book a scan", "staff may decide whether to escalate". Against
// a rule that says the step is taken ("the patient is booked for a scan")
// they loosen it as "recommended" does; against one that already allows
// it ("members may receive it by post") they say the same permission
// (permits).
var discretionCues = sync.OnceValue(func() []string {
	return []string{"may choose to", "may choose whether", "may decide to", "may decide whether", "may opt to", "may elect to",
		"can choose to", "can decide whether", "can decide to", "can opt to", "may offer"}
})

// discretionCue is the first of discretionCues low says, or "": looked
// for only where low says "may " or "can " at all.
func discretionCue(low string) string {
	if !strings.Contains(low, "may ") && !strings.Contains(low, "can ") {
		return ""
	}
	return hasCue(low, discretionCues())
}

// permits reports whether low, a part of the filed rule, allows rather
// than commands: "may", "can", "allowed", "optional", "entitled".
func permits(low string) bool {
	for _, w := range []string{"may", "can", "could", "allowed", "permitted", "optional", "entitled", "free to", "able to"} {
		if indexWord(low, w) >= 0 {
			return true
		}
	}
	return false
}

// holding are the cues of outer that hold one of inner: the weak cues
// "not required" and "no need to" hold the strong "required" and "need
// to"; the strong cue "not optional" holds the weak "optional".
func holding(outer, inner []string) []string {
	var out []string
	for _, w := range outer {
		if hasCue(w, inner) != "" {
			out = append(out, w)
		}
	}
	return out
}

var (
	negatedStrong = sync.OnceValue(func() []string { return holding(weakCues, strongCues) })
	// The strong cues that hold a weak one ("not optional"), and the
	// notices that hold "advised": "members of the public are advised
	// that counters accept found items only …" tells of the rule, it
	// does not advise.
	negatedWeak = sync.OnceValue(func() []string {
		return append(holding(strongCues, weakCues), "is advised that", "are advised that")
	})
)

// strongCue is the first of strongCues low says outside a weak cue ("not
// required" recommends), or "".
func strongCue(low string) string { return cueOutside(low, strongCues, negatedStrong()) }

// weakCue is the first of weakCues low says outside a strong cue ("not
// optional" binds) or a notice ("are advised that"), or a duty kept as
// far as its means allow (resourcesAllow), or "".
func weakCue(low string) string {
	if c := cueOutside(low, weakCues, negatedWeak()); c != "" {
		return c
	}
	return resourcesAllow(low)
}

// resourceWords are what a duty kept "as time allows" waits on: the
// time, people and means of those who carry it out.
var resourceWords = wordSet("time times crew crews staff staffing capacity workload resources budget schedule schedules timetable rota availability bandwidth operations")

// resourcesAllow finds a duty kept only as far as the means to carry it
// out allow: "where crews allow", "if time permits", "as the timetable
// allows", "when staffing permits" (one to three words between the cue
// and the verb, one of them a resource). It is the phrase as written, or
// "". Not "where the law allows": what the law allows is a case, not a
// duty loosened.
func resourcesAllow(low string) string {
	if !strings.Contains(low, "allow") && !strings.Contains(low, "permit") {
		return ""
	}
	words := strings.FieldsFunc(low, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' })
	for i, w := range words {
		if w != "where" && w != "when" && w != "if" && w != "as" && w != "whenever" && w != "wherever" {
			continue
		}
		resource := false
		for j := i + 1; j < len(words) && j <= i+4; j++ {
			switch words[j] {
			case "allow", "allows", "permit", "permits":
				if resource && j > i+1 {
					return strings.Join(words[i:j+1], " ")
				}
			}
			if resourceWords()[words[j]] {
				resource = true
			}
		}
	}
	return ""
}

// cueOutside is the first of cues low says outside the phrases of
// holders that hold it, or "". Only a holder that holds the cue found
// ("required" in "not required") can hide it.
func cueOutside(low string, cues, holders []string) string {
	c := hasCue(low, cues)
	if c == "" {
		return ""
	}
	blanked := false
	for _, w := range holders {
		if strings.Contains(w, c) && strings.Contains(low, w) {
			low, blanked = strings.ReplaceAll(low, w, strings.Repeat(" ", len(w))), true
		}
	}
	if !blanked {
		return c
	}
	return hasCue(low, cues)
}

func hasCue(low string, cues []string) string {
	for _, c := range cues {
		if indexWord(low, c) >= 0 {
			return c
		}
	}
	return ""
}

// compareStrength finds a rule that binds on the filed side and only
// recommends on the other ("must wear a helmet" → "should wear helmets
// where possible"). A filed rule stated as what happens ("visits last at
// least 30 minutes") binds as "must" does: against "aim for 30 minutes"
// it reads "binding → aim for".
//
// It reads part by part (strengthParts): a position may loosen one duty
// and keep another ("moving away is only a recommendation; the report is
// still compulsory"), and a filed rule may itself leave one part optional
// ("for screen swaps the waiver is optional"). The weak part of the
// position is set against the part of the filed rule that shares most of
// its words.
func compareStrength(filed, position string) []string {
	la, lb := strings.ToLower(filed), strings.ToLower(position)
	if len(la) > maxAnalyzed {
		la = la[:maxAnalyzed]
	}
	if len(lb) > maxAnalyzed {
		lb = lb[:maxAnalyzed]
	}
	// The position's weak cue first: most positions have none, and then
	// the filed rule need not be read.
	weak := weakCue(lb)
	if weak == "" && (rfcWord(filed, "MUST") || rfcWord(filed, "SHALL") || rfcWord(position, "SHOULD")) && indexWord(lb, "should") >= 0 {
		// "should" recommends where a rule is written in the words of
		// requirements ("MUST" against "SHOULD"); elsewhere it is often
		// only a way of agreeing ("we should serve WebP").
		weak = "should"
	}
	if weak == "" {
		weak = discretionCue(lb)
	}
	if weak == "" || exemptionSaid(la, lb, weak) {
		return nil
	}
	pa := strengthParts(la)
	unhyphened := strings.ReplaceAll(la, "-", " ")
	var paWords []map[string]bool // the filed parts' words, read once when a weak part needs them
	for _, part := range strengthParts(lb) {
		w := weakCue(part)
		if w == "" && weak == "should" && indexWord(part, "should") >= 0 {
			w = "should"
		}
		discretion := false
		if w == "" {
			w = discretionCue(part)
			discretion = w != ""
		}
		if w == "" || strongCue(part) != "" || indexWord(la, w) >= 0 || indexWord(unhyphened, w) >= 0 {
			continue // no weak part, or one the filed rule words so too ("a discretionary charge")
		}
		if adv, ok := strings.CutPrefix(w, "should "); ok && indexWord(la, adv) >= 0 {
			continue // "invoices are normally paid in 30 days" holds "normally" as "should normally" does
		}
		if endsBare(part, w) {
			continue // "under-25s show ID; older ones don't need to": others set apart, the duty kept
		}
		if paWords == nil {
			for _, p := range pa {
				paWords = append(paWords, partWords(p))
			}
		}
		fa := nearestPart(pa, paWords, partWords(part))
		if discretion && permits(fa) {
			continue // "members may receive it by post" → "members may choose to get it by post"
		}
		if weakCue(fa) != "" || liftedIn(pa, paWords, partWords(part)) {
			continue // "baby milk is exempt from the 100 ml limit" → "baby milk doesn't have to meet it"
		}
		strong := strongCue(fa)
		if strong == "" {
			strong = "binding"
		}
		return []string{strong + " → " + w}
	}
	return nil
}

// endsBare reports whether the weak cue w is a "need to" or "have to"
// said with nothing after it in part ("adults don't need to", "the rest
// do not have to."): the position sets apart the ones it names and keeps
// the duty of the others, not loosening it.
func endsBare(part, w string) bool {
	if !strings.HasSuffix(w, " to") {
		return false
	}
	k := indexWord(part, w)
	return k >= 0 && strings.Trim(part[k+len(w):], " ,.:)") == ""
}

// strengthParts splits lower-case text into the parts a duty is said in:
// sentences (a full stop before a space or the end, not the point of
// "2.5 hours"), and clauses after ";", ", and", ", but" or ", though".
func strengthParts(low string) []string {
	low = strings.ReplaceAll(strings.TrimSuffix(low, "."), ". ", "; ")
	parts := strings.FieldsFunc(low, func(r rune) bool { return r == ';' || r == '!' || r == '?' || r == '\n' })
	var out []string
	for _, p := range parts {
		for _, sep := range []string{", and ", ", but ", " but ", ", though "} {
			p = strings.ReplaceAll(p, sep, "\x00")
		}
		for _, q := range strings.Split(p, "\x00") {
			if strings.TrimSpace(q) != "" {
				out = append(out, q)
			}
		}
	}
	if len(out) == 0 {
		return []string{low}
	}
	return out
}

// partWords are the content words of a part (stemmed, three letters or
// more, no stop words).
func partWords(s string) map[string]bool {
	lx := theLexicon()
	m := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) < 3 || lx.stopWord[w] {
			continue
		}
		if st := stem(w); !lx.stop[st] {
			m[st] = true
		}
	}
	return m
}

// nearestPart is the part of parts (their words in words) that shares
// most content words with want (the first of them on a tie, all of them
// joined when none shares one).
func nearestPart(parts []string, words []map[string]bool, want map[string]bool) string {
	best, bestN := strings.Join(parts, "; "), 0
	for i, p := range parts {
		n := 0
		for w := range words[i] {
			if want[w] {
				n++
			}
		}
		if n > bestN {
			best, bestN = p, n
		}
	}
	return best
}

// dutyLiftedCues are the words of a filed part that lifts a duty as "need
// not" does: the same part said with "don't have to" or "needn't" is no
// rule made optional.
var dutyLiftedCues = []string{"exempt", "do not need", "does not need", "don't need", "doesn't need", "no need", "not required", "not needed", "not obliged",
	// A charge lifted for some: "late check-out is free for gold members"
	// is what "gold members don't need to pay for it" says. Not "free of
	// charge", which the duty itself may carry ("must send copies, free
	// of charge").
	"free for"}

// liftedIn reports whether a part of the filed rule (parts, their words
// in words) lifts a duty (dutyLiftedCues) and shares two content words
// or more with the position's part (want): the part that says "needn't"
// or "don't have to" says it of the same case.
func liftedIn(parts []string, words []map[string]bool, want map[string]bool) bool {
	for i, p := range parts {
		if hasCue(p, dutyLiftedCues) == "" {
			continue
		}
		n := 0
		for w := range want {
			if words[i][w] {
				n++
			}
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

// exemptionSaid reports whether the weak cue of the position (lower
// case lb) is a requirement said not to be one in the case a condition
// names ("if they play in the youth band, no need to pay"), where the
// filed rule (la) makes that case an exception ("unless they play in the
// youth band"): an exception said as a condition, not a rule made
// optional.
func exemptionSaid(la, lb, weak string) bool {
	if !slices.Contains(negatedStrong(), weak) || hasCue(la, []string{"unless", "except", "exempt", "excepted", "apart from"}) == "" {
		return false
	}
	at := indexWord(lb, weak)
	start := strings.LastIndexAny(lb[:at], ".;!?\n") + 1
	return hasCue(lb[start:at], []string{"if", "when", "where", "for anyone who", "for those who"}) != ""
}

// rfcWord reports whether text writes w (upper case) as a word: "MUST".
func rfcWord(text, w string) bool {
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed]
	}
	return indexWord(text, w) >= 0
}

// compareCounting finds a rule that counts per thing on one side and
// across all of them on the other: "sequential per legal entity" against
// "sequential across all legal entities".
func compareCounting(filed, position string, ta, tb []surfaceTok) []string {
	type mark struct {
		class string
		text  string
		at    int // the token counted
	}
	both := map[string]bool{} // words a side counts both ways: no rule of counting to compare
	marked := func(s string, ts []surfaceTok) map[string]mark {
		m := map[string]mark{}
		for i, t := range ts {
			if t.key != "@dist" && t.key != "@coll" {
				continue
			}
			if t.key == "@coll" && spanWords()[surfaceWord(s, t)] || t.key == "@dist" && coveredBy(s, ts, i) {
				// "for the whole event", "the entire session": all of
				// one, which "per event" and "every session" say too;
				// not a count summed across them. "Covering every row"
				// counts neither way (coveredBy).
				continue
			}
			sharing := t.key == "@dist" && (sharedAmong(s, ts, i) || countedOver(s, ts, i)) // "shared by all teams", "counting every clinic"
			if t.key == "@dist" && !sharing && surfaceWord(s, t) == "all" {
				// "all instances" alone counts neither way: "all
				// instances share it" is "shared across instances", "a
				// limit for all tenants" may be each one's.
				continue
			}
			for j := i + 1; j < len(ts) && j <= i+3; j++ {
				u := ts[j]
				if endsClause(s, ts[j-1]) {
					break // "all year round; every paddler"
				}
				if u.ignore || strings.HasPrefix(u.key, "@") || u.quant {
					continue
				}
				class := t.key
				if class == "@dist" && (sharing || sharedBy(s, ts, j)) {
					class = "@coll" // "every instance shares it"
				}
				if old, ok := m[u.key]; ok && old.class != class && old.at != j {
					both[u.key] = true // "across its members … any member"
				}
				if old, ok := m[u.key]; !ok || class == "@coll" && old.class != "@coll" {
					m[u.key] = mark{class, strings.TrimRight(s[t.start:u.end], ".,;:"), j}
				}
				break
			}
		}
		return m
	}
	ma, mb := marked(filed, ta), marked(position, tb)
	for _, k := range slices.Sorted(maps.Keys(ma)) {
		if x, y := ma[k], mb[k]; y.class != "" && x.class != y.class && !both[k] {
			return []string{x.text + " → " + y.text}
		}
	}
	return nil
}

// spanWords are the words of the collective class that say all of one
// thing ("the whole event", "the entire session", "all day"), not a sum
// across many.
var spanWords = wordSet("whole entire full all throughout")

// countedOver reports whether the "every" or "all" of token i follows a
// word that counts what it names, in the word before it (or the two of
// "counted over"): "counting every clinic", "summed over all sites" sum
// across them, as "across all clinics" does.
func countedOver(s string, ts []surfaceTok, i int) bool {
	if i == 0 || endsClause(s, ts[i-1]) || !quantifierWord(s, ts[i]) {
		return false
	}
	switch w := surfaceWord(s, ts[i-1]); {
	case countWords()[w]:
		return true
	case w == "over" && i >= 2 && !endsClause(s, ts[i-2]):
		return countWords()[surfaceWord(s, ts[i-2])] // "counted over every clinic", not "looks them all over every Friday"
	}
	return false
}

// coveredBy reports whether the "every" or "all" of token i follows a
// word that says what a thing covers: "covering every row", "coverage:
// every area". It names what is included, counted neither per thing nor
// across them, so it matches "across every row" and "every area" alike.
func coveredBy(s string, ts []surfaceTok, i int) bool {
	if i == 0 || !quantifierWord(s, ts[i]) {
		return false
	}
	switch surfaceWord(s, ts[i-1]) {
	case "cover", "covers", "covered", "covering", "coverage", "spanning", "spans", "span":
		return true
	}
	return false
}

// quantifierWord reports whether t is the word "every" or "all".
func quantifierWord(s string, t surfaceTok) bool {
	w := surfaceWord(s, t)
	return w == "every" || w == "all"
}

// countWords count what follows them: "counting every clinic".
var countWords = wordSet("counting counted count counts summed summing totalled totaled totalling totaling pooled")

// surfaceWord is the word of s that t stands for, in lower case, without
// the punctuation around it.
func surfaceWord(s string, t surfaceTok) string {
	return strings.ToLower(strings.Trim(s[t.start:t.end], ".,;:!?()\"'"))
}

// sharedBy reports whether the thing of token j is said to share what it
// counts, in the two words after it: "every instance shares it", "each
// replica sharing one bucket".
func sharedBy(s string, ts []surfaceTok, j int) bool {
	for k := j + 1; k < len(ts) && k <= j+2; k++ {
		if endsClause(s, ts[k-1]) {
			return false // "inside each test; shared fixtures are not allowed"
		}
		switch surfaceWord(s, ts[k]) {
		case "share", "shares", "shared", "sharing":
			return true
		}
	}
	return false
}

// endsClause reports whether the word of t ends a clause: a comma,
// semicolon, colon or full stop after it.
func endsClause(s string, t surfaceTok) bool {
	return strings.ContainsAny(s[t.start:t.end], ",;:.!?") || t.end < len(s) && strings.IndexByte(",;:.!?", s[t.end]) >= 0
}

// sharedAmong reports whether the word of token i is said to be shared
// among in the two words before it: "shared by all teams", "sharing
// between every replica".
func sharedAmong(s string, ts []surfaceTok, i int) bool {
	for k := i - 1; k >= 0 && k >= i-2; k-- {
		if endsClause(s, ts[k]) {
			return false
		}
		switch surfaceWord(s, ts[k]) {
		case "shared", "sharing": // not "a share of each"
			return true
		}
	}
	return false
}

// compareOnlyAny finds a thing one side restricts with "only" and the
// other opens to "any": "only with food bought at the kiosk" against
// "with any food". Both sides may say "only" of other things.
func compareOnlyAny(a, b *side) []string {
	marks := func(s *side) (only, anyOf map[string]string) {
		only, anyOf = map[string]string{}, map[string]string{}
		ts := s.toks
		for i, t := range ts {
			// "any push", "every push", "each push": all of them.
			isAny := t.key == "@dist" && t.end <= len(s.text) && t.start < t.end && slices.ContainsFunc([]string{"any", "every", "each"}, func(w string) bool { return strings.EqualFold(s.text[t.start:t.end], w) })
			if t.key != "@only" && !isAny {
				continue
			}
			for j := i + 1; j < len(ts) && j <= i+3; j++ {
				u := ts[j]
				if isAny && endsClause(s.text, ts[j-1]) || strings.ContainsAny(s.text[min(ts[j-1].end, u.start):u.start], "│|") {
					break // "every week; customers", "only │ Defects"
				}
				if !isAny && u.key == "@dist" {
					break // "only when all worksites": not some of them
				}
				if u.ignore || strings.HasPrefix(u.key, "@") || u.quant {
					continue
				}
				if isAny {
					anyOf[u.key] = strings.TrimRight(s.text[t.start:u.end], ".,;:")
				} else if _, ok := only[u.key]; !ok {
					only[u.key] = strings.TrimRight(s.text[t.start:u.end], ".,;:")
				}
				break
			}
		}
		return only, anyOf
	}
	oa, aa := marks(a)
	ob, ab := marks(b)
	for _, k := range slices.Sorted(maps.Keys(oa)) {
		if y, ok := ab[k]; ok && ob[k] == "" && aa[k] == "" {
			return []string{oa[k] + " → " + y}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ob)) {
		if x, ok := aa[k]; ok && oa[k] == "" && ab[k] == "" {
			return []string{x + " → " + ob[k]}
		}
	}
	return nil
}

// side is one text of a comparison, read once: its surface tokens and
// its names.
type side struct {
	text  string
	toks  []surfaceTok
	names []name
}

// unlessOnly reads "no … unless" as "only if" (surfaceTokensOpt): right
// when the other side restricts with "only" (analysis.only).
func newSide(text string, unlessOnly bool) *side {
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed]
	}
	return &side{text: text, toks: surfaceTokensOpt(text, unlessOnly), names: names(text)}
}

// segments cuts a text into the parts that bind a thing to what is said
// of it: clauses, and the halves of "x for a and y for b". An "and"
// between two names ("VoiceOver and NVDA") lists them and cuts nothing.
// Each segment is the set of its folded words; things are the names and
// numbers among them, with how they were written.
func segments(x *side) (segs []map[string]bool, things map[string]string) {
	things = map[string]string{} // folded word → the name or number it is part of
	for _, n := range x.names {
		for _, w := range n.words {
			things[w] = n.text
		}
	}
	cur := map[string]bool{}
	flush := func() {
		if len(cur) > 0 {
			segs = append(segs, cur)
		}
		cur = map[string]bool{}
	}
	text := x.text
	for i, t := range x.toks {
		if t.start < 0 || t.end > len(text) || t.start > t.end {
			continue
		}
		switch strings.ToLower(text[t.start:t.end]) {
		case "and", "but", "while", "whereas":
			var prev, next string
			if i > 0 {
				prev = x.toks[i-1].key
			}
			if i+1 < len(x.toks) {
				next = x.toks[i+1].key
			}
			if things[prev] == "" || things[next] == "" {
				flush()
			}
			continue
		}
		if v, ok := numberWords()[surfaceWord(text, t)]; ok && t.quant && v >= 2 && v == math.Trunc(v) {
			// "two streams" binds as "2 streams" does; not "one", which
			// as often counts nothing ("the one on the left").
			t.key = strconv.Itoa(int(v))
		}
		if t.key != "" && !t.ignore && !strings.HasPrefix(t.key, "@") && (!t.quant || isDigit(t.key[0])) {
			if t.quant && things[t.key] == "" {
				things[t.key] = t.key
			}
			cur[t.key] = true
		}
		last := i+1 == len(x.toks) || x.toks[i+1].start != t.start
		if last && t.end < len(text) && (strings.IndexByte(",;:!?", text[t.end]) >= 0 || text[t.end] == '.' && (t.end+1 == len(text) || text[t.end+1] == ' ')) {
			flush()
		}
	}
	flush()
	return segs, things
}

// compareBindings finds two things that traded what is said of them in
// other words: "Inter for body text and Playfair Display for headings"
// against "headings in Inter, body text in Playfair Display".
func compareBindings(a, b *side) []string {
	filed := a.text
	sa, thA := segments(a)
	sb, thB := segments(b)
	if len(sa) < 2 || len(sb) < 2 {
		return nil
	}
	// where is the one segment holding w, or -1.
	where := func(segs []map[string]bool, w string) int {
		at := -1
		for i, s := range segs {
			if s[w] {
				if at >= 0 {
					return -1
				}
				at = i
			}
		}
		return at
	}
	var xs []string
	for w := range thA {
		if thB[w] != "" && where(sa, w) >= 0 && where(sb, w) >= 0 {
			xs = append(xs, w)
		}
	}
	// In the filed position's order, for naming them.
	slices.Sort(xs)
	slices.SortStableFunc(xs, func(x, y string) int { return strings.Index(filed, thA[x]) - strings.Index(filed, thA[y]) })
	for i, x1 := range xs {
		for _, x2 := range xs[i+1:] {
			a1, a2, b1, b2 := where(sa, x1), where(sa, x2), where(sb, x1), where(sb, x2)
			if a1 == a2 || b1 == b2 || thA[x1] == thA[x2] {
				continue
			}
			// A word said with x1 on the filed side and with x2 on the
			// other, and one the other way round.
			// A number moved between two names, or a name between two
			// numbers, is a word said of them: "Standard at most 2 and
			// Premium at most 4" against "Premium two and Standard four".
			said := func(w string) bool {
				if thA[w] == "" && thB[w] == "" {
					return true
				}
				return thA[w] != "" && isDigit(w[0]) != isDigit(x1[0]) && isDigit(x1[0]) == isDigit(x2[0])
			}
			moved := func(from, to map[string]bool, other1, other2 map[string]bool) bool {
				for w := range from {
					if said(w) && to[w] && !other1[w] && !other2[w] && where(sa, w) >= 0 && where(sb, w) >= 0 {
						return true
					}
				}
				return false
			}
			if moved(sa[a1], sb[b2], sa[a2], sb[b1]) && moved(sa[a2], sb[b1], sa[a1], sb[b2]) {
				return []string{thA[x1] + " ↔ " + thA[x2]}
			}
		}
	}
	return nil
}
