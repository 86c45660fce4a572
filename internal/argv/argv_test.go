package argv

import (
	"strings"
	"testing"
)

// parley's global flags.
var parley = Globals{Valued: []string{"--root", "--vault"}, Switches: []string{"--json", "--verbose", "-v"}}

// The command's name is the first word after the global flags, the value
// of --root or --vault never mistaken for it; any other flag, --, or
// nothing before it means there is none.
func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{"send --from A --to B hi", "send"},
		{"--root send send --from A", "send"},
		{"--root=/r --vault /v --json -v recv --as B", "recv"},
		{"--verbose=true --json=false agents list", "agents"},
		{"--version", ""},
		{"-h", ""},
		{"--", ""},
		{"", ""},
		{"--root", ""},
		{"--vault /v --root", ""},
		{"-v=true send", ""}, // only a long switch takes =V
		{"--rooted send", ""},
		{"--jsonx send", ""},
		{"help send", "help"},
		{"sned --from A", "sned"},
	} {
		if got := parley.Command(strings.Fields(tc.line)); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
	other := Globals{Valued: []string{"-C"}, Switches: []string{"-q"}}
	if got := other.Command([]string{"-C", "dir", "-q", "build", "-C"}); got != "build" {
		t.Errorf("another set of globals: %q, want build", got)
	}
}

// Only: the flag given, and nothing but global flags besides.
func TestOnly(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"--version", true},
		{"--json --version", true},
		{"--root /r --version -v", true},
		{"--root --version", false}, // --version is the root's value
		{"--vault=/v --version --json=true", true},
		{"--version -h", false},
		{"--version send", false},
		{"send --version", false},
		{"--version=true", false},
		{"--json", false},
		{"", false},
	} {
		if got := parley.Only(strings.Fields(tc.line), "--version"); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.line, got, tc.want)
		}
	}
}
