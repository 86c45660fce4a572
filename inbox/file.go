package inbox

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/drop"
	"github.com/parleyhq/parley/internal/durable"
)

// DefaultReconcile is the default period of the reconciliation scan that
// catches messages whose watcher event was lost.
const DefaultReconcile = time.Second

// DefaultQuarantineGrace is how long a file that does not decode may have
// been modified before it is quarantined: a foreign writer that writes the
// final name in place (not staged and renamed) may still be writing it. A
// younger file is retried until it decodes or the grace has passed.
const DefaultQuarantineGrace = time.Second

// Directory and file names inside an inbox.
const (
	InboxDir  = drop.InboxDir // under the root: inbox/<Name>/
	CurDir    = "cur"         // acknowledged messages
	BadDir    = "bad"         // quarantined files and their .reason sidecars
	AsideDir  = "aside"       // mail of a name's previous holder, aside/<session>/
	lockFile  = ".lock"
	ownerFile = ".owner"
	// ReasonSuffix ends the sidecar that says why a file was quarantined.
	ReasonSuffix = ".reason"
)

// FileTransport is the Transport of SPEC §3: one directory per agent under
// <root>/inbox, one file per message, written by internal/durable (staged
// under a dot-name, fsynced, linked into place, directory fsynced). Every
// path is opened under an *os.Root of the root directory, so neither ".."
// nor a planted symbolic link leads a write out of it.
//
// A FileTransport is safe for concurrent use. Its receivers share one
// fsnotify watcher, started by the first Listen and stopped by Close.
type FileTransport struct {
	dir       string // absolute root directory
	root      *os.Root
	fsys      durable.FS
	log       *slog.Logger
	reconcile time.Duration
	grace     time.Duration
	watch     bool
	hub       *hub
	// customFS is set when WithFS replaced the default writer: Send then
	// writes through it by full names rather than through an open inbox
	// directory, so that injected faults still apply.
	customFS bool
	now      func() time.Time

	closeOnce sync.Once
}

var _ Transport = (*FileTransport)(nil)

// FileOption configures a FileTransport.
type FileOption func(*FileTransport)

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) FileOption {
	return func(t *FileTransport) {
		if l != nil {
			t.log = l
		}
	}
}

// WithReconcile sets the period of the reconciliation scan (default
// DefaultReconcile). Values below 1 ms are raised to 1 ms.
func WithReconcile(d time.Duration) FileOption {
	return func(t *FileTransport) { t.reconcile = max(d, time.Millisecond) }
}

// WithQuarantineGrace sets how recently modified a malformed file may be
// before it is quarantined (default DefaultQuarantineGrace; 0 quarantines
// at once).
func WithQuarantineGrace(d time.Duration) FileOption {
	return func(t *FileTransport) { t.grace = max(d, 0) }
}

// WithoutWatcher disables fsnotify: receivers find messages by the
// reconciliation scan alone. For tests of lost wake-ups, and for file
// systems without inotify.
func WithoutWatcher() FileOption {
	return func(t *FileTransport) { t.watch = false }
}

// WithClock sets the wall clock that stamps message names (default
// time.Now). Tests step it back to show that one sender's order does not
// rest on it.
func WithClock(now func() time.Time) FileOption {
	return func(t *FileTransport) {
		if now != nil {
			t.now = now
		}
	}
}

// WithFS routes every write (delivery, acknowledgement, quarantine) through
// fsys, which must be rooted at the same directory. Tests pass a
// durable.FaultFS to inject ENOSPC or EACCES.
func WithFS(fsys durable.FS) FileOption {
	return func(t *FileTransport) { t.fsys, t.customFS = fsys, true }
}

// NewFileTransport opens (creating if needed, 0700) the messenger root
// directory and its inbox/ directory.
func NewFileTransport(root string, opts ...FileOption) (*FileTransport, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	r, err := durable.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	t := &FileTransport{
		dir:       abs,
		root:      r,
		fsys:      durable.Root(r),
		log:       slog.New(slog.DiscardHandler),
		reconcile: DefaultReconcile,
		grace:     DefaultQuarantineGrace,
		watch:     true,
		now:       time.Now,
	}
	for _, o := range opts {
		o(t)
	}
	if err := mkdirSafe(r, t.fsys, InboxDir); err != nil {
		r.Close()
		return nil, err
	}
	t.hub = newHub(t.log)
	return t, nil
}

// Dir returns the absolute messenger root directory.
func (t *FileTransport) Dir() string { return t.dir }

// Close stops the shared watcher and releases the root. Close the
// transport's receivers first: a receiver left open cannot acknowledge.
func (t *FileTransport) Close() error {
	var err error
	t.closeOnce.Do(func() {
		t.hub.close()
		err = t.root.Close()
	})
	return err
}

// mkdirSafe creates dir (0700) unless it exists, and refuses anything but
// a real directory in its place (a planted symbolic link, a file). A
// directory it creates is made durable: its parent is fsynced (through
// fsys), or a power cut could lose it with every file fsynced inside.
func mkdirSafe(r *os.Root, fsys durable.FS, dir string) error {
	// Nearly always it is there: one lstat says so.
	if err := checkDir(r, dir); !errors.Is(err, ErrNotFound) {
		return err
	}
	err := r.Mkdir(dir, 0o700)
	created := err == nil
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if err := checkDir(r, dir); err != nil {
		return err
	}
	if created {
		return durable.SyncDir(fsys, path.Dir(dir))
	}
	return nil
}

// checkDir reports whether dir (relative to r) is a real directory
// (drop.CheckDir): ErrNotFound when nothing is there, ErrUnsafePath for
// anything else in its place.
func checkDir(r *os.Root, dir string) error { return drop.CheckDir(r, dir) }

func inboxPath(agent string) string { return drop.InboxPath(agent) }

// Create makes agent's inbox (with cur/ and bad/) exist. It is idempotent.
func (t *FileTransport) Create(ctx context.Context, agent string) error {
	if err := ValidateName(agent); err != nil {
		return err
	}
	dir := inboxPath(agent)
	for _, d := range []string{dir, dir + "/" + CurDir, dir + "/" + BadDir} {
		if err := mkdirSafe(t.root, t.fsys, d); err != nil {
			return &DeliveryError{Op: "create", Agent: agent, Path: d, Err: err}
		}
	}
	if err := durable.SyncDir(t.fsys, InboxDir); err != nil {
		return &DeliveryError{Op: "create", Agent: agent, Path: InboxDir, Err: err}
	}
	return nil
}

// Exists reports whether agent has an inbox. A symbolic link or a file in
// the inbox's place is an error wrapping ErrUnsafePath.
func (t *FileTransport) Exists(ctx context.Context, agent string) (bool, error) {
	if err := ValidateName(agent); err != nil {
		return false, err
	}
	switch err := checkDir(t.root, inboxPath(agent)); {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNotFound):
		return false, nil
	default:
		return false, &DeliveryError{Op: "exists", Agent: agent, Path: inboxPath(agent), Err: err}
	}
}

// Send delivers m to the inbox of m.To (drop.Put, which says how). It
// returns once the file and its directory entry are on disk. On error
// nothing a reader would pick up is left behind, but for an error that is
// Placed (inbox.Placed): the directory's sync failed once the message was
// in the inbox.
func (t *FileTransport) Send(ctx context.Context, m *Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := prepare(m)
	if err != nil {
		return err
	}
	var custom durable.FS
	if t.customFS {
		custom = t.fsys
	}
	return drop.Put(t.root, custom, m.To, m.From, data, t.now())
}
