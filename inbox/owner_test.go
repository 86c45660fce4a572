package inbox_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// AsideName keeps a session id that is a valid name and turns any other
// into a valid name of its own, the same each time, different per session.
func TestAsideName(t *testing.T) {
	t.Parallel()
	uuid := "0b9f5c1e-3d2a-4f6b-9c8d-7e6f5a4b3c2d"
	if got := inbox.AsideName(uuid); got != uuid {
		t.Errorf("AsideName(%q) = %q, want it unchanged", uuid, got)
	}
	seen := map[string]string{}
	for _, s := range []string{"../../etc", "a b", "a.b", "x/y", "*", ">", "", strings.Repeat("s", 300), "\xff"} {
		got := inbox.AsideName(s)
		if err := inbox.ValidateName(got); err != nil {
			t.Errorf("AsideName(%q) = %q, not a valid name: %v", s, got, err)
		}
		if got != inbox.AsideName(s) {
			t.Errorf("AsideName(%q) is not stable", s)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("AsideName(%q) = AsideName(%q) = %q", s, other, got)
		}
		seen[got] = s
	}
}
