package transcripts

import (
	"strings"
	"testing"
)

// A hit's snippet shows the word searched for, however lower-casing
// changes the length of the text before it (İ is two bytes, its lower
// case one; the Kelvin sign three, k one; Ⱥ two, ⱥ three).
func TestSnippetShowsTheWordWhateverCasingDoes(t *testing.T) {
	t.Parallel()
	tail := strings.Repeat(" x", 150)
	for _, tc := range []struct{ name, before, word, want string }{
		{"dotted capital I", strings.Repeat("İ", 400) + " needle", "needle", "needle"},
		{"Kelvin signs", strings.Repeat("\u212a", 300) + " needle", "needle", "needle"},
		{"a stroke", strings.Repeat("Ⱥ", 300) + " needle", "needle", "needle"},
		{"the word itself folds", strings.Repeat("İ", 300) + " \u212aelvin", "kelvin", "\u212aelvin"},
		{"plain", strings.Repeat("a ", 300) + "needle", "needle", "needle"},
		{"invalid UTF-8", strings.Repeat("\xff", 300) + " needle", "needle", "needle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := snippet(tc.before+tail, tc.word)
			if !strings.Contains(got, tc.want) {
				t.Errorf("the snippet for %q does not show it:\n%s", tc.word, got)
			}
			if n := len([]rune(got)); n > 162 {
				t.Errorf("the snippet has %d runes", n)
			}
		})
	}
}
