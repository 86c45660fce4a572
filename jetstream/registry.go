package jetstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// Registry is the agent registry on the JetStream bucket PARLEY_REGISTRY:
// one key per agent name, whose value is the registration file of package
// registry (registry.Registration's JSON). It has the file registry's
// semantics and methods, and its errors (registry.ErrNameTaken,
// ErrNotOwner, ErrNotRegistered, ErrMalformed).
//
// A name is claimed with the bucket's Create (stored only if the key holds
// nothing); every later change — a re-registration, the takeover of a dead
// registration, a heartbeat, an unregistration, a prune — is a
// compare-and-swap on the revision it read, retried on a conflict after
// reading again. So of racing claimers exactly one wins, and a stalled
// agent whose name was taken over gets ErrNotOwner instead of overwriting
// the new holder. Liveness is registry.IsAlive: the heartbeat younger than
// the TTL (each reader's clock), and the PID running when the registration
// is of this host. A Registry is safe for concurrent use.
type Registry struct {
	c    *Conn
	kv   njs.KeyValue
	mail registry.Mailboxes
	host string
	ttl  time.Duration
	now  func() time.Time
	// nextName draws memorable base names (default registry.RandomName).
	nextName func() string
}

// RegistryOption configures a Registry.
type RegistryOption func(*Registry)

// WithTTL sets the heartbeat TTL (default registry.DefaultTTL).
func WithTTL(d time.Duration) RegistryOption {
	return func(r *Registry) {
		if d > 0 {
			r.ttl = d
		}
	}
}

// WithHost sets the host name written into registrations and compared for
// PID checks (default os.Hostname).
func WithHost(h string) RegistryOption { return func(r *Registry) { r.host = h } }

// NewRegistry returns the registry of c's server. mail, when not nil,
// receives every successful registration through Adopt (c.Transport() is
// the natural choice).
func NewRegistry(c *Conn, mail registry.Mailboxes, opts ...RegistryOption) *Registry {
	r := &Registry{c: c, kv: c.regs, mail: mail, host: c.host, ttl: registry.DefaultTTL, now: time.Now, nextName: registry.RandomName}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Close does nothing: the registry's connection is its Conn's.
func (r *Registry) Close() error { return nil }

// Host is the host name this registry writes and PID-checks against.
func (r *Registry) Host() string { return r.host }

func (r *Registry) pathError(op, name string, err error) error {
	return &registry.PathError{Op: op, Name: name, Path: "kv:" + RegistryBucket + "/" + name, Err: err}
}

// Register claims a name for reg and stores its registration, as
// registry.Registry.Register does: an empty name gets a memorable one; a
// name held by a live agent of another session is ErrNameTaken, and by the
// same session in another live process ErrSessionBusy; a dead or malformed
// registration is taken over (TookOver); the same session re-registering
// from the same process replaces its own. Then the inbox is handed to this session
// (Mailboxes.Adopt); if that fails, the name is given back as it was (the
// registration the claim replaced is put back).
func (r *Registry) Register(ctx context.Context, reg registry.Registration) (*registry.Registered, error) {
	reg.FillDefaults(r.host, r.now())
	res, prev, err := registry.ClaimName(ctx, reg, r.nextName, r.claim)
	if err != nil {
		return nil, err
	}
	return registry.AdoptInbox(ctx, r.mail, res, prev, r.giveBack, r.c.log)
}

// giveBack undoes a claim of name by sessionID, provided the registration
// is still that session's: prev (what the claim replaced) is written back,
// or the registration deleted when the claim created it.
func (r *Registry) giveBack(ctx context.Context, name, sessionID string, prev []byte) error {
	for range maxConflicts {
		reg, _, rev, err := r.readRaw(ctx, name)
		if errors.Is(err, registry.ErrNotRegistered) {
			return nil
		}
		if err != nil {
			return err
		}
		if reg.SessionID != sessionID {
			return nil // taken meanwhile: not ours to undo
		}
		err = r.put(ctx, name, prev, rev)
		if isRevisionMismatch(err) {
			continue
		}
		return err
	}
	return r.pathError("register", name, errors.New("the registration keeps changing"))
}

// maxConflicts bounds the compare-and-swap retries of one change.
const maxConflicts = 16

// put writes data as name's registration, or deletes it when data is nil,
// provided the key is still at revision rev (else a revision mismatch, see
// isRevisionMismatch).
func (r *Registry) put(ctx context.Context, name string, data []byte, rev uint64) error {
	return r.c.retry(ctx, func(ctx context.Context) error {
		if data == nil {
			return r.kv.Delete(ctx, name, njs.LastRevision(rev))
		}
		_, err := r.kv.Update(ctx, name, data, rev)
		return err
	})
}

// claim takes reg.Name for reg; prev is the value it replaced (nil when it
// created the key).
func (r *Registry) claim(ctx context.Context, reg registry.Registration) (*registry.Registered, []byte, error) {
	data, err := reg.Encode()
	if err != nil {
		return nil, nil, err
	}
	var prev []byte // what the name held before this claim wrote it
	for range maxConflicts {
		err := r.c.retry(ctx, func(ctx context.Context) error {
			_, err := r.kv.Create(ctx, reg.Name, data)
			return err
		})
		if err == nil { // the name was free
			return &registry.Registered{Registration: reg}, nil, nil
		}
		if !errors.Is(err, njs.ErrKeyExists) {
			return nil, nil, r.pathError("register", reg.Name, err)
		}
		cur, raw, rev, rerr := r.readRaw(ctx, reg.Name)
		if !bytes.Equal(raw, data) { // not an earlier attempt of ours that landed unanswered
			prev = raw
		}
		res := &registry.Registered{Registration: reg}
		switch {
		case errors.Is(rerr, registry.ErrNotRegistered):
			continue // removed meanwhile: create again
		case rerr != nil && !errors.Is(rerr, registry.ErrMalformed):
			return nil, nil, rerr
		case rerr == nil && registry.SameHolder(cur, &reg):
		case rerr == nil && r.isAlive(cur):
			return nil, nil, registry.Refusal(cur, &reg)
		default:
			res.TookOver = true
		}
		err = r.put(ctx, reg.Name, data, rev)
		if isRevisionMismatch(err) {
			continue // changed meanwhile: look again
		}
		if err != nil {
			return nil, nil, r.pathError("register", reg.Name, err)
		}
		if res.TookOver {
			r.c.log.Info("took over a dead registration", "op", "register", "agent", reg.Name)
		}
		return res, prev, nil
	}
	return nil, nil, fmt.Errorf("register %s: the name keeps changing hands: %w", reg.Name, registry.ErrNameTaken)
}

// read loads name's registration and its revision. ErrNotRegistered when
// there is none; a value that does not decode (or names another agent) is
// an error wrapping registry.ErrMalformed, with its revision.
func (r *Registry) read(ctx context.Context, name string) (*registry.Registration, uint64, error) {
	reg, _, rev, err := r.readRaw(ctx, name)
	return reg, rev, err
}

// readRaw is read that also returns the stored value.
func (r *Registry) readRaw(ctx context.Context, name string) (*registry.Registration, []byte, uint64, error) {
	var e njs.KeyValueEntry
	err := r.c.retry(ctx, func(ctx context.Context) (err error) {
		e, err = r.kv.Get(ctx, name)
		return err
	})
	if errors.Is(err, njs.ErrKeyNotFound) || errors.Is(err, njs.ErrKeyDeleted) {
		return nil, nil, 0, registry.ErrNotRegistered
	}
	if err != nil {
		return nil, nil, 0, r.pathError("read", name, err)
	}
	reg, err := registry.Decode(e.Value())
	if err != nil {
		return nil, e.Value(), e.Revision(), r.pathError("read", name, err)
	}
	if reg.Name != name {
		return nil, e.Value(), e.Revision(), r.pathError("read", name, fmt.Errorf("%w: the key %q names %q", registry.ErrMalformed, name, reg.Name))
	}
	return reg, e.Value(), e.Revision(), nil
}

func (r *Registry) isAlive(reg *registry.Registration) bool {
	return registry.IsAlive(reg, r.host, r.now(), r.ttl)
}

// Get returns the registration of name. ErrNotRegistered when there is
// none; a malformed one is an error wrapping ErrMalformed.
func (r *Registry) Get(ctx context.Context, name string) (*registry.Entry, error) {
	if err := inbox.ValidateName(name); err != nil {
		return nil, err
	}
	reg, _, err := r.read(ctx, name)
	if err != nil {
		return nil, err
	}
	return &registry.Entry{Registration: *reg, Alive: r.isAlive(reg)}, nil
}

// Alive reports whether name is registered and its agent alive; an
// unregistered or malformed name is not alive (and not an error). It
// satisfies debate.Presence.
func (r *Registry) Alive(ctx context.Context, name string) (bool, error) {
	return registry.AliveOf(r.Get(ctx, name))
}

// Update changes name's registration with fn, provided it still belongs to
// sessionID (else ErrNotOwner; ErrNotRegistered when it is gone). fn may run
// more than once when the registration changes meanwhile; its changes to
// the name and session are ignored.
func (r *Registry) Update(ctx context.Context, name, sessionID string, fn func(*registry.Registration)) error {
	if err := inbox.ValidateName(name); err != nil {
		return err
	}
	for range maxConflicts {
		reg, rev, err := r.read(ctx, name)
		if err != nil {
			return err
		}
		if reg.SessionID != sessionID {
			return r.pathError("update", name, registry.ErrNotOwner)
		}
		fn(reg)
		reg.Name, reg.SessionID = name, sessionID
		data, err := reg.Encode()
		if err != nil {
			return err
		}
		err = r.put(ctx, name, data, rev)
		if isRevisionMismatch(err) {
			continue
		}
		if err != nil {
			return r.pathError("update", name, err)
		}
		return nil
	}
	return r.pathError("update", name, errors.New("the registration keeps changing"))
}

// Heartbeat sets name's heartbeatAt and activity.lastActivityAt to now
// (registry.Registration.Beat), provided the registration still belongs to
// sessionID (else ErrNotOwner: the name was taken over).
func (r *Registry) Heartbeat(ctx context.Context, name, sessionID string) error {
	now := r.now()
	return r.Update(ctx, name, sessionID, func(reg *registry.Registration) { reg.Beat(now) })
}

// Restore writes reg back as the registration of reg.Name for the holder
// that lost it (pruned while it was paused, or deleted), as
// registry.Registry.Restore does: only when the name has no registration
// (or already reg's holder's); another session's is ErrNotOwner. It does
// not hand the inbox over: the holder, whose receiver holds the inbox,
// still owns it.
func (r *Registry) Restore(ctx context.Context, reg registry.Registration) error {
	data, err := registry.Restoring(reg, r.now())
	if err != nil {
		return err
	}
	for range maxConflicts {
		err := r.c.retry(ctx, func(ctx context.Context) error {
			_, err := r.kv.Create(ctx, reg.Name, data)
			return err
		})
		if err == nil {
			return nil
		}
		if !errors.Is(err, njs.ErrKeyExists) {
			return r.pathError("restore", reg.Name, err)
		}
		cur, rev, err := r.read(ctx, reg.Name)
		switch {
		case errors.Is(err, registry.ErrNotRegistered):
			continue // removed meanwhile: create again
		case err != nil:
			return err
		case !registry.SameHolder(cur, &reg):
			return r.pathError("restore", reg.Name, registry.ErrNotOwner)
		}
		err = r.put(ctx, reg.Name, data, rev)
		if isRevisionMismatch(err) {
			continue
		}
		if err != nil {
			return r.pathError("restore", reg.Name, err)
		}
		return nil
	}
	return r.pathError("restore", reg.Name, fmt.Errorf("the name keeps changing hands: %w", registry.ErrNotOwner))
}

// Unregister removes name's registration if it belongs to sessionID. It is
// idempotent: an absent registration is not an error; another session's is
// ErrNotOwner. The inbox stays.
func (r *Registry) Unregister(ctx context.Context, name, sessionID string) error {
	if err := inbox.ValidateName(name); err != nil {
		return err
	}
	for range maxConflicts {
		reg, rev, err := r.read(ctx, name)
		if errors.Is(err, registry.ErrNotRegistered) {
			return nil
		}
		if err != nil {
			return err
		}
		if reg.SessionID != sessionID {
			return r.pathError("unregister", name, registry.ErrNotOwner)
		}
		err = r.put(ctx, name, nil, rev)
		if isRevisionMismatch(err) {
			continue
		}
		if err != nil {
			return r.pathError("unregister", name, err)
		}
		return nil
	}
	return r.pathError("unregister", name, errors.New("the registration keeps changing"))
}

// Names lists the names that have a registration, sorted.
func (r *Registry) Names(ctx context.Context) ([]string, error) {
	var names []string
	err := r.c.retry(ctx, func(ctx context.Context) error {
		names = names[:0]
		l, err := r.kv.ListKeys(ctx)
		if err != nil {
			return err
		}
		for k := range l.Keys() {
			if inbox.ValidateName(k) == nil {
				names = append(names, k)
			}
		}
		// The lister ends its channel quietly when ctx ends: a cut-short
		// listing is an error, not a short list.
		return ctx.Err()
	})
	if err != nil {
		return nil, r.pathError("list", "*", err)
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// All returns every registration that decodes, alive or not, sorted by
// name, without pruning. Malformed ones are logged and skipped.
func (r *Registry) All(ctx context.Context) ([]registry.Entry, error) {
	names, err := r.Names(ctx)
	if err != nil {
		return nil, err
	}
	read := func(name string) (*registry.Registration, error) {
		reg, _, err := r.read(ctx, name)
		return reg, err
	}
	return registry.Entries(names, read, r.isAlive, r.c.log), nil
}

// List prunes dead registrations and returns the live ones, sorted by name.
func (r *Registry) List(ctx context.Context) ([]registry.Entry, error) {
	return registry.ListLive(ctx, r.Prune, r.All, r.c.log)
}

// Prune removes the registrations of dead agents and malformed ones, and
// returns their names. Each removal is conditional on the revision that
// was judged dead, so a registration that beat or was taken over meanwhile
// stays. As registry.Registry.Prune, it goes on past a registration the
// server refuses to remove and reports those in a *registry.PruneError;
// a server that cannot be reached stops it. Inboxes are kept.
func (r *Registry) Prune(ctx context.Context) ([]string, error) {
	names, err := r.Names(ctx)
	if err != nil {
		return nil, err
	}
	var pruned []string
	var failed []error
	for _, n := range names {
		reg, rev, err := r.read(ctx, n)
		switch {
		case errors.Is(err, registry.ErrNotRegistered):
			continue
		case err != nil && !errors.Is(err, registry.ErrMalformed):
			return pruned, err
		case err == nil && r.isAlive(reg):
			continue
		}
		err = r.put(ctx, n, nil, rev)
		if isRevisionMismatch(err) {
			continue // changed meanwhile: judged again next time
		}
		if err != nil {
			perr := r.pathError("prune", n, err)
			if errors.Is(err, ErrUnavailable) || ctx.Err() != nil {
				return pruned, perr // the server, not this registration
			}
			r.c.log.Warn("cannot prune a dead registration", "op", "prune", "agent", n, "err", err)
			failed = append(failed, perr)
			continue
		}
		r.c.log.Info("pruned a dead registration", "op", "prune", "agent", n)
		pruned = append(pruned, n)
	}
	if len(failed) > 0 {
		return pruned, &registry.PruneError{Errs: failed}
	}
	return pruned, nil
}
