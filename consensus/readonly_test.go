package consensus

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// readOnlyFS stands for a root on a read-only file system: its cache can
// be neither made nor written.
func readOnlyFS(s *Store) {
	s.makeCache = func(dir string) error { return &fs.PathError{Op: "mkdir", Path: dir, Err: syscall.EROFS} }
}

// A root whose cache cannot be written (a read-only file system, a root
// the user may only read) still answers the commands that only read
// (consensus check, list, search, show, vault lint): the lookup index is
// built in a private directory for that Store alone, removed at Close, and
// nothing is written under the root. A Store that files is refused there,
// as before: its filing lock lives in the root's cache.
func TestReadOnlyRootIsRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	position := "Keep idempotency keys for 24 hours, then delete them"
	e.fileRule(t, debate.LayerSpec, "20261130-spec-idempotency-key-expiry-abcdef", "Idempotency key expiry", position)

	root := filepath.Join(t.TempDir(), "readonly-root")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, e.v, readOnlyFS); !errors.Is(err, syscall.EROFS) {
		t.Errorf("a filing Store on a read-only root: %v, want the file system's refusal", err)
	}
	s, err := Open(root, e.v, WithReadOnlyRoot(), readOnlyFS)
	if err != nil {
		t.Fatalf("a reading Store on a read-only root: %v", err)
	}
	private := s.privateCache
	res, err := s.Check(context.Background(), debate.LayerSpec, "When do idempotency keys expire?", position)
	if err != nil || res.Status != CheckConsistent || res.Record == nil || res.Record.Name != "spec-idempotency-key-expiry" {
		t.Errorf("check on a read-only root: %+v, %v; want consistent with spec-idempotency-key-expiry", res, err)
	}
	if _, err := os.Lstat(filepath.Join(root, "cache")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s/cache: %v, want nothing written under the root", root, err)
	}
	if private == "" {
		t.Fatal("no private index directory")
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := os.Lstat(private); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("private index %s after Close: %v, want it removed", private, err)
	}
}

// The lookup index, its write-ahead log and its shared memory are the
// user's alone (0600), as every file under the root is: SQLite made the
// database 0644, and the log and shared memory after it.
func TestIndexFilesArePrivate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	position := "Keep idempotency keys for 24 hours, then delete them"
	e.fileRule(t, debate.LayerSpec, "20261130-spec-idempotency-key-expiry-abcdef", "Idempotency key expiry", position)
	s := e.open(t)
	if _, err := s.Check(context.Background(), debate.LayerSpec, "When do idempotency keys expire?", position); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		fi, err := os.Stat(filepath.Join(e.root, filepath.FromSlash(CacheFile+suffix)))
		if errors.Is(err, fs.ErrNotExist) && suffix != "" {
			continue
		}
		if err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s%s: %v, %v; want mode 0600", CacheFile, suffix, fi.Mode().Perm(), err)
		}
	}
}
