package consensus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/flock"
	"github.com/parleyhq/parley/vault"
)

// Store files consensus records into a vault and looks them up. Open one
// per process over the parley root (for its cache and lock) and the vault
// (for the records); it is safe for concurrent use, and several processes
// may file into the same vault at once (filing takes a lock file under the
// root).
type Store struct {
	rootDir string
	v       *vault.Vault
	dir     *vault.Dir
	root    *os.Root
	rootFS  durable.FS
	log     *slog.Logger
	now     func() time.Time
	// hook, when set by a test, is called after each step of a filing
	// ("record", "supersede", "index"), so a crash can be injected there.
	hook func(step string)
	// seal checks a record's seal before Check trusts it (WithSealCheck).
	seal SealChecker

	// readOnly: the caller only reads (WithReadOnlyRoot); privateCache is
	// the temporary directory that holds the index when the root's cache
	// cannot be written, removed at Close.
	readOnly     bool
	privateCache string
	// makeCache makes <root>/cache, or says why this process cannot write
	// there: os.MkdirAll, then writable for a read-only Store. A test
	// replaces it to stand for a read-only file system.
	makeCache func(dir string) error

	mu  sync.Mutex // guards idx; held for a whole filing or query
	idx *index     // opened on first use

	reads atomic.Int64 // record files read, for tests and benchmarks

	// The optional models (WithEmbedder, WithJudge).
	embedder   Embedder
	embedModel string
	judge      Judge
	judgeModel string

	closed bool // guarded by mu
}

var _ debate.Filer = (*Store)(nil)

// Option configures Open.
type Option func(*Store)

// WithLogger logs skipped records and cache problems to l (default:
// nowhere).
func WithLogger(l *slog.Logger) Option { return func(s *Store) { s.log = l } }

// WithClock replaces time.Now, for tests.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// WithReadOnlyRoot says that the caller only reads records (list, show,
// search, check, lint): where the root's cache cannot be written (a root
// on a read-only file system, or one this user may only read), the lookup
// index is built in a private temporary directory for this Store alone,
// and removed at Close, instead of Open failing. A Store that files must
// not use it: the filing lock lives in the root's cache.
func WithReadOnlyRoot() Option { return func(s *Store) { s.readOnly = true } }

// Open opens a Store over the parley root directory and a vault; it creates
// <root>/cache and <vault>/wiki/consensus (0700) when they are missing.
// The vault stays the caller's to close.
func Open(root string, v *vault.Vault, opts ...Option) (*Store, error) {
	s := &Store{v: v, log: slog.New(slog.DiscardHandler), now: time.Now}
	s.makeCache = func(dir string) error {
		if err := os.MkdirAll(dir, vault.DirPerm); err != nil {
			return err
		}
		if s.readOnly && !writable(dir) {
			return &fs.PathError{Op: "write", Path: dir, Err: fs.ErrPermission}
		}
		return nil
	}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	base := root // the directory whose cache/ holds the index and the locks
	cache := filepath.Join(root, "cache")
	if err := s.makeCache(cache); err != nil {
		if !s.readOnly || !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
			return nil, fmt.Errorf("open consensus store: %w", err)
		}
		tmp, terr := os.MkdirTemp("", "parley-index-")
		if terr != nil {
			return nil, fmt.Errorf("open consensus store: %w (and no private index: %v)", err, terr)
		}
		if terr := os.Mkdir(filepath.Join(tmp, "cache"), vault.DirPerm); terr != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("open consensus store: %w", terr)
		}
		s.log.Info("consensus: the root's cache cannot be written; the lookup index is built in a private directory", "path", cache, "err", err, "private", tmp)
		base, s.privateCache = tmp, tmp
	}
	fail := func(err error) (*Store, error) {
		if s.privateCache != "" {
			os.RemoveAll(s.privateCache)
		}
		return nil, fmt.Errorf("open consensus store: %w", err)
	}
	r, err := os.OpenRoot(base)
	if err != nil {
		return fail(err)
	}
	dir, err := v.OpenDir(Folder, true)
	if err != nil {
		r.Close()
		return fail(err)
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		r.Close()
		dir.Close()
		return fail(err)
	}
	s.rootDir, s.dir, s.root, s.rootFS = abs, dir, r, durable.Root(r)
	return s, nil
}

// Close releases the Store's handles (not the vault): the lookup index's
// database and the folders. It may be called more than once.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	err := errors.Join(s.closeIndex(), s.dir.Close(), s.root.Close())
	if s.privateCache != "" {
		err = errors.Join(err, os.RemoveAll(s.privateCache))
	}
	return err
}

// Vault is the vault the Store files into.
func (s *Store) Vault() *vault.Vault { return s.v }

func (s *Store) step(name string) {
	if s.hook != nil {
		s.hook(name)
	}
}

// lockFile takes the cross-process filing lock, <root>/cache/consensus.lock,
// waiting for it as long as ctx allows.
func (s *Store) lockFile(ctx context.Context) (unlock func(), err error) {
	f, err := s.root.OpenFile("cache/consensus.lock", os.O_RDWR|os.O_CREATE, vault.FilePerm)
	if err != nil {
		return nil, fmt.Errorf("filing lock: %w", err)
	}
	if err := flock.Wait(ctx, f, flock.Exclusive); err != nil {
		f.Close()
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("filing lock: %w", err)
	}
	return func() {
		_ = flock.Unlock(f)
		f.Close()
	}, nil
}

// beginWrite prepares a filing: it takes the cross-process filing lock and
// the Store's own, and brings the index up to date with the folder. done
// releases both, in reverse order.
func (s *Store) beginWrite(ctx context.Context) (done func(), err error) {
	unlock, err := s.lockFile(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if err := s.ensure(ctx); err != nil {
		s.mu.Unlock()
		unlock()
		return nil, err
	}
	return func() {
		s.mu.Unlock()
		unlock()
	}, nil
}

// FilesRead is how many record files the Store has read so far: a warm
// lookup over an unchanged vault reads none.
func (s *Store) FilesRead() int64 { return s.reads.Load() }
