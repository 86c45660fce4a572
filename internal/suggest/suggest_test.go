package suggest

import (
	"os/exec"
	"testing"
)

func TestNear(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		typed, want string
		near        bool
	}{
		{"rn", "run", true},             // one edit
		{"chek", "check", true},         // one deletion
		{"mesenger", "messenger", true}, // one deletion in a long word
		{"trnascripts", "transcripts", true},
		{"STATS", "stats", true},   // case does not count
		{"con", "consensus", true}, // a prefix of two letters or more
		{"c", "consensus", false},  // one letter says too little
		{"", "run", false},
		{"lst", "list", true},
		{"xyz", "gc", false}, // short words allow one edit only
		{"ab", "gc", false},  // two edits from a short word
		{"zzzzzz", "debate", false},
		{"rooot", "root", true},
		{"wiat", "wait", true}, // two letters swapped: one edit
		{"rnu", "run", true},   // a swap in a short word
		{"mpc", "mcp", true},
		{"cg", "gc", true},
		{"nur", "run", false}, // two edits in a short word
		{"nru", "run", false}, // two swaps
	} {
		if got := Near(tc.typed, tc.want); got != tc.near {
			t.Errorf("Near(%q, %q) = %v, want %v", tc.typed, tc.want, got, tc.near)
		}
	}
}

func TestEdits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"same", "same", 0},
		{"ab", "ba", 1}, {"rnu", "run", 1}, {"ca", "abc", 3}, {"transcirpts", "transcripts", 1}, {"abcd", "badc", 2},
	} {
		if got := edits(tc.a, tc.b); got != tc.d {
			t.Errorf("edits(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
		if got := edits(tc.b, tc.a); got != tc.d {
			t.Errorf("edits(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.d)
		}
	}
}

func TestOrList(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"parley gate stats"}, "'parley gate stats'"},
		{[]string{"--root", "--rounds"}, "'--root' or '--rounds'"},
		{[]string{"a", "b", "c"}, "'a', 'b' or 'c'"},
	} {
		if got := OrList(tc.names); got != tc.want {
			t.Errorf("OrList(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

// A quoted word is read back by a real shell as the word itself, whatever
// it holds: spaces, quotes, $, backquotes, globs, newlines, nothing.
func TestQuoteSurvivesTheShell(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("a POSIX shell is needed: %v", err)
	}
	words := []string{"plain", "/tmp/my root", "it's", `a"b`, "$(touch /tmp/pwned)", "`id`", "*", "x\ny", "", "--vault=~/notes", "naïve", "'", "a\\b"}
	for _, w := range words {
		out, err := exec.Command(sh, "-c", "printf %s "+Quote(w)).Output()
		if err != nil || string(out) != w {
			t.Errorf("Quote(%q) = %s: the shell read %q (%v)", w, Quote(w), out, err)
		}
	}
	if got := Quote("20260101-spec-x_y.md"); got != "20260101-spec-x_y.md" {
		t.Errorf("a safe word is quoted: %s", got)
	}
	if got := CommandLine("parley", "--root", "/tmp/my root", "init"); got != "parley --root '/tmp/my root' init" {
		t.Errorf("CommandLine = %s", got)
	}
}
