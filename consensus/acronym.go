package consensus

import (
	"strings"
	"unicode"
)

// An acronym in one topic that the other topic spells out asks about the
// words it stands for: "DLQ retention" is a question about the "dead
// letter queue for the payment events consumer", "TOIL usage" one about
// "using time off in lieu", "checkout MTTR goal" one about the "mean time
// to recovery target for the checkout service". The lexicon knows the
// acronyms of software and a few more; the others are read from the
// topic they are asked of.

// maxAcronym is the most letters an acronym read so has.
const maxAcronym = 6

// spellOut returns text with each acronym in it that other spells out
// (the initials of a run of other's words, with or without the small
// words between them: "Mean Time To Recovery", "Disclosure and Barring
// Service") replaced by the words of that run, and whether it replaced
// any. An acronym other also writes as one is left alone, and so is a
// two-letter one the lexicon reads as a word of its own ("UK", "PM",
// "ID"), or whose run holds a small word: two letters spell some run of
// words in most topics.
func spellOut(text, other string) (string, bool) {
	if !hasAcronym(text) {
		return text, false
	}
	runs := otherWords(other)
	var b strings.Builder
	changed := false
	last := 0
	for _, sp := range letterSpans(text) {
		word := text[sp[0]:sp[1]]
		letters, ok := acronymLetters(word)
		if !ok || !standsAlone(text, sp) || containsWord(runs, letters) {
			continue
		}
		run := spelledBy(runs, letters)
		if run == "" {
			continue
		}
		b.WriteString(text[last:sp[0]])
		b.WriteString(run)
		last, changed = sp[1], true
	}
	if !changed {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// standsAlone reports whether the letters at sp are a word of their own:
// not joined to a digit ("LN2", "2FA") or by a hyphen to a number or to
// other letters ("PJ-20931", "COVID-19", "anti-CSRF").
func standsAlone(text string, sp [2]int) bool {
	digit := func(i int) bool { return i >= 0 && i < len(text) && text[i] >= '0' && text[i] <= '9' }
	if digit(sp[0]-1) || digit(sp[1]) || sp[0] > 0 && text[sp[0]-1] == '-' {
		return false
	}
	return !(sp[1] < len(text) && text[sp[1]] == '-' && (digit(sp[1]+1) || sp[1]+1 < len(text) && unicode.IsLetter(rune(text[sp[1]+1]))))
}

// hasAcronym reports whether text holds two capital letters in a row, the
// cheap test before spellOut reads it.
func hasAcronym(text string) bool {
	for i := 1; i < len(text); i++ {
		if text[i] >= 'A' && text[i] <= 'Z' && text[i-1] >= 'A' && text[i-1] <= 'Z' {
			return true
		}
	}
	return false
}

// acronymLetters are the letters of word, in lower case, when it is an
// acronym: two to maxAcronym capitals, with a plural "s" after them or
// not ("CDRs", "MVs").
func acronymLetters(word string) (string, bool) {
	w := strings.TrimSuffix(word, "s")
	if len(w) < 2 || len(w) > maxAcronym {
		return "", false
	}
	for _, r := range w {
		if r < 'A' || r > 'Z' {
			return "", false
		}
	}
	low := strings.ToLower(w)
	if len(low) == 2 {
		lx := theLexicon()
		if lx.stopWord[low] || lx.known(lx.fold(stem(low))) || shortUnits()[low] != "" || isUnitWord(low) {
			return "", false
		}
	}
	return low, true
}

// otherWords are the words of a topic in lower case, split at every mark
// ("keeping-in-touch" is three words, "debt-to-income" three).
func otherWords(text string) []string {
	var out []string
	for _, sp := range letterSpans(text) {
		out = append(out, strings.ToLower(text[sp[0]:sp[1]]))
	}
	return out
}

// letterSpans are the byte spans of the runs of letters in text.
func letterSpans(text string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range text {
		switch {
		case unicode.IsLetter(r) && start < 0:
			start = i
		case !unicode.IsLetter(r) && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(text)})
	}
	return out
}

// containsWord reports whether ws holds w.
func containsWord(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// spelledBy is the run of ws whose initials are letters, every word's or
// every word's but the small words' between them ("time off in lieu",
// "disclosure and barring service"), joined by spaces; "" when there is
// none. A two-letter acronym counts only a run of two words that are not
// small ones.
func spelledBy(ws []string, letters string) string {
	stop := theLexicon().stopWord
	for i := range ws {
		if ws[i][0] != letters[0] || stop[ws[i]] && len(letters) == 2 {
			continue
		}
		// Every word's initial.
		if i+len(letters) <= len(ws) && len(letters) > 2 {
			ok := true
			for k := range len(letters) {
				if ws[i+k][0] != letters[k] {
					ok = false
					break
				}
			}
			if ok {
				return strings.Join(ws[i:i+len(letters)], " ")
			}
		}
		// The initials of the words that are not small ones.
		k, j := 0, i
		for ; j < len(ws) && k < len(letters); j++ {
			if stop[ws[j]] {
				if len(letters) == 2 {
					break
				}
				continue
			}
			if ws[j][0] != letters[k] {
				break
			}
			k++
		}
		if k == len(letters) {
			return strings.Join(ws[i:j], " ")
		}
	}
	return ""
}

// spelledTopics are the question q and the record's topic r with each
// acronym one spells out in the other replaced by its words (spellOut),
// and whether either changed.
func spelledTopics(q, r string) (string, string, bool) {
	q2, a := spellOut(q, r)
	r2, b := spellOut(r, q)
	return q2, r2, a || b
}
