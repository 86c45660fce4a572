package inbox_test

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

func benchMessage() *inbox.Message {
	m, _ := inbox.NewMessage("Alice", "Bob", "debate_turn", strings.Repeat("An argument, in Markdown. ", 20),
		map[string]any{"debate_id": "20261130-spec-x-abcdef", "round": 2, "role": "attacker", "position": "p", "evidence_refs": []string{"a.go:12", "[[page]]"}})
	return m
}

func BenchmarkEncode(b *testing.B) {
	m := benchMessage()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	data, _ := benchMessage().Encode()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := inbox.Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileSend is one durable delivery: staging file, fsync, link,
// fsync of the inbox directory.
func BenchmarkFileSend(b *testing.B) {
	tr := newFile(b)
	mustCreate(b, tr, "Bob")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m := benchMessage()
		m.ID = ""
		if err := tr.Send(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileSendReceiveAck is one message's whole trip in one process:
// durable send, claim (woken by the watcher), ack (rename to cur/, fsync).
func BenchmarkFileSendReceiveAck(b *testing.B) {
	tr := newFile(b)
	mustCreate(b, tr, "Bob")
	r := mustListen(b, tr, "Bob")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m := benchMessage()
		m.ID = ""
		if err := tr.Send(ctx, m); err != nil {
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

func BenchmarkMemSendReceiveAck(b *testing.B) {
	tr := inbox.NewMemTransport()
	mustCreate(b, tr, "Bob")
	r := mustListen(b, tr, "Bob")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m := benchMessage()
		m.ID = ""
		if err := tr.Send(ctx, m); err != nil {
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
