package vault

import "testing"

// A page name with a character Obsidian reads inside a wikilink ('#', '^',
// '|', brackets, a backslash) or a control character cannot be a link's
// target; every other name can, spaces and letters of any script included.
func TestLinkable(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"spec-cache-ttl": true, "spec-cache-ttl 1": true, "Décision café": true, "東京": true, "a.b(c)": true,
		"ADR #12": false, "note^block": false, "a|b": false, "x [draft]": false, `back\slash`: false,
		"line\nbreak": false, "tab\there": false, "": false, "  ": false,
	} {
		if got := Linkable(name); got != want {
			t.Errorf("Linkable(%q) = %v, want %v", name, got, want)
		}
	}
}
