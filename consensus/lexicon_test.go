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
