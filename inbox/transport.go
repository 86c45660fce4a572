package inbox

import "context"

// Transport moves messages between agents' inboxes. Implementations are safe
// for concurrent use.
type Transport interface {
	// Send validates m (names, size), fills in ID and Timestamp when they
	// are empty, and delivers it to the inbox of m.To. Once Send returns nil
	// the message survives a crash of either side. An invalid name is
	// ErrInvalidName, an inbox that does not exist ErrNotFound, an encoded
	// message over MaxMessageBytes ErrTooLarge.
	Send(ctx context.Context, m *Message) error
	// Listen opens agent's inbox for receiving. Only one receiver may hold
	// an inbox at a time; a second gets ErrBusy.
	Listen(ctx context.Context, agent string) (Receiver, error)
	// Create makes agent's inbox exist; it is idempotent.
	Create(ctx context.Context, agent string) error
	// Exists reports whether agent has an inbox.
	Exists(ctx context.Context, agent string) (bool, error)
}

// Receiver claims the messages of one inbox. A Receiver is used by one
// goroutine at a time.
type Receiver interface {
	// Receive returns the next message: messages from one sender come in
	// the order they were sent. If a message is waiting it is returned even
	// when ctx is already done, so an expired context polls; otherwise
	// Receive blocks until one arrives or ctx is done (returning ctx.Err()).
	// A message is handed out once per receiver; one that is never acked
	// is delivered again to the next receiver of the inbox (at least once).
	// A second copy of an id already handed out by this receiver is acked
	// silently and not returned.
	Receive(ctx context.Context) (*Delivery, error)
	// Ack marks a delivery as handled; it is not delivered again.
	Ack(ctx context.Context, d *Delivery) error
	// Close releases the inbox. Unacked deliveries stay in it.
	Close() error
}

// Delivery is a message handed out by a Receiver, not yet acknowledged.
type Delivery struct {
	Message *Message
	// Handle identifies the delivery to the transport (for files, the
	// message's file name).
	Handle string
}

// Quarantine is a message a receiver set aside because it could not be
// read as one (malformed, truncated, binary, oversized): a file moved to
// bad/ beside its .reason sidecar, or, over NATS, a message moved to the
// inbox's dead-letter subject. Nothing is deleted. When setting it aside
// failed too (a full disk, a server that refuses), Err says why: it stays
// in the inbox, skipped by this receiver, for a later one to set aside.
type Quarantine struct {
	// Agent is the inbox's owner.
	Agent string
	// Where is where it is now: the quarantined file's absolute path, or
	// the dead-letter subject; when Err is set, where it stays (the file
	// in the inbox, or the inbox's subject and sequence).
	Where string
	// Reason says why it could not be read.
	Reason string
	// Err, when not nil, is why it could not be set aside.
	Err error
}

// QuarantineNotifier is implemented by a Receiver that can tell its caller
// about each message it sets aside, or fails to (see Quarantine), so that a person
// reading an inbox learns that a message came and could not be read rather
// than seeing nothing. NotifyQuarantine sets fn, called from within
// Receive on the receiver's goroutine for each message set aside from then
// on; nil stops the calls. Call it before Receive, from the goroutine that
// receives.
type QuarantineNotifier interface {
	NotifyQuarantine(fn func(Quarantine))
}
