package inbox

import (
	"errors"

	"github.com/parleyhq/parley/internal/drop"
	"github.com/parleyhq/parley/vocab"
)

var (
	// ErrInvalidName means an agent name does not match the allowlist
	// ^[a-zA-Z0-9_][a-zA-Z0-9_-]*$ or is longer than MaxNameLen
	// (vocab.ErrInvalidName: the same value).
	ErrInvalidName = vocab.ErrInvalidName
	// ErrNotFound means the agent has neither an inbox nor a registration.
	ErrNotFound = drop.ErrNotFound
	// ErrTooLarge means an encoded message exceeds the size limit.
	ErrTooLarge = drop.ErrTooLarge
	// ErrMalformed means bytes do not decode to a valid message.
	ErrMalformed = drop.ErrMalformed
	// ErrBusy means another receiver already holds the inbox.
	ErrBusy = errors.New("inbox busy: another receiver holds it")
	// ErrClosed means the transport or receiver was closed.
	ErrClosed = errors.New("closed")
	// ErrUnknownDelivery means Ack was given a delivery this receiver did not hand out.
	ErrUnknownDelivery = errors.New("unknown delivery")
	// ErrUnsafePath means a symbolic link, file or special file stands where
	// parley expects one of its own directories; parley never follows it.
	ErrUnsafePath = drop.ErrUnsafePath
	// ErrInboxGone means the inbox a receiver holds was removed or replaced
	// under it: messages sent now go where it does not look.
	ErrInboxGone = errors.New("the inbox was removed or replaced while it was read: start again to read the one there now")
)

// DeliveryError describes a failed operation on one agent's inbox
// (internal/drop's, where a send is made).
type DeliveryError = drop.DeliveryError

// Placed reports whether err is a send that failed once its message was in
// the inbox (the directory's sync, the last step): a receiver may have it
// already, so it is delivered, and sending it again would only be a copy.
func Placed(err error) bool { return drop.Placed(err) }
