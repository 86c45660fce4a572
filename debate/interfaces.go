package debate

import (
	"context"

	"github.com/parleyhq/parley/inbox"
)

// Messenger is what a coordinator needs of the messenger: send to an agent,
// and receive the replies sent to itself. inbox.Transport satisfies it.
type Messenger interface {
	Send(ctx context.Context, m *inbox.Message) error
	Listen(ctx context.Context, agent string) (inbox.Receiver, error)
	Create(ctx context.Context, agent string) error
}

var _ Messenger = inbox.Transport(nil)

// Journal records one debate's events, in order, durably: when Append
// returns nil the event survives a crash. Package transcripts implements it
// as a hash-chained JSONL file.
//
// A Journal is used by one coordinator goroutine at a time.
type Journal interface {
	// Append records an event of kind, at elapsedMs of the coordinator's
	// active time, with data encoded as JSON, and returns it as recorded.
	// Every event is durable when Append returns, except an EventRequest,
	// which may become durable only with the next event: a request is
	// derived again from the rest of the journal after a crash.
	Append(ctx context.Context, kind EventKind, elapsedMs int64, data any) (Event, error)
	// Events returns every event recorded so far, in order.
	Events() []Event
	// Seal writes the closing summary (verdict.json) beside the events:
	// the outcome, where its record was filed, and the head of the
	// journal, so that lost trailing events are detected. It is written
	// once; a second Seal fails with an error satisfying
	// errors.Is(err, ErrSealed).
	Seal(ctx context.Context, o *Outcome, record string) error
	// Sealed reports whether Seal has completed, in this process or before.
	Sealed() bool
	Close() error
}

// Filer files a closed debate's outcome (the consensus record, the readable
// transcript page) and returns where the record is. A debate counts as
// closed only once its Filer returned. Filing the same debate again must be
// idempotent: it rewrites the same record rather than adding one.
type Filer interface {
	File(ctx context.Context, o *Outcome) (record string, err error)
}

// Presence tells whether an agent is alive, so that a coordinator stops
// waiting for an agent whose process died.
type Presence interface {
	Alive(ctx context.Context, agent string) (bool, error)
}
