package jsonlite

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	gojson "github.com/goccy/go-json"
)

// goccy is what AppendString must match: goccy/go-json's Marshal of s.
func goccy(t testing.TB, s string) []byte {
	t.Helper()
	b, err := gojson.Marshal(s)
	if err != nil {
		t.Fatalf("goccy Marshal(%q): %v", s, err)
	}
	return b
}

func TestAppendString(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("abcdefgh", 8) // past the lengths goccy/go-json scans by words and SIMD
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", `""`},
		{"plain", "GoldFalcon", `"GoldFalcon"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"other controls", "\x00\x01\x0b\x1f", `"\u0000\u0001\u000b\u001f"`},
		{"DEL as it is", "\x7f", "\"\x7f\""},
		{"HTML", "<a href='x'>&amp;</a>", `"\u003ca href='x'\u003e\u0026amp;\u003c/a\u003e"`},
		{"slash as it is", "a/b", `"a/b"`},
		{"line and paragraph separators", "a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"other E2 80 runes", "\u2027\u202a\u2026", "\"\u2027\u202a\u2026\""},
		{"invalid byte", "a\xffb", `"a\ufffdb"`},
		{"each byte of a bad sequence", "\xe2\x80", `"\ufffd\ufffd"`},
		{"truncated separator", "\xe2\x80x", `"\ufffd\ufffdx"`},
		{"surrogate encoded", "\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},
		{"overlong", "\xc0\xaf", `"\ufffd\ufffd"`},
		{"beyond U+10FFFF", "\xf4\x90\x80\x80", `"\ufffd\ufffd\ufffd\ufffd"`},
		{"U+FFFD as it is", "\ufffd", "\"\ufffd\""},
		{"multibyte", "héllo 世界 🦅", "\"héllo 世界 🦅\""},
		{"escape after a long run", long + "<\xff\u2028", `"` + long + `\u003c\ufffd\u2028"`},
		{"long with every kind", strings.Repeat("é<\n\xfe\u2029x", 9), `"` + strings.Repeat(`é\u003c\n\ufffd\u2029x`, 9) + `"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := AppendString(nil, tc.in)
			if string(got) != tc.want {
				t.Errorf("AppendString(%q)\n got %s\nwant %s", tc.in, got, tc.want)
			}
			if g := goccy(t, tc.in); !bytes.Equal(got, g) {
				t.Errorf("AppendString(%q) = %s, goccy/go-json %s", tc.in, got, g)
			}
		})
	}
}

func TestAppendStringAppends(t *testing.T) {
	t.Parallel()
	got := AppendString([]byte(`{"a":`), "<")
	if string(got) != `{"a":"\u003c"` {
		t.Fatalf("got %s", got)
	}
}

// Every rune, alone and amid text that takes goccy/go-json past its short
// string paths, comes out as goccy/go-json writes it; and the result is
// JSON that decodes back to the rune.
func TestAppendStringEveryRune(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("x", 40)
	var buf []byte
	for r := rune(0); r <= utf8.MaxRune; r++ {
		s := string(r) // a surrogate becomes U+FFFD, which is tested too
		for _, in := range []string{s, pad + s + pad} {
			buf = AppendString(buf[:0], in)
			if g := goccy(t, in); !bytes.Equal(buf, g) {
				t.Fatalf("U+%04X in %q: AppendString %s, goccy/go-json %s", r, in, buf, g)
			}
		}
		var back string
		if err := json.Unmarshal(AppendString(nil, s), &back); err != nil || back != s {
			t.Fatalf("U+%04X: decodes to %q, %v", r, back, err)
		}
	}
}

// Every byte, alone and amid text, valid UTF-8 or not.
func TestAppendStringEveryByte(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("é", 20)
	for b := 0; b < 256; b++ {
		s := string([]byte{byte(b)})
		for _, in := range []string{s, pad + s + pad, s + s + s} {
			got := AppendString(nil, in)
			if g := goccy(t, in); !bytes.Equal(got, g) {
				t.Fatalf("byte %#02x in %q: AppendString %s, goccy/go-json %s", b, in, got, g)
			}
			if !json.Valid(got) {
				t.Fatalf("byte %#02x: %s is not JSON", b, got)
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", `"\`, "<>&", "\x00\x1f\x7f", "\u2028\u2029", "\xe2\x80\xa8\xe2\x80", "\xff\xfe",
		"\xed\xa0\x80", "héllo 世界 🦅", strings.Repeat("0123456789abcdef", 5) + "<\u2029\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString(nil, s)
		if g := goccy(t, s); !bytes.Equal(got, g) {
			t.Fatalf("AppendString(%q)\n got %s\nwant %s (goccy/go-json)", s, got, g)
		}
		if utf8.ValidString(s) {
			var back string
			if err := json.Unmarshal(got, &back); err != nil || back != s {
				t.Fatalf("%s decodes to %q, %v; want %q", got, back, err, s)
			}
		}
	})
}

func BenchmarkAppendString(b *testing.B) {
	s := "/home/someone/projects/parley <worktree> \"main\" — 2026-11-30T10:00:00.000Z"
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendString(buf[:0], s)
	}
}
