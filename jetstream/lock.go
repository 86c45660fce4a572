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

	// regained counts the times the hold expired and was taken again by
	// this holder: whatever another receiver did meanwhile, the consumer
	// must be reset.
	regained atomic.Uint64
	lost     chan struct{} // closed when another holder took the inbox
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
		err := c.retry(ctx, func(ctx context.Context) (err error) {
			rev, err = c.boxes.Create(ctx, h.key, h.val, njs.KeyTTL(c.cfg.LockTTL))
			return err
		})
		if err == nil {
			h.rev = rev
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
			h.rev = e.Revision()
			break
		}
		if cur.Host == c.host && cur.PID > 0 && !registry.PIDAlive(cur.PID) {
			rev, err := c.putHold(ctx, h.key, h.val, e.Revision())
			if err == nil {
				c.log.Info("took over the hold of a dead receiver", "op", "listen", "agent", agent, "pid", cur.PID)
				h.rev = rev
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
		next, gone := h.renewOnce()
		if gone {
			close(h.lost)
			return
		}
		t.Reset(next)
	}
}

// renewOnce renews the hold once and returns when to renew next, or gone
// when another holder has the inbox.
func (h *hold) renewOnce() (next time.Duration, gone bool) {
	every := h.c.cfg.LockTTL / 3
	ctx, cancel := context.WithTimeout(context.Background(), every)
	defer cancel()
	h.mu.Lock()
	last := h.rev
	h.mu.Unlock()
	rev, err := h.c.putHold(ctx, h.key, h.val, last)
	if err == nil {
		h.mu.Lock()
		h.rev = rev
		h.mu.Unlock()
		return every, false
	}
	if !isRevisionMismatch(err) {
		if errors.Is(err, nats.ErrConnectionClosed) {
			return every, false
		}
		h.c.log.Warn("cannot renew the hold on an inbox; retrying", "op", "hold", "agent", h.agent, "err", err)
		return min(every, time.Second), false
	}
	// The key moved on: our renewal landed without an answer, it expired
	// (the server was unreachable longer than the TTL), or another
	// receiver holds it.
	e, err := h.c.boxes.Get(ctx, h.key)
	switch {
	case errors.Is(err, njs.ErrKeyNotFound), errors.Is(err, njs.ErrKeyDeleted):
		rev, err := h.c.boxes.Create(ctx, h.key, h.val, njs.KeyTTL(h.c.cfg.LockTTL))
		if err != nil {
			return min(every, time.Second), false // look again soon
		}
		h.mu.Lock()
		h.rev = rev
		h.mu.Unlock()
		h.regained.Add(1)
		h.c.log.Warn("the hold on an inbox had expired; taken again", "op", "hold", "agent", h.agent)
		return every, false
	case err != nil:
		return min(every, time.Second), false
	}
	cur := decodeHold(e.Value())
	if cur.Holder == h.id {
		h.mu.Lock()
		h.rev = e.Revision()
		h.mu.Unlock()
		return every, false
	}
	h.c.log.Error("another receiver took the inbox", "op", "hold", "agent", h.agent, "holder_host", cur.Host, "holder_pid", cur.PID)
	return 0, true
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
		h.mu.Lock()
		rev := h.rev
		h.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := h.c.boxes.Purge(ctx, h.key, njs.LastRevision(rev)); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			h.c.log.Warn("cannot release the hold on an inbox; it expires by itself", "op", "hold", "agent", h.agent, "err", err)
		}
	})
}
