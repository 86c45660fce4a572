// Package jsonlite writes and reads JSON without reflection, for the code
// that runs before the rest of parley is initialised (see
// internal/quicksend), which must import no package that uses reflect.
//
// AppendString writes a string as github.com/goccy/go-json's Marshal
// does; a Reader reads strict RFC 8259 JSON a value at a time, refusing
// what it cannot read with certainty so that its caller can fall back to
// the full decoder.
package jsonlite

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// plain reports whether a JSON string carries the ASCII byte c as it is:
// a printable one other than the quote and the backslash, and other than
// '<', '>' and '&', which goccy/go-json escapes for HTML by default. DEL is
// plain.
func plain(c byte) bool {
	return c >= ' ' && c < utf8.RuneSelf && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// AppendString appends s to dst as a JSON string, byte for byte what
// github.com/goccy/go-json's Marshal(s) returns with its default options
// (the version parley requires): '"' and '\\' escaped with a backslash;
// \b, \f, \n, \r and \t for those controls and \u00XX (lower-case hex) for
// the other characters below U+0020; '<', '>' and '&' as \u003c, \u003e and
// \u0026; U+2028 and U+2029 as \u2028 and \u2029; each byte that is not
// part of valid UTF-8 as \ufffd; everything else (DEL, U+FFFD itself, any
// other valid UTF-8) as it is. It is safe for concurrent use.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plain(c) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
