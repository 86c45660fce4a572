package inbox_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/roottest"
)

// newFile opens a FileTransport on a fresh directory, closed with the test.
func newFile(t testing.TB, opts ...inbox.FileOption) *inbox.FileTransport {
	t.Helper()
	return newFileAt(t, t.TempDir(), opts...)
}

func newFileAt(t testing.TB, root string, opts ...inbox.FileOption) *inbox.FileTransport {
	t.Helper()
	tr, err := inbox.NewFileTransport(root, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func ctxT(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func mustCreate(t testing.TB, tr inbox.Transport, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := tr.Create(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
}

func mustListen(t testing.TB, tr inbox.Transport, agent string) inbox.Receiver {
	t.Helper()
	r, err := tr.Listen(context.Background(), agent)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func mustSend(t testing.TB, tr inbox.Transport, from, to, text string) *inbox.Message {
	t.Helper()
	m := &inbox.Message{From: from, To: to, Text: text}
	if err := tr.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	return m
}

// drainFor receives and acks until nothing arrives for quiet.
func drainFor(t testing.TB, r inbox.Receiver, quiet time.Duration) []*inbox.Message {
	t.Helper()
	var got []*inbox.Message
	for {
		ctx, cancel := context.WithTimeout(context.Background(), quiet)
		d, err := r.Receive(ctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Ack(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		got = append(got, d.Message)
	}
}

func TestFileTransportConformance(t *testing.T) {
	inboxtest.Run(t, func(t testing.TB) inbox.Transport { return newFile(t) })
}

func TestFileTransportConformanceWithoutWatcher(t *testing.T) {
	inboxtest.Run(t, func(t testing.TB) inbox.Transport {
		return newFile(t, inbox.WithoutWatcher(), inbox.WithReconcile(20*time.Millisecond))
	})
}

// syncLog is a durable.FS that records renames and directory fsyncs, in
// order, as "rename OLD NEW" and "sync DIR".
type syncLog struct {
	durable.FS
	mu  sync.Mutex
	ops []string
}

func (l *syncLog) add(op string) {
	l.mu.Lock()
	l.ops = append(l.ops, op)
	l.mu.Unlock()
}

func (l *syncLog) Rename(oldname, newname string) error {
	err := l.FS.Rename(oldname, newname)
	if err == nil {
		l.add("rename " + oldname + " " + newname)
	}
	return err
}

func (l *syncLog) OpenFile(name string, flag int, perm fs.FileMode) (durable.File, error) {
	f, err := l.FS.OpenFile(name, flag, perm)
	if err != nil || flag != os.O_RDONLY {
		return f, err
	}
	return &syncedDir{File: f, name: name, log: l}, nil
}

type syncedDir struct {
	durable.File
	name string
	log  *syncLog
}

func (d *syncedDir) Sync() error {
	err := d.File.Sync()
	if err == nil {
		d.log.add("sync " + d.name)
	}
	return err
}

// after reports whether want happens in the log after the operation first.
func (l *syncLog) after(first, want string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := slices.Index(l.ops, first)
	return i >= 0 && slices.Contains(l.ops[i+1:], want)
}

// Moving a file between directories is durable only when both directories
// are fsynced: the one it leaves and the one it enters. A quarantined file
// must not vanish in a crash ("nothing is silently deleted"); an
// acknowledged one must not come back (its audit copy in cur/ is not worth
// a second fsync per message).
func TestMovesAreDurable(t *testing.T) {
	t.Parallel()
	rt, root := roottest.Temp(t)
	log := &syncLog{FS: durable.Root(rt)}
	tr := newFileAt(t, root, inbox.WithFS(log), inbox.WithQuarantineGrace(0))
	mustCreate(t, tr, "Bob")
	const bad = "1700000000000-000000-0000.json"
	if err := os.WriteFile(filepath.Join(root, "inbox", "Bob", bad), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := mustSend(t, tr, "Alice", "Bob", "hello")
	r := mustListen(t, tr, "Bob")
	d, err := r.Receive(ctxT(t))
	if err != nil || d.Message.ID != m.ID {
		t.Fatalf("Receive = %v, %v", d, err)
	}
	if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	for _, mv := range []struct {
		from, to string
		synced   []string
	}{
		{"inbox/Bob/" + bad, "inbox/Bob/bad/" + bad, []string{"inbox/Bob/bad", "inbox/Bob"}},
		{"inbox/Bob/" + d.Handle, "inbox/Bob/cur/" + d.Handle, []string{"inbox/Bob"}},
	} {
		rename := "rename " + mv.from + " " + mv.to
		for _, dir := range mv.synced {
			if !log.after(rename, "sync "+dir) {
				t.Errorf("after %s, %s was not fsynced; operations: %q", rename, dir, log.ops)
			}
		}
	}
}

// A directory the messenger creates is itself a directory entry: until its
// parent is fsynced, a power cut can lose it, and with it every file
// fsynced inside (a delivered message, mail moved aside). Each creation is
// followed by an fsync of the parent.
func TestCreatedDirectoriesAreDurable(t *testing.T) {
	t.Parallel()
	rt, root := roottest.Temp(t)
	log := &syncLog{FS: durable.Root(rt)}
	tr := newFileAt(t, root, inbox.WithFS(log))
	mustCreate(t, tr, "Bob")
	if _, err := tr.Adopt(ctxT(t), "Bob", "first"); err != nil {
		t.Fatal(err)
	}
	mustSend(t, tr, "Alice", "Bob", "for the first session")
	if n, err := tr.Adopt(ctxT(t), "Bob", "second"); err != nil || n != 1 {
		t.Fatalf("Adopt = %d, %v", n, err)
	}
	for _, want := range []string{
		"sync .",                     // inbox/
		"sync inbox",                 // inbox/Bob
		"sync inbox/Bob",             // cur/, bad/, aside/
		"sync inbox/Bob/aside",       // aside/first
		"sync inbox/Bob/aside/first", // the mail moved there
	} {
		log.mu.Lock()
		ok := slices.Contains(log.ops, want)
		log.mu.Unlock()
		if !ok {
			t.Errorf("no %q; operations: %q", want, log.ops)
		}
	}
}

// Everything the messenger creates is private to its user: directories
// 0700, files 0600 (SPEC §3) — the inbox and its cur/, bad/ and aside/
// folders, delivered and acknowledged messages, quarantined files and their
// reasons, the lock and owner files.
func TestModesArePrivate(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root, inbox.WithQuarantineGrace(0))
	mustCreate(t, tr, "Bob")
	if _, err := tr.Adopt(ctxT(t), "Bob", "first"); err != nil {
		t.Fatal(err)
	}
	mustSend(t, tr, "Alice", "Bob", "for the first session")
	if _, err := tr.Adopt(ctxT(t), "Bob", "second"); err != nil {
		t.Fatal(err)
	}
	mustSend(t, tr, "Alice", "Bob", "acknowledged")
	mustSend(t, tr, "Alice", "Bob", "waiting")
	if err := os.WriteFile(filepath.Join(root, "inbox", "Bob", "1700000000000-000000-0000.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := mustListen(t, tr, "Bob")
	d, err := r.Receive(ctxT(t))
	if err != nil || d.Message.Text != "acknowledged" {
		t.Fatalf("Receive = %v, %v", d, err)
	}
	if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(filepath.Join(root, "inbox"), func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := de.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		want := fs.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
			seen[filepath.Base(p)] = true
		} else if strings.HasSuffix(p, inbox.ReasonSuffix) {
			seen["reason"] = true
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", rel, fi.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, what := range []string{"inbox", "Bob", "cur", "bad", "aside", "first", "reason"} {
		if !seen[what] {
			t.Errorf("the test made no %s to check", what)
		}
	}
}
