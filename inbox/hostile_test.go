package inbox_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/roottest"
)

// logBuffer is a concurrency-safe log sink for asserting what was logged.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// plant writes a file straight into an inbox, dated in the past so that
// the quarantine grace does not hold it back.
func plant(t testing.TB, root, agent, name string, data []byte) {
	t.Helper()
	plantAt(t, root, agent, name, data, time.Now().Add(-time.Hour))
}

// plantAt is plant with the file dated at mtime.
func plantAt(t testing.TB, root, agent, name string, data []byte, mtime time.Time) {
	t.Helper()
	p := filepath.Join(root, "inbox", agent, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func fileName(ms int64, tail string) string { return fmt.Sprintf("%013d-%s.json", ms, tail) }

// Must show: malformed JSON, truncated files, binary garbage, a 5 MiB file,
// a directory and a symlink named *.json: each quarantined (or ignored, for
// the directory and the symlink) with a clear reason, logged once, while
// the good messages around them are delivered in order.
func TestBadFilesQuarantinedGoodOnesFlow(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	var logs logBuffer
	tr := newFileAt(t, root, inbox.WithLogger(logs.logger()), inbox.WithReconcile(10*time.Millisecond))
	mustCreate(t, tr, "Bob")

	good, _ := (&inbox.Message{ID: "g", From: "Alice", To: "Bob", Text: "x", Timestamp: inbox.Now()}).Encode()
	garbage := make([]byte, 300)
	rand.Read(garbage)
	garbage[0] = 0xff // never valid UTF-8
	outside := filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(outside, good, 0o600); err != nil {
		t.Fatal(err)
	}
	base := time.Now().Add(-time.Hour).UnixMilli()
	goodMsg := func(i int) []byte {
		b, _ := (&inbox.Message{ID: fmt.Sprintf("good-%d", i), From: "Alice", To: "Bob", Text: fmt.Sprint(i), Timestamp: inbox.Now()}).Encode()
		return b
	}
	bad := []struct {
		name, reason string
		data         []byte
	}{
		{"malformed", "malformed", []byte(`{"id": "x", "from": "Alice",`)},
		{"truncated", "malformed", good[:len(good)/2]},
		{"binary", "not UTF-8", garbage},
		{"huge", "oversized", bytes.Repeat([]byte("a"), 5<<20)},
		{"missing", `missing "id"`, []byte(`{"from":"Alice","to":"Bob","text":"x","timestamp":"2026-01-01T00:00:00.000Z"}`)},
		{"empty", "malformed", nil},
		{"array", "malformed", []byte(`[1,2,3]`)},
		{"badfrom", "from", []byte(`{"id":"1","from":"../etc","text":"x","timestamp":"t"}`)},
	}
	i := 0
	for _, b := range bad {
		plant(t, root, "Bob", fileName(base, fmt.Sprintf("%03d-good", i)), goodMsg(i))
		i++
		plant(t, root, "Bob", fileName(base, fmt.Sprintf("%03d-%s", i, b.name)), b.data)
		i++
	}
	dirName := fileName(base, "900-dir")
	linkName := fileName(base, "901-link")
	if err := os.Mkdir(filepath.Join(root, "inbox", "Bob", dirName), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "inbox", "Bob", linkName)); err != nil {
		t.Fatal(err)
	}
	plant(t, root, "Bob", fileName(base, "999-good"), goodMsg(999))

	r := mustListen(t, tr, "Bob")
	got := receiveN(t, ctxT(t), r, 9)
	got = append(got, drainFor(t, r, 100*time.Millisecond)...) // several more scans
	var texts []string
	for _, m := range got {
		texts = append(texts, m.Text)
	}
	want := []string{"0", "2", "4", "6", "8", "10", "12", "14", "999"}
	if !slices.Equal(texts, want) {
		t.Fatalf("good messages delivered: %v, want %v in order", texts, want)
	}
	i = 1
	for _, b := range bad {
		name := fileName(base, fmt.Sprintf("%03d-%s", i, b.name))
		i += 2
		reason, err := os.ReadFile(filepath.Join(root, "inbox", "Bob", "bad", name+".reason"))
		if err != nil {
			t.Errorf("%s: no reason sidecar: %v", b.name, err)
			continue
		}
		if !strings.Contains(string(reason), b.reason) {
			t.Errorf("%s: reason %q does not say %q", b.name, reason, b.reason)
		}
		if _, err := os.Stat(filepath.Join(root, "inbox", "Bob", "bad", name)); err != nil {
			t.Errorf("%s: not kept in bad/: %v", b.name, err)
		}
		if n := strings.Count(logs.String(), name); n != 1 {
			t.Errorf("%s: logged %d times, want once", b.name, n)
		}
	}
	// The directory and the symlink stay where they are, logged once,
	// never followed: the file they point to is untouched.
	for _, name := range []string{dirName, linkName} {
		if _, err := os.Lstat(filepath.Join(root, "inbox", "Bob", name)); err != nil {
			t.Errorf("%s was moved: %v", name, err)
		}
		if n := strings.Count(logs.String(), name); n != 1 {
			t.Errorf("%s: logged %d times, want once:\n%s", name, n, logs.String())
		}
	}
	if b, _ := os.ReadFile(outside); !bytes.Equal(b, good) {
		t.Error("the symlink's target was changed")
	}
}

// A file that does not decode but was modified within the grace period is
// not quarantined: a foreign writer that writes in place may still be
// writing it. Once complete it is delivered.
func TestQuarantineGraceForAWriterInProgress(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root, inbox.WithQuarantineGrace(time.Minute))
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")
	data, _ := (&inbox.Message{ID: "slow", From: "Pi", To: "Bob", Text: "written in two steps", Timestamp: inbox.Now()}).Encode()
	path := filepath.Join(root, "inbox", "Bob", fileName(time.Now().UnixMilli(), "pi"))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(data[:10])
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, err = r.Receive(ctx)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("half-written file: Receive = %v, want nothing yet", err)
	}
	if des, _ := os.ReadDir(filepath.Join(root, "inbox", "Bob", "bad")); len(des) != 0 {
		t.Fatalf("a file still being written was quarantined")
	}
	f.Write(data[10:])
	d, err := r.Receive(ctxT(t))
	if err != nil || d.Message.ID != "slow" {
		t.Fatalf("completed file: %v, %v", d, err)
	}
}

// Must show: lost wake-ups cost latency, not messages.
func TestLostWakeUps(t *testing.T) {
	t.Parallel()
	const n = 60
	sendAll := func(t *testing.T, tr inbox.Transport) {
		go func() {
			for i := 0; i < n; i++ {
				if err := tr.Send(context.Background(), &inbox.Message{From: "Alice", To: "Bob", Text: fmt.Sprint(i)}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	check := func(t *testing.T, r inbox.Receiver) {
		got := receiveN(t, ctxT(t), r, n)
		for i, m := range got {
			if m.Text != fmt.Sprint(i) {
				t.Fatalf("message %d is %q: out of order", i, m.Text)
			}
		}
	}
	t.Run("watcher disabled", func(t *testing.T) {
		t.Parallel()
		tr := newFile(t, inbox.WithoutWatcher(), inbox.WithReconcile(30*time.Millisecond))
		mustCreate(t, tr, "Bob")
		r := mustListen(t, tr, "Bob")
		sendAll(t, tr)
		check(t, r)
	})
	t.Run("events lost, reconciliation", func(t *testing.T) {
		t.Parallel()
		tr := newFile(t, inbox.WithReconcile(30*time.Millisecond))
		mustCreate(t, tr, "Bob")
		r := mustListen(t, tr, "Bob")
		inbox.DropWatchEvents(tr, true)
		sendAll(t, tr)
		check(t, r)
	})
	t.Run("overflow triggers a rescan", func(t *testing.T) {
		t.Parallel()
		// Reconciliation is too slow to matter here: only the rescan on
		// overflow can deliver within the test's deadline.
		tr := newFile(t, inbox.WithReconcile(time.Hour))
		mustCreate(t, tr, "Bob")
		r := mustListen(t, tr, "Bob")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		r.Receive(ctx) // the initial scan
		cancel()
		inbox.DropWatchEvents(tr, true)
		for i := 0; i < n; i++ {
			mustSend(t, tr, "Alice", "Bob", fmt.Sprint(i))
		}
		inbox.DropWatchEvents(tr, false)
		inbox.InjectWatchError(tr, errors.New("fsnotify: queue or buffer overflow"))
		check(t, r)
	})
}

// Must show: ENOSPC and EACCES injected through the write seam give a clear
// error and leave nothing a reader would pick up.
func TestWriteFaults(t *testing.T) {
	t.Parallel()
	for _, f := range []struct {
		op  string
		err error
	}{
		{"open", syscall.EACCES}, {"write", syscall.ENOSPC}, {"sync", syscall.ENOSPC}, {"link", syscall.EACCES}, {"link", syscall.ENOSPC},
	} {
		t.Run(f.op+"/"+f.err.Error(), func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			ffs, tr := faultyInbox(t, root, "Bob")
			ffs.Fail(f.op, "", f.err, 0)
			err := tr.Send(context.Background(), &inbox.Message{From: "Alice", To: "Bob", Text: "lost?"})
			if !errors.Is(err, f.err) {
				t.Fatalf("Send = %v, want %v", err, f.err)
			}
			var de *inbox.DeliveryError
			if !errors.As(err, &de) || de.Agent != "Bob" || !strings.Contains(err.Error(), f.err.Error()) {
				t.Fatalf("error does not say what failed: %v", err)
			}
			des, _ := os.ReadDir(filepath.Join(root, "inbox", "Bob"))
			for _, d := range des {
				// The sender's mark (its last stamp here) may have moved
				// up: it is state, never read as a message.
				if !d.IsDir() && d.Name() != ".from-Alice" {
					t.Errorf("left behind: %s", d.Name())
				}
			}
			ffs.Reset()
			rc := mustListen(t, tr, "Bob")
			if got := drainFor(t, rc, 50*time.Millisecond); len(got) != 0 {
				t.Fatalf("a failed send was delivered: %v", got)
			}
			mustSend(t, tr, "Alice", "Bob", "after the disk recovered")
			if got := drainFor(t, rc, 100*time.Millisecond); len(got) != 1 {
				t.Fatalf("got %d messages after recovery, want 1", len(got))
			}
		})
	}
}

// Must show: a planted symlink does not let any write escape the root.
func TestPlantedSymlinks(t *testing.T) {
	t.Parallel()
	outsideFiles := func(t *testing.T, dir string) []string {
		var names []string
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				names = append(names, p)
			}
			return nil
		})
		return names
	}
	t.Run("inbox is a symlink", func(t *testing.T) {
		t.Parallel()
		root, outside := t.TempDir(), t.TempDir()
		tr := newFileAt(t, root)
		os.Symlink(outside, filepath.Join(root, "inbox", "Bob"))
		err := tr.Send(context.Background(), &inbox.Message{From: "Alice", To: "Bob", Text: "x"})
		if !errors.Is(err, inbox.ErrUnsafePath) {
			t.Errorf("Send through a symlinked inbox = %v, want ErrUnsafePath", err)
		}
		if err := tr.Create(context.Background(), "Bob"); !errors.Is(err, inbox.ErrUnsafePath) {
			t.Errorf("Create over a symlink = %v, want ErrUnsafePath", err)
		}
		if _, err := tr.Listen(context.Background(), "Bob"); !errors.Is(err, inbox.ErrUnsafePath) {
			t.Errorf("Listen on a symlink = %v, want ErrUnsafePath", err)
		}
		if _, err := tr.Exists(context.Background(), "Bob"); !errors.Is(err, inbox.ErrUnsafePath) {
			t.Errorf("Exists on a symlink = %v, want ErrUnsafePath", err)
		}
		if f := outsideFiles(t, outside); len(f) != 0 {
			t.Fatalf("wrote outside the root: %v", f)
		}
	})
	t.Run("inbox root is a symlink", func(t *testing.T) {
		t.Parallel()
		root, outside := t.TempDir(), t.TempDir()
		os.Symlink(outside, filepath.Join(root, "inbox"))
		if _, err := inbox.NewFileTransport(root); !errors.Is(err, inbox.ErrUnsafePath) {
			t.Fatalf("NewFileTransport with inbox/ a symlink = %v, want ErrUnsafePath", err)
		}
	})
	for _, sub := range []string{"cur", "bad", ".lock"} {
		t.Run(sub+" is a symlink", func(t *testing.T) {
			t.Parallel()
			root, outside := t.TempDir(), t.TempDir()
			tr := newFileAt(t, root, inbox.WithQuarantineGrace(0))
			mustCreate(t, tr, "Bob")
			p := filepath.Join(root, "inbox", "Bob", sub)
			os.RemoveAll(p)
			target := outside
			if sub == ".lock" {
				target = filepath.Join(outside, "lock")
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			mustSend(t, tr, "Alice", "Bob", "good")
			plant(t, root, "Bob", fileName(time.Now().UnixMilli(), "zz-bad"), []byte("{"))
			if r, err := tr.Listen(context.Background(), "Bob"); err == nil {
				defer r.Close()
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				if d, err := r.Receive(ctx); err == nil {
					r.Ack(ctx, d)
				}
				r.Receive(ctx)
				cancel()
			}
			if f := outsideFiles(t, outside); len(f) != 0 {
				t.Fatalf("wrote outside the root: %v", f)
			}
		})
	}
}

// Must show: a pi-messenger-style writer (six keys, staged under a
// non-.json name and renamed in) is delivered; a parley message is readable
// by a reader that knows only the six fields and reads *.json sorted by name.
func TestPiMessengerCompatibility(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")

	t.Run("pi writer, parley reader", func(t *testing.T) {
		r := mustListen(t, tr, "Bob")
		defer r.Close()
		pi := map[string]any{"id": "0b6f3a2e-8d0c-4f57-9d43-1c2b3a4d5e6f", "from": "PiAgent", "to": "Bob",
			"text": "hello from pi", "timestamp": "2026-11-30T12:00:00.000Z", "replyTo": nil}
		b, _ := json.Marshal(pi)
		dir := filepath.Join(root, "inbox", "Bob")
		staged := filepath.Join(dir, ".pi-staging.tmp")
		if err := os.WriteFile(staged, b, 0o600); err != nil {
			t.Fatal(err)
		}
		final := filepath.Join(dir, fmt.Sprintf("%d-a1b2c3.json", time.Now().UnixMilli()))
		if err := os.Rename(staged, final); err != nil {
			t.Fatal(err)
		}
		d, err := r.Receive(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		m := d.Message
		if m.ID != pi["id"] || m.From != "PiAgent" || m.Text != "hello from pi" || m.ReplyTo != "" || m.Kind() != inbox.TypeText {
			t.Fatalf("pi message decoded as %+v", m)
		}
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("parley writer, pi reader", func(t *testing.T) {
		first := mustSend(t, tr, "Alice", "Bob", "first")
		typed, err := inbox.NewMessage("Alice", "Bob", "debate_turn", "# Round 1\n\nmy argument", map[string]any{"round": 1, "position": "p"})
		if err != nil {
			t.Fatal(err)
		}
		typed.ReplyTo = first.ID
		if err := tr.Send(context.Background(), typed); err != nil {
			t.Fatal(err)
		}
		mustSend(t, tr, "Alice", "Bob", "third")
		// pi-messenger's reader: *.json in the inbox, sorted by name, the
		// six fields only.
		type piMessage struct {
			ID        string  `json:"id"`
			From      string  `json:"from"`
			To        string  `json:"to"`
			Text      string  `json:"text"`
			Timestamp string  `json:"timestamp"`
			ReplyTo   *string `json:"replyTo"`
		}
		matches, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "*.json"))
		slices.Sort(matches)
		var got []piMessage
		for _, p := range matches {
			if len(filepath.Base(p)) < 13 || strings.Trim(filepath.Base(p)[:13], "0123456789") != "" {
				t.Errorf("%s does not start with 13 digits", p)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var m piMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			got = append(got, m)
		}
		if len(got) != 3 || got[0].Text != "first" || got[1].Text != "# Round 1\n\nmy argument" || got[2].Text != "third" {
			t.Fatalf("pi reader saw %+v", got)
		}
		if got[0].ReplyTo != nil || got[1].ReplyTo == nil || *got[1].ReplyTo != first.ID || got[1].From != "Alice" || got[1].To != "Bob" {
			t.Fatalf("pi reader saw wrong fields: %+v", got)
		}
		if _, err := time.Parse(time.RFC3339, got[0].Timestamp); err != nil || !strings.HasSuffix(got[0].Timestamp, "Z") {
			t.Fatalf("timestamp %q is not RFC 3339 UTC", got[0].Timestamp)
		}
	})
}

func TestAdoptMovesARecycledNamesMailAside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	ctx := context.Background()
	// agents add: the inbox exists before anyone owns it; the first owner
	// inherits its mail.
	mustCreate(t, tr, "Bob")
	early := mustSend(t, tr, "Alice", "Bob", "before Bob came")
	if n, err := tr.Adopt(ctx, "Bob", "session-1"); err != nil || n != 0 {
		t.Fatalf("first Adopt = %d, %v", n, err)
	}
	mustSend(t, tr, "Alice", "Bob", "to session 1")
	// The same session again keeps its mail.
	if n, err := tr.Adopt(ctx, "Bob", "session-1"); err != nil || n != 0 {
		t.Fatalf("re-Adopt = %d, %v", n, err)
	}
	// A new session takes the name: the two unclaimed messages go aside.
	n, err := tr.Adopt(ctx, "Bob", "session-2")
	if err != nil || n != 2 {
		t.Fatalf("Adopt by a new session = %d, %v; want 2 moved", n, err)
	}
	r := mustListen(t, tr, "Bob")
	if got := drainFor(t, r, 50*time.Millisecond); len(got) != 0 {
		t.Fatalf("the new session inherited %d messages", len(got))
	}
	aside, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "aside", "session-1", "*.json"))
	if len(aside) != 2 {
		t.Fatalf("aside: %v, want 2 files", aside)
	}
	b, _ := os.ReadFile(aside[0])
	if m, err := inbox.Decode(b); err != nil || m.ID != early.ID {
		t.Fatalf("aside[0] = %v, %v", m, err)
	}
	// While a receiver holds the inbox, Adopt waits its turn: ErrBusy.
	if _, err := tr.Adopt(ctx, "Bob", "session-3"); !errors.Is(err, inbox.ErrBusy) {
		t.Fatalf("Adopt of a held inbox = %v, want ErrBusy", err)
	}
}

func TestGC(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		mustSend(t, tr, "Alice", "Bob", fmt.Sprint(i))
	}
	r := mustListen(t, tr, "Bob")
	d, _ := r.Receive(ctxT(t))
	r.Ack(ctx, d)
	stale := filepath.Join(root, "inbox", "Bob", ".x.json.0123456789ab.tmp")
	os.WriteFile(stale, []byte("partial"), 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	fresh := filepath.Join(root, "inbox", "Bob", ".y.json.0123456789ab.tmp")
	os.WriteFile(fresh, []byte("in progress"), 0o600)

	st, err := tr.GC(ctx, time.Hour, time.Now())
	if err != nil || st.Acked != 0 || st.Staging != 1 {
		t.Fatalf("GC = %+v, %v; want only the stale staging file", st, err)
	}
	st, err = tr.GC(ctx, time.Hour, time.Now().Add(2*time.Hour))
	if err != nil || st.Acked != 1 {
		t.Fatalf("GC later = %+v, %v; want the acked message", st, err)
	}
	if _, err := os.Stat(fresh); err == nil {
		// two hours later the fresh staging file is stale too
		t.Fatal("GC kept a stale staging file")
	}
	waiting, acked, bad, err := tr.Count(ctx, "Bob")
	if err != nil || waiting != 2 || acked != 0 || bad != 0 {
		t.Fatalf("Count = %d %d %d %v; GC must never remove unclaimed messages", waiting, acked, bad, err)
	}
	if _, err := os.Stat(filepath.Join(root, "inbox", "Bob", ".lock")); err != nil {
		t.Fatal("GC removed the lock file")
	}
}

// TestGCAgesAnAcknowledgedMessageFromItsAcknowledgement: gc --older-than
// keeps the audit copy for that long after the message was handled. A
// message sent eight days ago and acknowledged now is not collected by a
// 7-day gc run now, only once it has been in cur/ for seven days.
func TestGCAgesAnAcknowledgedMessageFromItsAcknowledgement(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	ctx := context.Background()
	sent := time.Now().Add(-8 * 24 * time.Hour)
	m := fmt.Sprintf(`{"id":"6f1c2a9e-0b4d-4c1e-9a37-2d5f8e7b1c40","from":"Alice","to":"Bob","text":"old","timestamp":%q,"replyTo":null}`, sent.UTC().Format("2006-01-02T15:04:05.000Z"))
	plantAt(t, root, "Bob", fileName(sent.UnixMilli(), "abcd"), []byte(m), sent)
	r := mustListen(t, tr, "Bob")
	d, err := r.Receive(ctxT(t))
	if err != nil || d.Message.Text != "old" {
		t.Fatalf("Receive = %v, %v", d, err)
	}
	acked := time.Now()
	if err := r.Ack(ctx, d); err != nil {
		t.Fatal(err)
	}
	st, err := tr.GC(ctx, 7*24*time.Hour, acked)
	if err != nil || st.Acked != 0 {
		t.Fatalf("GC just after the acknowledgement = %+v, %v; want the audit copy kept", st, err)
	}
	st, err = tr.GC(ctx, 7*24*time.Hour, acked.Add(7*24*time.Hour+time.Minute))
	if err != nil || st.Acked != 1 {
		t.Fatalf("GC seven days after the acknowledgement = %+v, %v; want it collected", st, err)
	}
}

// TestGCDuringAnAcknowledgementKeepsItsAuditCopy: a gc that runs while a
// message sent eight days ago is being acknowledged (after it reached cur/,
// before the acknowledgement would have stamped it) must not take it for an
// audit copy older than its 7 days: its age counts from the acknowledgement,
// whatever moment gc looks.
func TestGCDuringAnAcknowledgementKeepsItsAuditCopy(t *testing.T) {
	t.Parallel()
	r, root := roottest.Temp(t)
	ctx := context.Background()
	hook := &renameHookFS{FS: durable.Root(r)}
	tr := newFileAt(t, root, inbox.WithFS(hook))
	mustCreate(t, tr, "Bob")
	sent := time.Now().Add(-8 * 24 * time.Hour)
	m := fmt.Sprintf(`{"id":"6f1c2a9e-0b4d-4c1e-9a37-2d5f8e7b1c42","from":"Alice","to":"Bob","text":"old","timestamp":%q,"replyTo":null}`, sent.UTC().Format("2006-01-02T15:04:05.000Z"))
	name := fileName(sent.UnixMilli(), "abcd")
	plantAt(t, root, "Bob", name, []byte(m), sent)
	var during inbox.GCStats
	var err error
	hook.after = func(newname string) {
		if strings.Contains(newname, "/cur/") {
			during, err = tr.GC(ctx, 7*24*time.Hour, time.Now())
		}
	}
	rc := mustListen(t, tr, "Bob")
	d, rerr := rc.Receive(ctxT(t))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if aerr := rc.Ack(ctx, d); aerr != nil {
		t.Fatal(aerr)
	}
	if err != nil || during.Acked != 0 {
		t.Fatalf("GC during the acknowledgement = %+v, %v; want the audit copy kept", during, err)
	}
	if _, err := os.Stat(filepath.Join(root, "inbox", "Bob", "cur", name)); err != nil {
		t.Fatalf("the audit copy of a message acknowledged just now is gone: %v", err)
	}
}

// renameHookFS calls after once each rename is done.
type renameHookFS struct {
	durable.FS
	after func(newname string)
}

func (f *renameHookFS) Rename(oldname, newname string) error {
	err := f.FS.Rename(oldname, newname)
	if err == nil && f.after != nil {
		f.after(newname)
	}
	return err
}

// A second copy of a message (a foreign writer that delivered twice) is
// acknowledged silently when it is claimed; its audit copy too ages from
// then, like the first one's, not from when it was written.
func TestGCAgesADuplicateFromItsAcknowledgement(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	ctx := context.Background()
	sent := time.Now().Add(-8 * 24 * time.Hour)
	m := fmt.Sprintf(`{"id":"6f1c2a9e-0b4d-4c1e-9a37-2d5f8e7b1c41","from":"Alice","to":"Bob","text":"twice","timestamp":%q,"replyTo":null}`, sent.UTC().Format("2006-01-02T15:04:05.000Z"))
	for i := range 2 {
		plantAt(t, root, "Bob", fileName(sent.UnixMilli()+int64(i), "dup"), []byte(m), sent)
	}
	r := mustListen(t, tr, "Bob")
	d, err := r.Receive(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Ack(ctx, d); err != nil {
		t.Fatal(err)
	}
	if got := drainFor(t, r, 50*time.Millisecond); len(got) != 0 {
		t.Fatalf("the second copy was handed out: %v", got)
	}
	if _, acked, _, err := tr.Count(ctx, "Bob"); err != nil || acked != 2 {
		t.Fatalf("acknowledged: %d, %v; want both copies in cur/", acked, err)
	}
	if st, err := tr.GC(ctx, 7*24*time.Hour, time.Now()); err != nil || st.Acked != 0 {
		t.Fatalf("GC just after = %+v, %v; want both audit copies kept", st, err)
	}
}

// TestGCGoesOnPastAFileItCannotRemove: a file GC cannot remove (in one
// inbox, and one of several in a folder) does not keep it from collecting
// the rest of that folder and the other inboxes; the failure names the
// inbox and is returned with what was removed.
func TestGCGoesOnPastAFileItCannotRemove(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ffs, tr := faultyInbox(t, root, "Amy", "Bob", "Cy")
	old := time.Now().Add(-time.Hour)
	stage := func(agent, name string) {
		p := filepath.Join(root, "inbox", agent, "."+name+".json.0123456789ab.tmp")
		os.WriteFile(p, []byte("partial"), 0o600)
		os.Chtimes(p, old, old)
	}
	for _, a := range []string{"Amy", "Bob", "Cy"} {
		stage(a, "x")
		stage(a, "y")
	}
	ffs.Fail("remove", "inbox/Amy/.x.", syscall.EACCES, 0)
	st, err := tr.GC(context.Background(), time.Hour, time.Now())
	var de *inbox.DeliveryError
	if !errors.Is(err, syscall.EACCES) || !errors.As(err, &de) || de.Agent != "Amy" || de.Op != "gc" {
		t.Fatalf("GC error = %v; want Amy's permission failure", err)
	}
	if st.Staging != 5 {
		t.Fatalf("GC removed %d staging files, want the 5 it could", st.Staging)
	}
	left, _ := filepath.Glob(filepath.Join(root, "inbox", "*", ".*.tmp"))
	if len(left) != 1 || !strings.Contains(left[0], filepath.Join("Amy", ".x.")) {
		t.Fatalf("left behind: %v; want only Amy's unremovable file", left)
	}
}

// Directory reads are not snapshots: a scan may list a message without the
// one its sender created just before. Scans alone (no watcher, a scan every
// millisecond, senders writing throughout) must still keep every sender's
// order.
func TestScanOnlyKeepsSendOrder(t *testing.T) {
	t.Parallel()
	const senders, each = 4, 250
	tr := newFile(t, inbox.WithoutWatcher(), inbox.WithReconcile(time.Millisecond))
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")
	for s := 0; s < senders; s++ {
		go func(s int) {
			for i := 0; i < each; i++ {
				if err := tr.Send(context.Background(), &inbox.Message{From: fmt.Sprintf("S%d", s), To: "Bob", Text: fmt.Sprint(i)}); err != nil {
					t.Error(err)
					return
				}
			}
		}(s)
	}
	next := map[string]int{}
	for _, m := range receiveN(t, ctxT(t), r, senders*each) {
		if m.Text != fmt.Sprint(next[m.From]) {
			t.Fatalf("from %s: got %s, want %d", m.From, m.Text, next[m.From])
		}
		next[m.From]++
	}
}

// A second bad file under a name already quarantined (a foreign writer that
// reuses its file name) is quarantined beside the first, each with its own
// reason: nothing is silently deleted.
func TestQuarantineKeepsEarlierFilesOfTheSameName(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")
	name := fileName(1700000000000, "reused")
	contents := []string{"first garbage", "second garbage"}
	for i, garbage := range contents {
		plant(t, root, "Bob", name, []byte(garbage))
		m := mustSend(t, tr, "Alice", "Bob", fmt.Sprint(i)) // comes after the bad file
		d, err := r.Receive(ctxT(t))
		if err != nil || d.Message.ID != m.ID {
			t.Fatalf("round %d: Receive = %v, %v", i, d, err)
		}
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(root, "inbox", "Bob", "bad")
	des, err := os.ReadDir(bad)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	reasons := 0
	for _, de := range des {
		if strings.HasSuffix(de.Name(), inbox.ReasonSuffix) {
			reasons++
			continue
		}
		b, _ := os.ReadFile(filepath.Join(bad, de.Name()))
		kept = append(kept, string(b))
		if _, err := os.Stat(filepath.Join(bad, de.Name()+inbox.ReasonSuffix)); err != nil {
			t.Errorf("%s has no reason beside it: %v", de.Name(), err)
		}
	}
	slices.Sort(kept)
	if !slices.Equal(kept, contents) || reasons != 2 {
		t.Fatalf("bad/ keeps %q with %d reasons, want both files %q and their reasons", kept, reasons, contents)
	}
}

// A receiver tells the caller that asked (QuarantineNotifier) of each file
// it sets aside, with where it now is and why, so that a person reading
// the inbox learns a message came and could not be read; a second file of
// a name already quarantined is told under its own new name.
func TestQuarantineIsToldToTheReceiver(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")
	qn, ok := r.(inbox.QuarantineNotifier)
	if !ok {
		t.Fatalf("%T does not tell of quarantined files", r)
	}
	var told []inbox.Quarantine
	qn.NotifyQuarantine(func(q inbox.Quarantine) { told = append(told, q) })
	name := fileName(1700000000000, "broken")
	for i, garbage := range []string{`{"id":"x"`, "[1,2]"} {
		plant(t, root, "Bob", name, []byte(garbage))
		m := mustSend(t, tr, "Alice", "Bob", fmt.Sprint(i)) // comes after the bad file
		d, err := r.Receive(ctxT(t))
		if err != nil || d.Message.ID != m.ID {
			t.Fatalf("round %d: Receive = %v, %v", i, d, err)
		}
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
	}
	bad := filepath.Join(root, "inbox", "Bob", "bad")
	want := []string{filepath.Join(bad, name), filepath.Join(bad, name+".2")}
	if len(told) != len(want) {
		t.Fatalf("told %d quarantines (%+v), want %d", len(told), told, len(want))
	}
	for i, q := range told {
		if q.Agent != "Bob" || q.Where != want[i] || !strings.Contains(q.Reason, "malformed") {
			t.Errorf("quarantine %d told as %+v, want Bob, %s, a malformed reason", i, q, want[i])
		}
		if _, err := os.Stat(q.Where); err != nil {
			t.Errorf("the file told of is not there: %v", err)
		}
	}
}

// A file that cannot be read and cannot be set aside either (bad/ on a
// full disk) stays in the inbox, skipped; the receiver tells it, once,
// naming where it stays and why it could not be moved, rather than
// answering an empty inbox as if nothing had come.
func TestQuarantineThatFailsIsToldToTheReceiver(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ffs, tr := faultyInbox(t, root, "Bob")
	name := fileName(1700000000000, "broken")
	plant(t, root, "Bob", name, []byte(`{"id":"x"`))
	ffs.Fail("open", "/bad/", syscall.ENOSPC, 0)
	r := mustListen(t, tr, "Bob")
	var told []inbox.Quarantine
	r.(inbox.QuarantineNotifier).NotifyQuarantine(func(q inbox.Quarantine) { told = append(told, q) })
	m := mustSend(t, tr, "Alice", "Bob", "after it")
	d, err := r.Receive(ctxT(t))
	if err != nil || d.Message.ID != m.ID {
		t.Fatalf("Receive = %v, %v; want the message after the broken file", d, err)
	}
	if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	stays := filepath.Join(root, "inbox", "Bob", name)
	if len(told) != 1 || told[0].Agent != "Bob" || told[0].Where != stays ||
		!strings.Contains(told[0].Reason, "malformed") || !errors.Is(told[0].Err, syscall.ENOSPC) {
		t.Fatalf("told %+v; want once: Bob, %s, a malformed reason, the ENOSPC that kept it there", told, stays)
	}
	if _, err := os.Stat(stays); err != nil {
		t.Fatalf("the file is not where it was told to stay: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if d, err := r.Receive(ctx); d != nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Receive of the skipped file = %v, %v; want nothing", d, err)
	}
	if len(told) != 1 {
		t.Fatalf("told %d times, want once per receiver", len(told))
	}
}

// Count says as many messages wait as a receiver will hand out: a
// symbolic link, a FIFO or a directory named like a message is never
// claimed, so it is not counted either (agents show said "3 waiting"
// where recv answered "no messages").
func TestCountAgreesWithWhatAReceiverClaims(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	m := mustSend(t, tr, "Alice", "Bob", "the one message")
	dir := filepath.Join(root, "inbox", "Bob")
	target := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(target, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, fileName(1700000000000, "link"))); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, fileName(1700000000001, "fifo")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, fileName(1700000000002, "dir")), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "cur", fileName(1700000000003, "link"))); err != nil {
		t.Fatal(err)
	}
	waiting, acked, bad, err := tr.Count(context.Background(), "Bob")
	if err != nil || waiting != 1 || acked != 0 || bad != 0 {
		t.Fatalf("Count = %d waiting, %d acked, %d bad, %v; want the 1 message a receiver claims", waiting, acked, bad, err)
	}
	r := mustListen(t, tr, "Bob")
	got := drainFor(t, r, 50*time.Millisecond)
	if len(got) != 1 || got[0].ID != m.ID {
		t.Fatalf("a receiver handed out %d messages, want the one counted", len(got))
	}
}

// faultyInbox is a file transport at root whose writes go through a
// FaultFS, for the test to make fail, with an inbox for each of agents.
func faultyInbox(t *testing.T, root string, agents ...string) (*durable.FaultFS, *inbox.FileTransport) {
	t.Helper()
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	ffs := &durable.FaultFS{FS: durable.Root(r)}
	tr := newFileAt(t, root, inbox.WithFS(ffs))
	mustCreate(t, tr, agents...)
	return ffs, tr
}

// What a receiver ignores, and what stands where an inbox should be, is
// named in the same words as everywhere else in parley ("a named pipe",
// "a socket"), not lumped together as "special file".
func TestWhatWasFoundIsNamedPrecisely(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	var logs logBuffer
	tr := newFileAt(t, root, inbox.WithLogger(logs.logger()), inbox.WithReconcile(10*time.Millisecond))
	mustCreate(t, tr, "Bob")
	m := mustSend(t, tr, "Alice", "Bob", "the one message")
	if err := syscall.Mkfifo(filepath.Join(root, "inbox", "Bob", fileName(1700000000001, "fifo")), 0o600); err != nil {
		t.Fatal(err)
	}
	r := mustListen(t, tr, "Bob")
	if got := drainFor(t, r, 50*time.Millisecond); len(got) != 1 || got[0].ID != m.ID {
		t.Fatalf("a receiver handed out %d messages, want the one sent", len(got))
	}
	if !strings.Contains(logs.String(), "ignoring a named pipe named like a message") {
		t.Errorf("the log does not name the FIFO as a named pipe:\n%s", logs.String())
	}

	if err := syscall.Mkfifo(filepath.Join(root, "inbox", "Carol"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := tr.Create(context.Background(), "Carol")
	if err == nil || !strings.Contains(err.Error(), "is a named pipe, not a directory") {
		t.Errorf("Create over a FIFO = %v, want it to say a named pipe stands there", err)
	}
}
