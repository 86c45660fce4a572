// Package lean is the string and path functions of the packages a plain
// "parley send" initialises before the rest of parley (internal/quicksend),
// written without the strings and path/filepath packages.
//
// Go initialises packages in dependency order, the lexicographically first
// ready one next. strings waits for unicode, as reflect does, and sorts
// after it, so a package importing strings (or path/filepath, which does)
// is initialised only after reflect and every package that needs it and
// sorts before "strings": most of the binary (75 package initialisations,
// against 21 for one importing os alone). These functions do what the
// standard ones of the same names do, for the inputs these packages give
// them (TestLeanAgreesWithTheStandardLibrary); the paths are Unix's.
package lean

import (
	"os"
	"path"
	"unicode"
	"unicode/utf8"
)

// HasPrefix is strings.HasPrefix.
func HasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

// HasSuffix is strings.HasSuffix.
func HasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// TrimPrefix is strings.TrimPrefix.
func TrimPrefix(s, prefix string) string {
	if HasPrefix(s, prefix) {
		return s[len(prefix):]
	}
	return s
}

// CutPrefix is strings.CutPrefix.
func CutPrefix(s, prefix string) (after string, found bool) {
	if !HasPrefix(s, prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// CutSuffix is strings.CutSuffix.
func CutSuffix(s, suffix string) (before string, found bool) {
	if !HasSuffix(s, suffix) {
		return s, false
	}
	return s[:len(s)-len(suffix)], true
}

// Index is strings.Index.
func Index(s, substr string) int {
	for i := 0; i+len(substr) <= len(s); i++ {
		if s[i:i+len(substr)] == substr {
			return i
		}
	}
	return -1
}

// Contains is strings.Contains.
func Contains(s, substr string) bool { return Index(s, substr) >= 0 }

// Cut is strings.Cut.
func Cut(s, sep string) (before, after string, found bool) {
	if i := Index(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// IndexByte is strings.IndexByte.
func IndexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// LastIndexByte is strings.LastIndexByte.
func LastIndexByte(s string, c byte) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// IndexFunc is strings.IndexFunc.
func IndexFunc(s string, f func(rune) bool) int {
	for i, r := range s {
		if f(r) {
			return i
		}
	}
	return -1
}

// ContainsRune is strings.ContainsRune.
func ContainsRune(s string, r rune) bool {
	return IndexFunc(s, func(c rune) bool { return c == r }) >= 0
}

// TrimSpace is strings.TrimSpace.
func TrimSpace(s string) string {
	start := 0
	for start < len(s) {
		r, n := utf8.DecodeRuneInString(s[start:])
		if !unicode.IsSpace(r) {
			break
		}
		start += n
	}
	end := len(s)
	for end > start {
		r, n := utf8.DecodeLastRuneInString(s[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= n
	}
	return s[start:end]
}

// Fields is strings.Fields.
func Fields(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		switch space := unicode.IsSpace(r); {
		case space && start >= 0:
			out = append(out, s[start:i])
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// Join is strings.Join.
func Join(elems []string, sep string) string {
	var b []byte
	for i, e := range elems {
		if i > 0 {
			b = append(b, sep...)
		}
		b = append(b, e...)
	}
	return string(b)
}

// Repeat is strings.Repeat, for a count that is not negative.
func Repeat(s string, count int) string {
	b := make([]byte, 0, len(s)*count)
	for range count {
		b = append(b, s...)
	}
	return string(b)
}

// ReplaceAll is strings.ReplaceAll, for an old that is not empty.
func ReplaceAll(s, old, new string) string {
	var b []byte
	for {
		i := Index(s, old)
		if i < 0 {
			if b == nil {
				return s
			}
			return string(append(b, s...))
		}
		b = append(append(b, s[:i]...), new...)
		s = s[i+len(old):]
	}
}

// Map is strings.Map.
func Map(mapping func(rune) rune, s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if m := mapping(r); m >= 0 {
			b = utf8.AppendRune(b, m)
		}
	}
	return string(b)
}

// EqualFold is strings.EqualFold: s and t are equal under simple Unicode
// case folding.
func EqualFold(s, t string) bool {
	for s != "" && t != "" {
		sr, sn := utf8.DecodeRuneInString(s)
		tr, tn := utf8.DecodeRuneInString(t)
		s, t = s[sn:], t[tn:]
		if sr == tr {
			continue
		}
		if tr < sr {
			sr, tr = tr, sr
		}
		// The orbit of sr under SimpleFold, from sr upwards, must reach tr.
		r := unicode.SimpleFold(sr)
		for r != sr && r < tr {
			r = unicode.SimpleFold(r)
		}
		if r != tr {
			return false
		}
	}
	return s == t
}

// Abs is filepath.Abs: p joined to the working directory, cleaned.
func Abs(p string) (string, error) {
	if path.IsAbs(p) {
		return path.Clean(p), nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return path.Join(wd, p), nil
}

// IsLocal is filepath.IsLocal: p is not empty, not absolute, and does not
// lead out of the directory it is taken in.
func IsLocal(p string) bool {
	if p == "" || path.IsAbs(p) {
		return false
	}
	c := path.Clean(p)
	return c != ".." && !HasPrefix(c, "../")
}
