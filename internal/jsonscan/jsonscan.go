// Package jsonscan reads JSON text a byte at a time for what a decoder
// cannot be asked: where an object embedded in prose ends, which bytes
// stand outside strings.
package jsonscan

// Quoted tracks, byte by byte, whether JSON text is inside a string
// (escapes included). Its zero value starts outside one.
type Quoted struct{ in, escaped bool }

// Step reads the next byte c and reports whether it belongs to a string:
// its opening or closing quote, or a byte between them.
func (q *Quoted) Step(c byte) bool {
	switch {
	case q.escaped:
		q.escaped = false
		return true
	case q.in && c == '\\':
		q.escaped = true
		return true
	case c == '"':
		q.in = !q.in
		return true
	}
	return q.in
}
