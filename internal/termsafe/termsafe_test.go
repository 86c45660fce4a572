package termsafe

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, keep, want string
	}{
		{"plain text is returned as it is", "Use UUIDv7 keys — ok", "", "Use UUIDv7 keys — ok"},
		{"an escape sequence", "a\x1b[2Jb", "", "a\uFFFD[2Jb"},
		{"carriage return and backspace", "x\ry\bz", "", "x\uFFFDy\uFFFDz"},
		{"DEL and a C1 control", "a\x7fb\u009bc", "", "a\uFFFDb\uFFFDc"},
		{"line and paragraph separators", "a\u2028b\u2029c", "", "a\uFFFDb\uFFFDc"},
		{"bidi overrides and isolates", "a\u202eb\u2066c\u2069d\u202ae", "", "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe"},
		{"kept line breaks and tabs", "a\nb\tc\rd", "\n\t", "a\nb\tc\uFFFDd"},
		{"a tab alone kept", "a\nb\tc", "\t", "a\uFFFDb\tc"},
		{"zero-width joiners and emoji are text", "👩\u200d💻", "", "👩\u200d💻"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Clean(tc.in, tc.keep); got != tc.want {
				t.Errorf("Clean(%q, %q) = %q, want %q", tc.in, tc.keep, got, tc.want)
			}
		})
	}
}

func FuzzClean(f *testing.F) {
	f.Add("a\x1b[0m\u202e\n\t", "\n")
	f.Fuzz(func(t *testing.T, s, keep string) {
		for _, r := range Clean(s, keep) {
			if Unsafe(r) && !strings.ContainsRune(keep, r) {
				t.Fatalf("Clean(%q, %q) kept %U", s, keep, r)
			}
		}
	})
}
