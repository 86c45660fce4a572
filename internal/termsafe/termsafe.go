// Package termsafe keeps text that parley did not write (agents' turns,
// records, messages) from driving the terminal it is printed on: control
// characters (escape sequences, carriage returns, backspaces), Unicode line
// and paragraph separators, and the bidirectional overrides and isolates
// that reorder what a reader sees ("Trojan Source").
package termsafe

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/lean"
)

// Unsafe reports whether r must not reach a terminal as it is.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f: // C0, DEL, C1
		return true
	case r == '\u2028', r == '\u2029': // line and paragraph separators
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069': // bidi overrides and isolates
		return true
	}
	return false
}

// Clean replaces every unsafe rune of s but those in keep (such as "\n\t")
// with U+FFFD. It returns s itself when there is nothing to replace.
func Clean(s, keep string) string {
	bad := func(r rune) bool { return Unsafe(r) && !lean.ContainsRune(keep, r) }
	if lean.IndexFunc(s, bad) < 0 {
		return s
	}
	return lean.Map(func(r rune) rune {
		if bad(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// ErrorLine is the line that says err on a terminal or in a log: its
// message on one line (newlines become spaces), every unsafe rune replaced:
// an error can quote what it refused (a name, a line of a file), and must
// never drive the terminal.
func ErrorLine(err error) string {
	return Clean(lean.ReplaceAll(lean.TrimSpace(err.Error()), "\n", " "), "")
}

// CleanBytes is Clean of a byte slice: b itself when there is nothing to
// replace, else a copy with every unsafe rune but those in keep replaced
// by U+FFFD.
func CleanBytes(b []byte, keep string) []byte {
	bad := func(r rune) bool { return Unsafe(r) && !lean.ContainsRune(keep, r) }
	// A page is mostly printable ASCII: that is passed over byte by byte.
	i := 0
	for i < len(b) {
		if c := b[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if bad(r) {
			break
		}
		i += n
	}
	if i == len(b) {
		return b
	}
	return bytes.Map(func(r rune) rune {
		if bad(r) {
			return '\uFFFD'
		}
		return r
	}, b)
}

// Escape writes every unsafe rune of s but those in keep as a visible
// escape (\x1b, \u202e) rather than replacing it: what another process
// sent stays readable, and no escape sequence reaches the terminal nor can
// forge or reorder the lines around it. It returns s itself when there is
// nothing to escape.
func Escape(s, keep string) string {
	bad := func(r rune) bool { return Unsafe(r) && !lean.ContainsRune(keep, r) }
	if lean.IndexFunc(s, bad) < 0 {
		return s
	}
	var b bytes.Buffer
	for _, r := range s {
		switch {
		case !bad(r):
			b.WriteRune(r)
		case r < 0x100:
			b.WriteString(`\x`)
			writeHex(&b, r, 2)
		default:
			b.WriteString(`\u`)
			writeHex(&b, r, 4)
		}
	}
	return b.String()
}

// writeHex writes r in lower-case hexadecimal, at least width digits
// (fmt's %0*x, which this package, imported before the rest of parley is
// initialised, does without: internal/quicksend).
func writeHex(b *bytes.Buffer, r rune, width int) {
	h := strconv.FormatInt(int64(r), 16)
	for i := len(h); i < width; i++ {
		b.WriteByte('0')
	}
	b.WriteString(h)
}
