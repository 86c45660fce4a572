package inbox_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
)

// inotifyInstances counts this process's inotify descriptors.
func inotifyInstances(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

// One transport shares one watcher among all its receivers: more receivers
// than the default per-user limit of inotify instances (128) each get their
// messages, with a single instance.
func TestOneWatcherForManyReceivers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("inotify")
	}
	const n = 150
	tr := newFile(t)
	before := inotifyInstances(t)
	var rs []inbox.Receiver
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("Agent%d", i)
		mustCreate(t, tr, name)
		rs = append(rs, mustListen(t, tr, name))
	}
	if got := inotifyInstances(t) - before; got != 1 {
		t.Fatalf("%d receivers opened %d inotify instances, want 1", n, got)
	}
	for i := 0; i < n; i++ {
		mustSend(t, tr, "Alice", fmt.Sprintf("Agent%d", i), fmt.Sprint(i))
	}
	for i, r := range rs {
		d, err := r.Receive(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if d.Message.Text != fmt.Sprint(i) || d.Message.To != fmt.Sprintf("Agent%d", i) {
			t.Fatalf("receiver %d got %+v", i, d.Message)
		}
	}
	for _, r := range rs {
		r.Close()
	}
	tr.Close()
	if got := inotifyInstances(t) - before; got != 0 {
		t.Fatalf("Close left %d inotify instances", got)
	}
}

// After a watcher error the hub re-arms the inbox's watch; a message
// created while the watch is down has no event. The receiver must not
// trust events again before the watch is back, or the sender's next
// message (which has an event) would be handed out first.
func TestWatcherErrorKeepsTheOrderWhileRearming(t *testing.T) {
	t.Parallel()
	tr := newFile(t)
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")
	// Let the receiver settle: its first scan trusts the watcher.
	mustSend(t, tr, "Alice", "Bob", "warm-up")
	if d, err := r.Receive(ctxT(t)); err != nil || d.Message.Text != "warm-up" {
		t.Fatalf("Receive = %v, %v", d, err)
	} else if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	inbox.OnRearm(tr, func() {
		// While the watch is down, the receiver looks at the inbox (finds
		// it empty), then the sender's first message arrives unseen.
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if d, err := r.Receive(ctx); err == nil {
			t.Errorf("received %q from an empty inbox", d.Message.Text)
		}
		mustSend(t, tr, "Alice", "Bob", "0")
	})
	inbox.InjectWatchError(tr, errors.New("injected watcher error"))
	inbox.OnRearm(tr, nil)
	mustSend(t, tr, "Alice", "Bob", "1") // has an event
	for _, want := range []string{"0", "1"} {
		d, err := r.Receive(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if d.Message.Text != want {
			t.Fatalf("received %q, want %q (send order)", d.Message.Text, want)
		}
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
	}
}

// The watcher wakes a blocked receiver: with the reconciliation scan an
// hour away, only an fsnotify event can deliver within the test's bound.
// (Without this, a watcher that never wakes anyone passed every test: the
// default 1 s scan delivered instead.)
func TestWatcherWakesABlockedReceiver(t *testing.T) {
	t.Parallel()
	tr := newFile(t, inbox.WithReconcile(time.Hour))
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")
	settle(t, r)
	for i := 0; i < 3; i++ {
		got := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			d, err := r.Receive(ctx)
			if err == nil {
				err = r.Ack(ctx, d)
			}
			got <- err
		}()
		time.Sleep(20 * time.Millisecond) // let Receive block first
		mustSend(t, tr, "Alice", "Bob", fmt.Sprint(i))
		if err := <-got; err != nil {
			t.Fatalf("message %d: a blocked Receive was not woken by the watcher: %v", i, err)
		}
	}
}

// No trailing debounce: under a steady stream (a message every millisecond
// or two, never a quiet moment) the receiver keeps up with the stream. A
// debounce that waits for the directory to be quiet delivers only in the
// stream's gaps, hundreds of messages behind; the scan is an hour away.
// The bound (200 messages behind) is far above what a receiver woken by
// every event lags (one or two) and far below what a debounce lags.
func TestASteadyStreamIsNotStarved(t *testing.T) {
	t.Parallel()
	tr := newFile(t, inbox.WithReconcile(time.Hour))
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")
	settle(t, r)
	var sent atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := tr.Send(context.Background(), &inbox.Message{From: "Alice", To: "Bob", Text: fmt.Sprint(n)}); err != nil {
				t.Error(err)
				return
			}
			sent.Add(1)
			time.Sleep(time.Millisecond)
		}
	}()
	defer func() { close(stop); <-done }()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	const want, maxLag = 50, 200
	for i := 0; i < want; i++ {
		d, err := r.Receive(ctx)
		if err != nil {
			t.Fatalf("after %d messages, while the stream went on: %v", i, err)
		}
		if lag := sent.Load() - int64(i) - 1; lag > maxLag {
			t.Fatalf("message %d was received %d messages behind the stream: woken late", i, lag)
		}
		if d.Message.Text != fmt.Sprint(i) {
			t.Fatalf("got %q, want %d (send order)", d.Message.Text, i)
		}
		if err := r.Ack(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
}

// settle makes a receiver's first scan happen (an empty poll), so that it
// trusts its watcher from then on.
func settle(t *testing.T, r inbox.Receiver) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if d, err := r.Receive(ctx); err == nil {
		t.Fatalf("unexpected message %q", d.Message.Text)
	}
}
