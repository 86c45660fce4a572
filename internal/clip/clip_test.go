package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRunes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 5, ""},
		{"short", 5, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"one too long", 11, "one too lo…"},
		{"no limit at all", 0, "no limit at all"},
		{"négociation", 4, "nég…"},
		{"日本語のテキスト", 3, "日本…"},
		{"a", 1, "a"},
		{"ab", 1, "…"},
	} {
		if got := Runes(tc.in, tc.n); got != tc.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestRunesNeverSplitsASequence(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("ü€😀", 40)
	for n := 1; n < 130; n++ {
		got := Runes(s, n)
		if !utf8.ValidString(got) {
			t.Fatalf("Runes(_, %d) = %q: invalid UTF-8", n, got)
		}
		if c := utf8.RuneCountInString(got); c > n {
			t.Fatalf("Runes(_, %d) has %d runes", n, c)
		}
	}
}

func TestLine(t *testing.T) {
	t.Parallel()
	in := "  the defender\n\tholds\r\n  its   ground  "
	if got, want := Line(in, 0), "the defender holds its ground"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	if got, want := Line(in, 12), "the defende…"; got != want {
		t.Errorf("Line(_, 12) = %q, want %q", got, want)
	}
}

func TestBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"0123456789", 4, "0123…"},
		{"né", 2, "n…"}, // é is two bytes: never half of it
		{"日本語", 5, "日…"},
		{"anything", 0, "anything"},
	} {
		if got := Bytes(tc.in, tc.n); got != tc.want {
			t.Errorf("Bytes(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
