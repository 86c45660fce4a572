package consensus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
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

// Open opens a Store over the parley root directory and a vault; it creates
// <root>/cache and <vault>/wiki/consensus (0700) when they are missing.
// The vault stays the caller's to close.
func Open(root string, v *vault.Vault, opts ...Option) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(root, "cache"), vault.DirPerm); err != nil {
		return nil, fmt.Errorf("open consensus store: %w", err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open consensus store: %w", err)
	}
	dir, err := v.OpenDir(Folder, true)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("open consensus store: %w", err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		r.Close()
		dir.Close()
		return nil, fmt.Errorf("open consensus store: %w", err)
	}
	s := &Store{rootDir: abs, v: v, dir: dir, root: r, rootFS: durable.Root(r), log: slog.New(slog.DiscardHandler), now: time.Now}
	for _, o := range opts {
		o(s)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
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
	return errors.Join(s.closeIndex(), s.dir.Close(), s.root.Close())
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
