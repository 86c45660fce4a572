package jsonlite

import (
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how deeply a Reader lets arrays and objects nest (a
// top-level object is depth 1). Deeper input is ErrSyntax, however valid:
// the caller falls back to a full decoder, whose own limit is far above.
const MaxDepth = 64

var (
	// ErrSyntax reports input that is not RFC 8259 JSON (the UTF-8 of a
	// string included), or that nests deeper than MaxDepth.
	ErrSyntax = errors.New("jsonlite: not JSON, or nested too deep")
	// ErrUnexpected reports a valid value other than the one asked for: a
	// value of another Kind, or a number Int does not take.
	ErrUnexpected = errors.New("jsonlite: unexpected JSON value")
)

// Kind is the kind of a JSON value, as its first byte tells it.
type Kind uint8

// The kinds of value; Invalid is none (the end of the input, a byte that
// starts no value, or a Reader that has failed).
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// Reader reads one JSON text, a value at a time, from a byte slice: the
// caller asks for the value it expects next (Int, String, Bool, Object,
// Array, or Skip for any), and calls End once the top-level value is read.
// The first failure (ErrSyntax or ErrUnexpected) stops the Reader: every
// later call returns a zero value, and Err and End report that failure.
//
// It reads only RFC 8259 JSON: no byte-order mark, no comments, no
// trailing commas, no leading zeros, no control characters or invalid
// UTF-8 in strings, whitespace only of space, tab, newline and carriage
// return. Duplicate keys are the caller's to notice. A Reader is not safe
// for concurrent use; it does not modify data, and allocates only the
// strings String returns and one buffer, reused, to unescape into.
type Reader struct {
	data  []byte
	off   int
	depth int
	err   error
	key   []byte // what the last key or string with escapes unescaped to
}

// NewReader returns a Reader of data, which the caller must not modify
// while reading.
func NewReader(data []byte) *Reader {
	return &Reader{data: data}
}

// Err returns the Reader's failure, wrapping ErrSyntax or ErrUnexpected,
// or nil.
func (r *Reader) Err() error { return r.err }

// End checks that nothing but whitespace follows the value read, and
// returns Err (ErrSyntax for anything after the value, or for input left
// inside a value the caller stopped reading).
func (r *Reader) End() error {
	r.skipSpace()
	if r.err == nil && (r.off != len(r.data) || r.depth != 0) {
		r.fail(ErrSyntax)
	}
	return r.err
}

// Kind returns the kind of the next value, skipping whitespace before it,
// without reading it; Invalid once the Reader has failed.
func (r *Reader) Kind() Kind {
	if r.err != nil {
		return Invalid
	}
	r.skipSpace()
	if r.off >= len(r.data) {
		return Invalid
	}
	switch c := r.data[r.off]; {
	case c == '{':
		return Object
	case c == '[':
		return Array
	case c == '"':
		return String
	case c == '-' || '0' <= c && c <= '9':
		return Number
	case c == 't' || c == 'f':
		return Bool
	case c == 'n':
		return Null
	}
	return Invalid
}

// Skip reads the next value, whatever it is, checking it without decoding
// it (nor the keys of its objects).
func (r *Reader) Skip() {
	switch r.Kind() {
	case Null:
		r.literal("null")
	case Bool:
		r.Bool()
	case Number:
		r.number()
	case String:
		r.scanString()
	case Array:
		for range r.Array() {
			r.Skip()
		}
	case Object:
		for range r.members(false) {
			r.Skip()
		}
	default:
		r.fail(ErrSyntax)
	}
}

// Bool reads the next value, true or false.
func (r *Reader) Bool() bool {
	if !r.expect(Bool) {
		return false
	}
	if r.data[r.off] == 't' {
		r.literal("true")
		return r.err == nil
	}
	r.literal("false")
	return false
}

// Int reads the next value, a number without fraction or exponent within
// the range of an int64 ("-0" is 0); any other number is ErrUnexpected.
func (r *Reader) Int() int64 {
	if !r.expect(Number) {
		return 0
	}
	start := r.off
	if !r.number() {
		return 0
	}
	digits := r.data[start:r.off]
	neg := digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	limit := uint64(1<<63 - 1)
	if neg {
		limit++
	}
	var n uint64
	for _, c := range digits {
		if c < '0' || c > '9' || n > (limit-uint64(c-'0'))/10 {
			r.fail(ErrUnexpected) // a fraction, an exponent, or out of range
			return 0
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		return int64(-n) // -(1<<63) wraps to itself
	}
	return int64(n)
}

// String reads the next value, a string, and returns it unescaped. An
// escaped surrogate that is not half of a pair becomes U+FFFD, as in
// encoding/json and goccy/go-json.
func (r *Reader) String() string {
	if !r.expect(String) {
		return ""
	}
	s, escaped := r.scanString()
	if r.err != nil {
		return ""
	}
	if escaped {
		r.key = unescape(r.key[:0], s)
		s = r.key
	}
	return string(s)
}

// Object reads the next value, an object, for a range loop over its keys:
// the loop's body must read each key's value (with Skip if nothing else)
// before the next. A key is unescaped as String unescapes it, and is valid
// only until the Reader's next call. Another kind of value is
// ErrUnexpected and yields nothing.
func (r *Reader) Object() func(yield func(key []byte) bool) {
	return r.members(true)
}

// members is Object, whose keys are unescaped only if unescapeKeys (else
// they are as the input has them).
func (r *Reader) members(unescapeKeys bool) func(yield func(key []byte) bool) {
	return func(yield func(key []byte) bool) {
		if !r.open(Object) {
			return
		}
		if r.close('}') {
			return
		}
		for {
			r.skipSpace()
			if r.off >= len(r.data) || r.data[r.off] != '"' {
				r.fail(ErrSyntax)
				return
			}
			key, escaped := r.scanString()
			if escaped && unescapeKeys {
				r.key = unescape(r.key[:0], key)
				key = r.key
			}
			r.skipSpace()
			if r.err != nil || r.off >= len(r.data) || r.data[r.off] != ':' {
				r.fail(ErrSyntax)
				return
			}
			r.off++
			if !yield(key) || !r.next('}') {
				return
			}
		}
	}
}

// Array reads the next value, an array, for a range loop over its
// elements: the loop's body must read each element (with Skip if nothing
// else). Another kind of value is ErrUnexpected and yields nothing.
func (r *Reader) Array() func(yield func() bool) {
	return func(yield func() bool) {
		if !r.open(Array) {
			return
		}
		if r.close(']') {
			return
		}
		for yield() && r.next(']') {
		}
	}
}

// open reads the opening bracket of an object or array (k), one level
// deeper.
func (r *Reader) open(k Kind) bool {
	if !r.expect(k) {
		return false
	}
	if r.depth == MaxDepth {
		r.fail(ErrSyntax)
		return false
	}
	r.depth++
	r.off++
	return true
}

// close reads the closing bracket c, one level up, if it is next.
func (r *Reader) close(c byte) bool {
	r.skipSpace()
	if r.err != nil || r.off >= len(r.data) || r.data[r.off] != c {
		return false
	}
	r.off++
	r.depth--
	return true
}

// next reads what follows a member or element of an object or array closed
// by c: a comma (true: another follows) or c (false, as on failure).
func (r *Reader) next(c byte) bool {
	if r.err != nil {
		return false
	}
	r.skipSpace()
	if r.off < len(r.data) && r.data[r.off] == ',' {
		r.off++
		return true
	}
	if !r.close(c) {
		r.fail(ErrSyntax)
	}
	return false
}

// expect reports whether the next value is of kind k, failing the Reader
// if not: ErrSyntax when nothing valid starts there, else ErrUnexpected.
func (r *Reader) expect(k Kind) bool {
	switch got := r.Kind(); {
	case got == k:
		return true
	case got == Invalid:
		r.fail(ErrSyntax)
	default:
		r.fail(ErrUnexpected)
	}
	return false
}

// fail records err as the Reader's failure unless one is recorded.
func (r *Reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *Reader) skipSpace() {
	for r.off < len(r.data) {
		switch r.data[r.off] {
		case ' ', '\t', '\n', '\r':
			r.off++
		default:
			return
		}
	}
}

// literal reads lit (null, true or false), whose first byte is next.
func (r *Reader) literal(lit string) {
	if len(r.data)-r.off < len(lit) || string(r.data[r.off:r.off+len(lit)]) != lit {
		r.fail(ErrSyntax)
		return
	}
	r.off += len(lit)
}

// number reads a number by RFC 8259's grammar,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and reports whether it
// did. What follows it is for the caller to check: "01" is the number 0
// followed by a byte that no object, array or End accepts.
func (r *Reader) number() bool {
	d, i := r.data, r.off
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = digits(d, i)
	default:
		r.fail(ErrSyntax)
		return false
	}
	if i < len(d) && d[i] == '.' {
		j := digits(d, i+1)
		if j == i+1 {
			r.fail(ErrSyntax)
			return false
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			r.fail(ErrSyntax)
			return false
		}
		i = j
	}
	r.off = i
	return true
}

// digits returns the index of the first byte from i of d that is not a
// decimal digit.
func digits(d []byte, i int) int {
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}

// scanString reads the string whose opening quote is next, checking it,
// and returns what is between its quotes and whether that has escapes.
func (r *Reader) scanString() (content []byte, escaped bool) {
	d := r.data
	for i := r.off + 1; i < len(d); {
		switch c := d[i]; {
		case c == '"':
			content = d[r.off+1 : i]
			r.off = i + 1
			return content, escaped
		case c == '\\':
			escaped = true
			if i+1 >= len(d) {
				r.fail(ErrSyntax)
				return nil, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, ok := hex4(d[i+2:]); !ok {
					r.fail(ErrSyntax)
					return nil, false
				}
				i += 6
			default:
				r.fail(ErrSyntax)
				return nil, false
			}
		case c < ' ':
			r.fail(ErrSyntax)
			return nil, false
		case c < utf8.RuneSelf:
			i++
		default:
			rn, size := utf8.DecodeRune(d[i:])
			if rn == utf8.RuneError && size == 1 {
				r.fail(ErrSyntax)
				return nil, false
			}
			i += size
		}
	}
	r.fail(ErrSyntax) // unterminated
	return nil, false
}

// hex4 decodes the four hexadecimal digits at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var v rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// unescape appends to dst the content of a string that scanString has
// checked, with its escapes decoded.
func unescape(dst, s []byte) []byte {
	if cap(dst)-len(dst) < len(s) {
		dst = append(make([]byte, 0, len(dst)+max(len(s), 32)), dst...) // no escape is shorter than what it stands for
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		switch s[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			rn, _ := hex4(s[i+2:])
			i += 6
			if utf16.IsSurrogate(rn) {
				rn2 := rune(-1)
				if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
					rn2, _ = hex4(s[i+2:])
				}
				if pair := utf16.DecodeRune(rn, rn2); pair != utf8.RuneError {
					rn = pair
					i += 6
				} else {
					rn = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, rn)
			continue
		default: // '"', '\\' or '/'
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst
}
