package consensus

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// Supersession rewrites only parley's keys of the older record: a user's
// own properties (nested aliases, anchors, block scalars, comments, odd
// values) and the body survive byte for byte.
func TestSupersessionKeepsUserKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := outcome("20261130-spec-thumbs-aaaaaa", "Thumbnail image format", debate.LayerSpec, debate.ConsensusReached, false)
	p := e.file(t, a)
	full := filepath.Join(e.vaultDir, filepath.FromSlash(p))
	orig := e.read(t, p)
	user := "aliases:\n  - Thumbs\n  - \"Image: thumbnails\"\n# my note, keep it\nowner: &me\n  name: Ana\n  teams: [web, perf]\nreviewer: *me\nnotes: |\n  line one\n    indented ---\nrating: 4.5\nlegacy: yes\n"
	edited := strings.Replace(orig, "type: \"consensus\"\n", "type: \"consensus\"\n"+user, 1) + "\nMy own paragraph under the record.\n"
	if !strings.Contains(edited, user) {
		t.Fatal("the test did not add the user keys")
	}
	if err := os.WriteFile(full, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	b := outcome("20261201-spec-thumbs-bbbbbb", "Thumbnail image format", debate.LayerSpec, debate.ConsensusReached, false)
	e.file(t, b)
	got := e.read(t, p)
	// Only status, superseded_by and updated differ.
	norm := regexp.MustCompile(`(?m)^(status|superseded_by|updated):.*$`)
	if norm.ReplaceAllString(got, "$1: X") != norm.ReplaceAllString(edited, "$1: X") {
		t.Fatalf("supersession changed more than parley's keys:\n--- before\n%s\n--- after\n%s", edited, got)
	}
	for _, want := range []string{"status: \"superseded\"\n", "superseded_by: \"[[spec-thumbnail-image-format-2]]\"\n", user, "My own paragraph under the record.\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("older record lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(e.logs.String(), "dropped") {
		t.Errorf("a value was dropped: %s", e.logs.String())
	}
}
