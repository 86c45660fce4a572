package jetstream_test

import (
	"fmt"
	"testing"

	"github.com/parleyhq/parley/inbox"
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
