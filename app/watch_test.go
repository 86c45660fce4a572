package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/flock"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

// A watch registers its name while it runs, so a sender sees the agent
// live and gets no warning; when it stops, the registration is gone and
// the next send warns not_active again. A name another live session holds
// is refused (ProblemTaken, naming the input that only reads); without
// registering, the same watch reads.
func TestWatchRegistersWhileItRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := New(Options{Root: t.TempDir()})
	if _, err := a.AddAgent(ctx, "Wren"); err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(ctx)
	started := make(chan struct{})
	got := make(chan string, 4)
	done := make(chan error, 1)
	go func() {
		done <- a.Watch(wctx, WatchRequest{As: "Wren", Register: true, Started: func() { close(started) }},
			func(m *inbox.Message) error { got <- m.Text; return nil })
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("watch ended: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the watch did not start")
	}
	watchedLive(t, a, got, "while watching", "queue depth 4k")

	// Another session holds the name: the second watch is refused.
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Registry().Register(ctx, registry.Registration{Name: "Kite", SessionID: "other-session"}); err != nil {
		t.Fatal(err)
	}
	err = a.Watch(ctx, WatchRequest{As: "Kite", Register: true}, func(*inbox.Message) error { return nil })
	var e *Error
	if !errors.As(err, &e) || e.Problem != ProblemTaken ||
		strings.Count(e.Error(), "live agent") != 1 ||
		!strings.HasSuffix(e.Format(func(f string) string { return "<" + f + ">" }), ": stop that agent or choose another name (see <parley agents list>; <no_register> only reads)") {
		t.Fatalf("watch of a name held by another: %v", err)
	}

	stop()
	if err := <-done; err != nil {
		t.Fatalf("watch stopped with %v", err)
	}
	ag, err := a.Agent(ctx, "Wren")
	if err != nil || ag.Registered {
		t.Fatalf("after the watch: %+v %v; want no registration", ag, err)
	}
	sent, err := a.Send(ctx, SendRequest{From: "pager", To: "Wren", Text: "queue drained"})
	if err != nil || len(sent.Warnings) != 1 || sent.Warnings[0].Code != WarnNotActive {
		t.Fatalf("send after the watch: %+v %v", sent, err)
	}
	// Unknown names are not_found, registering or not; nothing is made.
	for _, register := range []bool{true, false} {
		err := a.Watch(ctx, WatchRequest{As: "Nobody", Register: register}, func(*inbox.Message) error { return nil })
		if !IsProblem(err, ProblemNotFound) || !errors.Is(err, inbox.ErrNotFound) {
			t.Errorf("watch of an unknown name (register %v): %v", register, err)
		}
	}
	if ok, _ := b.Transport().Exists(ctx, "Nobody"); ok {
		t.Error("a watch of an unknown name made its inbox")
	}
}

// A watch of a name that another process already watches (the same watch
// session, alive under another PID) is refused as a busy inbox before it
// writes anything: the other watch stays registered under its own PID.
func TestWatchOfANameWatchedByAnotherProcessIsBusy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := New(Options{Root: t.TempDir()})
	if _, err := a.AddAgent(ctx, "Wren"); err != nil {
		t.Fatal(err)
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	other := os.Getppid() // alive, on this host, and not this process
	if _, err := b.Registry().Register(ctx, registry.Registration{Name: "Wren", SessionID: WatchSession("Wren"), PID: other}); err != nil {
		t.Fatal(err)
	}
	err = a.Watch(ctx, WatchRequest{As: "Wren", Register: true}, func(*inbox.Message) error { return nil })
	if !IsProblem(err, ProblemMessenger) || !errors.Is(err, inbox.ErrBusy) || !errors.Is(err, registry.ErrSessionBusy) {
		t.Fatalf("watch of a name another process watches: %v", err)
	}
	e, err := b.Registry().Get(ctx, "Wren")
	if err != nil || e.PID != other || !e.Alive {
		t.Fatalf("after the refused watch: %+v, %v; want the other watch's registration, pid %d", e, err, other)
	}
}

// A millisecond setting past its bound stops a watch before it registers
// or reads anything, with config's one-line refusal: a heartbeat TTL of
// 10^13 ms once overflowed into a negative interval that panicked the
// heartbeat, leaving the registration behind.
func TestWatchRefusesAnOutOfRangeSetting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, setting := range []string{`{"heartbeatTtlMs":10000000000000}`, `{"reconcileMs":9223372036854775807}`} {
		root := t.TempDir()
		a := New(Options{Root: root})
		if _, err := a.AddAgent(ctx, "Bob"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(`{"messenger":`+setting+`}`), 0o600); err != nil {
			t.Fatal(err)
		}
		a = New(Options{Root: root}) // the config is read once per App
		err := a.Watch(ctx, WatchRequest{As: "Bob", Register: true}, func(*inbox.Message) error { return nil })
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "messenger.") {
			t.Errorf("watch with %s: %v; want config's refusal naming the key", setting, err)
		}
		if _, err := os.Stat(filepath.Join(root, registry.Dir, "Bob.json")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("watch with %s left a registration behind (%v)", setting, err)
		}
	}
}

// config.json's defaults, as "parley config show" prints them, are the
// packages' own.
func TestConfigDefaultsAreThePackagesOwn(t *testing.T) {
	t.Parallel()
	for name, pair := range map[string][2]time.Duration{
		"heartbeatTtlMs": {config.DefaultHeartbeatTTLMs * time.Millisecond, registry.DefaultTTL},
		"reconcileMs":    {config.DefaultReconcileMs * time.Millisecond, inbox.DefaultReconcile},
		"retryMs":        {config.DefaultNATSRetryMs * time.Millisecond, jetstream.DefaultRetry},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s: config says %v, the package %v", name, pair[0], pair[1])
		}
	}
}

// A watch whose registration is removed under it (pruned as stale after
// the watch was paused or the machine slept, or deleted by hand) registers
// its name again by itself, under its own session, and says so; a name
// another live session holds is left to it, and the watch says why it is
// no longer registered and goes on reading.
func TestWatchRegistersAgainWhenItsRegistrationIsRemoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	got := make(chan string, 4)
	wt := startWatch(t, func(m *inbox.Message) error { got <- m.Text; return nil })
	a, root := wt.a, wt.root
	regFile := filepath.Join(root, "registry", "Wren.json")
	// Changed under the registry's lock, as a prune changes it: a
	// heartbeat in progress cannot write it back over the change.
	underLock := func(change func() error) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(root, "registry", ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := flock.Wait(ctx, f, flock.Exclusive); err != nil {
			t.Fatal(err)
		}
		if err := change(); err != nil {
			t.Fatal(err)
		}
	}
	underLock(func() error { return os.Remove(regFile) })
	w := wt.nextWarning(t, "that the registration was restored")
	if w.Code != WarnReregistered || w.Agent != "Wren" || !strings.Contains(w.Text, "registration was removed") || !strings.Contains(w.Text, "registered Wren again") {
		t.Fatalf("warning %+v; want that Wren was registered again, and why", w)
	}
	watchedLive(t, a, got, "after the registration was removed", "back?")

	// Another live session takes the name: the watch leaves it alone.
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	other := registry.Registration{Name: "Wren", SessionID: "other-session", Model: "pi"}
	other.FillDefaults(b.Registry().Host(), time.Now())
	data, err := other.Encode()
	if err != nil {
		t.Fatal(err)
	}
	underLock(func() error { return os.WriteFile(regFile, data, 0o600) }) // as pi-messenger writes it
	for {
		w = wt.nextWarning(t, "that another session took the name")
		if w.Code != WarnReregistered {
			break
		}
	}
	// The name is the other session's while it runs: senders see it live,
	// and a watch started again now would be refused.
	if w.Code != WarnRegistrationLost || !strings.Contains(w.Text, "another session took the name") ||
		strings.Contains(w.Text, "senders get not_active") || !strings.Contains(w.Text, "once that session stops, start this watch again") {
		t.Fatalf("warning %+v; want that another session took Wren, and when a watch can register it again", w)
	}
	if e, err := b.Registry().Get(ctx, "Wren"); err != nil || e.SessionID != "other-session" {
		t.Fatalf("after another session took the name: %+v %v; want its registration left as it is", e, err)
	}
	wt.stopped(t)
	if e, err := b.Registry().Get(ctx, "Wren"); err != nil || e.SessionID != "other-session" {
		t.Fatalf("after the watch stopped: %+v %v; want the other session's registration kept", e, err)
	}
}

// watchedLive checks, at when, that Wren is live under its watch's session
// and that a message sent to it, with no warning, reaches the watch (got).
func watchedLive(t *testing.T, a *App, got <-chan string, when, text string) {
	t.Helper()
	ctx := context.Background()
	// Live is a heartbeat younger than the TTL (1 s here): on a machine
	// loaded enough to stall a beat, the next one makes it live again.
	var ag *Agent
	var err error
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ag, err = a.Agent(ctx, "Wren")
		if err == nil && ag.State == AgentLive && ag.SessionID == WatchSession("Wren") || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || ag.State != AgentLive || ag.SessionID != WatchSession("Wren") {
		t.Fatalf("%s: %+v %v; want Wren live under the watch's session", when, ag, err)
	}
	sent, err := a.Send(ctx, SendRequest{From: "pager", To: "Wren", Text: text, RequireLive: true})
	if err != nil || len(sent.Warnings) != 0 {
		t.Fatalf("%s: send to the watched name: %+v %v", when, sent, err)
	}
	if w := <-got; w != text {
		t.Fatalf("%s: watched %q, want %q", when, w, text)
	}
}

// A watch whose heartbeat cannot be written (a full disk, a read-only
// file system; here a directory where the registry's lock file goes) says
// so once, since senders will soon see it as stopped, and says so again
// when its registration is renewed.
func TestWatchSaysWhenItsHeartbeatFails(t *testing.T) {
	t.Parallel()
	wt := startWatch(t, func(*inbox.Message) error { return nil })
	lock := filepath.Join(wt.root, "registry", ".lock")
	for {
		// A beat may make the file again between the two.
		if err := os.Remove(lock); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		err := os.Mkdir(lock, 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			t.Fatal(err)
		}
	}
	w := wt.nextWarning(t, "that the heartbeat failed")
	if w.Code != WarnHeartbeatFailed || w.Agent != "Wren" || !strings.Contains(w.Text, "could not renew Wren's registration") || !strings.Contains(w.Text, "not running") {
		t.Fatalf("warning %+v; want that Wren's heartbeat failed and what senders will see", w)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	w = wt.nextWarning(t, "that the registration was renewed")
	if w.Code != WarnHeartbeatRenewed || !strings.Contains(w.Text, "renewed") {
		t.Fatalf("warning %+v; want that Wren's registration was renewed", w)
	}
	wt.stopped(t)
}

// watching is a registered watch of Wren on a new root whose registration
// lives 1 s (a heartbeat every quarter of a second), started.
type watching struct {
	a      *App
	root   string
	warned chan Warning
	done   chan error
	stop   context.CancelFunc
}

// startWatch starts a watching whose messages go to handle, and waits
// until it watches; the test's end stops it.
func startWatch(t *testing.T, handle func(*inbox.Message) error) *watching {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"messenger":{"heartbeatTtlMs":1000}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	w := &watching{a: New(Options{Root: root}), root: root, warned: make(chan Warning, 64), done: make(chan error, 1)}
	if _, err := w.a.AddAgent(ctx, "Wren"); err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(ctx)
	w.stop = stop
	t.Cleanup(stop)
	started := make(chan struct{})
	go func() {
		w.done <- w.a.Watch(wctx, WatchRequest{As: "Wren", Register: true, Started: func() { close(started) }, Warn: func(x Warning) { w.warned <- x }}, handle)
	}()
	select {
	case <-started:
	case err := <-w.done:
		t.Fatalf("watch ended: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the watch did not start")
	}
	return w
}

// nextWarning is the watch's next warning, about what.
func (w *watching) nextWarning(t *testing.T, what string) Warning {
	t.Helper()
	select {
	case x := <-w.warned:
		return x
	case err := <-w.done:
		t.Fatalf("watch ended: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatalf("no warning %s", what)
	}
	return Warning{}
}

// stopped stops the watch, which must end without an error.
func (w *watching) stopped(t *testing.T) {
	t.Helper()
	w.stop()
	if err := <-w.done; err != nil {
		t.Fatalf("watch stopped with %v", err)
	}
}
