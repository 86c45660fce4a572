package jetstream

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"
	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/registry"
)

// holdValue is the value of lock.<Name>: who holds the inbox.
type holdValue struct {
	Holder string `json:"holder"` // random id of this hold
	Host   string `json:"host"`
	PID    int    `json:"pid"`
	Since  string `json:"since"`
}

// maxStateBytes bounds the values parley reads from the inbox bucket.
const maxStateBytes = 4 << 10

// decodeHold reads a hold's value. A value that does not decode or names no
// holder (written by something else) is a hold of an unknown holder: it
// still makes the inbox busy until it expires.
func decodeHold(data []byte) holdValue {
	var v holdValue
	if len(data) > maxStateBytes || json.Unmarshal(data, &v) != nil || v.Holder == "" {
		return holdValue{Holder: "?", Host: "an unknown host"}
	}
	return v
}

// hold is one receiver's exclusive hold on an inbox: the key lock.<Name>
// of the inbox bucket, created with a TTL, renewed every third of the TTL
// by compare-and-swap on its revision. The server deletes it when it is not
// renewed in time, so a holder that died frees the inbox after the TTL.
type hold struct {
	c     *Conn
	agent string
	key   string
	id    string
	val   []byte

	mu  sync.Mutex
	rev uint64 // guarded by mu
	// confirmedAt is when the latest renewal the server stored was sent
	// (with the monotonic clock): the hold lasts at least a TTL from then.
	confirmedAt time.Time // guarded by mu

	// regained counts the times the hold expired and was taken again by
	// this holder: whatever another receiver did meanwhile, the consumer
	// must be reset.
	regained atomic.Uint64
	lost     chan struct{} // closed (once, by markLost) when another holder took the inbox
	lostOnce sync.Once
	stop     chan struct{}
	done     chan struct{}
	once     sync.Once
}

// acquire takes agent's hold, or fails with inbox.ErrBusy naming the
// holder. A hold of a dead process of this host is taken over.
func (c *Conn) acquire(ctx context.Context, agent string) (*hold, error) {
	h := &hold{c: c, agent: agent, key: lockKey(agent), id: inbox.NewID(),
		lost: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	h.val, _ = json.Marshal(holdValue{Holder: h.id, Host: c.host, PID: os.Getpid(), Since: inbox.Now()})
	for tries := 0; ; tries++ {
		var rev uint64
		sent := time.Now()
		err := c.retry(ctx, func(ctx context.Context) (err error) {
			sent = time.Now()
			rev, err = c.boxes.Create(ctx, h.key, h.val, njs.KeyTTL(c.cfg.LockTTL))
			return err
		})
		if err == nil {
			h.renewed(rev, sent)
			break
		}
		if !errors.Is(err, njs.ErrKeyExists) {
			return nil, err
		}
		var e njs.KeyValueEntry
		err = c.retry(ctx, func(ctx context.Context) (err error) {
			e, err = c.boxes.Get(ctx, h.key)
			return err
		})
		if errors.Is(err, njs.ErrKeyNotFound) || errors.Is(err, njs.ErrKeyDeleted) {
			if tries < 8 {
				continue // released or expired meanwhile
			}
		}
		if err != nil {
			return nil, err
		}
		cur := decodeHold(e.Value())
		if cur.Holder == h.id { // our own create, whose answer was lost
			// When it landed is unknown: the hold is not fresh until
			// renewed (the first Receive confirms it).
			h.rev = e.Revision()
			break
		}
		if cur.Host == c.host && cur.PID > 0 && !registry.PIDAlive(cur.PID) {
			sent := time.Now()
			rev, err := c.putHold(ctx, h.key, h.val, e.Revision())
			if err == nil {
				c.log.Info("took over the hold of a dead receiver", "op", "listen", "agent", agent, "pid", cur.PID)
				h.renewed(rev, sent)
				break
			}
			if !isRevisionMismatch(err) {
				return nil, err
			}
			continue // someone else was quicker: look again
		}
		return nil, fmt.Errorf("%w (a receiver on %s, pid %d, since %s)", inbox.ErrBusy, cur.Host, cur.PID, cur.Since)
	}
	go h.renew()
	return h, nil
}

// putHold writes the hold with a fresh TTL if the key is still at revision
// last.
func (c *Conn) putHold(ctx context.Context, key string, val []byte, last uint64) (uint64, error) {
	msg := &nats.Msg{Subject: "$KV." + InboxBucket + "." + key, Data: val}
	pa, err := c.js.PublishMsg(ctx, msg, njs.WithMsgTTL(c.cfg.LockTTL), njs.WithExpectLastSequencePerSubject(last))
	if err != nil {
		return 0, err
	}
	return pa.Sequence, nil
}

func isRevisionMismatch(err error) bool {
	var api *njs.APIError
	return errors.Is(err, njs.ErrKeyRevisionMismatch) ||
		errors.As(err, &api) && (api.ErrorCode == njs.JSErrCodeStreamWrongLastSequence || api.ErrorCode == njs.JSErrCodeStreamWrongLastSequenceConstant)
}

// renew keeps the hold alive until release or until it is lost.
func (h *hold) renew() {
	defer close(h.done)
	every := h.c.cfg.LockTTL / 3
	t := time.NewTimer(every)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		next, err := h.renewOnce()
		if errors.Is(err, ErrLockLost) {
			return
		}
		t.Reset(next)
	}
}

// confirm renews the hold at once and returns nil only when the server
// says it is still this holder's (ErrLockLost when another holder has the
// inbox; another error when the server could not tell). A receiver calls
// it before it resets the inbox's consumer: a receiver whose hold expired
// while it was cut off, and was taken by another, must not delete the new
// holder's consumer and take the inbox back.
func (h *hold) confirm() error {
	_, err := h.renewOnce()
	return err
}

// markLost records that another holder took the inbox.
func (h *hold) markLost() { h.lostOnce.Do(func() { close(h.lost) }) }

// renewOnce renews the hold once and returns when to renew next. err is
// nil when the hold is this holder's with a fresh TTL, ErrLockLost (and the
// hold is marked lost) when another holder has the inbox, and the failure
// when the server could not tell.
func (h *hold) renewOnce() (next time.Duration, err error) {
	every := h.c.cfg.LockTTL / 3
	ctx, cancel := context.WithTimeout(context.Background(), every)
	// release does not wait for a renewal the server does not answer.
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-h.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	defer func() {
		cancel()
		<-watched
	}()
	for attempt := 0; ; attempt++ {
		h.mu.Lock()
		last := h.rev
		h.mu.Unlock()
		sent := time.Now()
		rev, err := h.c.putHold(ctx, h.key, h.val, last)
		if err == nil {
			h.renewed(rev, sent)
			return every, nil
		}
		if !isRevisionMismatch(err) {
			if errors.Is(err, nats.ErrConnectionClosed) {
				return every, err
			}
			h.c.log.Warn("cannot renew the hold on an inbox; retrying", "op", "hold", "agent", h.agent, "err", err)
			return min(every, time.Second), err
		}
		// The key moved on: a renewal of ours landed without an answer,
		// it expired (the server was unreachable longer than the TTL), or
		// another receiver holds it.
		e, err := h.c.boxes.Get(ctx, h.key)
		switch {
		case errors.Is(err, njs.ErrKeyNotFound), errors.Is(err, njs.ErrKeyDeleted):
			sent := time.Now()
			rev, err := h.c.boxes.Create(ctx, h.key, h.val, njs.KeyTTL(h.c.cfg.LockTTL))
			if err != nil {
				return min(every, time.Second), err // look again soon
			}
			h.renewed(rev, sent)
			h.regained.Add(1)
			h.c.log.Warn("the hold on an inbox had expired; taken again", "op", "hold", "agent", h.agent)
			return every, nil
		case err != nil:
			return min(every, time.Second), err
		}
		cur := decodeHold(e.Value())
		if cur.Holder != h.id {
			h.c.log.Error("another receiver took the inbox", "op", "hold", "agent", h.agent, "holder_host", cur.Host, "holder_pid", cur.PID)
			h.markLost()
			return 0, fmt.Errorf("%w (a receiver on %s, pid %d, since %s)", ErrLockLost, cur.Host, cur.PID, cur.Since)
		}
		// Ours, from an attempt whose answer was lost: when it landed is
		// unknown, so renew once more from its revision.
		h.mu.Lock()
		h.rev = e.Revision()
		h.mu.Unlock()
		if attempt > 0 {
			return min(every, time.Second), errors.New("the hold keeps changing under its holder")
		}
	}
}

// renewed records a renewal sent at sent that the server stored as rev.
func (h *hold) renewed(rev uint64, sent time.Time) {
	h.mu.Lock()
	h.rev = rev
	if sent.After(h.confirmedAt) {
		h.confirmedAt = sent
	}
	h.mu.Unlock()
}

// fresh reports whether the hold is certainly still this holder's: the
// server stored a renewal sent less than half a TTL ago, so the key cannot
// have expired, and no other receiver can have taken the inbox. A receiver
// hands out a message only while its hold is fresh.
func (h *hold) fresh() bool {
	h.mu.Lock()
	at := h.confirmedAt
	h.mu.Unlock()
	return !at.IsZero() && time.Since(at) < h.c.cfg.LockTTL/2
}

// isLost reports whether another receiver took the inbox.
func (h *hold) isLost() bool {
	select {
	case <-h.lost:
		return true
	default:
		return false
	}
}

// release stops renewing and deletes the hold if it is still ours. It is
// idempotent.
func (h *hold) release() {
	h.once.Do(func() {
		close(h.stop)
		<-h.done
		if h.isLost() {
			return
		}
		if !h.c.connected() {
			// Not even tried (a request sent while disconnected waits
			// for a reconnection): the hold expires by itself, and a
			// receiver of this host takes it over at once.
			h.c.log.Warn("the server is out of reach: the hold on the inbox expires by itself", "op", "hold", "agent", h.agent)
			return
		}
		h.mu.Lock()
		rev := h.rev
		h.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), interrupt.Grace)
		defer cancel()
		if err := h.c.boxes.Purge(ctx, h.key, njs.LastRevision(rev)); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			h.c.log.Warn("cannot release the hold on an inbox; it expires by itself", "op", "hold", "agent", h.agent, "err", err)
		}
	})
}
