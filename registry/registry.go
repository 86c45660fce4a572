package registry

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/flock"
	"github.com/parleyhq/parley/internal/livereg"
	"github.com/parleyhq/parley/internal/regfile"
)

// DefaultTTL is how old a heartbeat may be before its agent counts as dead.
const DefaultTTL = livereg.DefaultTTL

// Dir is the registry's directory under the messenger root.
const Dir = livereg.Dir

// lockName is the flock that serialises changes to existing registrations.
const lockName = Dir + "/.lock"

// malformedGrace is how old a registration that does not decode must be
// before it may be replaced or pruned: a foreign writer that writes in
// place may still be writing it.
const malformedGrace = 5 * time.Second

// maxSuffix bounds the numeric suffixes tried on a memorable name before
// another base name is drawn.
const maxSuffix = 9

// Mailboxes is what the registry needs of the inboxes: to hand an agent's
// inbox to the session that registers the name. inbox.FileTransport
// implements it (see its Adopt for the recycled-name rule).
type Mailboxes interface {
	Adopt(ctx context.Context, agent, sessionID string) (movedAside int, err error)
}

var _ Mailboxes = (*inbox.FileTransport)(nil)

// Registry reads and writes registrations under <root>/registry. It is safe
// for concurrent use, by goroutines and by processes.
type Registry struct {
	root     *os.Root
	fsys     durable.FS
	mail     Mailboxes
	log      *slog.Logger
	host     string
	ttl      time.Duration
	now      func() time.Time
	pidAlive func(int) bool
	nextName func() string
}

// Option configures a Registry.
type Option func(*Registry)

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option {
	return func(r *Registry) {
		if l != nil {
			r.log = l
		}
	}
}

// WithTTL sets the heartbeat TTL (default DefaultTTL).
func WithTTL(d time.Duration) Option {
	return func(r *Registry) {
		if d > 0 {
			r.ttl = d
		}
	}
}

// WithFS routes every write through fsys, rooted at the same directory
// (tests inject faults with durable.FaultFS).
func WithFS(fsys durable.FS) Option { return func(r *Registry) { r.fsys = fsys } }

// WithHost sets the host name written into registrations and compared for
// PID checks (default os.Hostname).
func WithHost(h string) Option { return func(r *Registry) { r.host = h } }

// Open opens the registry under the messenger root (creating root and
// registry/, 0700). mail, when not nil, receives every successful
// registration through Adopt.
func Open(root string, mail Mailboxes, opts ...Option) (*Registry, error) {
	rt, err := durable.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	r := &Registry{
		root:     rt,
		fsys:     durable.Root(rt),
		mail:     mail,
		log:      slog.New(slog.DiscardHandler),
		host:     host,
		ttl:      DefaultTTL,
		now:      time.Now,
		pidAlive: livereg.PIDAlive,
		nextName: RandomName,
	}
	for _, o := range opts {
		o(r)
	}
	if err := r.makeDir(); err != nil {
		rt.Close()
		return nil, err
	}
	return r, nil
}

// makeDir makes registry/ (0700) when it is not there, and checks that it
// is a directory. Nearly always it is there: one lstat says so.
func (r *Registry) makeDir() error {
	created := false
	fi, err := r.root.Lstat(Dir)
	if errors.Is(err, fs.ErrNotExist) {
		err = r.root.Mkdir(Dir, 0o700)
		created = err == nil
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fi, err = r.root.Lstat(Dir)
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrUnsafePath, filepath.Join(r.root.Name(), Dir))
	}
	if created {
		// The new directory is an entry of the root: fsynced, or a power
		// cut could lose it with the registrations fsynced inside.
		return durable.SyncDir(r.fsys, ".")
	}
	return nil
}

// Close releases the root.
func (r *Registry) Close() error { return r.root.Close() }

// Host is the host name this registry writes and PID-checks against.
func (r *Registry) Host() string { return r.host }

func regPath(name string) string { return livereg.Path(name) }

// Registered is the result of Register.
type Registered struct {
	Registration
	// MovedAside counts the unclaimed messages of the name's previous
	// holder that were moved aside (a recycled name does not inherit them).
	MovedAside int
	// TookOver is set when the name belonged to a dead registration.
	TookOver bool
}

// Register claims a name for reg and writes its registration. When
// reg.Name is empty a memorable Adjective+Noun name is chosen, with a
// numeric suffix on collision. Empty PID, SessionID, Host, Cwd, StartedAt
// and Protocol are filled in; HeartbeatAt is set to now.
//
// A name held by a live agent of another session is ErrNameTaken, and by
// the same session in another live process ErrSessionBusy (a second copy
// of one agent). A name held by a dead registration is taken over; the
// same session re-registering from the same process replaces its own
// registration. Then the inbox is handed to
// this session (Mailboxes.Adopt): mail waiting for a previous holder of the
// name is moved aside, mail waiting in an inbox created ahead (agents add)
// or for this same session stays.
// If that fails (inbox.ErrBusy: the previous holder's receiver still holds
// the inbox, it was only stalled), the name is given back as it was: the
// registration the claim replaced is written back.
func (r *Registry) Register(ctx context.Context, reg Registration) (*Registered, error) {
	reg.FillDefaults(r.host, r.now())
	res, prev, err := ClaimName(ctx, reg, r.nextName, r.claim)
	if err != nil {
		return nil, err
	}
	return AdoptInbox(ctx, r.mail, res, prev, r.giveBack, r.log)
}

// giveBack undoes a claim of name by sessionID, under the lock and only if
// the registration is still that session's: prev (what the claim
// replaced) is written back, or the registration removed when the claim
// created it.
func (r *Registry) giveBack(ctx context.Context, name, sessionID string, prev []byte) error {
	return r.locked(ctx, func() error {
		cur, _, err := r.read(name)
		if errors.Is(err, ErrNotRegistered) {
			return nil
		}
		if err != nil {
			return err
		}
		if cur.SessionID != sessionID {
			return nil // taken meanwhile: not ours to undo
		}
		if prev == nil {
			return r.remove(name)
		}
		if err := durable.WriteFile(r.fsys, regPath(name), prev, 0o600); err != nil {
			return &PathError{Op: "register", Name: name, Path: regPath(name), Err: err}
		}
		return nil
	})
}

// claim takes reg.Name for reg: exclusive create, or under the lock a
// re-register or a takeover of a dead registration. prev is the content it
// replaced (nil when it created the file).
func (r *Registry) claim(ctx context.Context, reg Registration) (res *Registered, prev []byte, err error) {
	data, err := reg.Encode()
	if err != nil {
		return nil, nil, err
	}
	path := regPath(reg.Name)
	for tries := 0; tries < 8; tries++ {
		err := durable.CreateFile(r.fsys, path, data, 0o600)
		if err == nil {
			return &Registered{Registration: reg}, nil, nil
		}
		if !durable.IsExist(err) {
			return nil, nil, &PathError{Op: "register", Name: reg.Name, Path: path, Err: err}
		}
		var retry bool
		err = r.locked(ctx, func() error {
			cur, raw, mtime, rerr := r.readRaw(reg.Name)
			prev = raw
			switch {
			case errors.Is(rerr, ErrNotRegistered):
				retry = true // removed meanwhile: create again
				return nil
			case rerr == nil && SameHolder(cur, &reg):
				res = &Registered{Registration: reg}
			case rerr == nil && r.isAlive(cur):
				return Refusal(cur, &reg)
			case errors.Is(rerr, errNotRegular) && r.isDir(path):
				// Not parley's (prune leaves it), and no rename replaces a
				// directory: said as such, for the user to move away.
				return &PathError{Op: "register", Name: reg.Name, Path: path, Err: fmt.Errorf("%w: %s is a directory, not a registration", ErrUnsafePath, path)}
			case rerr != nil && r.now().Sub(mtime) < malformedGrace:
				return fmt.Errorf("%w: %s (its registration is being written)", ErrNameTaken, reg.Name)
			default:
				res = &Registered{Registration: reg, TookOver: true}
				r.log.Info("taking over a dead registration", "op", "register", "agent", reg.Name, "path", path)
			}
			if err := durable.WriteFile(r.fsys, path, data, 0o600); err != nil {
				return &PathError{Op: "register", Name: reg.Name, Path: path, Err: err}
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if !retry {
			return res, prev, nil
		}
	}
	return nil, nil, fmt.Errorf("register %s: the name keeps changing hands: %w", reg.Name, ErrNameTaken)
}

// isDir reports whether path (under the root) is a directory, not
// following a symbolic link.
func (r *Registry) isDir(path string) bool {
	fi, err := r.root.Lstat(path)
	return err == nil && fi.IsDir()
}

func hostOf(reg *Registration) string {
	if reg.Host == "" {
		return "this host"
	}
	return reg.Host
}

// locked runs fn under the registry's flock. A registry/ removed under a
// running holder (rm -rf registry/ to clear stale entries) is made again,
// so that its next heartbeat writes its registration back (Renew) instead
// of failing on the lock file until it stops.
func (r *Registry) locked(ctx context.Context, fn func() error) error {
	f, err := r.root.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err = r.makeDir(); err == nil {
			f, err = r.root.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o600)
		}
	}
	if err != nil {
		return &PathError{Op: "lock", Path: lockName, Err: err}
	}
	defer f.Close()
	if err := flock.Wait(ctx, f, flock.Exclusive); err != nil {
		return &PathError{Op: "lock", Path: lockName, Err: err}
	}
	return fn()
}

// read loads one registration. It never follows a symbolic link: one in a
// registration's place reads as malformed. The modification time is
// returned even when the content does not decode.
func (r *Registry) read(name string) (*Registration, time.Time, error) {
	reg, _, mtime, err := r.readRaw(name)
	return reg, mtime, err
}

// errNotRegular is the cause of a registration that is not a regular file
// (a directory, a symbolic link): never parley's, so never pruned.
var errNotRegular = livereg.ErrNotRegular

// readRaw is read that also returns the file's bytes (nil when it is not a
// regular file that could be read). The file is read by livereg.ReadFile,
// as the plainest send reads it.
func (r *Registry) readRaw(name string) (*Registration, []byte, time.Time, error) {
	path := regPath(name)
	data, fi, err := livereg.ReadFile(r.root, name)
	switch {
	case fi == nil && errors.Is(err, fs.ErrNotExist):
		return nil, nil, time.Time{}, ErrNotRegistered
	case fi == nil:
		return nil, nil, time.Time{}, &PathError{Op: "read", Name: name, Path: path, Err: err}
	case errors.Is(err, errNotRegular):
		// Never a writer in progress: replaceable at once (zero time).
		return nil, nil, time.Time{}, &PathError{Op: "read", Name: name, Path: path, Err: fmt.Errorf("%w: %s, %w", ErrMalformed, regfile.Kind(fi.Mode()), errNotRegular)}
	case err != nil:
		return nil, nil, fi.ModTime(), &PathError{Op: "read", Name: name, Path: path, Err: err}
	}
	reg, err := decodeAs(name, data)
	return reg, data, fi.ModTime(), err
}

// decodeAs decodes the registration file of name.
func decodeAs(name string, data []byte) (*Registration, error) {
	path := regPath(name)
	reg, err := Decode(data)
	if err != nil {
		return nil, &PathError{Op: "read", Name: name, Path: path, Err: err}
	}
	if reg.Name != name {
		return nil, &PathError{Op: "read", Name: name, Path: path, Err: fmt.Errorf("%w: file of %q names %q", ErrMalformed, name, reg.Name)}
	}
	return reg, nil
}

// isAlive applies IsAlive with this registry's host, clock and TTL.
func (r *Registry) isAlive(reg *Registration) bool {
	return isAlive(reg, r.host, r.now(), r.ttl, r.pidAlive)
}

// Entry is a registration and whether its agent is alive.
type Entry struct {
	Registration
	Alive bool `json:"alive"`
}

// Get returns the registration of name. ErrNotRegistered when there is
// none; a malformed one is an error wrapping ErrMalformed.
func (r *Registry) Get(ctx context.Context, name string) (*Entry, error) {
	if err := inbox.ValidateName(name); err != nil {
		return nil, err
	}
	reg, _, err := r.read(name)
	if err != nil {
		return nil, err
	}
	return &Entry{Registration: *reg, Alive: r.isAlive(reg)}, nil
}

// Alive reports whether name is registered and its agent alive. An
// unregistered name is not alive (and not an error). It satisfies
// debate.Presence.
func (r *Registry) Alive(ctx context.Context, name string) (bool, error) {
	return AliveOf(r.Get(ctx, name))
}

// Update changes name's registration with fn under the lock, provided it
// still belongs to sessionID (else ErrNotOwner; ErrNotRegistered when it is
// gone).
func (r *Registry) Update(ctx context.Context, name, sessionID string, fn func(*Registration)) error {
	if err := inbox.ValidateName(name); err != nil {
		return err
	}
	return r.locked(ctx, func() error {
		reg, _, err := r.read(name)
		if err != nil {
			return err
		}
		if reg.SessionID != sessionID {
			return &PathError{Op: "update", Name: name, Path: regPath(name), Err: ErrNotOwner}
		}
		fn(reg)
		reg.Name, reg.SessionID = name, sessionID
		data, err := reg.Encode()
		if err != nil {
			return err
		}
		if err := durable.WriteFile(r.fsys, regPath(name), data, 0o600); err != nil {
			return &PathError{Op: "update", Name: name, Path: regPath(name), Err: err}
		}
		return nil
	})
}

// Heartbeat sets name's heartbeatAt and activity.lastActivityAt to now
// (Registration.Beat), provided the registration still belongs to
// sessionID (else ErrNotOwner: the name was taken over).
func (r *Registry) Heartbeat(ctx context.Context, name, sessionID string) error {
	now := r.now()
	return r.Update(ctx, name, sessionID, func(reg *Registration) { reg.Beat(now) })
}

// Restore writes reg back as the registration of reg.Name for the holder
// that lost it: one whose registration was removed (pruned as dead while
// the holder was paused longer than the TTL, or deleted by hand) and that
// still holds the name's inbox open for receiving. reg is what Register
// returned (Registered.Registration); its heartbeat and activity are set
// to now. The registration is created only when the name has none (or,
// idempotently, when it is already reg's holder's, see SameHolder);
// another session's, alive or dead, is ErrNotOwner and is left as it is.
// Unlike Register it does not hand the inbox over (Mailboxes.Adopt takes
// the inbox's receiver lock, which the holder's own receiver holds): the
// holder still owns it, since no other session can adopt an inbox whose
// receiver is open.
func (r *Registry) Restore(ctx context.Context, reg Registration) error {
	data, err := Restoring(reg, r.now())
	if err != nil {
		return err
	}
	path := regPath(reg.Name)
	return r.locked(ctx, func() error {
		for range 8 {
			err := durable.CreateFile(r.fsys, path, data, 0o600)
			if err == nil {
				return nil
			}
			if !durable.IsExist(err) {
				return &PathError{Op: "restore", Name: reg.Name, Path: path, Err: err}
			}
			cur, _, err := r.read(reg.Name)
			switch {
			case errors.Is(err, ErrNotRegistered):
				continue // removed meanwhile (a claim that gave it back)
			case err != nil:
				return err
			case !SameHolder(cur, &reg):
				return &PathError{Op: "restore", Name: reg.Name, Path: path, Err: ErrNotOwner}
			}
			if err := durable.WriteFile(r.fsys, path, data, 0o600); err != nil {
				return &PathError{Op: "restore", Name: reg.Name, Path: path, Err: err}
			}
			return nil
		}
		return fmt.Errorf("restore %s: the name keeps changing hands: %w", reg.Name, ErrNotOwner)
	})
}

// Unregister removes name's registration if it belongs to sessionID. It is
// idempotent: an absent registration is not an error; another session's is
// ErrNotOwner. The inbox stays.
func (r *Registry) Unregister(ctx context.Context, name, sessionID string) error {
	if err := inbox.ValidateName(name); err != nil {
		return err
	}
	return r.locked(ctx, func() error {
		reg, _, err := r.read(name)
		if errors.Is(err, ErrNotRegistered) {
			return nil
		}
		if err != nil {
			return err
		}
		if reg.SessionID != sessionID {
			return &PathError{Op: "unregister", Name: name, Path: regPath(name), Err: ErrNotOwner}
		}
		return r.remove(name)
	})
}

func (r *Registry) remove(name string) error {
	if err := r.fsys.Remove(regPath(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &PathError{Op: "remove", Name: name, Path: regPath(name), Err: err}
	}
	return durable.SyncDir(r.fsys, Dir)
}

// Names lists the names that have a registration file, sorted.
func (r *Registry) Names(ctx context.Context) ([]string, error) {
	d, err := r.root.Open(Dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	des, err := d.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), ".json")
		if ok && inbox.ValidateName(name) == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// All returns every registration that decodes, alive or not, sorted by
// name, without pruning. Malformed ones are logged and skipped.
func (r *Registry) All(ctx context.Context) ([]Entry, error) {
	names, err := r.Names(ctx)
	if err != nil {
		return nil, err
	}
	read := func(name string) (*Registration, error) {
		reg, _, err := r.read(name)
		return reg, err
	}
	return Entries(names, read, r.isAlive, r.log), nil
}

// List prunes dead registrations and returns the live ones, sorted by name.
func (r *Registry) List(ctx context.Context) ([]Entry, error) {
	return ListLive(ctx, r.Prune, r.All, r.log)
}

// Prune removes the registrations of dead agents (and malformed ones older
// than a grace period) and returns their names. Each is re-checked under the
// lock before removal, so a registration that came back to life or was
// taken over meanwhile stays. Only registration files are removed: a
// directory or a symbolic link in the registry is not parley's and is left
// alone. A registration that cannot be removed (or read) does not stop it:
// it goes on with the others and reports those in a *PruneError. Inboxes
// are kept.
func (r *Registry) Prune(ctx context.Context) ([]string, error) {
	names, err := r.Names(ctx)
	if err != nil {
		return nil, err
	}
	var candidates []string
	for _, n := range names {
		// Unreadable ones too: the locked pass reports them.
		if ok, err := r.prunable(n); ok || err != nil {
			candidates = append(candidates, n)
		}
	}
	if len(candidates) == 0 {
		return nil, nil
	}
	var pruned []string
	var failed []error
	err = r.locked(ctx, func() error {
		for _, n := range candidates {
			ok, err := r.prunable(n)
			if err == nil && ok {
				err = r.remove(n)
			}
			if err != nil {
				r.log.Warn("cannot prune a dead registration", "op", "prune", "agent", n, "err", err)
				failed = append(failed, err)
				continue
			}
			if ok {
				r.log.Info("pruned a dead registration", "op", "prune", "agent", n)
				pruned = append(pruned, n)
			}
		}
		return nil
	})
	if err != nil {
		return pruned, err
	}
	if len(failed) > 0 {
		return pruned, &PruneError{Errs: failed}
	}
	return pruned, nil
}

// prunable judges whether Prune may remove name's registration: one that
// decodes and is not alive, or a regular file that does not decode and is
// older than malformedGrace. One that is gone, alive, not a regular file,
// or younger than the grace stays; one that cannot be read is an error.
func (r *Registry) prunable(name string) (bool, error) {
	reg, mtime, err := r.read(name)
	switch {
	case err == nil:
		return !r.isAlive(reg), nil
	case errors.Is(err, ErrNotRegistered), errors.Is(err, errNotRegular):
		return false, nil
	case errors.Is(err, ErrMalformed):
		return r.now().Sub(mtime) >= malformedGrace, nil
	}
	return false, err
}

// RemoveStaleStaging removes staging files (see inbox.IsStagingName) older
// than inbox.StaleStaging from the registry directory: what writers that
// crashed mid-write left. It returns how many it removed.
func (r *Registry) RemoveStaleStaging(ctx context.Context, now time.Time) (int, error) {
	d, err := r.root.Open(Dir)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	des, err := d.ReadDir(-1)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, de := range des {
		if !inbox.IsStagingName(de.Name()) || !de.Type().IsRegular() {
			continue
		}
		fi, err := de.Info()
		if err != nil || !fi.ModTime().Before(now.Add(-inbox.StaleStaging)) {
			continue
		}
		if err := r.fsys.Remove(Dir + "/" + de.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			// The others are still removed.
			errs = append(errs, &PathError{Op: "gc", Name: de.Name(), Path: Dir + "/" + de.Name(), Err: err})
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}
