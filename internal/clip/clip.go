// Package clip is the one way parley shortens text for a message, a log
// line, a table cell or an error: on one line, and cut to a number of runes
// with an ellipsis, never inside a UTF-8 sequence.
//
// It owns nothing else and imports only the standard library; every parley
// package may import it. It does not escape or sanitise: a caller that
// prints text it did not write still passes it through termsafe or the
// vault's escaping.
package clip

import (
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/lean"
)

// Runes returns s when it has at most n runes, else its first n-1 runes
// and "…" (n runes in all). n <= 0 means no limit. Invalid UTF-8 is kept
// as it is when nothing is cut.
func Runes(s string, n int) string {
	if n <= 0 || len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…"
}

// Bytes returns s when it is at most n bytes long, else its longest
// prefix of at most n bytes that ends on a rune boundary, and "…": for a
// bound that counts bytes (an echoed reply, a log field). n <= 0 means no
// limit.
func Bytes(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// OneLine collapses every run of white space (newlines included) to one
// space and trims both ends. Text already on one line is returned as it
// is, without allocating.
func OneLine(s string) string {
	if single(s) {
		return s
	}
	return lean.Join(lean.Fields(s), " ")
}

// single reports ASCII text with no white space but single inner spaces;
// anything else (non-ASCII included, which may hold Unicode spaces) takes
// the slow path.
func single(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return false
		}
	}
	return true
}

// Line is OneLine cut to n runes (Runes): how a quoted position, detail or
// name is shown in one line of output.
func Line(s string, n int) string { return Runes(OneLine(s), n) }
