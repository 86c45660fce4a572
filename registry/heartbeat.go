package registry

import (
	"context"
	"errors"
	"log/slog"
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
	return Beat(ctx, h.every, func(ctx context.Context) error { return h.r.Heartbeat(ctx, h.name, h.session) }, h.r.log.With("agent", h.name))
}

// Beat calls beat every interval until ctx is done (then it returns nil)
// or beat reports the registration lost: ErrNotOwner when another session
// took the name over, ErrNotRegistered when it was removed (returned).
// Other failures (a full disk, a contended lock, a server out of reach) are
// logged and retried at the next beat. It is the heartbeat loop of every
// registry's holder; the caller owns the goroutine.
func Beat(ctx context.Context, interval time.Duration, beat func(context.Context) error, log *slog.Logger) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		err := beat(ctx)
		switch {
		case err == nil:
		case errors.Is(err, ErrNotOwner), errors.Is(err, ErrNotRegistered):
			return err
		case ctx.Err() != nil:
			return nil
		default:
			log.Warn("heartbeat failed; retrying", "op", "heartbeat", "err", err)
		}
	}
}

// Restorer is a registry that can give a holder back the registration it
// lost (pruned as dead while the holder was paused past the TTL, or
// deleted by hand) without taking its inbox's receiver lock, which the
// holder's own receiver holds: Registry.Restore. Both backends' registries
// are one.
type Restorer interface {
	Restore(ctx context.Context, reg Registration) error
}

// Renewer is what a holder heartbeats: a registry.
type Renewer interface {
	Heartbeat(ctx context.Context, name, sessionID string) error
}

// Renew is one heartbeat of held's holder: it renews held's registration
// on r and, when the registration was removed under the holder
// (ErrNotRegistered) and r is a Restorer, writes held back; restored says
// it did. held is what Register returned (Registered.Registration).
// Another session's registration in its place is ErrNotOwner, left to it;
// any other error is the heartbeat's or the restore's, for Beat to retry.
func Renew(ctx context.Context, r Renewer, held Registration) (restored bool, err error) {
	err = r.Heartbeat(ctx, held.Name, held.SessionID)
	rs, ok := r.(Restorer)
	if !ok || !errors.Is(err, ErrNotRegistered) {
		return false, err
	}
	if err := rs.Restore(ctx, held); err != nil {
		return false, err
	}
	return true, nil
}
