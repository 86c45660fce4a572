package jetstream_test

import (
	"context"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// The hot paths against an embedded server in this process (its default
// sync_interval: the figures are the transport's and the server's, not
// the disk's).

func BenchmarkSend(b *testing.B) {
	tr := connect(b, startServer(b).URL()).Transport()
	ctx := context.Background()
	if err := tr.Create(ctx, "Bob"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.Send(ctx, &inbox.Message{From: "Alice", To: "Bob", Text: "a message of a few words"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSendReceiveAck(b *testing.B) {
	tr := connect(b, startServer(b).URL()).Transport()
	ctx := context.Background()
	if err := tr.Create(ctx, "Bob"); err != nil {
		b.Fatal(err)
	}
	r, err := tr.Listen(ctx, "Bob")
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.Send(ctx, &inbox.Message{From: "Alice", To: "Bob", Text: "a message of a few words"}); err != nil {
			b.Fatal(err)
		}
		d, err := r.Receive(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Ack(ctx, d); err != nil {
			b.Fatal(err)
		}
	}
}
