package lean

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// agree checks every function of lean against the standard library's of
// the same name on s and t.
func agree(t *testing.T, s, u string) {
	t.Helper()
	eq := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s(%q, %q) = %v, the standard library's %v", name, s, u, got, want)
		}
	}
	eq("HasPrefix", HasPrefix(s, u), strings.HasPrefix(s, u))
	eq("HasSuffix", HasSuffix(s, u), strings.HasSuffix(s, u))
	eq("TrimPrefix", TrimPrefix(s, u), strings.TrimPrefix(s, u))
	a, ok := CutPrefix(s, u)
	sa, sok := strings.CutPrefix(s, u)
	eq("CutPrefix", [2]any{a, ok}, [2]any{sa, sok})
	a, ok = CutSuffix(s, u)
	sa, sok = strings.CutSuffix(s, u)
	eq("CutSuffix", [2]any{a, ok}, [2]any{sa, sok})
	eq("Index", Index(s, u), strings.Index(s, u))
	eq("Contains", Contains(s, u), strings.Contains(s, u))
	b, c, ok := Cut(s, u)
	sb, sc, sok := strings.Cut(s, u)
	eq("Cut", [3]any{b, c, ok}, [3]any{sb, sc, sok})
	if u != "" {
		eq("IndexByte", IndexByte(s, u[0]), strings.IndexByte(s, u[0]))
		eq("LastIndexByte", LastIndexByte(s, u[0]), strings.LastIndexByte(s, u[0]))
		eq("ReplaceAll", ReplaceAll(s, u, "<"+u+">"), strings.ReplaceAll(s, u, "<"+u+">"))
	}
	for _, r := range u {
		eq("ContainsRune", ContainsRune(s, r), strings.ContainsRune(s, r))
	}
	eq("IndexFunc", IndexFunc(s, unicode.IsUpper), strings.IndexFunc(s, unicode.IsUpper))
	eq("TrimSpace", TrimSpace(s), strings.TrimSpace(s))
	if !slices.Equal(Fields(s), strings.Fields(s)) {
		t.Errorf("Fields(%q) = %q, the standard library's %q", s, Fields(s), strings.Fields(s))
	}
	eq("Join", Join([]string{s, u, s}, u), strings.Join([]string{s, u, s}, u))
	eq("Repeat", Repeat(s, 3), strings.Repeat(s, 3))
	upper := func(r rune) rune {
		if r == 'x' {
			return -1
		}
		return unicode.ToUpper(r)
	}
	eq("Map", Map(upper, s), strings.Map(upper, s))
	eq("EqualFold", EqualFold(s, u), strings.EqualFold(s, u))
	eq("IsLocal", IsLocal(s), filepath.IsLocal(s))
	got, err := Abs(s)
	want, werr := filepath.Abs(s)
	eq("Abs", [2]any{got, err == nil}, [2]any{want, werr == nil})
}

// The functions agree with the standard library's on the hard cases:
// empty strings, invalid UTF-8, Unicode spaces and case folds, paths
// with dots.
func TestLeanAgreesWithTheStandardLibrary(t *testing.T) {
	t.Parallel()
	cases := []string{"", " ", "a", "ab", "abc", "x", "Straße", "STRASSE", "ſ", "S", "s", "K", "\u212a", "k",
		"\u00a0 hi \u2003\n", "\t\v\f\r\n\x85", "\xff", "\xff\xfe", "a\xffb", "é", "É", "ǅ", "ǆ", "Ǆ",
		"..", "../x", "a/../..", "/abs", "a/./b", "./", "a//b/", "--root", "--vault=v", "=", "===",
		"x-y-x", "aaa", "aa", "send --from A"}
	for _, s := range cases {
		for _, u := range cases {
			agree(t, s, u)
		}
	}
	if wd, err := os.Getwd(); err == nil {
		agree(t, wd, "/")
	}
}

// The same, on strings drawn by the fuzzer.
func FuzzLean(f *testing.F) {
	f.Add("Hello, World", "o")
	f.Add("ſ K \u212a", "S k")
	f.Add("a\xffb", "\xff")
	f.Fuzz(func(t *testing.T, s, u string) { agree(t, s, u) })
}
