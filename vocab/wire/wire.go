// Package wire is the part of parley's vocabulary a message on the wire
// needs: agent names and the timestamp layout. vocab defines them through
// this package, which imports nothing that reflects (not even fmt), so
// that the plainest "parley send" can check a message before the rest of
// parley is initialised (internal/quicksend).
package wire

import (
	"errors"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/lean"
)

// TimeLayout is the format of every timestamp parley writes (messages,
// registrations, transcript events, sessions, decisions): RFC 3339, UTC,
// milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Now returns the current time in TimeLayout.
func Now() string { return time.Now().UTC().Format(TimeLayout) }

// MaxNameLen is the longest agent name accepted (pi-messenger's limit).
const MaxNameLen = 50

// ErrInvalidName means an agent name does not match the allowlist
// ^[a-zA-Z0-9_][a-zA-Z0-9_-]*$ or is longer than MaxNameLen.
var ErrInvalidName = errors.New("invalid_name")

// nameOK is the allowlist ^[a-zA-Z0-9_][a-zA-Z0-9_-]*$, written out so
// that the send path compiles no regular expression.
func nameOK(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case c == '-' && i > 0:
		default:
			return false
		}
	}
	return name != ""
}

// ValidateName checks an agent name against the allowlist: 1 to MaxNameLen
// letters, digits, '_' or '-', not starting with '-'. It is the one gate
// every name passes before it reaches the filesystem or the network; the
// error wraps ErrInvalidName.
func ValidateName(name string) error {
	if len(name) == 0 || len(name) > MaxNameLen || !nameOK(name) || !lean.IsLocal(name) {
		return &nameError{quoteName(name)}
	}
	return nil
}

// nameError is ValidateName's refusal of the name it quotes.
type nameError struct{ quoted string }

func (e *nameError) Error() string {
	return ErrInvalidName.Error() + ": " + e.quoted + " (use 1-" + strconv.Itoa(MaxNameLen) + " letters, digits, '_' or '-', not starting with '-')"
}

func (e *nameError) Unwrap() error { return ErrInvalidName }

// quotedNameLen bounds how much of a refused name its error quotes (in
// runes): a name pasted by mistake can be a whole paragraph.
const quotedNameLen = 60

// quoteName is name as a refusal quotes it: whole when it is short, else
// its first runes and "…" inside the quotes, so that the reader sees it
// goes on. It cuts as internal/clip.Runes does, which this leaf, importing
// no parley package, cannot call.
func quoteName(name string) string {
	if utf8.RuneCountInString(name) <= quotedNameLen {
		return strconv.Quote(name)
	}
	i, count := 0, 0
	for i = range name {
		if count == quotedNameLen-1 {
			break
		}
		count++
	}
	return strconv.Quote(name[:i] + "…")
}
