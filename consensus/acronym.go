package consensus

import (
	"slices"
	"strings"
)

// An acronym in one topic that the other topic spells out asks about the
// words it stands for: "DLQ retention" is a question about the "dead
// letter queue for the payment events consumer", "TOIL usage" one about
// "using time off in lieu", "checkout MTTR goal" one about the "mean time
// to recovery target for the checkout service". Check rewrites the
// question into the words of the record it most likely asks about
// (bridge); TopicScore and the scoring of each candidate read the same
// acronyms either way round: a record's "TOIL" is spelled out by a
// question's "time off in lieu" too.

// spellOut returns text with each acronym in it that other spells out
// replaced by other's words, as bridge reads them (isAbbreviation,
// expandAbbreviation), and whether it replaced any. An acronym that other
// also writes is left alone, and so is one of two letters the lexicon
// reads as a word of its own ("CI", "UK", "PM"): two letters spell a run
// of words in many topics ("CI bots" and "customer integrations"), and
// bridge trusts them only of the one record the question most likely
// asks about.
func spellOut(text, other string) (string, bool) {
	if !hasAcronym(text) {
		return text, false
	}
	return rewriteInWords(text, other, true)
}

// knownPair reports whether the abbreviation w is two letters the
// lexicon reads as a word ("CI", "UK", "ID"), or a stop word ("US").
func knownPair(w string) bool {
	low := strings.ToLower(strings.TrimSuffix(w, "s"))
	if len(low) != 2 {
		return false
	}
	lx := theLexicon()
	return lx.stopWord[low] || lx.known(lx.fold(stem(low)))
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

// spelledTopics are the question q and the record's topic r with each
// acronym one spells out in the other replaced by its words (spellOut),
// and whether either changed.
func spelledTopics(q, r string) (string, string, bool) {
	q2, a := spellOut(q, r)
	r2, b := spellOut(r, q)
	return q2, r2, a || b
}

// spellOutRule is spellOut for the two sides of a rule, which say more
// than a topic and so offer more runs of words: an acronym reads as the
// one run of other's words its initials spell ("sign the TOB": terms of
// business; "GMs": game masters), and is left as it is when two runs
// spell it ("CL" beside "control limits" and "centre line") or when the
// run starts with a word that begins with the acronym itself ("DOC"
// beside "DOCX only checked" is another format, not those words), or
// when the run holds a "not" or "no": "DNR" names an order, and "pts with
// DNR aren't flagged" written as "do not resuscitate" would read as two
// denials.
func spellOutRule(text, other string) string {
	if !hasAcronym(text) {
		return text
	}
	rw := bridgeWords(other)
	if len(rw) == 0 {
		return text
	}
	has := make(map[string]bool, len(rw))
	for _, w := range rw {
		has[w] = true
	}
	var b strings.Builder
	last := 0
	for _, sp := range bridgeSpans(text) {
		w := text[sp[0]:sp[1]]
		if !isAbbreviation(w) || knownPair(w) {
			continue
		}
		core := strings.ToLower(strings.TrimSuffix(w, "s"))
		if has[core] || has[strings.ToLower(w)] {
			continue
		}
		repl := ""
		for i := range rw {
			if rw[i] == "" || rw[i][0] != core[0] {
				continue
			}
			j := initialsRun(core, rw, i)
			if j == i {
				continue
			}
			run := strings.Join(rw[i:j], " ")
			if strings.HasPrefix(rw[i], core) || repl != "" && repl != run || slices.ContainsFunc(rw[i:j], negationWord) {
				repl = ""
				break
			}
			repl = run
		}
		if repl == "" {
			continue
		}
		b.WriteString(text[last:sp[0]])
		b.WriteString(repl)
		last = sp[1]
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// negationWord reports whether w, a lower-case word, denies: "not", "no",
// "never" ("non" of "non-disclosure" names a kind and is no denial).
func negationWord(w string) bool {
	switch w {
	case "not", "no", "never", "nor":
		return true
	}
	return false
}
