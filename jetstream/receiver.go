package jetstream

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/sleep"
)

// Receiver tuning.
const (
	// prefetch is how many messages the client buffers ahead of Receive.
	prefetch = 64
	// pollWait bounds how long a poll (Receive with a done context) waits
	// for a message the server says is on its way.
	pollWait = 2 * time.Second
	// seenIDs is how many handed-out ids a receiver remembers.
	seenIDs = 1 << 16
)

// receiver is the inbox.Receiver of Transport. Receive and Ack run on the
// caller's goroutine (one at a time, as the interface says) and own the
// consumer, the iterator and the delivery maps; Close may come from any
// goroutine and only flips closed and stops the iterator under mu.
type receiver struct {
	c     *Conn
	agent string
	hold  *hold

	cons      njs.Consumer
	gen       uint64 // c.reconnects() when the consumer was last reset
	regained  uint64 // hold.regained when the consumer was last reset
	epoch     uint64 // consumer resets so far
	dseq      uint64 // consumer sequence of the latest delivery since the reset
	stale     bool   // the iterator failed: reset before the next message
	out       map[uint64]*held
	poisoned  map[uint64]bool // undecodable messages that could not be dead-lettered
	seen      *inbox.SeenSet
	lastReset time.Time

	onQuarantine func(inbox.Quarantine) // told of each message dead-lettered, or nil

	mu     sync.Mutex
	iter   njs.MessagesContext // guarded by mu
	closed bool                // guarded by mu
}

var (
	_ inbox.Receiver           = (*receiver)(nil)
	_ inbox.QuarantineNotifier = (*receiver)(nil)
)

// NotifyQuarantine sets the function told of each message moved to the
// dead-letter subject, or that could not be. See inbox.QuarantineNotifier.
func (r *receiver) NotifyQuarantine(fn func(inbox.Quarantine)) { r.onQuarantine = fn }

// held is a message handed out and not acknowledged: its latest delivery
// (a redelivery replaces it) and the consumer reset it came from.
type held struct {
	msg   njs.Msg
	epoch uint64
	id    string
}

func newReceiver(c *Conn, agent string, h *hold) *receiver {
	return &receiver{c: c, agent: agent, hold: h, out: make(map[uint64]*held), poisoned: make(map[uint64]bool), seen: inbox.NewSeenSet(seenIDs)}
}

func (r *receiver) start(ctx context.Context) error {
	if !r.c.track(r) {
		return inbox.ErrClosed
	}
	return r.reset(ctx)
}

func (r *receiver) consumerConfig() njs.ConsumerConfig {
	return njs.ConsumerConfig{
		Durable:       ConsumerName(r.agent),
		Description:   "parley inbox of " + r.agent,
		FilterSubject: InboxSubject(r.agent),
		DeliverPolicy: njs.DeliverAllPolicy,
		AckPolicy:     njs.AckExplicitPolicy,
		AckWait:       r.c.cfg.AckWait,
		MaxDeliver:    -1,
		MaxAckPending: 1000,
		// Removed by the server when its receiver died without closing
		// (Close removes it otherwise).
		InactiveThreshold: r.c.cfg.Inactive,
	}
}

// reset deletes and re-creates the inbox's consumer and starts a new
// iterator on it: the server then delivers every message still in the
// inbox from the first, in stream order. It runs when the receiver opens,
// after every reconnection (a message in flight when the connection
// dropped would otherwise come back after AckWait, behind later ones), when
// the iterator fails, and when the hold was regained after expiring.
//
// It first makes sure, with the server, that the hold is still this
// receiver's (renewing it): a receiver whose hold expired and was taken by
// another receiver while it was cut off stops with ErrLockLost instead of
// deleting the new holder's consumer and taking the inbox back.
func (r *receiver) reset(ctx context.Context) error {
	r.stopIter()
	gen := r.c.reconnects()
	if err := r.hold.confirm(); err != nil {
		if errors.Is(err, ErrLockLost) {
			return fmt.Errorf("%w: %w", inbox.ErrBusy, err)
		}
		return fmt.Errorf("confirm the hold on the inbox: %w", err)
	}
	regained := r.hold.regained.Load()
	// A reset under way when ctx ends is finished, if it can be within
	// interrupt.Grace: a consumer deleted and not made again is the next
	// reset's to make.
	ctx, release := interrupt.AfterStop(ctx)
	defer release()
	err := r.c.retry(ctx, func(ctx context.Context) error {
		err := r.c.stream.DeleteConsumer(ctx, ConsumerName(r.agent))
		if errors.Is(err, njs.ErrConsumerNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("reset the consumer: %w", err)
	}
	var cons njs.Consumer
	if err := r.c.retry(ctx, func(ctx context.Context) (err error) {
		cons, err = r.c.stream.CreateOrUpdateConsumer(ctx, r.consumerConfig())
		return err
	}); err != nil {
		return fmt.Errorf("create the consumer: %w", err)
	}
	iter, err := cons.Messages(njs.PullMaxMessages(prefetch), njs.WithMessagesErrOnMissingHeartbeat(false))
	if err != nil {
		return fmt.Errorf("pull from the consumer: %w", err)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		iter.Stop()
		return inbox.ErrClosed
	}
	r.iter = iter
	r.mu.Unlock()
	r.cons, r.gen, r.regained, r.stale, r.dseq = cons, gen, regained, false, 0
	r.epoch++
	r.lastReset = time.Now()
	r.c.log.Debug("inbox consumer reset", "op", "receive", "agent", r.agent, "epoch", r.epoch, "held", len(r.out))
	return nil
}

func (r *receiver) stopIter() {
	r.mu.Lock()
	it := r.iter
	r.iter = nil
	r.mu.Unlock()
	if it != nil {
		it.Stop()
	}
}

func (r *receiver) needsReset() bool {
	return r.stale || r.c.reconnects() != r.gen || r.hold.regained.Load() != r.regained
}

// check returns the error that ends this receiver, if any.
func (r *receiver) check() error {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return inbox.ErrClosed
	}
	if r.hold.isLost() {
		return &inbox.DeliveryError{Op: "receive", Agent: r.agent, Path: InboxSubject(r.agent), Err: fmt.Errorf("%w: %w", inbox.ErrBusy, ErrLockLost)}
	}
	return nil
}

func (r *receiver) next(opts ...njs.NextOpt) (njs.Msg, error) {
	r.mu.Lock()
	it := r.iter
	r.mu.Unlock()
	if it == nil {
		return nil, njs.ErrMsgIteratorClosed
	}
	return it.Next(opts...)
}

// Receive returns the next message of the inbox. With ctx done (already,
// or while it waits) it polls: it asks the server whether a message is
// waiting or on its way and, if so, waits up to two seconds for it. While
// the server cannot be reached it keeps trying until ctx is done; it fails
// only when the receiver was closed (inbox.ErrClosed) or lost its hold
// (ErrLockLost, inbox.ErrBusy), or when a poll cannot reach the server.
func (r *receiver) Receive(ctx context.Context) (*inbox.Delivery, error) {
	polling := ctx.Err() != nil
	var pollUntil time.Time
	backoff := 50 * time.Millisecond
	for {
		if err := r.check(); err != nil {
			return nil, err
		}
		if r.needsReset() {
			if err := r.reset(ctx); err != nil {
				if errors.Is(err, inbox.ErrClosed) {
					return nil, err
				}
				if cerr := r.check(); cerr != nil {
					return nil, cerr
				}
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				r.c.log.Warn("cannot reset the inbox consumer; retrying", "op", "receive", "agent", r.agent, "err", err)
				if err := sleep.For(ctx, backoff); err != nil {
					return nil, err
				}
				backoff = min(2*backoff, time.Second)
				continue
			}
		}
		var msg njs.Msg
		var err error
		if polling {
			if pollUntil.IsZero() {
				n, err := r.inFlight(ctx)
				if err != nil {
					return nil, &inbox.DeliveryError{Op: "receive", Agent: r.agent, Path: InboxSubject(r.agent), Err: err}
				}
				if n <= 0 {
					return nil, ctx.Err()
				}
				pollUntil = time.Now().Add(pollWait)
			}
			left := time.Until(pollUntil)
			if left <= 0 {
				return nil, ctx.Err()
			}
			msg, err = r.next(njs.NextMaxWait(min(left, 100*time.Millisecond)))
		} else {
			wctx, cancel := context.WithTimeout(ctx, time.Second)
			msg, err = r.next(njs.NextContext(wctx))
			cancel()
		}
		if err != nil {
			switch {
			case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled), errors.Is(err, nats.ErrTimeout):
				if !polling && ctx.Err() != nil {
					// A message that is waiting is still returned: poll.
					polling = true
				}
			case errors.Is(err, nats.ErrConnectionClosed):
				return nil, inbox.ErrClosed
			default:
				if cerr := r.check(); cerr != nil {
					return nil, cerr
				}
				r.c.log.Warn("the inbox iterator stopped; resetting", "op", "receive", "agent", r.agent, "err", err)
				r.stale = true
				if time.Since(r.lastReset) < time.Second {
					if err := sleep.For(ctx, backoff); err != nil {
						return nil, err
					}
					backoff = min(2*backoff, time.Second)
				}
			}
			continue
		}
		if d := r.accept(ctx, msg); d != nil {
			return d, nil
		}
	}
}

// inFlight asks the server how many messages of the inbox are waiting for
// this receiver: not yet delivered, or delivered and neither handed out
// nor set aside as undeliverable.
//
// It runs when the caller's context is done (a poll, or a Ctrl-C), so it
// tries for no longer than a poll waits: a server out of reach is an
// error after pollWait, not after the full retry window. While the
// connection is down it is not asked at all (the question would wait for
// a reconnection): the poll fails at once as it would after pollWait, the
// error a deadline (callers that poll in a loop wait again) that says why.
func (r *receiver) inFlight(ctx context.Context) (int64, error) {
	if !r.c.connected() {
		return 0, fmt.Errorf("%w: the server is out of reach (%w)", context.DeadlineExceeded, nats.ErrDisconnected)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pollWait)
	defer cancel()
	var info *njs.ConsumerInfo
	err := r.c.retry(ctx, func(ctx context.Context) (err error) {
		info, err = r.cons.Info(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	return int64(info.NumPending) + int64(info.NumAckPending) - int64(len(r.out)) - int64(len(r.poisoned)), nil
}

// accept turns a delivered message into a Delivery, or returns nil when it
// is not to be handed out: a redelivery of a message already handed out, a
// second copy of an id, an undecodable message (dead-lettered), a message
// that arrived after a reconnection or while the hold is not fresh (the
// consumer is reset first).
//
// A message is handed out only while the hold is fresh (see hold.fresh):
// a receiver whose renewals have not reached the server for half a TTL may
// have lost the inbox to another receiver without knowing it yet, and the
// consumer it pulls from would then be the new holder's. It resets instead,
// which confirms the hold first (ErrLockLost when it is gone) and delivers
// the message again in order.
func (r *receiver) accept(ctx context.Context, msg njs.Msg) *inbox.Delivery {
	if r.c.reconnects() != r.gen {
		return nil
	}
	if !r.hold.fresh() {
		_ = msg.Nak() // whoever holds the consumer gets it again at once
		r.stale = true
		return nil
	}
	meta, err := msg.Metadata()
	if err != nil {
		r.c.log.Warn("a delivery without metadata; ignored", "op", "receive", "agent", r.agent, "err", err)
		return nil
	}
	if meta.Sequence.Consumer != r.dseq+1 {
		// The consumer numbers every delivery, redeliveries included: a
		// gap means a delivery went to another puller (a receiver that
		// lost its hold and has not noticed yet) or was dropped on the way,
		// and would come back after AckWait, behind later messages.
		// Resetting delivers everything again in stream order.
		r.c.log.Warn("a delivery of the inbox consumer went elsewhere; resetting to keep the order", "op", "receive", "agent", r.agent,
			"want", r.dseq+1, "got", meta.Sequence.Consumer)
		r.stale = true
		return nil
	}
	r.dseq = meta.Sequence.Consumer
	seq := meta.Sequence.Stream
	if h, ok := r.out[seq]; ok {
		// Delivered again (AckWait passed, or the consumer was reset): the
		// latest delivery is the one to acknowledge.
		h.msg, h.epoch = msg, r.epoch
		return nil
	}
	if r.poisoned[seq] {
		return nil
	}
	m, err := inbox.Decode(msg.Data())
	if err != nil {
		r.deadLetter(ctx, msg, seq, err.Error())
		return nil
	}
	if !r.seen.Add(m.ID) {
		r.c.log.Debug("a second copy of a message; acknowledged", "op", "receive", "agent", r.agent, "msg_id", m.ID)
		_ = msg.Ack()
		return nil
	}
	r.out[seq] = &held{msg: msg, epoch: r.epoch, id: m.ID}
	return &inbox.Delivery{Message: m, Handle: strconv.FormatUint(seq, 10)}
}

// deadLetter moves an undecodable message to the inbox's dead-letter
// subject with the reason, then acknowledges it. A message that cannot be
// moved stays in the inbox, is never handed out, and is logged and told
// (with its Err) once.
func (r *receiver) deadLetter(ctx context.Context, msg njs.Msg, seq uint64, reason string) {
	seqs := strconv.FormatUint(seq, 10)
	dl := &nats.Msg{Subject: DeadSubject(r.agent), Data: msg.Data(), Header: nats.Header{}}
	dl.Header.Set(nats.MsgIdHdr, "dead/"+r.agent+"/"+seqs)
	dl.Header.Set(HeaderReason, reason)
	dl.Header.Set(HeaderInbox, r.agent)
	dl.Header.Set(HeaderSeq, seqs)
	ctx, release := interrupt.AfterStop(ctx)
	defer release()
	err := r.c.retry(ctx, func(ctx context.Context) error {
		_, err := r.c.js.PublishMsg(ctx, dl, njs.WithExpectStream(StreamName))
		return err
	})
	if err == nil {
		err = r.c.retry(ctx, func(ctx context.Context) error {
			err := msg.DoubleAck(ctx)
			if errors.Is(err, njs.ErrMsgAlreadyAckd) {
				return nil
			}
			return err
		})
	}
	if err != nil {
		r.poisoned[seq] = true
		r.c.log.Error("a message that does not decode could not be dead-lettered; it stays in the inbox", "op", "quarantine", "agent", r.agent, "seq", seq, "reason", reason, "err", err)
		if r.onQuarantine != nil {
			r.onQuarantine(inbox.Quarantine{Agent: r.agent, Where: fmt.Sprintf("%s (stream sequence %d)", InboxSubject(r.agent), seq), Reason: reason, Err: err})
		}
		return
	}
	r.c.log.Warn("moved a message that does not decode to the dead-letter subject", "op", "quarantine", "agent", r.agent, "seq", seq, "path", DeadSubject(r.agent), "reason", reason)
	if r.onQuarantine != nil {
		r.onQuarantine(inbox.Quarantine{Agent: r.agent, Where: DeadSubject(r.agent), Reason: reason})
	}
}

// Ack acknowledges d: the server removes it from the inbox (a double ack,
// answered by the server). A delivery from before a consumer reset is
// removed from the stream directly. While the server cannot be reached Ack
// retries for up to Config.Retry.
func (r *receiver) Ack(ctx context.Context, d *inbox.Delivery) error {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return inbox.ErrClosed
	}
	if d == nil || d.Message == nil {
		return &inbox.DeliveryError{Op: "ack", Agent: r.agent, Err: inbox.ErrUnknownDelivery}
	}
	seq, err := strconv.ParseUint(d.Handle, 10, 64)
	h, ok := r.out[seq]
	if err != nil || !ok || h.id != d.Message.ID {
		return &inbox.DeliveryError{Op: "ack", Agent: r.agent, Err: inbox.ErrUnknownDelivery}
	}
	err = r.c.retry(ctx, func(ctx context.Context) error {
		if h.epoch == r.epoch {
			err := h.msg.DoubleAck(ctx)
			if errors.Is(err, njs.ErrMsgAlreadyAckd) {
				return nil
			}
			return err
		}
		err := r.c.stream.DeleteMsg(ctx, seq)
		if errors.Is(err, njs.ErrMsgNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		return &inbox.DeliveryError{Op: "ack", Agent: r.agent, Path: InboxSubject(r.agent), Err: err}
	}
	delete(r.out, seq)
	return nil
}

// Close releases the inbox; unacknowledged messages stay in it and go to
// the next receiver. It is idempotent and may be called from any goroutine.
func (r *receiver) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	it := r.iter
	r.iter = nil
	r.mu.Unlock()
	if it != nil {
		it.Stop()
	}
	// The consumer goes with the receiver, while the hold is still this
	// receiver's (so it is never a new holder's): the next receiver makes
	// its own (reset), and what was delivered but not acknowledged stays
	// in the stream for it. Kept, every inbox ever listened to would keep
	// a durable consumer on the server, whose default limit of 1000 per
	// stream then refuses every new one. Only while the hold is known to
	// be this receiver's (confirmed within half its TTL, never lost); best
	// effort: otherwise, or with the server out of reach (not even tried:
	// a request sent while disconnected waits for a reconnection, and a
	// stop must not), the next receiver's reset replaces it.
	if r.c.connected() && !r.hold.isLost() && r.hold.fresh() {
		ctx, cancel := context.WithTimeout(context.Background(), interrupt.Grace)
		_ = r.c.stream.DeleteConsumer(ctx, ConsumerName(r.agent))
		cancel()
	}
	r.hold.release()
	r.c.untrack(r)
	return nil
}
