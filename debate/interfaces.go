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
type Journal interface {
	// Append records an event of kind with data encoded as JSON and
	// returns it as recorded.
	Append(ctx context.Context, kind EventKind, data any) (Event, error)
	// Events returns every event recorded so far, in order.
	Events() []Event
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
