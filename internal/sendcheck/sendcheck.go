// Package sendcheck is the one judgement of whether a message can be
// sent: its names, type, reply id and text. app.SendRequest words its
// refusals from it, and the plainest "parley send" (internal/quicksend)
// asks it before the rest of parley is initialised, so it imports nothing
// that reflects: of parley's, only drop (the send's wire form), vocab/wire
// and clip.
package sendcheck

import (
	"unicode"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/drop"
	"github.com/parleyhq/parley/internal/lean"
	"github.com/parleyhq/parley/vocab/wire"
)

// MaxReplyTo bounds the id a message answers.
const MaxReplyTo = 200

// The problems a Fault names: the values of app's Problem of the same
// name (app.ProblemMissing, ProblemName, ProblemInvalid, ProblemTooLarge,
// ProblemNotText).
const (
	Missing  = "missing"
	Name     = "invalid_name"
	Invalid  = "invalid"
	TooLarge = "too_large"
	NotText  = "not_text"
)

// Fault is why a message cannot be sent, in app's terms: the problem, the
// input field, the cause, and the message's template ("{field}" stands for
// the front end's name of the field) with its arguments.
type Fault struct {
	Problem string
	Field   string
	Cause   error
	Tmpl    string
	Args    []any
}

// Addressed refuses a message without its sender or its recipient: the
// check a front end can make before it reads the text.
func Addressed(from, to string) *Fault {
	if from != "" && to != "" {
		return nil
	}
	field := "from"
	if from != "" {
		field = "to"
	}
	return &Fault{Problem: Missing, Field: field, Tmpl: "send needs {from} and {to}"}
}

// Message is the message from sends to, of type typ (drop.TypeText when
// empty), answering replyTo, with text (less a leading byte order mark: a
// file saved by Notepad, PowerShell's UTF-8 piped in), with a new id and
// the time now (inbox.FromHead makes it an inbox.Message); or the Fault
// that refuses it (Check).
func Message(from, to, typ, replyTo, text string) (drop.Head, *Fault) {
	text = lean.TrimPrefix(text, "\ufeff")
	if f := Check(from, to, typ, replyTo, text); f != nil {
		return drop.Head{}, f
	}
	if typ == "" {
		typ = drop.TypeText
	}
	return drop.Head{ID: drop.NewID(), From: from, To: to, Text: text, Timestamp: wire.Now(), Type: typ, ReplyTo: replyTo}, nil
}

// Check is the fault of a message from, to, of type typ (drop.TypeText
// when empty), answering replyTo, with text (a leading byte order mark
// already trimmed), or nil when it can be sent. The checks go in this
// order, so that the first fault a sender meets is the same whoever asks.
func Check(from, to, typ, replyTo, text string) *Fault {
	if f := Addressed(from, to); f != nil {
		return f
	}
	if err := wire.ValidateName(from); err != nil {
		return &Fault{Problem: Name, Field: "from", Cause: err, Tmpl: "{from}: %v", Args: []any{err}}
	}
	if err := wire.ValidateName(to); err != nil {
		return &Fault{Problem: Name, Field: "to", Cause: err, Tmpl: "{to}: %v", Args: []any{err}}
	}
	if typ == "" {
		typ = drop.TypeText
	}
	if !TypeOK(typ) {
		return &Fault{Problem: Invalid, Field: "type", Tmpl: "{type} %q: use lower-case letters, digits and '_', starting with a letter", Args: []any{clip.Runes(typ, 81)}}
	}
	if len(replyTo) > MaxReplyTo {
		return &Fault{Problem: Invalid, Field: "reply_to", Tmpl: "{reply_to}: an id is at most %d characters", Args: []any{MaxReplyTo}}
	}
	if !ReplyToOK(replyTo) {
		return &Fault{Problem: Invalid, Field: "reply_to", Tmpl: "{reply_to} %q: give the id of the message answered (no spaces or control characters, not starting with '-')", Args: []any{clip.Runes(replyTo, 81)}}
	}
	if len(text) > drop.MaxMessageBytes {
		return &Fault{Problem: TooLarge, Field: "text", Cause: drop.ErrTooLarge, Tmpl: "%v: {text} is over %d bytes; send a shorter text or put the content in a file and send its path", Args: []any{drop.ErrTooLarge, drop.MaxMessageBytes}}
	}
	if lean.TrimSpace(text) == "" {
		return &Fault{Problem: Invalid, Field: "text", Tmpl: "nothing to send: {text} is empty"}
	}
	if !IsText(text) {
		return &Fault{Problem: NotText, Field: "text", Cause: drop.ErrMalformed, Tmpl: "{text} is not UTF-8 text; nothing sent (send text, or put the content in a file and send its path)"}
	}
	return nil
}

// TypeOK is the allowlist ^[a-z][a-z0-9_]{0,63}$ of message types, written
// out so that sending compiles no regular expression.
func TypeOK(t string) bool {
	if t == "" || len(t) > 64 || t[0] < 'a' || t[0] > 'z' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if c := t[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// ReplyToOK reports whether id can be the id of a message answered: ""
// (none), or UTF-8 with no space or control character, not starting with
// '-' (an id forgotten after --reply-to, whose next flag was taken as the
// id). Ids are UUIDs, or another tool's tokens; none is a sentence.
func ReplyToOK(id string) bool {
	if lean.HasPrefix(id, "-") || !utf8.ValidString(id) {
		return false
	}
	for _, c := range id {
		if unicode.IsSpace(c) || !unicode.IsGraphic(c) {
			return false
		}
	}
	return true
}

// IsText reports whether s is text an agent or a person can read: valid
// UTF-8 (encoding would turn every invalid byte into U+FFFD, so what
// arrived would not be what was sent) without a NUL byte, which valid
// UTF-8 allows but no text holds: a UTF-16 file without its byte order
// mark, a file of zeros, most binaries. The one judgement of a message's
// text and a debate's context.
func IsText(s string) bool {
	return utf8.ValidString(s) && lean.IndexByte(s, 0) < 0
}
