package app

import "strings"

// InputError is input the caller must correct: a layer, verdict, mode or
// limit that means nothing, a missing or empty field. The command line
// shows it as a usage error (exit 2) naming the flag; the MCP server as a
// tool error naming the argument.
type InputError struct {
	// Field names the input at fault ("layer", "limit"); "" when Err
	// says it all.
	Field string
	Err   error
	// Hint says what would be accepted, or "".
	Hint string
}

// Error is "field: err (hint)"; a message that already begins with the
// field's name is not prefixed twice.
func (e *InputError) Error() string {
	s := e.Err.Error()
	if e.Field != "" && !strings.HasPrefix(s, e.Field+" ") {
		s = e.Field + ": " + s
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *InputError) Unwrap() error { return e.Err }
