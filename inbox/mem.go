package inbox

import (
	"context"
	"fmt"
	"strconv"
	"sync"
)

// MemTransport is an in-memory Transport with the same semantics as
// FileTransport, for tests and for debates that never leave one process.
// Nothing survives the process. The zero value is not usable; call
// NewMemTransport.
type MemTransport struct {
	mu    sync.Mutex
	seq   uint64
	boxes map[string]*memBox
}

var _ Transport = (*MemTransport)(nil)

type memBox struct {
	msgs   []memEntry // unacked, in send order
	held   bool
	notify chan struct{} // closed and replaced on every delivery
}

type memEntry struct {
	handle string
	data   []byte
}

// NewMemTransport returns an empty in-memory transport.
func NewMemTransport() *MemTransport {
	return &MemTransport{boxes: make(map[string]*memBox)}
}

func (t *MemTransport) box(agent string) *memBox {
	b := t.boxes[agent]
	if b == nil {
		b = &memBox{notify: make(chan struct{})}
		t.boxes[agent] = b
	}
	return b
}

func (t *MemTransport) Create(ctx context.Context, agent string) error {
	if err := ValidateName(agent); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.box(agent)
	return nil
}

func (t *MemTransport) Exists(ctx context.Context, agent string) (bool, error) {
	if err := ValidateName(agent); err != nil {
		return false, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.boxes[agent]
	return ok, nil
}

func (t *MemTransport) Send(ctx context.Context, m *Message) error {
	data, err := prepare(m)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	b, ok := t.boxes[m.To]
	if !ok {
		return &DeliveryError{Op: "send", Agent: m.To, Err: ErrNotFound}
	}
	t.seq++
	b.msgs = append(b.msgs, memEntry{handle: strconv.FormatUint(t.seq, 10), data: data})
	close(b.notify)
	b.notify = make(chan struct{})
	return nil
}

// prepare validates m, fills in its id and timestamp, and encodes it.
func prepare(m *Message) ([]byte, error) {
	if err := ValidateName(m.To); err != nil {
		return nil, &DeliveryError{Op: "send", Agent: m.To, Err: err}
	}
	if err := ValidateName(m.From); err != nil {
		return nil, &DeliveryError{Op: "send", Agent: m.To, Err: fmt.Errorf("from: %w", err)}
	}
	if m.ID == "" {
		m.ID = NewID()
	}
	if m.Timestamp == "" {
		m.Timestamp = Now()
	}
	data, err := m.Encode()
	if err != nil {
		return nil, &DeliveryError{Op: "send", Agent: m.To, Err: err}
	}
	return data, nil
}

func (t *MemTransport) Listen(ctx context.Context, agent string) (Receiver, error) {
	if err := ValidateName(agent); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	b, ok := t.boxes[agent]
	if !ok {
		return nil, &DeliveryError{Op: "listen", Agent: agent, Err: ErrNotFound}
	}
	if b.held {
		return nil, &DeliveryError{Op: "listen", Agent: agent, Err: ErrBusy}
	}
	b.held = true
	return &memReceiver{t: t, agent: agent, b: b, out: make(map[string]bool), seen: NewSeenSet(1 << 16)}, nil
}

type memReceiver struct {
	t      *MemTransport
	agent  string
	b      *memBox
	out    map[string]bool // handles handed out and not acked; guarded by t.mu
	seen   *SeenSet        // ids handed out; guarded by t.mu
	closed bool            // guarded by t.mu
}

func (r *memReceiver) Receive(ctx context.Context) (*Delivery, error) {
	for {
		r.t.mu.Lock()
		if r.closed {
			r.t.mu.Unlock()
			return nil, ErrClosed
		}
		var d *Delivery
		for i := 0; i < len(r.b.msgs); i++ {
			e := r.b.msgs[i]
			if r.out[e.handle] {
				continue
			}
			m, err := Decode(e.data)
			if err != nil { // cannot happen: Send encoded it
				r.t.mu.Unlock()
				return nil, err
			}
			if !r.seen.Add(m.ID) {
				r.b.msgs = append(r.b.msgs[:i], r.b.msgs[i+1:]...)
				i--
				continue
			}
			r.out[e.handle] = true
			d = &Delivery{Message: m, Handle: e.handle}
			break
		}
		wait := r.b.notify
		r.t.mu.Unlock()
		if d != nil {
			return d, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-wait:
		}
	}
}

func (r *memReceiver) Ack(ctx context.Context, d *Delivery) error {
	r.t.mu.Lock()
	defer r.t.mu.Unlock()
	if r.closed {
		return ErrClosed
	}
	if d == nil || !r.out[d.Handle] {
		return &DeliveryError{Op: "ack", Agent: r.agent, Err: ErrUnknownDelivery}
	}
	delete(r.out, d.Handle)
	for i, e := range r.b.msgs {
		if e.handle == d.Handle {
			r.b.msgs = append(r.b.msgs[:i], r.b.msgs[i+1:]...)
			break
		}
	}
	return nil
}

func (r *memReceiver) Close() error {
	r.t.mu.Lock()
	defer r.t.mu.Unlock()
	if !r.closed {
		r.closed = true
		r.b.held = false
	}
	return nil
}
