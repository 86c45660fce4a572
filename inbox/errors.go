package inbox

import (
	"errors"
	"fmt"

	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/vocab"
)

var (
	// ErrInvalidName means an agent name does not match the allowlist
	// ^[a-zA-Z0-9_][a-zA-Z0-9_-]*$ or is longer than MaxNameLen
	// (vocab.ErrInvalidName: the same value).
	ErrInvalidName = vocab.ErrInvalidName
	// ErrNotFound means the agent has neither an inbox nor a registration.
	ErrNotFound = errors.New("not_found")
	// ErrTooLarge means an encoded message exceeds the size limit.
	ErrTooLarge = errors.New("message too large")
	// ErrMalformed means bytes do not decode to a valid message.
	ErrMalformed = errors.New("malformed message")
	// ErrBusy means another receiver already holds the inbox.
	ErrBusy = errors.New("inbox busy: another receiver holds it")
	// ErrClosed means the transport or receiver was closed.
	ErrClosed = errors.New("closed")
	// ErrUnknownDelivery means Ack was given a delivery this receiver did not hand out.
	ErrUnknownDelivery = errors.New("unknown delivery")
	// ErrUnsafePath means a symbolic link, file or special file stands where
	// parley expects one of its own directories; parley never follows it.
	ErrUnsafePath = errors.New("unsafe path")
	// ErrInboxGone means the inbox a receiver holds was removed or replaced
	// under it: messages sent now go where it does not look.
	ErrInboxGone = errors.New("the inbox was removed or replaced while it was read: start again to read the one there now")
)

// DeliveryError describes a failed operation on one agent's inbox.
type DeliveryError struct {
	Op    string // send, claim, ack, quarantine, listen
	Agent string
	Path  string // may be empty
	Err   error
}

func (e *DeliveryError) Error() string {
	s := fmt.Sprintf("%s %s: %v", e.Op, e.Agent, e.Err)
	if e.Path != "" {
		s = fmt.Sprintf("%s %s (%s): %v", e.Op, e.Agent, e.Path, e.Err)
	}
	if e.placed() {
		s += "; the message is in the inbox nonetheless (a crash before its directory is synced could undo that): do not send it again"
	}
	return s
}

func (e *DeliveryError) placed() bool {
	var pe *durable.PathError
	return e.Op == "send" && errors.As(e.Err, &pe) && pe.Placed
}

// Placed reports whether err is a send that failed once its message was in
// the inbox (the directory's sync, the last step): a receiver may have it
// already, so it is delivered, and sending it again would only be a copy.
func Placed(err error) bool {
	var de *DeliveryError
	return errors.As(err, &de) && de.placed()
}

func (e *DeliveryError) Unwrap() error { return e.Err }
