package consensus

import "strings"

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
