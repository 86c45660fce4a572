package jetstream

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	json "github.com/goccy/go-json"
	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// Transport is the inbox.Transport of a JetStream server: every inbox is the
// subject parley.inbox.<Name> of the work-queue stream PARLEY, read through
// the durable pull consumer inbox_<Name>. It is safe for concurrent use.
//
// An inbox exists once its marker box.<Name> is in the PARLEY_INBOXES
// bucket (Create). Send publishes with the header Nats-Msg-Id set to
// "<Name>/<id>", so a Send retried within the stream's duplicate window is
// stored once. One receiver at a time holds an inbox through lock.<Name>, a
// key with a TTL that the receiver renews; see Listen.
type Transport struct {
	c     *Conn
	known sync.Map // agent name → struct{}: inboxes known to exist
}

var (
	_ inbox.Transport    = (*Transport)(nil)
	_ registry.Mailboxes = (*Transport)(nil)
)

// box is the value of an inbox marker.
type box struct {
	// Owner is the registry session the inbox belongs to; empty for an
	// inbox made ahead of its agent (parley agents add).
	Owner string `json:"owner"`
}

// maxBoxBytes bounds an inbox marker: room for any session id a
// registration (at most 64 KiB) can carry.
const maxBoxBytes = 80 << 10

// decodeBox reads an inbox marker.
func decodeBox(data []byte) (box, error) {
	var b box
	if len(data) > maxBoxBytes {
		return box{}, fmt.Errorf("inbox marker of %d bytes", len(data))
	}
	err := json.Unmarshal(data, &b)
	return b, err
}

func boxKey(agent string) string  { return "box." + agent }
func lockKey(agent string) string { return "lock." + agent }

// ConsumerName is the durable consumer of agent's inbox.
func ConsumerName(agent string) string { return "inbox_" + agent }

// Create makes agent's inbox exist; it is idempotent.
func (t *Transport) Create(ctx context.Context, agent string) error {
	if err := inbox.ValidateName(agent); err != nil {
		return err
	}
	if _, ok := t.known.Load(agent); ok {
		return nil
	}
	val, _ := json.Marshal(box{})
	err := t.c.retry(ctx, func(ctx context.Context) error {
		_, err := t.c.boxes.Create(ctx, boxKey(agent), val)
		if errors.Is(err, njs.ErrKeyExists) {
			return nil
		}
		return err
	})
	if err != nil {
		return &inbox.DeliveryError{Op: "create", Agent: agent, Path: InboxSubject(agent), Err: err}
	}
	t.known.Store(agent, struct{}{})
	return nil
}

// Exists reports whether agent has an inbox.
func (t *Transport) Exists(ctx context.Context, agent string) (bool, error) {
	if err := inbox.ValidateName(agent); err != nil {
		return false, err
	}
	if _, ok := t.known.Load(agent); ok {
		return true, nil
	}
	var found bool
	err := t.c.retry(ctx, func(ctx context.Context) error {
		_, err := t.c.boxes.Get(ctx, boxKey(agent))
		switch {
		case err == nil:
			found = true
			return nil
		case errors.Is(err, njs.ErrKeyNotFound), errors.Is(err, njs.ErrKeyDeleted):
			return nil
		}
		return err
	})
	if err != nil {
		return false, &inbox.DeliveryError{Op: "exists", Agent: agent, Path: InboxSubject(agent), Err: err}
	}
	if found {
		t.known.Store(agent, struct{}{})
	}
	return found, nil
}

// Send validates m (names, size), fills in its id and timestamp when empty,
// and publishes it to the inbox of m.To. It returns once the server has
// stored it (on a file-backed stream; with the server's default
// sync_interval the data reaches the disk within two minutes, at once with
// sync_interval: always or replicas). While the server cannot be reached
// Send retries, with the same message id, for up to Config.Retry.
func (t *Transport) Send(ctx context.Context, m *inbox.Message) error {
	if err := inbox.ValidateName(m.To); err != nil {
		return &inbox.DeliveryError{Op: "send", Agent: m.To, Err: err}
	}
	if err := inbox.ValidateName(m.From); err != nil {
		return &inbox.DeliveryError{Op: "send", Agent: m.To, Err: fmt.Errorf("from: %w", err)}
	}
	if m.ID == "" {
		m.ID = inbox.NewID()
	}
	if m.Timestamp == "" {
		m.Timestamp = inbox.Now()
	}
	data, err := m.Encode()
	if err != nil {
		return &inbox.DeliveryError{Op: "send", Agent: m.To, Err: err}
	}
	if limit := t.c.nc.MaxPayload() - headerRoom; int64(len(data)) > limit {
		return &inbox.DeliveryError{Op: "send", Agent: m.To, Err: fmt.Errorf("%w: %d bytes; the NATS server's max_payload allows %d (set max_payload: 2MB on the server for parley's 1 MiB limit)", inbox.ErrTooLarge, len(data), limit)}
	}
	ok, err := t.Exists(ctx, m.To)
	if err != nil {
		return err
	}
	if !ok {
		return &inbox.DeliveryError{Op: "send", Agent: m.To, Path: InboxSubject(m.To), Err: inbox.ErrNotFound}
	}
	msg := &nats.Msg{Subject: InboxSubject(m.To), Data: data, Header: nats.Header{}}
	msg.Header.Set(nats.MsgIdHdr, m.To+"/"+m.ID)
	err = t.c.retry(ctx, func(ctx context.Context) error {
		_, err := t.c.js.PublishMsg(ctx, msg, njs.WithExpectStream(StreamName))
		return err
	})
	if err != nil {
		var api *njs.APIError
		if errors.Is(err, nats.ErrMaxPayload) || errors.As(err, &api) && api.ErrorCode == njs.JSErrCodeStreamMessageExceedsMaximum {
			err = fmt.Errorf("%w: %v", inbox.ErrTooLarge, err)
		}
		return &inbox.DeliveryError{Op: "send", Agent: m.To, Path: InboxSubject(m.To), Err: err}
	}
	return nil
}

// Listen opens agent's inbox for receiving. It takes the inbox's hold
// (lock.<Name>, a key created with a TTL and renewed by the receiver every
// third of it): while another receiver holds the inbox, Listen fails with
// inbox.ErrBusy — unless that receiver's process, on this host, is dead,
// then its hold is taken over at once. A receiver on another host that
// died without closing holds the inbox until the TTL runs out.
//
// The receiver then resets the inbox's durable consumer (deleted and made
// again), so every message in the inbox — those a crashed receiver was
// handed and never acknowledged included — is delivered in stream order,
// that is in send order per sender.
func (t *Transport) Listen(ctx context.Context, agent string) (inbox.Receiver, error) {
	if err := inbox.ValidateName(agent); err != nil {
		return nil, err
	}
	ok, err := t.Exists(ctx, agent)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &inbox.DeliveryError{Op: "listen", Agent: agent, Path: InboxSubject(agent), Err: inbox.ErrNotFound}
	}
	l, err := t.c.acquire(ctx, agent)
	if err != nil {
		return nil, &inbox.DeliveryError{Op: "listen", Agent: agent, Path: InboxSubject(agent), Err: err}
	}
	r := newReceiver(t.c, agent, l)
	if err := r.start(ctx); err != nil {
		r.Close()
		return nil, &inbox.DeliveryError{Op: "listen", Agent: agent, Path: InboxSubject(agent), Err: err}
	}
	return r, nil
}

// Adopt hands agent's inbox (created if missing) to the registry session
// sessionID, as inbox.FileTransport.Adopt does: an inbox without an owner or
// already of sessionID keeps its mail; an inbox of another session (a
// recycled name) has its waiting messages moved to AsideSubject(agent, old
// session), kept, never lost, and their count is returned. Adopt takes the
// inbox's hold for the move, so it fails with inbox.ErrBusy while a
// receiver holds the inbox.
func (t *Transport) Adopt(ctx context.Context, agent, sessionID string) (int, error) {
	if sessionID == "" {
		return 0, &inbox.DeliveryError{Op: "adopt", Agent: agent, Err: errors.New("empty session id")}
	}
	if err := t.Create(ctx, agent); err != nil {
		return 0, err
	}
	l, err := t.c.acquire(ctx, agent)
	if err != nil {
		return 0, &inbox.DeliveryError{Op: "adopt", Agent: agent, Path: InboxSubject(agent), Err: err}
	}
	defer l.release()
	var e njs.KeyValueEntry
	if err := t.c.retry(ctx, func(ctx context.Context) (err error) {
		e, err = t.c.boxes.Get(ctx, boxKey(agent))
		return err
	}); err != nil {
		return 0, &inbox.DeliveryError{Op: "adopt", Agent: agent, Path: InboxSubject(agent), Err: err}
	}
	b, err := decodeBox(e.Value())
	if err != nil {
		t.c.log.Warn("an inbox marker does not decode; taking it as unowned", "op", "adopt", "agent", agent, "err", err)
	}
	if b.Owner == sessionID {
		return 0, nil
	}
	moved := 0
	if b.Owner != "" {
		if moved, err = t.moveAside(ctx, agent, b.Owner); err != nil {
			return moved, &inbox.DeliveryError{Op: "adopt", Agent: agent, Path: InboxSubject(agent), Err: err}
		}
	}
	// Written last: a crash before this point leaves the old owner, and
	// the next Adopt moves what is left.
	val, _ := json.Marshal(box{Owner: sessionID})
	if err := t.c.retry(ctx, func(ctx context.Context) error {
		_, err := t.c.boxes.Update(ctx, boxKey(agent), val, e.Revision())
		if isRevisionMismatch(err) { // an earlier attempt may have landed unanswered
			if cur, gerr := t.c.boxes.Get(ctx, boxKey(agent)); gerr == nil {
				if b, err := decodeBox(cur.Value()); err == nil && b.Owner == sessionID {
					return nil
				}
			}
		}
		return err
	}); err != nil {
		return moved, &inbox.DeliveryError{Op: "adopt", Agent: agent, Path: InboxSubject(agent), Err: err}
	}
	return moved, nil
}

// moveAside republishes every waiting message of agent to the aside
// subject of session, then deletes it from the inbox. A copy is published
// with the id aside/<Name>/<seq>, so a move repeated after a crash within
// the duplicate window stores it once.
func (t *Transport) moveAside(ctx context.Context, agent, session string) (int, error) {
	moved := 0
	for seq := uint64(1); ; {
		var raw *njs.RawStreamMsg
		err := t.c.retry(ctx, func(ctx context.Context) (err error) {
			raw, err = t.c.stream.GetMsg(ctx, seq, njs.WithGetMsgSubject(InboxSubject(agent)))
			return err
		})
		if errors.Is(err, njs.ErrMsgNotFound) {
			return moved, nil
		}
		if err != nil {
			return moved, err
		}
		msg := &nats.Msg{Subject: AsideSubject(agent, session), Data: raw.Data, Header: nats.Header{}}
		seqs := strconv.FormatUint(raw.Sequence, 10)
		msg.Header.Set(nats.MsgIdHdr, "aside/"+agent+"/"+seqs)
		msg.Header.Set(HeaderInbox, agent)
		msg.Header.Set(HeaderSeq, seqs)
		msg.Header.Set(HeaderSession, session)
		if err := t.c.retry(ctx, func(ctx context.Context) error {
			_, err := t.c.js.PublishMsg(ctx, msg, njs.WithExpectStream(StreamName))
			return err
		}); err != nil {
			return moved, err
		}
		if err := t.c.retry(ctx, func(ctx context.Context) error {
			err := t.c.stream.DeleteMsg(ctx, raw.Sequence)
			if errors.Is(err, njs.ErrMsgNotFound) {
				return nil
			}
			return err
		}); err != nil {
			return moved, err
		}
		moved++
		seq = raw.Sequence + 1
	}
}

// Count reports how many messages wait in agent's inbox (handed out but not
// yet acknowledged included), how many were acknowledged (always 0: an
// acknowledged message leaves the work-queue stream) and how many were
// dead-lettered.
func (t *Transport) Count(ctx context.Context, agent string) (waiting, acked, dead int, err error) {
	if err := inbox.ValidateName(agent); err != nil {
		return 0, 0, 0, err
	}
	counts, err := t.subjectCounts(ctx, "parley.*."+agent)
	if err != nil {
		return 0, 0, 0, &inbox.DeliveryError{Op: "count", Agent: agent, Path: InboxSubject(agent), Err: err}
	}
	return int(counts[InboxSubject(agent)]), 0, int(counts[DeadSubject(agent)]), nil
}

// AsideCount reports how many messages of agent's inbox were moved aside
// for the previous holder session.
func (t *Transport) AsideCount(ctx context.Context, agent, session string) (int, error) {
	if err := inbox.ValidateName(agent); err != nil {
		return 0, err
	}
	counts, err := t.subjectCounts(ctx, AsideSubject(agent, session))
	if err != nil {
		return 0, &inbox.DeliveryError{Op: "count", Agent: agent, Path: AsideSubject(agent, session), Err: err}
	}
	return int(counts[AsideSubject(agent, session)]), nil
}

// AsideTotal counts the messages of agent's inbox moved aside for all its
// earlier holder sessions (parley.aside.<agent>.*).
func (t *Transport) AsideTotal(ctx context.Context, agent string) (int, error) {
	if err := inbox.ValidateName(agent); err != nil {
		return 0, err
	}
	filter := AsideSubjects(agent)
	counts, err := t.subjectCounts(ctx, filter)
	if err != nil {
		return 0, &inbox.DeliveryError{Op: "count", Agent: agent, Path: filter, Err: err}
	}
	total := 0
	for _, n := range counts {
		total += int(n)
	}
	return total, nil
}

func (t *Transport) subjectCounts(ctx context.Context, filter string) (map[string]uint64, error) {
	var counts map[string]uint64
	err := t.c.retry(ctx, func(ctx context.Context) error {
		info, err := t.c.stream.Info(ctx, njs.WithSubjectFilter(filter))
		if err != nil {
			return err
		}
		counts = info.State.Subjects
		return nil
	})
	return counts, err
}
