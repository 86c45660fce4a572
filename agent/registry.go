package agent

import (
	"context"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/registry"
)

// Registrar is what a SessionRegistry needs of the agent registry.
// *registry.Registry and the JetStream registry satisfy it.
type Registrar interface {
	Register(ctx context.Context, reg registry.Registration) (*registry.Registered, error)
	Heartbeat(ctx context.Context, name, sessionID string) error
	Unregister(ctx context.Context, name, sessionID string) error
}

var _ Registrar = (*registry.Registry)(nil)

// SessionRegistry is a Runner's Registry over the agent registry: it
// registers the runner's name and roles under one session with Model, and
// heartbeats and unregisters that session. With SessionID empty the
// registry makes one at Register; SessionRegistry keeps the session the
// registry wrote, so that the heartbeats and the unregistering are its own.
//
// A registration removed under the runner (pruned as stale after it was
// paused or the machine slept longer than the TTL, or deleted by hand) is
// written back at the next heartbeat when the Registrar can (Restore, as
// both registries can); a name another session took is left to it
// (registry.ErrNotOwner).
//
// A Runner calls Register once, before it heartbeats from another
// goroutine; SessionRegistry is not for concurrent Registers.
type SessionRegistry struct {
	Registrar Registrar
	SessionID string
	Model     string

	held       registry.Registration // what Register wrote
	movedAside int                   // Register's registry.Registered.MovedAside
}

var _ registry.Restorer = (*registry.Registry)(nil)

var _ Registry = (*SessionRegistry)(nil)

// Register claims name for roles; a name held by a live agent of another
// session is registry.ErrNameTaken.
func (r *SessionRegistry) Register(ctx context.Context, name string, roles []debate.Role) error {
	rs := make([]string, len(roles))
	for i, ro := range roles {
		rs[i] = string(ro)
	}
	res, err := r.Registrar.Register(ctx, registry.Registration{Name: name, SessionID: r.SessionID, Roles: rs, Model: r.Model})
	if err != nil {
		return err
	}
	r.SessionID = res.SessionID
	r.held = res.Registration
	r.movedAside = res.MovedAside
	return nil
}

// MovedAside is how many unclaimed messages of the name's previous holder
// Register set aside (registry.Registered.MovedAside): the mail a new
// session does not inherit. Call it after Register, from the goroutine
// that registered or one it started afterwards (a Runner's Ready).
func (r *SessionRegistry) MovedAside() int { return r.movedAside }

// Heartbeat renews the session's registration of name, and writes it back
// when it was removed (see SessionRegistry); registry.ErrNotOwner when
// another session holds the name.
func (r *SessionRegistry) Heartbeat(ctx context.Context, name string) error {
	if r.held.Name != name {
		return r.Registrar.Heartbeat(ctx, name, r.SessionID)
	}
	_, err := registry.Renew(ctx, r.Registrar, r.held)
	return err
}

// Unregister removes the session's registration of name.
func (r *SessionRegistry) Unregister(ctx context.Context, name string) error {
	return r.Registrar.Unregister(ctx, name, r.SessionID)
}
