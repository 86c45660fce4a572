package inbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
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
