package registry

import (
	"context"
	"errors"
	"time"
)

// Heartbeater keeps one registration alive: Run heartbeats every interval
// until its context ends. Create it with Keepalive; the caller owns the
// goroutine that runs it.
type Heartbeater struct {
	r             *Registry
	name, session string
	every         time.Duration
}

// Keepalive returns a Heartbeater for name held by sessionID, beating every
// interval (default: a third of the TTL).
func (r *Registry) Keepalive(name, sessionID string, interval time.Duration) *Heartbeater {
	if interval <= 0 {
		interval = r.ttl / 3
	}
	return &Heartbeater{r: r, name: name, session: sessionID, every: interval}
}

// Run heartbeats until ctx is done (then it returns nil) or the
// registration is lost: ErrNotOwner when another session took the name over,
// ErrNotRegistered when it was removed. Other failures (a full disk, a
// contended lock) are logged and retried at the next beat.
func (h *Heartbeater) Run(ctx context.Context) error {
	t := time.NewTicker(h.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		err := h.r.Heartbeat(ctx, h.name, h.session)
		switch {
		case err == nil:
		case errors.Is(err, ErrNotOwner), errors.Is(err, ErrNotRegistered):
			return err
		case ctx.Err() != nil:
			return nil
		default:
			h.r.log.Warn("heartbeat failed; retrying", "op", "heartbeat", "agent", h.name, "err", err)
		}
	}
}
