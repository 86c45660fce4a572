package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The commands the demo asks the user to try name its vault as well as its
// root: pasted in a shell that exports PARLEY_VAULT (a user's Obsidian
// vault), they read the demo's vault, not that one, where transcripts
// verify called the demo's debate TAMPERED and consensus check found no
// vault. Not parallel: it sets PARLEY_VAULT for the process.
func TestDemoSuggestionsNameItsVault(t *testing.T) {
	t.Setenv("PARLEY_VAULT", filepath.Join(t.TempDir(), "my-obsidian-vault"))
	dir := filepath.Join(t.TempDir(), "demo")
	out, errs, code := runT(t, "", "demo", "--dir", dir)
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s", code, errs)
	}
	vault := "--vault " + filepath.Join(dir, "vault") + " "
	var tried int
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "try"))
		if !strings.HasPrefix(l, "parley ") {
			continue
		}
		tried++
		if !strings.Contains(l, vault) {
			t.Errorf("%q does not name the demo's vault", l)
			continue
		}
		if strings.Contains(l, "'") {
			continue // quoted words: consensus check, whose answer is a conflict
		}
		if _, errs, code := runT(t, "", strings.Fields(l)[1:]...); code != 0 {
			t.Errorf("%q pasted: exit %d\n%s", l, code, errs)
		}
	}
	if tried < 6 {
		t.Errorf("the demo suggested %d commands, want 6:\n%s", tried, out)
	}
}
