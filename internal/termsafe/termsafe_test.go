package termsafe

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"
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

// TestWriterNeutralisesEveryEscape: what reaches the terminal through a
// Writer holds no control character but newline and tab, no bidi override
// and no invalid byte, however the text is split across writes.
func TestWriterNeutralisesEveryEscape(t *testing.T) {
	t.Parallel()
	hostile := "ok\x1b]52;c;cm0gLXJmIH4=\x07 \x1b[2J\x9b31m \u202egnp.exe\u202c é 日本 \r\bend\n\ttab"
	for split := 1; split <= len(hostile); split++ {
		var b strings.Builder
		w := NewWriter(&b)
		for i := 0; i < len(hostile); i += split {
			if _, err := w.Write([]byte(hostile[i:min(i+split, len(hostile))])); err != nil {
				t.Fatal(err)
			}
		}
		w.Flush()
		got := b.String()
		for _, r := range got {
			if Unsafe(r) && r != '\n' && r != '\t' {
				t.Fatalf("split %d: %q reached the terminal in %q", split, r, got)
			}
		}
		if !utf8.ValidString(got) || !strings.Contains(got, "é 日本") || !strings.HasSuffix(got, "end\n\ttab") {
			t.Fatalf("split %d: %q", split, got)
		}
	}
}

// Escape leaves no unsafe rune but those kept, shows each as an escape a
// reader can see, and leaves safe text as it was.
func TestEscapeShowsWhatItRemoves(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"build ok":                        "build ok",
		"\x1b]52;c;cGF5bG9hZA==\x07 done": `\x1b]52;c;cGF5bG9hZA==\x07 done`,
		"line one\nline two\tcol":         "line one\nline two\tcol",
		"a\u202egnp.exe":                  `a\u202egnp.exe`,
		"\u009b2Jcleared":                 `\x9b2Jcleared`,
		"para\u2029graph\r":               `para\u2029graph\x0d`,
		"日本語 ✓":                           "日本語 ✓",
	} {
		if got := Escape(in, "\t\n"); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Escape("one\ntwo", "\t"); got != `one\x0atwo` {
		t.Errorf("a newline not kept: %q", got)
	}
	var all strings.Builder
	for r := rune(0); r < 0x2100; r++ {
		all.WriteRune(r)
	}
	for _, r := range Escape(all.String(), "\n") {
		if Unsafe(r) && r != '\n' {
			t.Fatalf("Escape left %U", r)
		}
	}
}

// A pipe, a regular file, /dev/null (a character device: what cron, CI,
// nohup and a closed standard input give) and a value that is no file at
// all are not terminals; a pseudo-terminal, as a terminal emulator gives,
// is one.
func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var closed *os.File
	for _, v := range []any{w, f, null, closed, &strings.Builder{}, nil} {
		if IsTerminal(v) {
			t.Errorf("%T %v is a terminal", v, v)
		}
	}
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	if !IsTerminal(tty) {
		t.Errorf("the pseudo-terminal %s is not a terminal", tty.Name())
	}
}

func TestCleanBytes(t *testing.T) {
	t.Parallel()
	clean := []byte("plain text\n\twith a tab")
	if got := CleanBytes(clean, "\n\t"); &got[0] != &clean[0] {
		t.Error("CleanBytes copied text with nothing to replace")
	}
	if got := string(CleanBytes([]byte("a\u202eb\x00c\r\nd"), "\n\r")); got != "a\uFFFDb\uFFFDc\r\nd" {
		t.Errorf("CleanBytes = %q", got)
	}
}

// An error is said on one line, and what it quotes never drives the
// terminal.
func TestErrorLine(t *testing.T) {
	t.Parallel()
	if got := ErrorLine(errors.New(" refused \"a\u202eb\"\nsecond line\x1b[2J \n")); got != "refused \"a\uFFFDb\" second line\uFFFD[2J" {
		t.Errorf("ErrorLine = %q", got)
	}
}
