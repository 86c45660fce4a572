package jetstream_test

import (
	"context"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
)

// An inbox's consumer lives as long as its receiver: after many inboxes
// have each been listened to and closed (a debate's coordinator is a new
// inbox every time) the server holds no consumer for them, so its default
// limit of 1000 consumers per stream is never reached by inboxes nobody
// listens to. A message sent while nobody listened, or received and not
// acknowledged before Close, still reaches the next receiver.
func TestClosedReceiversLeaveNoConsumer(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	tr := connect(t, srv.URL()).Transport()
	s, err := njsStream(t, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	consumers := func() int {
		t.Helper()
		info, err := s.Info(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		return info.State.Consumers
	}
	for i := range 30 {
		name := fmt.Sprintf("Coordinator-%d", i)
		if err := tr.Create(ctxT(t), name); err != nil {
			t.Fatal(err)
		}
		r, err := tr.Listen(ctxT(t), name)
		if err != nil {
			t.Fatal(err)
		}
		if n := consumers(); n != 1 {
			t.Fatalf("a listening receiver: %d consumers, want 1", n)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := consumers(); n != 0 {
		t.Fatalf("after 30 receivers closed: %d consumers, want 0", n)
	}

	if err := tr.Send(ctxT(t), &inbox.Message{From: "Alice", To: "Coordinator-0", Text: "while nobody listened"}); err != nil {
		t.Fatal(err)
	}
	r, err := tr.Listen(ctxT(t), "Coordinator-0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Receive(ctxT(t))
	if err != nil || d.Message.Text != "while nobody listened" {
		t.Fatalf("Receive = %v, %v", d, err)
	}
	r.Close() // not acknowledged
	r = listenT(t, tr, "Coordinator-0")
	d, err = r.Receive(ctxT(t))
	if err != nil || d.Message.Text != "while nobody listened" {
		t.Fatalf("after a Close without Ack: Receive = %v, %v", d, err)
	}
}

// A receiver that dies without closing (killed, its machine lost) cannot
// remove its inbox's consumer: the server removes it once nobody has
// pulled from it for Config.Inactive, so that the consumers of crashed
// agents and coordinators never add up to the server's limit. A live
// receiver waiting in Receive for longer than that keeps its consumer and
// gets what is sent next.
func TestDeadReceiversConsumerIsRemovedLiveOneKept(t *testing.T) {
	t.Parallel()
	const inactive = time.Second
	srv := startServer(t)
	tr := connect(t, srv.URL(), func(c *jetstream.Config) { c.Inactive = inactive }).Transport()
	s, err := njsStream(t, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	consumers := func(ctx context.Context) []string {
		t.Helper()
		var names []string
		l := s.ConsumerNames(ctx)
		for n := range l.Name() {
			names = append(names, n)
		}
		if err := l.Err(); err != nil {
			t.Fatal(err)
		}
		return names
	}
	for _, name := range []string{"Crashed", "Live"} {
		if err := tr.Create(ctxT(t), name); err != nil {
			t.Fatal(err)
		}
	}
	cmd, out, _ := startChild(t, "hold", srv.URL(), "Crashed", "PARLEY_JS_INACTIVE="+inactive.String())
	if !out.Scan() || out.Text() != "listening" {
		t.Fatalf("child: %q %v", out.Text(), out.Err())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	live := listenT(t, tr, "Live")
	type result struct {
		d   *inbox.Delivery
		err error
	}
	got := make(chan result, 1)
	go func() {
		d, err := live.Receive(ctxT(t))
		got <- result{d, err}
	}()

	// Without the threshold the dead receiver's consumer stays for ever:
	// wait until it is gone, as long as the test's context allows.
	wait, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for slices.Contains(consumers(ctxT(t)), jetstream.ConsumerName("Crashed")) {
		if wait.Err() != nil {
			t.Fatalf("the consumer of a killed receiver is still on the server: %v", consumers(ctxT(t)))
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(3 * inactive) // the live receiver waits past the threshold
	if names := consumers(ctxT(t)); !slices.Contains(names, jetstream.ConsumerName("Live")) {
		t.Fatalf("consumers %v: the live receiver's was removed", names)
	}
	if err := tr.Send(ctxT(t), &inbox.Message{From: "Alice", To: "Live", Text: "after a long wait"}); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.err != nil || r.d.Message.Text != "after a long wait" {
		t.Fatalf("Receive = %v, %v", r.d, r.err)
	}
	if err := live.Ack(ctxT(t), r.d); err != nil {
		t.Fatal(err)
	}
}
