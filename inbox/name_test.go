package inbox_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// specName is the allowlist of agent names as the spec writes it; the
// hand-written check must agree with it on every name.
var specName = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_-]*$`)

func TestValidateNameAgreesWithTheAllowlist(t *testing.T) {
	t.Parallel()
	// Every string of up to three characters over an alphabet that holds
	// each class of the allowlist and its neighbours in ASCII, plus names
	// a hostile sender would try.
	alphabet := []string{"a", "Z", "0", "9", "_", "-", ".", "/", "\\", " ", "\x00", "é", "\u202e", "`", "@", "[", "{", ":"}
	names := []string{"", "..", "../x", "a/b", strings.Repeat("a", inbox.MaxNameLen), strings.Repeat("a", inbox.MaxNameLen+1), "Alice\n", "-x"}
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		names = append(names, prefix)
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, depth-1)
		}
	}
	gen("", 3)
	for _, n := range names {
		want := n != "" && len(n) <= inbox.MaxNameLen && specName.MatchString(n)
		err := inbox.ValidateName(n)
		if (err == nil) != want {
			t.Errorf("ValidateName(%q) = %v, want valid=%v", n, err, want)
		}
		if err != nil && !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("ValidateName(%q) = %v, want ErrInvalidName", n, err)
		}
	}
}
