package consensus

import (
	"strings"
	"testing"
)

// TestLexiconGroupsDoNotCollide guards the curated lists: a word (after
// stemming) on two synonym lines would silently join two meanings.
func TestLexiconGroupsDoNotCollide(t *testing.T) {
	seen := map[string]string{}
	for _, line := range strings.Split(synonymGroups, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, w := range f {
			k := stemPhrase(w)
			if other, ok := seen[k]; ok && other != f[0] {
				t.Errorf("%q (%s) is on the lines of %q and %q", w, k, other, f[0])
			}
			seen[k] = f[0]
		}
	}
}

// TestLexiconGenericWordsStayGeneric guards against a generic word that
// stems into a synonym group of a specific meaning ("settings" → "set" →
// the configuration group would make "configuration" weigh nothing).
func TestLexiconGenericWordsStayGeneric(t *testing.T) {
	lx := theLexicon()
	listed := map[string]bool{}
	for _, w := range strings.Fields(genericWords) {
		listed[stemPhrase(w)] = true
	}
	for _, w := range strings.Fields(genericWords) {
		k := stemPhrase(w)
		// "period" is a generic word of the interval group on purpose:
		// "retry period" asks what "retry interval" asks.
		if c := lx.fold(k); c != k && !listed[c] && w != "period" {
			t.Errorf("generic %q folds into %q, a specific word's group", w, c)
		}
	}
}
