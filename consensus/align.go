package consensus

import (
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file tells a deliberate edit of a filed sentence from a rewording
// of it. Both texts are cut into surface tokens (every word, stop words
// included, in its stemmed and folded form) and aligned. When most of both
// sides align, the new position is the filed sentence edited, and every
// change left outside the alignment changes the rule ("half-to-even" →
// "half-up", "per legal entity" → "across all legal entities"), unless it
// only swaps a function word for another of its class ("not" and "rather
// than") or drops a word that carries nothing ("a", "please"). When little
// aligns, the position is reworded, and its ordinary words decide nothing:
// only the parts that carry meaning do (numbers, negation, options,
// conditions, scope, modality, order).

// surfaceTok is one word of a text as written, with where it stands.
type surfaceTok struct {
	key        string // folded form, or the class of a function word ("@neg")
	start, end int    // byte offsets of the whitespace-delimited word holding it
	ignore     bool   // carries nothing in an edit: articles, stop words
	quant      bool   // a number or a unit: aligned, but compared by compareQuantities
}

// maxSurface bounds the tokens aligned: alignment is quadratic.
const maxSurface = 160

// editShare is the share of the longer side's tokens that must align for
// the position to be an edit of the filed sentence.
const editShare = 0.75

// functionClasses are the function words whose swap for another of the
// same class rewords the rule ("per" and "each", "any day" and "a given
// day", "not" and "rather than"), and whose swap for one of another
// class, or whose loss, changes it ("per" → "across all"). The other
// stop words carry nothing in an edit, but for keptStop. Written before
// stemming; two-word entries are read before one-word ones.
var functionClasses = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"not": "@neg", "no": "@neg", "non": "@neg", "never": "@neg", "missing": "@neg", "lacking": "@neg", "without": "@neg", "nor": "@neg", "none": "@neg", "cannot": "@neg",
		"nobody": "@neg", "nothing": "@neg", "nowhere": "@neg", "neither": "@neg", "rather than": "@neg", "instead of": "@neg",
		"ban": "@neg", "bans": "@neg", "banned": "@neg", "forbid": "@neg", "forbids": "@neg", "forbidden": "@neg", "prohibit": "@neg",
		"prohibits": "@neg", "prohibited": "@neg", "disallow": "@neg", "disallowed": "@neg",
		"unable to": "@neg", "not able to": "@neg", "fail to": "@neg", "fails to": "@neg", "failed to": "@neg", "blocked from": "@neg", "barred from": "@neg", "prevented from": "@neg", "precluded from": "@neg",
		"suspended from": "@neg", "excluded from": "@neg", "disqualified from": "@neg", "debarred from": "@neg",
		"per": "@dist", "each": "@dist", "every": "@dist", "all": "@dist", "any": "@dist", "a piece": "@dist", "a given": "@dist", "any given": "@dist", "always": "@dist",
		"everything": "@dist", "everyone": "@dist", "everybody": "@dist", "at all times": "@dist",
		"across": "@coll", "whole": "@coll", "entire": "@coll", "global": "@coll", "overall": "@coll", "combined": "@coll", "in total": "@coll",
		"away from": "@away", "leave": "@away", "leaves": "@away", "leaving": "@away",
		"only": "@only", "solely": "@only", "exclusively": "@only",
		"must": "@must", "shall": "@must", "required": "@must", "mandatory": "@must", "has to": "@must", "have to": "@must", "needs to": "@must", "need to": "@must",
		"should": "@should", "may": "@may", "can": "@may", "might": "@may", "optional": "@may", "allowed": "@may", "allow": "@may", "allows": "@may", "permitted": "@may",
		"if": "@if", "when": "@if", "whenever": "@if", "while": "@if", "once": "@if", "as long as": "@if", "provided": "@if",
		"unless": "@unless", "except": "@unless", "save where": "@unless", "save when": "@unless", "save if": "@unless", "save that": "@unless", "excluding": "@unless", "excepted": "@unless", "exempt": "@unless", "the exception": "@unless", "an exception": "@unless", "apart from": "@unless", "not including": "@unless", "excluded": "@unless", "exclude": "@unless", "excludes": "@unless", "by default": "@unless",
		"above": "@above", "over": "@above", "beyond": "@above", "exceed": "@above", "exceeds": "@above", "exceeding": "@above", "exceeded": "@above", "in excess of": "@above", "older than": "@above", "younger than": "@below", "below": "@below", "under": "@below",
		"more than": "@above", "greater than": "@above", "larger than": "@above", "less than": "@below", "fewer than": "@below", "smaller than": "@below",
		"at least": "@least", "minimum": "@least", "or more": "@least", "or later": "@least", "and later": "@least",
		"or newer": "@least", "and newer": "@least", "or above": "@least", "and above": "@least", "or higher": "@least", "or better": "@least",
		"or longer": "@least", "or older": "@least", "or greater": "@least", "no less than": "@least", "not less than": "@least",
		"at most": "@most", "maximum": "@most", "max": "@most", "up to": "@most", "or less": "@most", "or fewer": "@most", "or below": "@most",
		"or lower": "@most", "or earlier": "@most", "or shorter": "@most", "or younger": "@most", "or smaller": "@most", "no more than": "@most", "not more than": "@most",
		"no longer than": "@most", "not longer than": "@most", "no later than": "@most", "not later than": "@most", "no higher than": "@most",
		"not higher than": "@most", "no greater than": "@most", "not greater than": "@most", "no larger than": "@most", "no bigger than": "@most",
		"not exceeding": "@most", "not to exceed": "@most", "capped at": "@most", "limited to": "@most", "no lower than": "@least", "not lower than": "@least", "no shorter than": "@least", "no fewer than": "@least",
		"not fewer than": "@least", "no earlier than": "@least", "no sooner than": "@least", "not before": "@least", "not after": "@most", "no smaller than": "@least", "no younger than": "@least",
		"no older than": "@most", "not older than": "@most", "exempt from": "@neg",
		"included": "@incl", "including": "@incl", "too": "@incl", "even": "@incl", "as well": "@incl",
	}
})

// notCountingBefore reports whether "not counting" after prev (joined:
// no mark stands between them) and before next leaves next out: not
// after a form of "be", "keep" or "stop" ("the meter is not counting
// steps"), nor before "on", "towards", "to", "as", "down" or "up" ("not
// counting towards the limit").
func notCountingBefore(prev string, joined bool, next string) bool {
	if joined {
		switch prev {
		case "is", "are", "was", "were", "be", "been", "being", "keep", "keeps", "kept", "stop", "stops", "stopped", "am", "but":
			return false // "is counting entries but not counting exits"
		}
	}
	switch next {
	case "on", "towards", "toward", "to", "as", "down", "up":
		return false
	}
	return true
}

// wholeSpans are the stretches of time that "all" before them spans
// whole: "all day" is the whole day, not every day.
var wholeSpans = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"day": true, "night": true, "week": true, "weekend": true, "month": true, "year": true, "season": true,
		"term": true, "summer": true, "winter": true, "spring": true, "autumn": true, "morning": true, "afternoon": true, "evening": true}
})

// wholeEvents are the things that last a while which "all the" spans as
// "the whole" does: "all the film", "all the session".
var wholeEvents = wordSet("film show session match game shift event journey trip visit performance lesson class meeting service ride flight stay concert race")

// spanAlone reports whether the stretch of time ws[k], after the word
// before it, ends its phrase: nothing but spaces before it, and after it
// the end of the text, a mark, "round" or a word that names nothing ("all
// day on Saturdays", "all year.", "all week for the clean"), not a thing
// of that stretch ("all summer interns").
func spanAlone(text string, ws []word, k int) bool {
	if k == 0 || strings.TrimSpace(text[min(ws[k-1].end, ws[k].start):ws[k].start]) != "" {
		return false
	}
	if k+1 == len(ws) || strings.TrimSpace(text[min(ws[k].end, ws[k+1].start):ws[k+1].start]) != "" || ws[k].end > ws[k+1].start {
		return true
	}
	next := ws[k+1].low
	_, class := functionClasses()[next]
	return next == "round" || class || theLexicon().stopWord[next]
}

// untilNegations are the negations that "until" turns into "only
// after" in an edit: "nothing ships until", "do not deploy until".
var untilNegations = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"no": true, "not": true, "never": true, "nothing": true, "nobody": true, "none": true, "cannot": true}
})

// phraseStarts are the first words of the phrases of functionClasses.
var phraseStarts = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for p := range functionClasses() {
		if first, _, ok := strings.Cut(p, " "); ok {
			m[first] = true
		}
	}
	return m
})

// exceptAfterNot reports whether w is a condition word that "not" or
// "never" right before it turns into an exception: "but not if", "and
// never when".
func exceptAfterNot(w string) bool {
	switch w {
	case "if", "when", "whenever", "while", "during":
		return true
	}
	return false
}

// keptStop are stop words that an edit changes the rule with: "half-up"
// is not "half-down", "first" not "last".
var keptStop = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"up": true, "down": true, "off": true, "out": true, "before": true, "after": true, "first": true,
		"last": true, "same": true, "other": true, "again": true, "both": true, "either": true}
})

// word is a word of a text as surfaceTokens reads it, lower case.
type word struct {
	low        string
	start, end int
	slash      bool // a slash before it: "requests/min"
}

// surfaceTokens cuts text into words (letters and digits; a hyphen, a dot
// or an apostrophe splits), each with the span of the whitespace-delimited
// word that holds it, for naming a change as it was written.
func surfaceTokens(text string) []surfaceTok { return surfaceTokensOpt(text, true) }

// slashWith reads note-taking's "w/o" and "w/out" (without) and "w/"
// (with) at text[i:], as analyze does: the word and its length, or 0.
func slashWith(text string, i int) (string, int) {
	if i+2 > len(text) || text[i] != 'w' && text[i] != 'W' || text[i+1] != '/' || i > 0 && isLetterByte(text[i-1]) {
		return "", 0
	}
	rest := strings.ToLower(text[i+2 : min(len(text), i+6)])
	for _, f := range [...]struct {
		tail, word string
	}{{"out", "without"}, {"o", "without"}, {"", "with"}} {
		n := 2 + len(f.tail)
		if strings.HasPrefix(rest, f.tail) && (i+n == len(text) || !isLetterByte(text[i+n]) && text[i+n] != '/') {
			return f.word, n
		}
	}
	return "", 0
}

// surfaceTokensOpt is surfaceTokens; unlessOnly reads "no … unless" as
// "only if", which is right only against a side that says "only": against
// any other wording it makes an edit of what was none ("No loans above
// £5,000 are approved unless a manager signs" against "Loans above £5,000
// need a manager's signature").
func surfaceTokensOpt(text string, unlessOnly bool) []surfaceTok {
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed]
	}
	var ws []word
	wordStart := 0
	slash := false
	for i := 0; i < len(text) && len(ws) < 2*maxSurface; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			i += size
			wordStart = i
			continue
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if w, n := signWord(text, i); w != "" {
				// "± 2%", "+/- 2%", "the fee + 20%": the words they say.
				ws = append(ws, word{low: w, start: i, end: i + n})
				i += n
				wordStart = i
				continue
			}
			if b := symbolBound(text, i, r, size); b != "" {
				// ">10%", "<5 kg", "21+": the bound a comparison word says.
				at := len(ws)
				if r == '+' {
					at-- // before its number, as "at least 21" says it
				}
				end := i + size
				for end < len(text) {
					r, n := utf8.DecodeRuneInString(text[end:])
					if unicode.IsSpace(r) || strings.ContainsRune(",;:!?()[]\"", r) {
						break
					}
					end += n
				}
				ws = slices.Insert(ws, at, word{low: b, start: wordStart, end: end})
			}
			slash = r == '/'
			i += size
			continue
		}
		if w, n := slashWith(text, i); n > 0 {
			ws = append(ws, word{low: w, start: i, end: i + n})
			i += n
			wordStart = i
			continue
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !(r == '.' && j > i && j+1 < len(text) && isDigit(text[j-1]) && isDigit(text[j+1])) {
				break
			}
			j += size
		}
		end := j
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if unicode.IsSpace(r) || strings.ContainsRune(",;:!?()[]\"", r) || r == '.' && (end+size == len(text) || text[end+size] == ' ') {
				break
			}
			end += size
		}
		w := text[i:j]
		if !isASCII(w) {
			w = stripMarks(w)
		}
		low := strings.ToLower(w)
		if low == "no" && numberAbbrev(text[j:min(j+4, len(text))]) {
			low = "number" // "greenhouse no. 3"
		}
		switch low {
		case "celsius", "centigrade":
			low = "c" // "2 degrees Celsius" is "2 °C" (the sign is no word)
		case "fahrenheit":
			low = "f"
		}
		if c := capitalName(w, len(ws) > 0 && isDigit(ws[len(ws)-1].low[0])); c != "" {
			low = strings.ToLower(c) // "IT", "HR": a name, not "it" or hours
		}
		if w != "" {
			ws = append(ws, word{low: low, start: wordStart, end: end, slash: slash})
		}
		slash = false
		i = j
	}
	// "plus or minus 2%" is one tolerance, as "± 2%" says it (signWord).
	for i := 0; i+2 < len(ws); i++ {
		if ws[i].low == "plus" && ws[i+1].low == "or" && ws[i+2].low == "minus" {
			ws[i].low, ws[i].end = "plusminus", ws[i+2].end
			ws = slices.Delete(ws, i+1, i+3)
		}
	}
	// "e-mail" is "email".
	for i := 0; i+1 < len(ws); i++ {
		if ws[i].low == "e" && ws[i+1].low == "mail" && ws[i].start == ws[i+1].start {
			ws[i].low = "email"
			ws = slices.Delete(ws, i+1, i+2)
		}
	}
	// "a couple of layers", "a pair of interpreters": two of them
	// (pairOf).
	for i := 0; i+3 < len(ws); i++ {
		var next []string
		for k := i + 3; k < len(ws) && k < i+6; k++ {
			next = append(next, ws[k].low)
		}
		if twoOf(ws[i].low, ws[i+1].low, ws[i+2].low, next) && !isDigit(ws[i+3].low[0]) {
			ws[i+1].low, ws[i+1].start = "two", ws[i].start
			ws = slices.Delete(slices.Delete(ws, i+2, i+3), i, i+1)
		}
	}
	// "off by default", "on by default": disabled or enabled by default,
	// as analyze reads them (defaultState). Not "default on a loan".
	for i := 0; i+2 < len(ws); i++ {
		if state := defaultState(ws[i].low); state != "" && ws[i+1].low == "by" && ws[i+2].low == "default" {
			ws[i].low = state
		}
	}
	// "nobody but the duty nurse", "no one except members": only them
	// (symbols).
	for i := 0; i+1 < len(ws); i++ {
		if n := exclusiveAt(ws, i); n > 0 {
			ws[i].low, ws[i].end = "only", ws[i+n-1].end
			ws = slices.Delete(ws, i+1, i+n)
		}
	}
	// "all day", "all year (round)", "throughout the session": the whole
	// of one stretch of time, as "the whole day" says it. Not "all days"
	// (every day), nor a stretch that names a kind of thing ("all season
	// tickets", "all day passes": every one of them), nor "them all. Day
	// staff …".
	for i := 0; i < len(ws); i++ {
		switch {
		case ws[i].low == "throughout" && !(i+2 < len(ws) && ws[i+1].low == "the" && (ws[i+2].low == "first" || ws[i+2].low == "last")):
			ws[i].low = "whole" // not "throughout the first hour": for the first hour
		case ws[i].low == "all" && i+1 < len(ws) && wholeSpans()[ws[i+1].low] && spanAlone(text, ws, i+1):
			ws[i].low = "whole"
		case ws[i].low == "all" && wordLow(ws, i+1) == "the" && i+2 < len(ws) && (wholeSpans()[ws[i+2].low] || wholeEvents()[ws[i+2].low]) && spanAlone(text, ws, i+2):
			ws[i].low = "whole" // "all the film" is the whole film
		case ws[i].low == "round" && i > 0 && ws[i-1].low == "year" && strings.Trim(text[min(ws[i-1].end, ws[i].start):ws[i].start], " -") == "":
			// "all year round"; "year-round" is the whole year too.
			if i < 2 || ws[i-2].low != "whole" && ws[i-2].low != "all" {
				ws[i].low, ws[i].start = "year", ws[i-1].start
				ws[i-1].low = "whole"
				continue
			}
			ws = slices.Delete(ws, i, i+1)
			i--
		}
	}
	// "inside 28 days", "in 3 days max", "in 2 working days at the
	// latest": within them; "in 14 days at the earliest": after them
	// (waitBound). "stored together with the chart" is "stored with the
	// chart"; "as well" is "also".
	for i := 0; i < len(ws); i++ {
		next := wordLow(ws, i+1)
		switch {
		case ws[i].low == "together" && (next == "with" || withBefore(ws, i)):
			ws = slices.Delete(ws, i, i+1)
			i--
		case ws[i].low == "as" && next == "well" && wordLow(ws, i+2) != "as":
			// "their birth certificate as well": also (not "as well as",
			// which lists).
			ws[i].low, ws[i].end = "also", ws[i+1].end
			ws = slices.Delete(ws, i+1, i+2)
		case ws[i].low == "inside" && numberAt(ws, i+1):
			ws[i].low = "within"
		case ws[i].low == "not" && (next == "optional" || next == "voluntary"):
			// "not optional" is "required", and "not required" or "not
			// mandatory" is "optional", as the comparison reads them
			// (optionalBoth).
			ws[i].low, ws[i].end = "required", ws[i+1].end
			ws = slices.Delete(ws, i+1, i+2)
		case ws[i].low == "not" && (next == "required" || next == "mandatory" || next == "compulsory" || next == "obligatory"):
			ws[i].low, ws[i].end = "optional", ws[i+1].end
			ws = slices.Delete(ws, i+1, i+2)
		case ws[i].low == "in" && numberAt(ws, i+1):
			for k := i + 3; k <= i+4 && k < len(ws); k++ {
				if wait, n := waitBound(func(j int) string { return wordLow(ws, k+j) }); n > 0 {
					ws[i].low = map[int8]string{waitWithin: "within", waitAfter: "after"}[wait]
					ws = slices.Delete(ws, k, k+n)
					break
				}
			}
		}
	}
	// "not needed when the lab collects them": except when it does, as
	// analyze reads it (notNeededBefore).
	for i := 0; i+2 < len(ws); i++ {
		if ws[i].low == "not" && (ws[i+2].low == "when" || ws[i+2].low == "if") && dutyWord(ws[i+1].low) {
			ws[i].low, ws[i].end = "except", ws[i+1].end
			ws = slices.Delete(ws, i+1, i+2)
		}
	}
	// "the only way out is if they have a certificate": unless they have
	// one, as analyze reads it (exceptionCues).
	for i := 0; i+4 < len(ws); i++ {
		if ws[i].low != "only" || ws[i+1].low != "way" {
			continue
		}
		k := i + 2
		switch {
		case ws[k].low == "out":
			k++
		case (ws[k].low == "round" || ws[k].low == "around") && ws[k+1].low == "it":
			k += 2
		default:
			continue
		}
		if k+1 < len(ws) && ws[k].low == "is" && (ws[k+1].low == "if" || ws[k+1].low == "when" || ws[k+1].low == "to") {
			ws[i].low, ws[i].end = "unless", ws[k+1].end
			ws = slices.Delete(ws, i+1, k+2)
		}
	}
	// "unless the customer paid for storage, in which case (then) we keep
	// it 30 days": the case and its own outcome, as "if the customer paid
	// for storage, we keep it 30 days" says it (caseOutcome).
	for i := 0; i < len(ws); i++ {
		if ws[i].low != "unless" && ws[i].low != "except" {
			continue
		}
		for k := i + 1; k < len(ws); k++ {
			gap := text[min(ws[k-1].end, ws[k].start):ws[k].start]
			if strings.ContainsAny(gap, ".;!?") {
				break
			}
			if n := outcomeWords(ws, k); n == 3 {
				ws[i].low = "if"
				break
			} else if n > 0 && strings.Contains(gap, ",") {
				ws[i].low = "if"
				ws = slices.Delete(ws, k, k+n)
				break
			}
		}
	}
	// "on request", "upon request": if asked where they end their phrase,
	// as analyze reads them (onRequest).
	for i := 0; i+1 < len(ws); i++ {
		if (ws[i].low == "on" || ws[i].low == "upon") && ws[i+1].low == "request" &&
			(i+2 == len(ws) || strings.TrimSpace(text[min(ws[i+1].end, ws[i+2].start):ws[i+2].start]) != "" || isDigit(ws[i+2].low[0]) || endsBefore(ws[i+2].low)) {
			ws[i].low, ws[i+1].low = "if", "asked"
		}
	}
	// "deferred from donating", "a deferral from donating": barred from
	// it (deferralBars, as analyze reads them).
	for i := 0; i+2 < len(ws); i++ {
		if ws[i+1].low != "from" {
			continue
		}
		moved := false
		for j := i + 3; j < len(ws) && j < i+6 && strings.TrimSpace(text[min(ws[j-1].end, ws[j].start):ws[j].start]) == ""; j++ {
			moved = moved || ws[j].low == "to"
		}
		if deferralBars(ws[i].low, ws[i+2].low, moved) {
			ws[i].low = "barred"
		}
	}
	// "…, save for tenants with an exemption", "…, save on the school
	// run": an exception, as analyze reads it (saveExcept); "not
	// counting" is "excluding".
	gapBefore := func(k int) string { return strings.TrimSpace(text[min(ws[k-1].end, ws[k].start):ws[k].start]) }
	for i := 1; i+1 < len(ws); i++ {
		switch {
		case ws[i].low == "save" && gapBefore(i) != "" && !strings.Contains(gapBefore(i), ":") && saveExceptNext(ws[i+1].low) &&
			(i+2 == len(ws) || gapBefore(i+2) != "" || !saveVerbNext(ws[i+1].low, ws[i+2].low)):
			ws[i].low = "except"
		case ws[i].low == "not" && ws[i+1].low == "counting" && i+2 < len(ws) && gapBefore(i+2) == "" && notCountingBefore(ws[i-1].low, gapBefore(i) == "", ws[i+2].low):
			ws[i].low, ws[i].end = "excluding", ws[i+1].end
			ws = slices.Delete(ws, i+1, i+2)
		}
	}
	// "missing from the list", "absent from school": not on it, not in it
	// (symbols).
	for i := 0; i+1 < len(ws); i++ {
		if (ws[i].low == "missing" || ws[i].low == "absent") && ws[i+1].low == "from" {
			ws[i].low, ws[i+1].low = "not", "on"
		}
	}
	// "dont", "doesnt": the same, written without the apostrophe.
	for i := 0; i < len(ws); i++ {
		if v, ok := bareNegations()[ws[i].low]; ok && !(v == "will" && wontNoun(wordLow(ws, i-1), wordLow(ws, i+1))) {
			not := ws[i]
			not.low, ws[i].low = "not", v
			ws = slices.Insert(ws, i+1, not)
			i++
		}
	}
	// "don't", "can't": the verb and a negation.
	for i := 1; i < len(ws); i++ {
		if ws[i].low == "t" && ws[i-1].start == ws[i].start && strings.HasSuffix(ws[i-1].low, "n") &&
			(strings.Contains(text[ws[i].start:ws[i].end], "n't") || strings.Contains(text[ws[i].start:ws[i].end], "n’t") || strings.Contains(text[ws[i].start:ws[i].end], "N'T")) {
			ws[i].low = "not"
			switch v := ws[i-1].low; v {
			case "can":
			case "won":
				ws[i-1].low = "will"
			case "shan":
				ws[i-1].low = "shall"
			default:
				if len(v) > 1 {
					ws[i-1].low = strings.TrimSuffix(v, "n")
				}
			}
		}
	}
	// "never price items or open the till": the negation carried over
	// "or" to the verb after it (a word before a determiner), as analyze
	// reads it (negatedAlternatives).
	// Not past a verb of the rule after the negation ("who cannot attend
	// should email … or call …"), nor past the comma that closes a
	// condition ("If you can't come, email … or call …"); not before a
	// preposition ("not on the verge or on the path").
	negated, inCond := false, false
	for i := 0; i < len(ws); i++ {
		if i > 0 && strings.ContainsAny(gapBefore(i), ".;:!?") {
			negated, inCond = false, false
		}
		if i > 0 && inCond && strings.Contains(gapBefore(i), ",") {
			negated, inCond = false, false
		}
		switch w := ws[i].low; {
		case w == "not" || w == "never" || w == "cannot":
			negated = true
		case carryCondCues()[w]:
			inCond = true
		case negated && modalWords()[w]:
			negated = false
		case w == "or" && negated && i+2 < len(ws) && nounOpeners()[ws[i+2].low] && ws[i+1].low != "not" && ws[i+1].low != "never" &&
			!stopwords()[ws[i+1].low] && !carryPrepositions()[ws[i+1].low]:
			not := ws[i]
			not.low = "not"
			ws = slices.Insert(ws, i+1, not)
			i++
		}
	}
	// "…; otherwise flag the pass" is "…; if not, flag the pass": the
	// rule said from its other side. Not "unless otherwise agreed".
	for u := 0; u+1 < len(ws); u++ {
		if ws[u].low != "otherwise" || otherwiseQualifies(ws[u+1].low) {
			continue
		}
		not := ws[u]
		ws[u].low, not.low = "if", "not"
		ws = slices.Insert(ws, u+1, not)
	}
	// "not allowed at all", "no dogs whatsoever", "cannot be claimed at
	// any time": the negation said with force, no other rule
	// (negationForce).
	for u := 1; u < len(ws); u++ {
		n := negationForce(func(j int) (string, bool) {
			if j < 0 || j >= len(ws) || strings.ContainsAny(text[min(ws[min(j, u)].end, ws[max(j, u)].start):ws[max(j, u)].start], ".;!?") {
				return "", false
			}
			return ws[j].low, true
		}, u)
		if n > 0 {
			ws = slices.Delete(ws, u, u+n)
			u--
		}
	}
	// "No visitor enters until they have signed": visitors enter only
	// after they have signed. The negation goes, "until" is "only after".
	// So is a "before" that a negation governs ("no reopening before a
	// patrol check", "samples are not discarded before the form is
	// signed"), though not the "before" of an amount of time ("not
	// within 2 hours before the flight") or of a clock time ("not
	// before 3 pm"), nor "not before" said as one ("but not before the
	// warden has checked", read as "only after" already).
	for u := 1; u < len(ws); u++ {
		if ws[u].low != "until" && (ws[u].low != "before" || timeUnit(ws[u-1].low) || isDigit(ws[u-1].low[0]) || numberWords()[ws[u-1].low] > 0) {
			continue
		}
		for j := u - 1; j >= 0 && j >= u-8 && !strings.ContainsAny(text[min(ws[j].end, ws[u].start):ws[u].start], ".;!?"); j-- {
			if untilNegations()[ws[j].low] && (ws[u].low != "before" || j < u-1 && (u+1 == len(ws) || !isDigit(ws[u+1].low[0]))) {
				only := ws[u]
				only.low, ws[u].low = "only", "after"
				ws = slices.Insert(slices.Delete(ws, j, j+1), u-1, only)
				// "No area may reopen until …" is "an area reopens only
				// after …": the permission went with the negation.
				for k := j; k < u-1; k++ {
					if ws[k].low == "may" || ws[k].low == "can" {
						ws = slices.Delete(ws, k, k+1)
						u--
						break
					}
				}
				break
			}
		}
	}
	// "No medicine is given unless there is a consent form": medicine is
	// given only if there is one. The negation goes, "unless" is "only
	// if", as analyze reads the rule (unlessLater).
	for u := 1; u < len(ws) && unlessOnly; u++ {
		if ws[u].low != "unless" {
			continue
		}
		for j := u - 1; j >= 0 && j >= u-8 && !strings.ContainsAny(text[min(ws[j].end, ws[u].start):ws[u].start], ".;!?"); j-- {
			if untilNegations()[ws[j].low] || ws[j].low == "don't" || ws[j].low == "doesn't" || ws[j].low == "won't" {
				only := ws[u]
				only.low, ws[u].low = "only", "if"
				ws = slices.Insert(slices.Delete(ws, j, j+1), u-1, only)
				break
			}
		}
	}
	// "no earlier than 24 hours before the trip" is no more than 24 hours
	// before it, "no later than 8 weeks before" no less than 8 weeks
	// before: the first or last moment, as analyze reads it.
	for u := 0; u+3 < len(ws); u++ {
		if (ws[u].low != "no" && ws[u].low != "not") || ws[u+2].low != "than" {
			continue
		}
		ahead := false
		for j := u + 3; j < len(ws) && j <= u+8 && !strings.ContainsAny(text[min(ws[j-1].end, ws[j].start):ws[j].start], ".;!?"); j++ {
			if aheadWord(ws[j].low) {
				ahead = true
				break
			}
		}
		switch {
		case !ahead:
		case ws[u+1].low == "earlier" || ws[u+1].low == "sooner":
			ws[u+1].low = "more"
		case ws[u+1].low == "later":
			ws[u+1].low = "less"
		}
	}
	// "until 24 hours before", "till 5 pm": the "up to" of a time; the
	// end of a range ("from 10 until 14", "Monday until Friday", "3 June
	// until 9 June") is its "to".
	for u := 0; u+1 < len(ws); u++ {
		if ws[u].low != "until" && ws[u].low != "till" {
			continue
		}
		switch {
		case u > 0 && (isDigit(ws[u-1].low[0]) || ws[u-1].low == "am" || ws[u-1].low == "pm" || weekdays()[strings.TrimSuffix(ws[u-1].low, "s")] || monthName(ws[u-1].low)):
			ws[u].low = "to"
		case isDigit(ws[u+1].low[0]):
			ws[u].low = "max"
		}
	}
	// "two novices for one leader", "1 euro for metre": per leader, per
	// metre (analyze reads them so too); not "valid for one year".
	for u := 1; u+1 < len(ws); u++ {
		if ws[u].low != "for" || !slices.ContainsFunc(ws[max(0, u-3):u], func(w word) bool { return isDigit(w.low[0]) || numberWords()[w.low] > 0 }) {
			continue
		}
		switch n := ws[u+1].low; {
		case (n == "one" || n == "1") && u+2 < len(ws) && !isDigit(ws[u+2].low[0]) && !timeUnit(ws[u+2].low):
			ws[u].low = "per"
			ws = slices.Delete(ws, u+1, u+2)
		case anyUnit(n) && !timeUnit(n):
			ws[u].low = "per"
		}
	}
	// "latest 4 pm", "by Friday at the latest": a deadline, as "by" says
	// it (analyze reads it so too).
	for u := 0; u < len(ws); u++ {
		if ws[u].low != "latest" {
			continue
		}
		if u >= 2 && ws[u-1].low == "the" && ws[u-2].low == "at" {
			ws = slices.Delete(ws, u-2, u+1)
			u -= 2
			continue
		}
		k := u + 1
		for k < len(ws) && k <= u+3 && (ws[k].low == "on" || ws[k].low == "at" || ws[k].low == "by" || ws[k].low == "the") {
			k++
		}
		if k < len(ws) && k <= u+3 && isDigit(ws[k].low[0]) {
			ws[u].low = "by"
		}
	}
	// "aged 60 and over" is "60 and above": at least 60.
	for u := 2; u < len(ws); u++ {
		if ws[u].low == "over" && (ws[u-1].low == "and" || ws[u-1].low == "or") && isDigit(ws[u-2].low[0]) && (u+1 == len(ws) || ws[u+1].low != "the" && ws[u+1].low != "a") {
			ws[u].low = "above"
		}
	}
	// "runs past four hours" is more than four hours, as analyze reads it
	// (pastBound); "the past 12 months" is not.
	for u := 1; u+1 < len(ws); u++ {
		if ws[u].low == "past" && pastVerbs()[ws[u-1].low] && (isDigit(ws[u+1].low[0]) || numberWords()[ws[u+1].low] > 0) {
			ws[u].low = "above"
		}
	}
	// "attend the full 18 hours" is "attend all 18 hours": the whole of
	// the number said, no bound and no other amount.
	for u := 0; u+1 < len(ws); u++ {
		if ws[u].low == "full" && (isDigit(ws[u+1].low[0]) || numberWords()[ws[u+1].low] > 0) {
			ws[u].low = "all"
		}
	}
	// "8 in the evening", "9 in morning": the "pm" or "am" of the hour.
	for u := 1; u+1 < len(ws); u++ {
		if !isDigit(ws[u-1].low[0]) || ws[u].low != "in" {
			continue
		}
		k := u + 1
		if ws[k].low == "the" && k+1 < len(ws) {
			k++
		}
		half := ""
		switch ws[k].low {
		case "morning":
			half = "am"
		case "afternoon", "evening":
			half = "pm"
		}
		if half != "" {
			ws[u] = word{low: half, start: ws[u].start, end: ws[k].end}
			ws = slices.Delete(ws, u+1, k+1)
		}
	}
	// "…, but not during the fete", "and never when it rains": the rule
	// left out under a condition, as "except during" leaves it out
	// (analyze reads it so too). Not a negation that opens its clause
	// ("Not while it is hot:", "…, never during a scene").
	for u := 1; u+1 < len(ws); u++ {
		if (ws[u].low == "not" || ws[u].low == "never") && exceptAfterNot(ws[u+1].low) && (ws[u-1].low == "but" || ws[u-1].low == "and" || ws[u-1].low == "yet") &&
			!strings.ContainsAny(text[min(ws[u-1].end, ws[u].start):ws[u].start], ",.;:!?") {
			ws[u].low = "except"
			if ws[u-1].low == "but" {
				ws = slices.Delete(ws, u-1, u) // "but except" says no more than "except"
			}
		}
	}
	// "No — nobody deploys": the answer to a question.
	if len(ws) > 1 && (ws[0].low == "no" || ws[0].low == "yes") && ws[0].end < len(text) && ws[1].start > ws[0].end && strings.TrimSpace(text[ws[0].end:ws[1].start]) != "" {
		ws = ws[1:]
	}
	lx := theLexicon()
	out := make([]surfaceTok, 0, len(ws))
	for i := 0; i < len(ws) && len(out) < maxSurface; i++ {
		w := ws[i]
		n := 1
		key := ""
		for k := 3; k >= 2 && key == "" && phraseStarts()[w.low]; k-- {
			if i+k <= len(ws) {
				parts := make([]string, k)
				for x := range parts {
					parts[x] = ws[i+x].low
				}
				if c, ok := functionClasses()[strings.Join(parts, " ")]; ok && !upToPlace(ws, i, k) {
					key, n = c, k
				}
			}
		}
		var t surfaceTok
		if w.low == "up" && i+1 < len(ws) && upToPlace(ws, i, 2) {
			continue // "goes up to the duty manager" goes to them
		}
		if (w.low == "right" || w.low == "immediately" || w.low == "directly" || w.low == "straight" || w.low == "just") && i+1 < len(ws) && (ws[i+1].low == "after" || ws[i+1].low == "before") {
			continue // "right after an error" is "immediately after" it
		}
		if w.low == "version" && i+1 < len(ws) && isDigit(ws[i+1].low[0]) {
			continue // "version 1.2.3" is "v1.2.3"
		}
		if w.low == "period" && (i > 0 && timeUnit(ws[i-1].low) || i+2 < len(ws) && ws[i+1].low == "of" && numberAt(ws, i+2)) ||
			w.low == "of" && i > 0 && ws[i-1].low == "period" && numberAt(ws, i+1) ||
			w.low == "any" && numberAt(ws, i+1) && i+2 < len(ws) && timeUnit(ws[i+2].low) {
			// "a 12-month period", "a period of 12 months", "any 12
			// months": 12 months, as analyze reads them.
			continue
		}
		if w.low == "advance" && i > 0 && ws[i-1].low == "in" {
			w.low = "beforehand" // "in advance", as the lexicon reads the phrase
		}
		if windowBack(ws, i) {
			// "during the previous 60 days" is "in the last 60 days", as
			// analyze reads it (lastPeriod).
			if w.low == "during" {
				continue
			}
			w.low = "last"
		}
		if len(w.low) > 1 && w.low[0] == 'v' && isDigit(w.low[1]) && strings.IndexFunc(w.low[1:], func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }) < 0 {
			w.low = w.low[1:]
		}
		if w.low == "only" && i+1 < len(ws) && upperBoundAt(func(k int) string {
			if i+1+k < len(ws) {
				return ws[i+1+k].low
			}
			return ""
		}) {
			continue // "only up to 15 minutes" is "up to 15 minutes"
		}
		if w.low == "second" && i > 0 && ws[i-1].low == "every" && i+1 < len(ws) && (dayParts()[ws[i+1].low] || weekdays()[strings.TrimSuffix(ws[i+1].low, "s")]) {
			w.low = "other" // "every second Sunday" is every other Sunday
		}
		if (w.low == "any" || w.low == "all") && i+1 < len(ws) && ws[i+1].low == "other" {
			continue // "any other language" is "other languages"
		}
		if (w.low == "time" || w.low == "timezone") && i > 0 && (ws[i-1].low == "local" || ws[i-1].low == "utc" || ws[i-1].low == "server") {
			continue // "18:00 local time" is "18:00 local"
		}
		if (w.low == "old" || w.low == "long") && i > 0 && isUnitWord(ws[i-1].low) && boundedAge(out) {
			continue // "at most 3 months old" is "no older than 3 months"
		}
		if (w.low == "degrees" || w.low == "degree" || w.low == "deg") && i+1 < len(ws) && (ws[i+1].low == "c" || ws[i+1].low == "f") {
			continue // "8 degrees C" is "8 °C"
		}
		if w.low == "minus" && i+1 < len(ws) && (isDigit(ws[i+1].low[0]) || numberWords()[ws[i+1].low] > 0) {
			continue // "minus 20" is the "-20" whose sign is no word
		}
		if w.low == "below" && i+1 < len(ws) && ws[i+1].low == "zero" && len(out) > 0 && (out[len(out)-1].quant || out[len(out)-1].key == "c" || out[len(out)-1].key == "f") {
			i++ // "20 °C below zero" is "-20 °C"
			continue
		}
		if w.low == "min" && i+1 < len(ws) && isDigit(ws[i+1].low[0]) && (i == 0 || !isDigit(ws[i-1].low[0])) {
			// "min 4 photos" is at least 4; "30 min" stays minutes.
			out = append(out, surfaceTok{key: "@least", start: w.start, end: w.end})
			continue
		}
		if w.low == "7" && w.slash && len(out) > 0 && out[len(out)-1].key == "24" {
			out[len(out)-1] = surfaceTok{key: "@dist", start: out[len(out)-1].start, end: w.end} // "24/7": always
			continue
		}
		if k := inOnePeriod(text, ws, i); k > 0 {
			// "48 hours in one week", "3 falls in a single day": per
			// week, per day, as analyze reads them.
			out = append(out, surfaceTok{key: "@dist", start: w.start, end: ws[i+k-1].end})
			i += k - 1
			continue
		}
		if (w.low == "plus" || (w.low == "x" || w.low == "×") && (i == 0 || !isDigit(ws[i-1].low[0]))) && i+1 < len(ws) && isDigit(ws[i+1].low[0]) {
			continue // "the rate plus 25%", "the price x 1.25": analyze reads what they say of the number
		}
		if relWords()[w.low] && (i > 0 && (strings.HasSuffix(text[ws[i-1].start:ws[i-1].end], "%") || ws[i-1].low == "percent") ||
			i+2 < len(ws) && ws[i+1].low == "of" && isDigit(ws[i+2].low[0]) && (strings.HasSuffix(text[ws[i+2].start:ws[i+2].end], "%") || i+3 < len(ws) && ws[i+3].low == "percent")) {
			// "20% off", "a 25% surcharge": what the share says of the
			// amount, read with the number (analyze's relation).
			out = append(out, surfaceTok{key: w.low, quant: true, start: w.start, end: w.end})
			continue
		}
		if (w.low == "a" || w.low == "an") && i+1 < len(ws) && (anyUnit(ws[i+1].low) || dayParts()[ws[i+1].low] && endsPhrase(text, ws, i+1)) &&
			(len(out) > 0 && out[len(out)-1].quant || i >= 2 && isDigit(ws[i-2].low[0]) && functionClasses()[ws[i-1].low] == "" ||
				measuredOf(text, ws, i) && (i+2 >= len(ws) || !slices.Contains(relativeWords, ws[i+2].low))) {
			// "30 days a year", "10 mites a day", "twice a night" are per
			// year, per day, per night.
			out = append(out, surfaceTok{key: "@dist", start: w.start, end: w.end})
			continue
		}
		if (w.low == "a" || w.low == "an") && priceEach(text, ws, i) {
			// "£3 a copy", "50 GBP a lot" are per copy, per lot.
			out = append(out, surfaceTok{key: "@dist", start: w.start, end: w.end})
			continue
		}
		if w.slash && (shortUnits()[w.low] != "" || isUnitWord(w.low) || w.low == "min") {
			// "60 requests/min" is per minute.
			out = append(out, surfaceTok{key: "@dist", start: w.start, end: w.end}, surfaceTok{key: lx.fold(stem(w.low)), quant: true, start: w.start, end: w.end})
			continue
		}
		if n == 1 && i > 0 && (ws[i-1].low == "every" || ws[i-1].low == "each" || ws[i-1].low == "per") && len(out) > 0 && out[len(out)-1].key == "@dist" && isUnitWord(w.low) {
			// "every week" is every 1 week: a value of its own, that
			// "every 4 weeks" may trade places with.
			out = append(out, surfaceTok{key: "1", quant: true, start: out[len(out)-1].start, end: w.end})
		}
		if (w.low == "degrees" || w.low == "degree") && len(out) > 0 && out[len(out)-1].quant {
			key = "c" // "3 degrees" alone is 3 °C, as the analysis reads it (degreesOf)
		}
		if key != "" {
			t = surfaceTok{key: key, start: w.start, end: ws[i+n-1].end}
		} else {
			t = surfaceKey(lx, w.low, w.start, w.end)
			if t.key == "confirm" && confirmsArrangement(func(j int) (string, bool) {
				if j < 0 || j >= len(ws) {
					return "", false
				}
				if from, to := ws[min(i, j)].end, ws[max(i, j)].start; from < to && strings.ContainsAny(text[from:to], ",;:.!?") {
					return "", false // another clause
				}
				return ws[j].low, true
			}, i) {
				t.key = "confirm_arrangement" // as analyze reads it
			}
			if (w.low == "times" || w.low == "time") && i > 0 && len(out) > 0 && out[len(out)-1].quant {
				t.quant = true // "3 times": a count
			}
		}
		out = append(out, t)
		i += n - 1
	}
	return out
}

// priceEach reports whether the "a" or "an" at ws[i] says "per" after a
// price: "£3 a copy at the door", "minimum 50 GBP a lot,", "£40 a room
// plus a deposit", "£40 for a room". The thing priced ends its phrase:
// not "at £5 a ticket is sold" (a price of what follows), nor a unit,
// which the caller reads.
func priceEach(text string, ws []word, i int) bool {
	if i == 0 || i+1 >= len(ws) || anyUnit(ws[i+1].low) || isUnitWord(ws[i+1].low) || ws[i+1].low == "" || isDigit(ws[i+1].low[0]) {
		return false
	}
	prev := ws[i-1]
	if prev.low == "for" && i >= 2 {
		prev = ws[i-2] // "£40 for a room"
	}
	if !moneyWord(prev.low) && !(isDigit(prev.low[0]) && strings.ContainsAny(text[prev.start:prev.end], "£$€¥")) {
		return false
	}
	// between is the text between two words; none within one word
	// ("5-a-side").
	between := func(x, y word) string { return text[min(x.end, y.start):y.start] }
	if theLexicon().stopWord[ws[i+1].low] || functionClasses()[ws[i+1].low] != "" || strings.ContainsAny(between(ws[i], ws[i+1]), ",;.:") {
		return false
	}
	return endsPhrase(text, ws, i+1)
}

// endsPhrase reports whether ws[j] ends its phrase: the text ends or
// breaks after it, or a preposition or conjunction follows ("£3 a copy
// at the door", "twice a night in winter"), not a noun it names the kind
// of ("a night nurse").
func endsPhrase(text string, ws []word, j int) bool {
	if j+1 >= len(ws) || strings.ContainsAny(text[min(ws[j].end, ws[j+1].start):ws[j+1].start], ",;.:!?)") {
		return true
	}
	return phraseEnders()[ws[j+1].low]
}

// phraseEnders are the words after which a phrase before them has ended.
var phraseEnders = wordSet("at for in on plus and or with from to by upon until if when unless except")

// windowBack reports whether ws[i] is "during" before a window counted
// back from now ("during the previous 60 days"), or the window's word of
// time past ("past 12 months", "preceding 3 weeks"; windowCountedBack).
func windowBack(ws []word, i int) bool {
	from := i
	switch ws[i].low {
	case "during":
		from = i + 1
	case "previous", "past", "preceding":
	default:
		return false
	}
	return windowCountedBack(func(k int) string { return wordLow(ws, from+k) })
}

// openCloseKeys are "open" and "close" as the lexicon folds them.
var openCloseKeys = sync.OnceValues(func() (string, string) {
	lx := theLexicon()
	return lx.fold(stem("open")), lx.fold(stem("close"))
})

// exclusiveAt is how many words at ws[i] say "only" as a negation with
// an exception (exclusives: "nobody but", "no one except"; "no-one" is
// two words here), 0 when they do not.
func exclusiveAt(ws []word, i int) int {
	for _, p := range exclusiveWords() {
		if i+len(p) <= len(ws) && slices.EqualFunc(ws[i:i+len(p)], p, func(w word, low string) bool { return w.low == low }) {
			return len(p)
		}
	}
	return 0
}

// exclusiveWords are exclusives cut into words.
var exclusiveWords = sync.OnceValue(func() [][]string {
	out := make([][]string, len(exclusives))
	for i, p := range exclusives {
		out[i] = strings.Fields(p)
	}
	return out
})

// closingEnd sets aside the "closes" of "opens at 6 am and closes at 10
// pm" when the other side (other) says no closing at a time: the end of
// a span of opening hours, what "open from 6 am to 10 pm" says with "to"
// (analyze's pairedOpposite). "closed from 8 pm to 8 am" says the same
// span from its other end, word for word; "closed on Mondays" is another
// rule. It returns ts, or a copy with the closing set aside.
func closingEnd(ts, other []surfaceTok) []surfaceTok {
	open, closes := openCloseKeys()
	// clockNext reports whether the next token that carries something
	// after ts[k] is a number.
	clockNext := func(ts []surfaceTok, k int) bool {
		for j := k + 1; j < len(ts) && j <= k+3; j++ {
			if ts[j].quant {
				return true
			}
			if !ts[j].ignore {
				return false
			}
		}
		return false
	}
	for k, t := range other {
		if t.key == closes && clockNext(other, k) {
			return ts
		}
	}
	n := 0
	for _, t := range ts {
		if t.key == closes {
			n++
		}
	}
	if n != 1 {
		return ts // two closings: "…, and closes at 1 on Fridays" is a rule of its own
	}
	for k, t := range ts {
		if t.key != closes || !clockNext(ts, k) {
			continue
		}
		for j := k - 1; j >= 0 && j >= k-8; j-- {
			if ts[j].key == open && clockNext(ts, j) {
				ts = slices.Clone(ts)
				ts[k].ignore = true
				break
			}
		}
	}
	return ts
}

// upperBoundAt reports whether the words from word(0) on open an upper
// bound ("up to", "under", "no more than"): an "only" before one adds
// nothing to it. word(k) is "" past the end.
func upperBoundAt(word func(k int) string) bool {
	parts := make([]string, 0, 3)
	for k := range 3 {
		w := word(k)
		if w == "" {
			break
		}
		parts = append(parts, w)
		if c := functionClasses()[strings.Join(parts, " ")]; c == "@most" || c == "@below" {
			return true
		}
	}
	return false
}

// signWord is the word a sign at text[i] says, and its length in bytes: a
// tolerance ("±", "+/-": "plusminus", as lex reads them and "plus or
// minus"), or a share more or less than the amount named before it ("the
// fee + 20%", "list -15%": "plus", "minus"; see signedShare). "" when it
// says none.
func signWord(text string, i int) (string, int) {
	switch {
	case strings.HasPrefix(text[i:], "±"):
		return "plusminus", len("±")
	case strings.HasPrefix(text[i:], "+/-"):
		return "plusminus", 3
	case text[i] != '+' && text[i] != '-' && !strings.HasPrefix(text[i:], "−"):
		return "", 0
	}
	// What signedShare needs at least, read in place: a digit next (one
	// space between at most), and a space before a minus. A hyphen inside
	// a word ("built-in") goes no further.
	_, n := utf8.DecodeRuneInString(text[i:])
	next := strings.TrimPrefix(text[i+n:], " ")
	if next == "" || !isDigit(next[0]) || text[i] != '+' && (i == 0 || text[i-1] != ' ') {
		return "", 0
	}
	from := max(0, i-24)
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	window := []rune(text[from:min(len(text), i+24)])
	at := utf8.RuneCountInString(text[from:i])
	if !signedShare(window, at) {
		return "", 0
	}
	if text[i] == '+' {
		return "plus", n
	}
	return "minus", n
}

// symbolBound is the comparison word the symbol r at text[i:i+size]
// stands for, or "": ">" and "<" right before a number are "over" and
// "under", and a "+" right after a whole number and before no digit is
// "at least" ("21+ days"). The non-strict signs before a number ("≥",
// "≤", ">=", "<=", and "≥ €50", "<= -18") are "minimum" and "maximum":
// they align with a bound in words, and where the other side says none
// they are left out (withoutSignBounds), "≥ 99%" being as often the "99%"
// a rule needs as its "at least 99%". Arrows ("->", "=>") and sums
// ("2+2") are none.
func symbolBound(text string, i int, r rune, size int) string {
	next := strings.TrimLeft(text[i+size:], " ")
	digitNext := next != "" && isDigit(next[0])
	if nonStrict, upper := nonStrictSign(text[i:]); nonStrict > 0 {
		after := strings.TrimLeft(text[i+nonStrict:], " ")
		for _, sign := range []string{"€", "$", "£", "-", "−"} {
			after = strings.TrimPrefix(after, sign) // "≥ €50", "<= -18 °C"
		}
		if after == "" || !isDigit(after[0]) || i > 0 && strings.ContainsRune("-=<>", rune(text[i-1])) {
			return ""
		}
		if upper {
			return "maximum"
		}
		return "minimum"
	}
	switch {
	case r == '+':
		if i > 0 && isDigit(text[i-1]) && !digitNext {
			return "minimum"
		}
	case r == '>' || r == '<':
		if (i == 0 || !strings.ContainsRune("-=<>", rune(text[i-1]))) && digitNext {
			if r == '>' {
				return "over"
			}
			return "under"
		}
	}
	return ""
}

// nonStrictSign is the length in bytes of the non-strict sign s starts
// with ("≥", "≤", ">=", "<="; 0 when none) and whether it is an upper
// bound.
func nonStrictSign(s string) (int, bool) {
	switch {
	case strings.HasPrefix(s, "≥"):
		return len("≥"), false
	case strings.HasPrefix(s, "≤"):
		return len("≤"), true
	case strings.HasPrefix(s, ">="):
		return 2, false
	case strings.HasPrefix(s, "<="):
		return 2, true
	}
	return 0, false
}

// withoutSignBounds is g without its bounds said by a non-strict sign in
// text, when other, in its place, says no bound at all: "rating ≥ 4.5"
// against "rating 4.5", "uptime ≥ 99.9%" against "uptime must be 99.9%"
// (see symbolBound). Against a bound in words the sign is read as one.
func withoutSignBounds(text string, g, other []surfaceTok) []surfaceTok {
	bound := func(t surfaceTok) bool {
		return t.key == "@least" || t.key == "@most" || t.key == "@above" || t.key == "@below"
	}
	if slices.ContainsFunc(other, bound) {
		return g
	}
	return slices.DeleteFunc(slices.Clone(g), func(t surfaceTok) bool {
		if !bound(t) || t.start < 0 || t.start >= len(text) {
			return false
		}
		k, _ := nonStrictSign(text[t.start:])
		return k > 0
	})
}

// exceptionSetApart reports whether one side's "except" (gx: the
// exception's cue alone) is, on the other side (text y, its kept tokens
// ky), nothing but a break between sentences or clauses before the
// excepted thing (ky[next]): "…, except dangerous-goods wagons, which are
// stopped at 40 mm" → "…. Dangerous-goods wagons: stopped at 40 mm". The
// thing is set apart with a rule of its own, or the exception is dropped:
// the conditions of the two positions, compared whole, tell which.
func exceptionSetApart(y string, gx, gy, ky []surfaceTok, next int) bool {
	if len(gx) != 1 || gx[0].key != "@unless" || len(gy) != 0 || next <= 0 || next >= len(ky) {
		return false
	}
	from, to := ky[next-1].end, ky[next].start
	return from >= 0 && from <= to && to <= len(y) && strings.ContainsAny(y[from:to], ".;:")
}

// boundedAge reports whether out ends with a bound, a number and its
// unit ("at most 3 months", "up to 2 hours"): an "old" or a "long" after
// them says what the bound's comparative says ("no older than").
func boundedAge(out []surfaceTok) bool {
	n := len(out)
	if n < 3 || !out[n-1].quant || !out[n-2].quant {
		return false
	}
	switch out[n-3].key {
	case "@most", "@least", "@above", "@below":
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// surfaceKey reads one word.
func surfaceKey(lx *lexicon, low string, start, end int) surfaceTok {
	t := surfaceTok{start: start, end: end}
	if low == "" {
		t.ignore = true
		return t
	}
	if c, ok := functionClasses()[low]; ok {
		t.key = c
		return t
	}
	_, isNumWord := numberWords()[low]
	_, isScale := numberScales()[low]
	st := stem(low)
	w := lx.fold(st)
	_, isUnit := lx.units[w]
	if _, ok := measures()[low]; ok && len(low) > 1 {
		isUnit = true // "dollars", "km", "litres"; not the letters "m", "l", "g"
	}
	t.key = w
	switch {
	case low == "a" || low == "an" || low == "the" || low == "calendar" || low == "please" || low == "also" || low == "just" || low == "really" || low == "simply" || low == "thereafter" ||
		low == "surely" || low == "certainly" || low == "definitely":
		t.ignore = true
	case isDigit(low[0]):
		t.quant = true
		if k := strings.IndexFunc(low, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }); k > 0 {
			// "10ms", "48h": the number, its unit read by compareQuantities.
			t.key = low
		}
	case isNumWord || isScale || isUnit || shortUnits()[low] != "":
		t.quant = true
	case keptStop()[low]:
	case lx.stop[st]:
		t.ignore = true
	}
	return t
}

// alignment is what aligning two texts' surface tokens found.
type alignment struct {
	edit bool // most of both sides align: an edit of the filed sentence
	// changes are the stretches outside the alignment that change the
	// rule, as written on each side ("half-to-even → half-up"), in an
	// edit; exchanges are two things that traded places ("Inter ↔
	// Playfair"), in any text that aligns enough to show it.
	changes, exchanges []string
	// swaps are the content words of each change, filed side and new
	// side, in the order of changes.
	swaps [][2][]string
	// rephrased are the stretches of an edit where a phrase of more than
	// maxSwapWords content words stands for another ("the studio
	// technician" → "the two volunteers who teach the beginners
	// class", "the caretaker" → "the person employed to look after the
	// building"): another thing or the same in other words, which the
	// words cannot tell. rephrasedSwaps are their content words, as
	// swaps are of changes.
	rephrased      []string
	rephrasedSwaps [][2][]string
	// hard are differences found beside the alignment that change the
	// rule when the positions speak of the same things.
	hard []string
	// another tells, for each of swaps, whether it puts another thing in
	// a slot of the rule: in a near copy of the filed sentence (strictShare
	// of it kept), a stretch that does not open its clause ("advises the
	// user to see their GP" → "… their community pharmacist"). The
	// subject that opens a clause ("Every accident repair needs" → "Every
	// crash repair needs") may name the record's object in other words.
	another []bool
	// topic are the words of the record's topic, when the position was
	// asked about a record: the record says them, a position may not.
	topic map[string]bool
}

// strictShare is the share of the longer side's tokens that must align
// for words only left out or only added to count as a change.
const strictShare = 0.85

// editPlaceShare is the share of the longer side's tokens that must align
// for a position changed in one place only to be an edit.
const editPlaceShare = 0.6

func notQuant(t surfaceTok) bool { return !t.quant }

// tradedWords reports whether the word of key k and another traded
// places between two stretches of an edit, each put where the other was,
// perhaps beside a word of its own: "Every expense claim needs a receipt,
// except mileage claims" → "Every mileage claim needs a receipt, except
// travel expense claims"; "scan it into the tracker, hand damaged ones to
// the supervisor" with the two acts traded. Neither word only moved: the
// rule is said of each where the other was. So too a word replaced in
// its place and said again only as the one whose something it is, where
// nothing stood: "the householder must arrange … at their own cost" →
// "the contractor must arrange … at the householder's cost".
func tradedWords(gaps []gap, used []bool, k string) bool {
	has := func(ts []surfaceTok, key string) bool {
		return slices.ContainsFunc(ts, func(t surfaceTok) bool { return t.key == key })
	}
	if strings.HasPrefix(k, "@") {
		return false // "only", "must": no thing of the rule
	}
	for x, g := range gaps {
		if used[x] || !has(g.a, k) {
			continue
		}
		for y, h := range gaps {
			if y == x || used[y] || !has(h.b, k) || has(g.b, k) || has(h.a, k) {
				continue
			}
			if slices.ContainsFunc(g.b, func(t surfaceTok) bool {
				return !t.ignore && !t.quant && !strings.HasPrefix(t.key, "@") && t.key != k && has(h.a, t.key) && !has(h.b, t.key) && !has(g.a, t.key)
			}) {
				return true
			}
			// The one named before now only pays: "at the
			// householder's cost", where "their own" stood.
			if len(h.a) == 0 && possessiveOf(h.b, k) && slices.ContainsFunc(g.b, func(t surfaceTok) bool {
				return !t.ignore && !t.quant && !strings.HasPrefix(t.key, "@") && !has(g.a, t.key) && !has(h.b, t.key)
			}) {
				return true
			}
		}
	}
	return false
}

// possessiveOf reports whether ts say the word of key k with the "s" of
// its possessive: "the householder's cost".
func possessiveOf(ts []surfaceTok, k string) bool {
	for i := 0; i+1 < len(ts); i++ {
		if ts[i].key == k && ts[i+1].key == "s" && ts[i+1].start == ts[i].start {
			return true
		}
	}
	return false
}

// exchangeShare is the share of the longer side's tokens that must align
// for two stretches trading places to be read as an exchange.
const exchangeShare = 0.5

// gap is a stretch outside the alignment: the tokens of each side and the
// index of the aligned token after it on each side.
type gap struct {
	a, b         []surfaceTok
	nextA, nextB int
}

// alignTexts aligns the surface tokens of the filed text a and the new
// text b (longest common subsequence of their keys).
func alignTexts(a, b string) alignment {
	return alignTokens(a, b, surfaceTokens(a), surfaceTokens(b))
}

// alignTokens is alignTexts on the texts' surface tokens.
func alignTokens(a, b string, ta, tb []surfaceTok) alignment {
	ta, tb = closingEnd(ta, tb), closingEnd(tb, ta)
	ka, kb := keep(ta), keep(tb)
	n, m := len(ka), len(kb)
	if n == 0 || m == 0 {
		return alignment{}
	}
	gaps, c := lcsGaps(ka, kb)
	common, longer := float64(c), float64(max(n, m))
	var al alignment
	if common < exchangeShare*longer {
		// Two things of several words that traded places align too
		// little to be read as an edit: "the housekeeping supervisor
		// phones and enters with the duty manager" → "the duty manager
		// phones and enters with the housekeeping supervisor".
		if ex := traded(a, b, withSmallWords(ta), withSmallWords(tb)); ex != "" {
			al.exchanges = []string{ex}
		}
		return al
	}
	// An edit: most of both sides align, or more than half of them with
	// the rest changed in one place ("then delete them" → "then archive
	// them to cold storage").
	changed := 0
	for _, g := range gaps {
		if slices.ContainsFunc(g.a, notQuant) || slices.ContainsFunc(g.b, notQuant) {
			changed++
		}
	}
	al.edit = common >= editShare*longer || common >= editPlaceShare*longer && changed <= 1 || longer-common <= 1 && common >= 2
	// Two stretches that trade places: "Inter for body text and Playfair
	// for headings" → "Playfair for body text and Inter for headings".
	var used []bool
	al.exchanges, used = exchanges(a, b, gaps)
	if len(al.exchanges) == 0 {
		// Two things that traded places between the same small words:
		// "approval by the controller and then by the CFO" → "by the
		// CFO and then by the controller". Without those words, one of
		// them only looks moved.
		sa, sb := withSmallWords(ta), withSmallWords(tb)
		if ex := traded(a, b, sa, sb); ex != "" {
			al.exchanges = []string{ex}
			return al
		}
		if al.edit {
			if ex := tradedBetween(a, b, sa, sb, ka, kb, gaps); ex != "" {
				al.exchanges = []string{ex}
				return al
			}
		}
	}
	if !al.edit {
		return al
	}
	// A word only moved ("expire idle sessions" → "idle sessions
	// expire") changes nothing.
	del, ins := map[string]int{}, map[string]int{}
	for x, g := range gaps {
		if used[x] {
			continue
		}
		for _, t := range g.a {
			del[t.key]++
		}
		for _, t := range g.b {
			ins[t.key]++
		}
	}
	movedA, movedB := map[string]int{}, map[string]int{}
	for k, v := range del {
		if tradedWords(gaps, used, k) {
			continue // not moved: put where another was, that took its place
		}
		movedA[k], movedB[k] = min(v, ins[k]), min(v, ins[k])
	}
	drop := func(ts []surfaceTok, moved map[string]int) []surfaceTok {
		var out []surfaceTok
		for _, t := range ts {
			if moved[t.key] > 0 {
				moved[t.key]--
				continue
			}
			if !t.quant {
				out = append(out, t)
			}
		}
		return out
	}
	negatedBounds(gaps, used)
	startA, endA := courtesyBounds(a)
	startB, endB := courtesyBounds(b)
	for x, g := range gaps {
		if used[x] {
			continue
		}
		if len(g.a) == 0 && outsideRule(g.b, startB, endB) || len(g.b) == 0 && outsideRule(g.a, startA, endA) {
			continue // "Dear Members, …", "… Thank you, Ioana": the message's, not the rule's
		}
		if boundShift(g.a, g.b) || boundShift(g.b, g.a) {
			continue // "more than 4" is "5 or more"
		}
		g.a, g.b = withoutSignBounds(a, g.a, g.b), withoutSignBounds(b, g.b, g.a)
		ga, gb := drop(g.a, movedA), drop(g.b, movedB)
		if standsFor(b, gb, ga, kb) || standsFor(a, ga, gb, ka) {
			continue // "refers larger items" → "refers the larger ones"
		}
		if negatedOther(ga, gb) || negatedOther(gb, ga) {
			continue // "requests are rejected" → "requests are not accepted"
		}
		if onlyAfterIf(ga, gb, ka, g.nextA) || onlyAfterIf(gb, ga, kb, g.nextB) {
			continue // "depart only after the doors close" → "never depart unless they are closed": only if
		}
		if len(gb) == 0 && caseWordsOnly(a, g.a) || len(ga) == 0 && caseWordsOnly(b, g.b) {
			continue // "…, in which case we keep it" → "…, we keep it": the case's outcome, read by the conditions
		}
		if setAsideFor(ga, b, gb, ka) || setAsideFor(gb, a, ga, kb) {
			continue // "unless X" → "skip it only if X": compareConditions reads it
		}
		if exceptionSetApart(b, ga, gb, kb, g.nextB) || exceptionSetApart(a, gb, ga, ka, g.nextA) {
			continue // "…, except X, which …" → "…. X …": compareConditions reads it
		}
		if (len(g.a) == 0 && quantifierOnly(b, a, g.b) || len(g.b) == 0 && quantifierOnly(a, b, g.a)) && headKept(a, b, ka, kb, gaps, x) {
			// "Shops close at 8pm" → "All shops close at 8pm": beside a
			// change to what it heads ("Laden tankers" → "All laden
			// vessels") it may widen the rule.
			continue
		}
		if len(gb) == 0 && boundSaidBefore(ga, b, g.b, kb, g.nextB) || len(ga) == 0 && boundSaidBefore(gb, a, g.a, ka, g.nextA) {
			continue // "no more than 10 seconds" → "within 10 seconds"
		}
		kind := residual(ga, gb, common >= strictShare*longer, ka, kb)
		// Words only added with a number among them ("training for Year 6
		// pupils"), in the same sentence otherwise, narrow what the rule is
		// said of, though the words besides the number are said elsewhere
		// ("every 6 pupils").
		if kind == stretchKeeps && common >= strictShare*longer && (len(g.a) == 0 && len(gb) > 0 && hasQuant(g.b) || len(g.b) == 0 && len(ga) > 0 && hasQuant(g.a)) {
			kind = stretchChanges
		}
		if kind != stretchKeeps && !spelled(spanText(a, g.a, ka, 0, false), spanText(b, g.b, kb, 0, false)) && !spelled(spanText(b, g.b, kb, 0, false), spanText(a, g.a, ka, 0, false)) {
			// A stretch of function words only is named with the word
			// after it: "per legal" → "across all legal"; words only
			// left out are named alone ("NVDA → (not said)").
			ext := !hasContent(ga) && !hasContent(gb) || len(g.a) > 0 && len(g.b) > 0 && (!hasContent(ga) || !hasContent(gb))
			from, to := spanText(a, g.a, ka, g.nextA, ext), spanText(b, g.b, kb, g.nextB, ext)
			if (said(g.a) && said(g.b) && (hasContent(ga) || hasContent(gb)) || ext && !hasContent(ga) && !hasContent(gb)) && (hasQuant(g.a) || hasQuant(g.b)) && sameReading(from, to) || !hasQuant(g.a) && !hasQuant(g.b) && determinersOnly(a, ga) && determinersOnly(b, gb) {
				// "weekly on Monday" → "once a week on Mondays", "metric" →
				// "each metric", "master every episode" → "episodes
				// mastered" (the words that moved aside).
				continue
			}
			if sameDays(from, to) {
				continue // "Monday to Friday" → "weekdays": the same days (compareDays)
			}
			if boundReworded(from, to) {
				continue // "trims under 15 minutes" → "trims shorter than 15 minutes"
			}
			swap := [2][]string{contentKeys(ga), contentKeys(gb)}
			if kind == stretchRephrases && !(nothingShared(swap[0], swap[1]) && namesAThing(a, g.a) && namesAThing(b, g.b)) {
				al.rephrased = append(al.rephrased, from+" → "+to)
				al.rephrasedSwaps = append(al.rephrasedSwaps, swap)
				continue
			}
			al.changes = append(al.changes, from+" → "+to)
			al.swaps = append(al.swaps, swap)
			al.another = append(al.another, common >= strictShare*longer && len(g.a) > 0 && !opensClause(a, g.a[0].start))
		}
	}
	return al
}

// lcsGaps aligns ka and kb (longest common subsequence of their keys)
// and returns the stretches outside the alignment and how many tokens
// align.
func lcsGaps(ka, kb []surfaceTok) ([]gap, int) {
	n, m := len(ka), len(kb)
	if n == 0 || m == 0 {
		return nil, 0
	}
	l := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return l[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			v := max(at(i+1, j), at(i, j+1))
			if ka[i].key == kb[j].key {
				v = at(i+1, j+1) + 1
			}
			l[i*(m+1)+j] = v
		}
	}
	var gaps []gap
	var g gap
	flush := func(i, j int) {
		if len(g.a) > 0 || len(g.b) > 0 {
			g.nextA, g.nextB = i, j
			gaps = append(gaps, g)
		}
		g = gap{}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case ka[i].key == kb[j].key:
			flush(i, j)
			i++
			j++
		case at(i+1, j) >= at(i, j+1):
			g.a = append(g.a, ka[i])
			i++
		default:
			g.b = append(g.b, kb[j])
			j++
		}
	}
	g.a, g.b = append(g.a, ka[i:]...), append(g.b, kb[j:]...)
	flush(n, m)
	return gaps, int(at(0, 0))
}

// exchanges finds pairs of stretches that trade places, named as the
// filed text a writes them, and which gaps they use. A sentence turned
// into the passive ("parents report an absence" → "an absence is
// reported by parents") trades none.
func exchanges(a, b string, gaps []gap) ([]string, []bool) {
	var out []string
	used := make([]bool, len(gaps))
	for x := range gaps {
		for y := x + 1; y < len(gaps) && !used[x]; y++ {
			gx, gy := gaps[x], gaps[y]
			if !used[y] && len(gx.a) > 0 && len(gx.b) > 0 && sameKeys(gx.a, gy.b) && sameKeys(gx.b, gy.a) && !sameKeys(gx.a, gx.b) &&
				!verbOnly(gx.a) && !verbOnly(gx.b) && hasContent(gx.a) == hasContent(gx.b) &&
				agentBefore(a, gx.a[0].start)+agentBefore(a, gy.a[0].start) == agentBefore(b, gx.b[0].start)+agentBefore(b, gy.b[0].start) {
				used[x], used[y] = true, true
				out = append(out, spanText(a, gx.a, nil, 0, false)+" ↔ "+spanText(a, gy.a, nil, 0, false))
			}
		}
	}
	return out, used
}

// agentBefore is 1 when "by" (or "by the") stands just before byte at of
// s: the agent of a passive.
func agentBefore(s string, at int) int {
	if at > len(s) {
		return 0
	}
	ws := strings.Fields(strings.ToLower(s[max(0, at-16):at]))
	if n := len(ws); n > 0 && (ws[n-1] == "by" || n > 1 && ws[n-2] == "by" && (ws[n-1] == "the" || ws[n-1] == "a" || ws[n-1] == "an")) {
		return 1
	}
	return 0
}

// maxTraded bounds the tokens between the shared start and end of two
// texts that traded looks at: it is cubic in them.
const maxTraded = 32

// traded finds two things that traded places and nothing else changed:
// ta is P X M Y S and tb is P Y M X S, with something besides "and" or
// "or" between them ("approval by the controller and then by the CFO" →
// "by the CFO and then by the controller"). It names them as a writes
// them, or returns "".
func traded(a, b string, ta, tb []surfaceTok) string {
	p := 0
	for p < len(ta) && p < len(tb) && ta[p].key == tb[p].key {
		p++
	}
	sfx := 0
	for sfx < len(ta)-p && sfx < len(tb)-p && ta[len(ta)-1-sfx].key == tb[len(tb)-1-sfx].key {
		sfx++
	}
	am, bm := ta[p:len(ta)-sfx], tb[p:len(tb)-sfx]
	n := len(am)
	if n != len(bm) || n < 3 || n > maxTraded {
		return ""
	}
	keys := map[string]int{}
	for i := range am {
		keys[am[i].key]++
		keys[bm[i].key]--
	}
	for _, v := range keys {
		if v != 0 {
			return "" // not the same words in another order
		}
	}
	same := func(x, y []surfaceTok) bool {
		return slices.EqualFunc(x, y, func(u, v surfaceTok) bool { return u.key == v.key })
	}
	for lx := 1; lx < n-1; lx++ {
		for ly := 1; lx+ly < n; ly++ {
			x, m, y := am[:lx], am[lx:n-ly], am[n-ly:]
			if same(x, y) || !same(bm[:ly], y) || !same(bm[ly:n-lx], m) || !same(bm[n-lx:], x) || !hasContent(keep(x)) || !hasContent(keep(y)) {
				continue
			}
			if !slices.ContainsFunc(m, func(t surfaceTok) bool { return !joinsOnly(t.key) && !saysKey(x, t.key) && !saysKey(y, t.key) }) {
				// "DHL and UPS" → "UPS and DHL": a list in another order;
				// "the invoice against the order" → "the order against
				// the invoice": the same match; nor is a stretch between
				// them that only says their words again a place of its
				// own.
				continue
			}
			if agentBefore(a, x[0].start)+agentBefore(a, y[0].start) != agentBefore(b, bm[0].start)+agentBefore(b, bm[n-lx].start) {
				continue
			}
			return spanText(a, x, nil, 0, false) + " ↔ " + spanText(a, y, nil, 0, false)
		}
	}
	return ""
}

// tradedBetween finds, in an edit of the filed sentence whose other parts
// changed too, two things that traded places between two of its gaps:
// the stretch from the first gap to the second reads P X M Y S on one
// side and P Y M X S on the other ("the submissions coordinator
// recommends them and the festival director signs off" → "the festival
// director recommends them and the submissions coordinator signs
// off"), which the alignment shows as one of them only moved.
//
// The gaps are of the kept tokens ka and kb; the stretch is read in sa
// and sb, the tokens with their small words, as traded reads whole texts.
func tradedBetween(a, b string, sa, sb, ka, kb []surfaceTok, gaps []gap) string {
	within := func(ts, kept []surfaceTok, from, to int) []surfaceTok {
		if from >= to {
			return nil
		}
		// ts is in text order: the tokens from the first kept one's
		// word to the last one's.
		lo, hi := kept[from].start, kept[to-1].start
		i := sort.Search(len(ts), func(k int) bool { return ts[k].start >= lo })
		j := sort.Search(len(ts), func(k int) bool { return ts[k].start > hi })
		return ts[i:j]
	}
	for x := range gaps {
		for y := x + 1; y < len(gaps); y++ {
			gx, gy := gaps[x], gaps[y]
			fa, ea, fb, eb := gx.nextA-len(gx.a), gy.nextA, gx.nextB-len(gx.b), gy.nextB
			if ex := traded(a, b, within(sa, ka, fa, ea), within(sb, kb, fb, eb)); ex != "" {
				return ex
			}
			// Small words that differ around the same exchange ("cleaned
			// with the pole" → "cleaned from ladders"): the kept words.
			if ex := traded(a, b, ka[fa:ea], kb[fb:eb]); ex != "" {
				return ex
			}
		}
	}
	return ""
}

// joinsOnly reports whether a word between two things joins them the same
// either way round: "DHL and UPS", "the invoice against the order".
func joinsOnly(key string) bool {
	switch key {
	case "and", "or", "as", "well", "against", "versus", "vs":
		return true
	}
	return false
}

// saysKey reports whether one of ts has key.
func saysKey(ts []surfaceTok, key string) bool {
	return slices.ContainsFunc(ts, func(t surfaceTok) bool { return t.key == key })
}

// withSmallWords are the tokens of ts but articles: the small words that
// place a thing in a sentence ("by", "with", "then") kept.
func withSmallWords(ts []surfaceTok) []surfaceTok {
	out := make([]surfaceTok, 0, len(ts))
	for _, t := range ts {
		if !t.ignore || t.key != "a" && t.key != "an" && t.key != "the" && t.key != "pleas" && t.key != "also" && t.key != "just" {
			out = append(out, t)
		}
	}
	return out
}

// boundShift reports whether x bounds a whole number strictly and y the
// next one inclusively: "more than 4" and "5 or more", "under 3" and "at
// most 2".
// negatedBounds marks as used a negation said on one side only together
// with the bound after it that the negation turned: "cannot spend more
// than 30" is "spend at most 30", "may not stay longer than 3 nights" is
// "stay no longer than 3 nights" (the bound a class of its own there).
func negatedBounds(gaps []gap, used []bool) {
	only := func(ts []surfaceTok, key string) bool {
		n := 0
		for _, t := range ts {
			if t.ignore {
				continue
			}
			if t.key != key {
				return false
			}
			n++
		}
		return n == 1
	}
	turned := map[string]string{"@above": "@most", "@below": "@least", "@most": "@above", "@least": "@below"}
	for x, g := range gaps {
		if used[x] {
			continue
		}
		negA, negB := only(g.a, "@neg") && len(keep(g.b)) == 0, only(g.b, "@neg") && len(keep(g.a)) == 0
		if !negA && !negB {
			continue
		}
		for y := x + 1; y < len(gaps) && y <= x+2; y++ {
			h := gaps[y]
			if used[y] || len(h.a) == 0 || len(h.b) == 0 {
				continue
			}
			ka, kb := keep(h.a), keep(h.b)
			if len(ka) == 1 && len(kb) == 1 && turned[ka[0].key] == kb[0].key {
				used[x], used[y] = true, true
				break
			}
		}
	}
}

func boundShift(x, y []surfaceTok) bool {
	read := func(g []surfaceTok) (string, float64, bool) {
		cls, n, num := "", 0.0, 0
		for _, t := range g {
			switch {
			case strings.HasPrefix(t.key, "@") && cls == "":
				cls = t.key
			case strings.HasPrefix(t.key, "@"):
				return "", 0, false
			case t.quant && isDigit(t.key[0]):
				v, err := strconv.ParseFloat(t.key, 64)
				if err != nil || v != math.Trunc(v) {
					return "", 0, false
				}
				n, num = v, num+1
			default:
				return "", 0, false
			}
		}
		return cls, n, num == 1
	}
	cx, nx, okX := read(x)
	cy, ny, okY := read(y)
	return okX && okY && (cx == "@above" && cy == "@least" && ny == nx+1 || cx == "@below" && cy == "@most" && ny == nx-1)
}

// sameKeys reports whether x and y hold the same keys, as sets.
func sameKeys(x, y []surfaceTok) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	for _, t := range x {
		if !slices.ContainsFunc(y, func(u surfaceTok) bool { return u.key == t.key }) {
			return false
		}
	}
	for _, u := range y {
		if !slices.ContainsFunc(x, func(t surfaceTok) bool { return u.key == t.key }) {
			return false
		}
	}
	return true
}

// keep drops the tokens that carry nothing in an edit.
func keep(ts []surfaceTok) []surfaceTok {
	out := make([]surfaceTok, 0, len(ts))
	for _, t := range ts {
		if !t.ignore {
			out = append(out, t)
		}
	}
	return out
}

// stretchReading is what a stretch left outside the alignment of an edit
// does to the rule (residual).
type stretchReading int

const (
	stretchKeeps     stretchReading = iota // reworded, moved or said again
	stretchChanges                         // the rule changed
	stretchRephrases                       // a long phrase for another: cannot tell
)

// residual reads a stretch left outside the alignment of an edit. It
// changes the rule when a function word of one class is swapped for one
// of another or left out ("per" → "across all", "to even" → "up"), or a
// few words are swapped for others that are not near in meaning
// ("finance" → "support"). Words only added or only left out are a detail
// reworded (compareClauses, compareItems and compareConditions judge
// dropped parts). A phrase of more than maxSwapWords content words on
// either side swapped for another rephrases: the same thing said at
// length and another thing put in its place read alike by their words.
//
// A word only added that the other text says elsewhere ("every 400
// flight hours" beside "the first 50 flight hours") is said again.
func residual(ga, gb []surfaceTok, strict bool, ka, kb []surfaceTok) stretchReading {
	lx := theLexicon()
	split := func(g, all []surfaceTok) (map[string]int, []string) {
		cls := map[string]int{}
		var content []string
		negated := len(g) > 0 && (negatedBefore(all, g[0].start) || slices.ContainsFunc(g, func(t surfaceTok) bool { return t.key == "@neg" }))
		for _, t := range g {
			switch {
			case t.key == "@must":
				// An imperative commands as "must" does.
			case t.key == "@may" && negated:
				// "no other traffic is allowed" forbids what "nothing
				// else" does.
			case t.key == "@may" && onlyNear(all, g):
				// "Dogs may travel only on the outside deck" sets the
				// rule "dogs travel only on the outside deck" does, and
				// "batteries shall be charged only in the charging
				// room": a permission that "only" bounds is the rule.
			case t.key == "@if":
				// "if they disagree" is "any disagreement", "whenever"
				// is "every time".
				cls["@dist"]++
			case strings.HasPrefix(t.key, "@"):
				cls[t.key]++
			case !lx.light[t.key]:
				// Light words ("mark" and "flag", "targets") are swapped
				// freely in a rewording.
				content = append(content, t.key)
			}
		}
		return cls, content
	}
	clsA, ca := split(ga, ka)
	clsB, cb := split(gb, kb)
	if !maps.Equal(clsA, clsB) {
		// A condition said as one ("Supplier contracts above 50,000
		// EUR" → "When the supplier contract is above 50,000 EUR"),
		// nothing else changed in the place: reworded.
		onlyIf := len(ca) == 0 && len(cb) == 0
		for _, t := range append(append([]surfaceTok(nil), ga...), gb...) {
			onlyIf = onlyIf && t.key == "@if"
		}
		if onlyIf {
			return stretchKeeps
		}
		return stretchChanges
	}
	saidIn := func(ws []string, ts []surfaceTok) bool {
		for _, w := range ws {
			if !saysKey(ts, w) {
				return false
			}
		}
		return true
	}
	if len(ca) == 0 && len(cb) > 0 && strict && !saidIn(cb, ka) || len(cb) == 0 && len(ca) > 0 && strict && !saidIn(ca, kb) {
		return stretchChanges // something left out of, or added to, the same sentence
	}
	if len(ca) > 0 && len(cb) == 0 && len(gb) >= 2 && len(gb) > len(ga) && !saidIn(ca, kb) || len(cb) > 0 && len(ca) == 0 && len(ga) >= 2 && len(ga) > len(gb) && !saidIn(cb, ka) {
		// A word put out for a longer phrase of light words only, and
		// said nowhere on the other side: another option in its place
		// ("released by ballot" → "released first come, first served"),
		// not the word said again elsewhere. Light words for as many
		// words ("next business day" → "following working day") reword.
		return stretchChanges
	}
	if len(ca) == 0 || len(cb) == 0 {
		return stretchKeeps
	}
	differs := slices.ContainsFunc(ca, func(x string) bool {
		return !slices.ContainsFunc(cb, func(y string) bool { return sameWord(x, y) })
	}) || slices.ContainsFunc(cb, func(y string) bool {
		return !slices.ContainsFunc(ca, func(x string) bool { return sameWord(x, y) })
	})
	switch {
	case !differs:
		return stretchKeeps
	case len(ca) > maxSwapWords || len(cb) > maxSwapWords:
		return stretchRephrases
	}
	return stretchChanges
}

// negatedBefore reports whether a negation stands among the few tokens of
// ts before byte at, or just after it.
func negatedBefore(ts []surfaceTok, at int) bool {
	k := slices.IndexFunc(ts, func(t surfaceTok) bool { return t.start >= at })
	if k < 0 {
		k = len(ts)
	}
	for i := max(0, k-6); i < len(ts) && i <= k+2; i++ {
		if ts[i].key == "@neg" {
			return true // "no traffic is allowed", "may not be used"
		}
	}
	return false
}

// onlyNear reports whether "only" bounds the stretch g of ts: said just
// before it or in the few words after it ("Only managers may approve",
// "may hold a customer's key only if", "may travel only on the deck").
func onlyNear(ts []surfaceTok, g []surfaceTok) bool {
	if len(g) == 0 {
		return false
	}
	k := slices.IndexFunc(ts, func(t surfaceTok) bool { return t.start >= g[0].start })
	e := slices.IndexFunc(ts, func(t surfaceTok) bool { return t.start >= g[len(g)-1].end })
	if k < 0 {
		return false
	}
	if e < 0 {
		e = len(ts)
	}
	for i := max(0, k-3); i < len(ts) && i < e+6; i++ {
		if ts[i].key == "@only" {
			return true
		}
	}
	return false
}

// nothingShared reports whether the content words x of a phrase and y
// of the phrase put in its place share nothing, not even a word near in
// meaning or shortened: "depot duty office" → "city-centre control room",
// "fireproof strongroom" → "safe deposit box at the bank". Between two
// phrases that name a thing (namesAThing), in a sentence otherwise kept,
// that is another place or thing put in the same slot, not the same one
// said at length ("the on-call engineer" → "the engineer on call that
// week" keeps "engineer").
func nothingShared(x, y []string) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	for _, v := range x {
		if slices.ContainsFunc(y, func(w string) bool { return sameWord(v, w) }) {
			return false
		}
	}
	return true
}

// namesAThing reports whether the stretch g of text names a thing by
// nouns and their modifiers ("the main dojo", "a safe deposit box at the
// bank"), not by what someone does: a clause ("whichever committee member
// lives closest"), a verb ("the person employed to look after", "is given
// to the hospice shop") describes a person or an act, which may be the
// filed one said at length.
func namesAThing(text string, g []surfaceTok) bool {
	if len(g) == 0 {
		return false
	}
	if prev := strings.Fields(strings.ToLower(text[:g[0].start])); len(prev) > 0 && beWords()[prev[len(prev)-1]] {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(text[g[0].start:g[len(g)-1].end])) {
		w = strings.Trim(w, ",;.:!?()\"'")
		if describingWords()[w] || beWords()[w] || len(w) > 5 && strings.HasSuffix(w, "ing") || len(w) > 4 && strings.HasSuffix(w, "ed") {
			return false
		}
	}
	return true
}

// describingWords open a clause that describes a thing by what it does: "the
// volunteers who teach", "whichever member lives closest".
var describingWords = wordSet("who whom whose which that whichever whoever whatever where when while")

// beWords are the forms of "be": "is given to", "are looking after".
var beWords = wordSet("is are was were be been being")

// maxSwapWords is the most words a swap in an edit replaces: more is a
// phrase that rephrases (residual).
const maxSwapWords = 3

// sameWord reports whether two folded words say the same in an edit: the
// same, near in meaning ("cache", "keep"), a comparative ("old",
// "older"), the word done again ("reissued", "issued") or a shortening
// ("repo", "repository").
func sameWord(x, y string) bool {
	return x == y || comparative(x, y) || comparative(y, x) || theLexicon().near(x, y) || again(x, y) || again(y, x) ||
		len(x) >= 3 && len(y) > len(x) && strings.HasPrefix(y, x) || len(y) >= 3 && len(x) > len(y) && strings.HasPrefix(x, y)
}

// again reports whether y is x done again: "issu", "reissu"; "test",
// "retest".
func again(x, y string) bool {
	return len(x) >= 4 && len(y) == len(x)+2 && strings.HasPrefix(y, "re") && strings.HasSuffix(y, x)
}

// comparative reports whether y is x with a comparative ending: "old",
// "older".
func comparative(x, y string) bool {
	return len(x) >= 3 && (y == x+"er" || y == x+"r" || y == x+x[len(x)-1:]+"er")
}

// wordLow is the lower-case form of ws[i], "" out of range.
func wordLow(ws []word, i int) string {
	if i < 0 || i >= len(ws) {
		return ""
	}
	return ws[i].low
}

// onlyAfterIf reports whether the stretch gx is the "after" of "only
// after" (kx the side's tokens, next the aligned token after the stretch)
// and gy an "if": "only after the doors close" is "only if they are
// closed", as "never … unless" reads (unlessOnly).
func onlyAfterIf(gx, gy, kx []surfaceTok, next int) bool {
	if len(gx) != 1 || len(gy) != 1 || gx[0].key != "after" || gy[0].key != "@if" {
		return false
	}
	at := next - 2 // the token before the stretch
	return at >= 0 && at < len(kx) && kx[at].key == "@only"
}

// caseWordsOnly reports whether the stretch g of text s says "in which
// case" and nothing else.
func caseWordsOnly(s string, g []surfaceTok) bool {
	if len(g) == 0 {
		return false
	}
	text := strings.ToLower(strings.Join(strings.Fields(s[:g[len(g)-1].end]), " "))
	span := strings.Fields(strings.ToLower(spanText(s, g, nil, 0, false)))
	for _, w := range span {
		if w != "in" && w != "which" && w != "case" {
			return false
		}
	}
	return strings.HasSuffix(text, "in which case")
}

// outcomeWords is how many words at ws[k] open the outcome of a case:
// 3 for "in which case", 1 for "then", 2 for "and then"; 0 for none.
func outcomeWords(ws []word, k int) int {
	switch {
	case k+2 < len(ws) && ws[k].low == "in" && ws[k+1].low == "which" && ws[k+2].low == "case":
		return 3
	case ws[k].low == "then":
		return 1
	case k+1 < len(ws) && ws[k].low == "and" && ws[k+1].low == "then":
		return 2
	}
	return 0
}

// spacedPreambles open a position without a mark after them and say
// nothing of the rule: "Please note the kiln log is signed …". Longest
// first, so that "that" goes with them.
var spacedPreambles = []string{"please note that", "kindly note that", "please be aware that", "be aware that", "note that", "please note", "kindly note",
	"just so you know", "just so you're aware", "for your information"}

// greetingCues open a greeting: "Dear Members,", "Hi everyone!", "Good
// morning team,". Lower case.
var greetingCues = []string{"hi", "hello", "hey", "dear", "greetings", "hej", "hallo", "hola", "bonjour", "ciao", "good morning", "good afternoon", "good evening",
	"morning all", "morning everyone", "evening all"}

// maxGreetingWords is how long a greeting may be: its cue and a name or
// an address ("Dear Mr Patel,", "Hello sisters!").
const maxGreetingWords = 4

// dropGreeting is text without the greeting that opens it, the cue
// (greetingCues) and at most maxGreetingWords words in all, ended by a
// comma, a "!", a colon or a dash: "Hi everyone! Borrowed tools …" is
// "Borrowed tools …". A cue that opens the rule itself ("Hey is the
// name of …") has no such end and is left.
func dropGreeting(text string) string {
	low := strings.ToLower(text[:min(len(text), 60)])
	for _, cue := range greetingCues {
		if !strings.HasPrefix(low, cue) || len(low) == len(cue) || low[len(cue)] != ' ' && !strings.ContainsRune(",!:", rune(low[len(cue)])) {
			continue
		}
		k := strings.IndexAny(low, ",!:—")
		if k < 0 || len(strings.Fields(low[:k])) > maxGreetingWords || strings.ContainsAny(low[:k], ".;?0123456789") {
			return text
		}
		end := k + 1
		if strings.HasPrefix(low[k:], "—") {
			end = k + len("—")
		}
		if rest := strings.TrimSpace(text[end:]); len(strings.Fields(rest)) >= 4 {
			return rest
		}
		return text
	}
	return text
}

// signOffCues open the sign-off that closes a message: "Thank you,
// Ioana", "Regards, Anil", "Best, Maya (People Team)". Lower case.
var signOffCues = []string{"thank you", "thanks", "many thanks", "with thanks", "regards", "kind regards", "warm regards", "best regards", "best wishes",
	"best,", "cheers", "sincerely", "yours", "all the best", "take care"}

// maxSignOffWords is how long a sign-off may be: its cue and a name.
const maxSignOffWords = 6

// courtesyBounds are where the rule in text starts and ends: after a
// greeting and a label that says nothing ("Dear Team, please note …"),
// before a sign-off in the last sentence ("… Thank you, Ioana"). The
// alignment of two positions reads what lies outside as no part of the
// rule, without counting it out of how much of them aligns: a greeting
// does not make a rewording an edit of the filed sentence.
func courtesyBounds(text string) (start, end int) {
	t := text
	for range 2 {
		t = strings.TrimLeft(dropGreeting(t), " ")
		low := strings.ToLower(t[:min(len(t), 40)])
		for _, p := range spacedPreambles {
			if strings.HasPrefix(low, p) && len(t) > len(p)+1 && strings.IndexByte(" ,:", low[len(p)]) >= 0 {
				t = strings.TrimLeft(t[len(p)+1:], " ")
				break
			}
		}
	}
	start, end = len(text)-len(t), len(text)
	body := strings.TrimRight(text, " .!")
	k := strings.LastIndexAny(body, ".!?")
	if k < start {
		return start, end
	}
	last := strings.TrimSpace(body[k+1:])
	low := strings.ToLower(last)
	for _, cue := range signOffCues {
		if strings.HasPrefix(low, cue) && (len(low) == len(cue) || !unicode.IsLetter(rune(low[len(cue)]))) && len(strings.Fields(last)) <= maxSignOffWords {
			return start, k + 1
		}
	}
	return start, end
}

// outsideRule reports whether every token of g lies outside the rule of
// its text (courtesyBounds start and end).
func outsideRule(g []surfaceTok, start, end int) bool {
	if len(g) == 0 {
		return false
	}
	for _, t := range g {
		if t.start < start && t.end > start || t.start >= start && t.start < end {
			return false
		}
	}
	return true
}

// upToPlace reports whether the k words at ws[i] are "up to" before no
// amount: "go up to the finance lead", "up to you", where it bounds
// nothing ("up to 3 bags", "up to a litre", "up to the first 10 days"
// bound). Before a point in time or an age it bounds too: "free up to
// midday", "changed up to the day before", "children up to the age of
// 12", "up to Friday".
func upToPlace(ws []word, i, k int) bool {
	if k != 2 || ws[i].low != "up" || ws[i+1].low != "to" {
		return false
	}
	next := wordLow(ws, i+2)
	switch {
	case numberAt(ws, i+2) || next == "a" || next == "an" || next == "half":
		return false
	case next == "the":
		return !numberAt(ws, i+3) && !numberAt(ws, i+4) && !upToTimes()[wordLow(ws, i+3)]
	}
	return next != "" && !upToTimes()[next]
}

// upToTimes are the points in time and the age that "up to" bounds
// ("up to the day before", "up to noon", "up to the end of March").
var upToTimes = wordSet("age day week month year term season end start beginning close last first final date deadline time hour minute moment " +
	"midday noon midnight morning afternoon evening night weekend today tomorrow tonight " +
	weekdayNames + " " + monthNames)

// carryCondCues open a condition that a comma closes: a negation in it
// is carried over no "or" after the comma.
var carryCondCues = wordSet("if when whenever unless once while where")

// carryPrepositions, after "or", start no verb ("not before 9 or after
// the show").
var carryPrepositions = wordSet("after before during under over across around through near behind beside inside outside within without past beyond against along onto upon via toward towards")

// nounOpeners open a noun phrase: a word before one is a verb ("or open
// the till").
var nounOpeners = wordSet("the a an any their its his her your our my")

// withBefore reports whether "with" is one of the three words before
// ws[i] in its clause: "only with a member together".
func withBefore(ws []word, i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if ws[k].low == "with" {
			return true
		}
	}
	return false
}

// numberAt reports whether ws[k] is a number, in digits or a word.
func numberAt(ws []word, k int) bool {
	if k >= len(ws) || ws[k].low == "" {
		return false
	}
	_, isWord := numberWords()[ws[k].low]
	return isWord || isDigit(ws[k].low[0])
}

// hasContent reports whether g holds a word that is not a function word.
func hasContent(g []surfaceTok) bool {
	for _, t := range g {
		if !strings.HasPrefix(t.key, "@") {
			return true
		}
	}
	return false
}

// spanText is how side s wrote the stretch g: the whitespace-delimited
// words holding it, with the word after it when ext.
func spanText(s string, g, all []surfaceTok, next int, ext bool) string {
	if ext && next < len(all) && (len(g) == 0 || !strings.Contains(s[g[0].start:g[len(g)-1].end], "-")) {
		// Not past a word that holds its own context ("half-to-even").
		g = append(append([]surfaceTok(nil), g...), all[next])
	}
	if len(g) == 0 {
		return "(not said)"
	}
	start, end := g[0].start, g[len(g)-1].end
	if start < 0 || end > len(s) || start >= end {
		return "(not said)"
	}
	return strings.TrimRight(strings.TrimSpace(s[start:end]), ".,;:")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// contentKeys are the keys of g that are not function words.
func contentKeys(g []surfaceTok) []string {
	var out []string
	for _, t := range g {
		if !strings.HasPrefix(t.key, "@") {
			out = append(out, t.key)
		}
	}
	return out
}

// opensClause reports whether the word of text at byte at opens its
// clause, after two words at most: "Every accident repair needs", "Hire
// cars must", "…; contributors eliminated early".
func opensClause(text string, at int) bool {
	k := strings.LastIndexAny(text[:at], ".;:!?\n")
	return len(strings.Fields(text[k+1:at])) <= 2
}

// withoutObjectRenamed drops the changes of an edit (with swaps, their
// content words) that swap words of the record's topic (what the rule is
// about) for words the topic does not use: the question was matched to
// the record, so the position names the same object in other words.
// A change another marks (a slot of a near copy, not the words that open
// its clause) is kept: "see their GP" → "see their community pharmacist"
// on a topic of GP referrals names another person to see.
func withoutObjectRenamed(changes []string, swaps [][2][]string, another []bool, recordTopic string) []string {
	if len(changes) == 0 {
		return changes
	}
	rt := map[string]bool{}
	for _, t := range surfaceTokens(recordTopic) {
		rt[t.key] = true
	}
	var out []string
	for i, c := range changes {
		if i < len(swaps) {
			x, y := swaps[i][0], swaps[i][1]
			if slices.ContainsFunc(x, measureWord) || slices.ContainsFunc(y, measureWord) {
				// "14 respite nights" → "14 respite weeks": a measure
				// changed, whatever the topic names; no object renamed.
				out = append(out, c)
				continue
			}
			if everyCase(c) {
				// "Intimate examinations" → "All examinations", "after a
				// bearing replacement" → "after any repair": the words of
				// the topic left for every case, not the object renamed.
				out = append(out, c)
				continue
			}
			if len(x) > 0 && len(y) > 0 && !(i < len(another) && another[i]) && !slices.ContainsFunc(x, func(w string) bool { return !rt[w] }) && !slices.ContainsFunc(y, func(w string) bool { return rt[w] }) {
				continue
			}
			// A word of the topic only left out or only added ("new
			// frontend features" → "new features"): the record says it.
			if len(x)+len(y) > 0 && (len(x) == 0 || len(y) == 0) && !slices.ContainsFunc(append(x, y...), func(w string) bool { return !rt[w] }) {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// quantifierOnly reports whether the tokens g of text are one "all",
// "every", "any" or "each" that says no more than the plural the other
// text (other) uses: "All shops close at 8pm" is "Shops close at 8pm",
// "all the keys" is "the keys". Not "any of our shows" (a share), "pay 800
// EUR each" or "the partners each hold 40%" (a count per item), "all"
// under a condition or a negation ("when all alarms sound", "does not
// cover all damage"), nor "any alarm" where the other side names one
// ("the alarm").
func quantifierOnly(text, other string, g []surfaceTok) bool {
	if len(g) != 1 {
		return false
	}
	q := strings.ToLower(text[g[0].start:g[0].end])
	switch q {
	case "all", "every", "any", "each":
	default:
		return false
	}
	next := strings.Fields(strings.ToLower(text[g[0].end:]))
	nx := ""
	if len(next) > 0 {
		nx = strings.Trim(next[0], ".,;:!?")
	}
	if nx == "of" {
		return false
	}
	// The words before the quantifier, within its clause.
	start := g[0].start
	for start > 0 && !strings.ContainsRune(",;.!?:(\n", rune(text[start-1])) {
		start--
	}
	before := strings.Fields(strings.ToLower(text[start:g[0].start]))
	if q == "each" {
		// Only where it opens its clause or follows a preposition ("for
		// each guest"), and not at the end of one ("800 EUR each").
		endsClause := len(next) == 0 || nx != strings.TrimRight(next[0], ".,;:!?")
		if endsClause || len(before) > 0 && !slices.Contains([]string{"for", "to", "on", "at", "in", "from", "with", "by"}, before[len(before)-1]) {
			return false
		}
	}
	if q != "any" {
		switch nx {
		case "the", "these", "those", "our", "your", "their", "my", "his", "her", "its":
			return true // "all the keys" is "the keys"
		}
		// "when all alarms sound", "staff who meet all targets", "does
		// not cover all damage": under a condition or a negation "all"
		// is not the bare plural.
		for _, w := range before {
			w = strings.Trim(w, ".,;:!?")
			switch w {
			case "if", "when", "whenever", "once", "unless", "until", "who", "that", "which", "where", "whose", "not", "never", "no", "without", "cannot":
				return false
			}
			if strings.HasSuffix(w, "n't") {
				return false
			}
		}
	} else if nx != "" {
		// "If the alarm sounds" → "If any alarm sounds": one named thing
		// widened to whichever.
		lo := strings.Fields(strings.ToLower(other))
		for i := 1; i < len(lo); i++ {
			if strings.Trim(lo[i], ".,;:!?") == nx {
				switch lo[i-1] {
				case "the", "a", "an", "this", "that", "our", "your":
					return false
				}
			}
		}
	}
	return true
}

// headKept reports whether the words a quantifier standing alone in gap x
// heads are the same on both sides (a and b, their kept tokens ka and
// kb): they go on unchanged for at least headRun kept tokens, or to the
// end of their clause on both sides, before the next gap. "any handset
// below 30% battery" → "handsets under 30% battery", not "All laden
// vessels" → "Laden tankers", "All gutters are" → "Gutters above two
// storeys are" nor "All staff, and cleaners" → "Staff on the night
// shift, and cleaners" (the clause ends after the change on one side).
func headKept(a, b string, ka, kb []surfaceTok, gaps []gap, x int) bool {
	const headRun = 3
	if x+1 >= len(gaps) {
		return true
	}
	// clauseEnds: on one side, a clause ends between the common words
	// and the next gap.
	clauseEnds := func(text string, ks []surfaceTok, from int, next []surfaceTok, nextAt int) bool {
		to := nextAt - len(next) // where the next gap starts on this side
		if to-from >= headRun || from >= len(ks) {
			return true
		}
		if to <= from {
			return false
		}
		end := len(text)
		if to < len(ks) {
			end = ks[to].start
		}
		return strings.ContainsAny(text[ks[from].start:end], ",;.:!?")
	}
	return clauseEnds(a, ka, gaps[x].nextA, gaps[x+1].a, gaps[x+1].nextA) && clauseEnds(b, kb, gaps[x].nextB, gaps[x+1].b, gaps[x+1].nextB)
}

// everyCase reports whether the change c ("old → new") says of every case
// what the filed side said of one it named: the new side opens with
// "all", "any", "every", "whatever" or "whichever" ("Intimate
// examinations" → "All examinations"). Not a quantifier inside it ("the
// eastern block, all floors"), "any number of" for "unlimited", nor an old
// side that already spoke of the whole ("a full refund" → "all the
// money").
func everyCase(c string) bool {
	old, new, ok := strings.Cut(c, " → ")
	if !ok {
		return false
	}
	words := func(s string) []string {
		var out []string
		for _, w := range strings.Fields(strings.ToLower(s)) {
			if w = strings.Trim(w, ".,;:!?()\"'"); w != "" {
				out = append(out, w)
			}
		}
		return out
	}
	nw, ow := words(new), words(old)
	if len(nw) < 2 {
		return false
	}
	switch nw[0] {
	case "all", "any", "every", "whatever", "whichever":
	default:
		return false
	}
	switch nw[1] {
	case "number", "amount", "kind", "sort", "type", "time", "times", "of", "other", "more":
		return false
	}
	if !slices.ContainsFunc(ow, func(w string) bool { return !slices.Contains(nw[1:], w) }) {
		return false // "Shops" → "All shops": the same thing, every one of it
	}
	return !slices.ContainsFunc(ow, func(w string) bool {
		switch w {
		case "all", "any", "every", "each", "full", "whole", "entire", "complete", "unlimited", "blanket", "total":
			return true
		}
		return false
	})
}

// sameReading reports whether two stretches of an edit read the same
// once analysed: the same content words (determiners are none) and the
// same numbers in any form ("weekly" and "once a week", "at most 30" and
// "no more than 30").
func sameReading(x, y string) bool {
	ax, ay := analyze(x), analyze(y)
	if len(ax.terms) == 0 && len(ay.terms) == 0 && len(ax.qty) == 0 && len(ay.qty) == 0 {
		return false // function words only: what they change is not read here
	}
	if len(ax.qty) != len(ay.qty) || ax.negs != ay.negs {
		return false
	}
	for i, q := range ax.qty {
		if !sameQuantity(q, ay.qty[i]) {
			return false
		}
	}
	wx, wy := set(ax.words()), set(ay.words())
	for w := range wx {
		if !strings.HasPrefix(w, "#") && !wy[w] {
			return false
		}
	}
	for w := range wy {
		if !strings.HasPrefix(w, "#") && !wx[w] {
			return false
		}
	}
	return true
}

// boundReworded reports whether two stretches set one bound on one number
// in other words: "under 15" and "shorter than 15", "above 25" and
// "stronger than 25", "heavier than 5" and "over 5". A comparative with
// "than" sets the bound comparatives gives it; other bound words are read
// by their function class. "under 15" and "longer than 15", or "under 15"
// and "under 20", are not one bound.
func boundReworded(from, to string) bool {
	read := func(s string) (class string, num float64, ok bool) {
		ws := strings.Fields(strings.ToLower(s))
		if len(ws) < 2 {
			return "", 0, false
		}
		last := ws[len(ws)-1]
		num, err := strconv.ParseFloat(last, 64)
		if n, word := numberWords()[last]; word {
			num, err = n, nil // "under fifteen" is "under 15"
		}
		if err != nil {
			return "", 0, false
		}
		bound := ws[:len(ws)-1]
		if len(bound) == 2 && bound[1] == "than" {
			if b := comparatives()[bound[0]]; b != "" {
				return "@" + b, num, true
			}
		}
		switch c := functionClasses()[strings.Join(bound, " ")]; c {
		case "@above", "@below", "@least", "@most":
			return c, num, true
		}
		return "", 0, false
	}
	cx, nx, okX := read(from)
	cy, ny, okY := read(to)
	return okX && okY && cx == cy && nx == ny
}

// hasQuant reports whether g holds a number, a unit or a period word
// ("nightly"): only then may two stretches of other words read the same
// ("weekly" / "once a week", "every night" / "nightly").
func hasQuant(g []surfaceTok) bool {
	period := theLexicon().period
	return slices.ContainsFunc(g, func(t surfaceTok) bool { return t.quant || period[t.key] != "" })
}

// said reports whether g holds a content word or a number.
func said(g []surfaceTok) bool {
	return hasContent(g) || slices.ContainsFunc(g, func(t surfaceTok) bool { return t.quant })
}

// determiners say of one thing what they say of each: "a metric may have"
// is "each metric may have"; "using" before an option names it ("rather
// than using cookies").
var determiners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"a": true, "an": true, "the": true, "each": true, "every": true, "using": true}
})

// determinersOnly reports whether the tokens ts of text hold determiners
// alone (or nothing).
func determinersOnly(text string, ts []surfaceTok) bool {
	for _, t := range ts {
		if !determiners()[strings.ToLower(strings.Trim(text[t.start:t.end], ",;:.!?()\"'`"))] {
			return false
		}
	}
	return true
}

// verbOnly reports whether the content words of g are verbs of a rule
// ("keep", "use", "run") alone: a verb that moved ("nitrate is kept below
// 10 ppm" / "keep nitrate below 10 ppm") traded nothing with a thing.
func verbOnly(g []surfaceTok) bool {
	lx := theLexicon()
	n := 0
	for _, t := range keep(g) {
		if t.quant || strings.HasPrefix(t.key, "@") {
			continue
		}
		if !lx.action[t.key] && !lx.light[t.key] {
			return false
		}
		n++
	}
	return n > 0
}

// negatedOther reports whether the stretch x says one word that y says
// as "not" and the word it negates: "rejected" and "not accepted",
// "disabled" and "not enabled", "denied entry" and "not allowed entry"
// (see lexicon.negates).
func negatedOther(x, y []surfaceTok) bool {
	kx, ky := contentKeys(x), contentKeys(y)
	// A word both stretches hold stays the same: "denied entry" and "not
	// allowed entry".
	for i := 0; i < len(kx); i++ {
		if j := slices.Index(ky, kx[i]); j >= 0 {
			kx, ky = slices.Delete(kx, i, i+1), slices.Delete(ky, j, j+1)
			i--
		}
	}
	if len(ky) == 0 && slices.ContainsFunc(y, func(t surfaceTok) bool { return t.key == "@may" }) {
		ky = []string{allowWord()} // "not allowed", "not permitted": a permission's class
	}
	if len(kx) != 1 || len(ky) != 1 || !slices.ContainsFunc(y, func(t surfaceTok) bool { return t.key == "@neg" }) {
		return false
	}
	if slices.ContainsFunc(x, func(t surfaceTok) bool { return t.key == "@neg" }) {
		return false
	}
	return theLexicon().negates(kx[0], ky[0])
}

// standsFor reports whether the stretch y of text is the pronoun "one"
// or "ones" standing for the words x the other side has in its place,
// words that text names elsewhere (all are text's tokens): "refers larger
// items to the manager" → "removes items below 15 EUR and refers the
// larger ones to the manager".
func standsFor(text string, y, x, all []surfaceTok) bool {
	if len(y) != 1 || len(x) == 0 {
		return false
	}
	if w := strings.ToLower(strings.Trim(text[y[0].start:y[0].end], ",.;:!?")); w != "one" && w != "ones" {
		return false
	}
	keys := contentKeys(x)
	return len(keys) > 0 && !slices.ContainsFunc(keys, func(k string) bool {
		return !slices.ContainsFunc(all, func(t surfaceTok) bool { return t.key == k })
	})
}

// setAsideFor reports whether an exception's cue on one side (gx, of a
// text whose tokens are kx: "unless", "except") is said on the other (gy
// of y) as the rule set aside: "skip it only if", "the limit does not
// apply during", "may deviate if".
func setAsideFor(gx []surfaceTok, y string, gy, kx []surfaceTok) bool {
	if slices.ContainsFunc(gx, func(t surfaceTok) bool { return t.key != "@unless" && !t.ignore }) {
		return false
	}
	if len(gx) == 0 && !slices.ContainsFunc(kx, func(t surfaceTok) bool { return t.key == "@unless" }) {
		// The cue aligned elsewhere ("except when X" against "If X, none
		// of this applies"): the side must still set a case aside.
		return false
	}
	// What the other side names elsewhere may name the rule set aside:
	// "the charge is waived" of a rule that charges.
	named := func(t surfaceTok) bool {
		return slices.ContainsFunc(kx, func(u surfaceTok) bool { return u.key == t.key })
	}
	aside, neg := false, false
	for _, t := range gy {
		w := stem(strings.ToLower(y[t.start:t.end]))
		switch {
		case setAsideWords()[w]:
			aside = true
		case t.key == "@neg":
			neg = true
		case w == stem("apply") || w == stem("applies"):
			aside = aside || neg
		case t.ignore || t.key == "@if" || t.key == "@only" || setAsideNouns()[w] || named(t):
		default:
			return false
		}
	}
	return aside
}

// setAsideNouns are the words that name the rule set aside: "the limit
// does not apply", "the rule is waived".
var setAsideNouns = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"it", "this", "rule", "limit", "requirement", "check"} {
		m[stem(w)] = true
	}
	return m
})

// otherwiseQualifies reports whether next, after "otherwise", makes it
// qualify a word ("otherwise agreed", "otherwise stated"), not open what
// follows when the rule is not met.
func otherwiseQualifies(next string) bool {
	switch next {
	case "agreed", "stated", "specified", "noted", "instructed", "directed", "indicated", "required", "arranged", "approved",
		"authorised", "authorized", "permitted", "allowed", "provided", "advised", "told", "set", "configured", "defined", "decided":
		return true
	}
	return false
}

// relWords say, after a share, how it relates to an amount: "20% off",
// "a 25% surcharge" (analyze's relation reads them).
var relWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"off": true, "discount": true, "reduction": true, "cheaper": true, "more": true, "extra": true,
		"surcharge": true, "uplift": true, "markup": true, "premium": true}
})

// inOnePeriod is how many words at ws[i] say "one" of a unit of time
// after "in" and a number said shortly before ("48 hours in one week",
// "3 falls in a single day", "twice in any one month"): those words and
// the unit's are the "per" of a rate. It is 0 when they say nothing so.
func inOnePeriod(text string, ws []word, i int) int {
	if i < 2 || ws[i-1].low != "in" {
		return 0
	}
	k := i
	switch ws[k].low {
	case "a", "an", "one", "1":
		k++
	case "any":
		k++
		if k < len(ws) && ws[k].low == "one" {
			k++
		}
	default:
		return 0
	}
	if k < len(ws) && ws[k].low == "single" && ws[k-1].low != "one" {
		k++
	}
	if k >= len(ws) || !timeUnit(ws[k].low) {
		return 0
	}
	for j := i - 2; j >= 0 && j >= i-6; j-- {
		if strings.ContainsAny(text[min(ws[j].end, ws[i-1].start):ws[i-1].start], ".;!?") {
			return 0
		}
		if isDigit(ws[j].low[0]) || numberWords()[ws[j].low] > 0 {
			return k - i
		}
	}
	return 0
}

// measuredOf reports whether the words before ws[i] are a number, its
// unit, "of" and one or two words, in one sentence: "400 metres of
// altitude a day" (analyze's ofThing).
func measuredOf(text string, ws []word, i int) bool {
	for of := i - 2; of >= i-3 && of >= 2; of-- {
		if ws[of].low == "of" && isDigit(ws[of-2].low[0]) && anyUnit(ws[of-1].low) && !strings.ContainsAny(text[min(ws[of-2].end, ws[i].start):ws[i].start], ".;!?") {
			lx := theLexicon()
			return !slices.ContainsFunc(ws[of+1:i], func(w word) bool { return lx.stop[stem(w.low)] }) // not "5 mm of rain within a day"
		}
	}
	return false
}

// boundSaidBefore reports whether the stretch g of one text says only a
// bound ("no more than", "maximum", "no later than") that the other text
// says by the word before the same number: "within 10 seconds", "in 24
// hours", "until 45 days after", "at the latest 2 days after", "by 12
// noon"; "by 14 days before departure" for "no later than 14 days
// before" (at least 14 days before it); "from 9 am" for "no earlier than
// 9 am"; or by the words after it: "9 am at the earliest", "4 pm at the
// latest". other is the other text, og its stretch in the same place
// and ko its kept tokens, next the index in ko of the token after og.
func boundSaidBefore(g []surfaceTok, other string, og, ko []surfaceTok, next int) bool {
	cls := ""
	before := theLexicon().fold(stem("before"))
	for _, t := range g {
		switch {
		case cls != "":
			return false
		case t.key == "@most" || t.key == "@least":
			cls = t.key
		case t.key == before:
			cls = "@most" // "before 7 am" is "by 7 am"; "before 21 days" is not said
		default:
			return false
		}
	}
	if cls == "" {
		return false
	}
	at := slices.IndexFunc(og, func(t surfaceTok) bool { return t.quant })
	var num []surfaceTok
	switch {
	case at >= 0:
		num = og[at:]
	case next >= 0 && next < len(ko) && ko[next].quant:
		num = ko[next:]
	default:
		return false
	}
	prev := strings.Fields(strings.ToLower(other[max(0, num[0].start-lookBack):num[0].start]))
	if len(prev) > 1 && prev[len(prev)-1] == "the" {
		prev = prev[:len(prev)-1] // "by the 1st"
	}
	if len(prev) == 0 {
		return false
	}
	ahead := slices.ContainsFunc(num[:min(len(num), 4)], func(t surfaceTok) bool {
		return aheadWord(strings.Trim(strings.ToLower(other[t.start:t.end]), ",;:.()"))
	})
	after := strings.Fields(strings.ToLower(other[num[0].start:min(len(other), num[0].start+60)]))
	for i, w := range after {
		after[i] = strings.TrimRight(w, ",;.") // "by 6 am." ends the sentence
	}
	// "9 am at the earliest", "in 14 days at the earliest": no earlier;
	// "5 pm at the latest": no later.
	if i := slices.Index(after, "the"); i > 0 && i < 5 && after[i-1] == "at" && i+1 < len(after) {
		switch after[i+1] {
		case "earliest":
			return cls == "@least" && !ahead
		case "latest":
			return cls == "@most" && !ahead
		}
	}
	// "by 12 noon", "by 5:30", "by 31 March", "by the 1st": a time, not
	// an amount ("cut by 10%").
	moment := len(after) > 0 && (strings.Contains(after[0], ":") || strings.HasSuffix(after[0], "am") || strings.HasSuffix(after[0], "pm") || ordinalDay(after[0])) ||
		len(after) > 1 && (after[1] == "am" || after[1] == "pm" || upToTimes()[after[1]] && !timeUnit(after[1]))
	// "in 10 working days", not "in 4 groups": a length of time.
	span := slices.ContainsFunc(after[min(len(after), 1):min(len(after), 3)], timeUnit)
	switch strings.Trim(prev[len(prev)-1], ",;:(") {
	case "in":
		return cls == "@most" && !ahead && (span || moment)
	case "within", "inside", "until", "till", "latest":
		return cls == "@most" && !ahead
	case "by":
		return cls == "@most" && !ahead && moment || cls == "@least" && ahead
	case "from", "after":
		return cls == "@least" && !ahead && moment // "from 9 am": "no earlier than 9 am"
	}
	return false
}

// lookBack is how many bytes before a number boundSaidBefore reads for
// the word that bounds it: two words and more.
const lookBack = 40

// ordinalDay reports whether w is a day of the month said as an ordinal
// in figures: "1st", "22nd", "3rd", "15th".
func ordinalDay(w string) bool {
	n := strings.TrimRight(w, ",;.")
	if len(n) < 3 || !isDigit(n[0]) {
		return false
	}
	switch n[len(n)-2:] {
	case "st", "nd", "rd", "th":
		return strings.IndexFunc(n[:len(n)-2], func(r rune) bool { return r < '0' || r > '9' }) < 0
	}
	return false
}
