package debate

import (
	"context"
	"fmt"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
)

// MemJournal is an in-memory Journal for tests, examples and benchmarks:
// nothing survives the process. It is safe for concurrent use.
type MemJournal struct {
	mu     sync.Mutex
	events []Event
	sealed bool
	record string
	closed bool
}

var _ Journal = (*MemJournal)(nil)

// NewMemJournal returns an empty journal, or one holding events (a copy),
// as a resumed coordinator would find them.
func NewMemJournal(events ...Event) *MemJournal {
	return &MemJournal{events: append([]Event(nil), events...)}
}

// Append records an event.
func (j *MemJournal) Append(ctx context.Context, kind EventKind, elapsedMs int64, data any) (Event, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return Event{}, fmt.Errorf("encode %s event: %w", kind, err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return Event{}, fmt.Errorf("append to a closed journal")
	}
	e := Event{Seq: len(j.events) + 1, Kind: kind, At: time.Now().UTC().Format(inbox.TimeLayout), ElapsedMs: elapsedMs, Data: raw}
	j.events = append(j.events, e)
	return e, nil
}

// Events returns a copy of the events so far.
func (j *MemJournal) Events() []Event {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Event(nil), j.events...)
}

// Seal marks the journal sealed and remembers the record.
func (j *MemJournal) Seal(ctx context.Context, o *Outcome, record string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.sealed {
		return ErrSealed
	}
	j.sealed, j.record = true, record
	return nil
}

// Sealed reports whether Seal was called.
func (j *MemJournal) Sealed() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.sealed
}

// Record returns the record path given to Seal.
func (j *MemJournal) Record() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.record
}

// Close makes further appends fail.
func (j *MemJournal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closed = true
	return nil
}
