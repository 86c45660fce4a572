// Package inboxtest is the conformance suite that every inbox.Transport
// backend must pass: deliver, claim, ack, redeliver, duplicate id, oversize,
// bad name, order per sender, wake-up, redelivery order, isolation between
// inboxes, closed receivers, the size limit's edge.
package inboxtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
)

// Factory returns a fresh, empty transport for one subtest. It registers any
// cleanup with t.
type Factory func(t testing.TB) inbox.Transport

// Run runs the conformance suite against transports made by newTransport.
func Run(t *testing.T, newTransport Factory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, tr inbox.Transport)
	}{
		{"DeliverClaimAck", testDeliverClaimAck},
		{"OrderPerSender", testOrderPerSender},
		{"ConcurrentSenders", testConcurrentSenders},
		{"RedeliverUnacked", testRedeliver},
		{"DuplicateID", testDuplicateID},
		{"Oversize", testOversize},
		{"BadNames", testBadNames},
		{"NotFound", testNotFound},
		{"OneReceiver", testOneReceiver},
		{"WakeOnSend", testWake},
		{"PollEmpty", testPollEmpty},
		{"FieldsRoundTrip", testFields},
		{"AckTwice", testAckTwice},
		{"RedeliverInOrder", testRedeliverInOrder},
		{"Isolation", testIsolation},
		{"AckForeignDelivery", testAckForeign},
		{"ListenMissingInbox", testListenMissing},
		{"ClosedReceiver", testClosedReceiver},
		{"NearSizeLimit", testNearLimit},
		{"SendRefusesWhatCannotBeReceived", testUndeliverable},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newTransport(t))
		})
	}
}

func ctxT(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustCreate(t testing.TB, tr inbox.Transport, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := tr.Create(ctxT(t), n); err != nil {
			t.Fatalf("Create(%q): %v", n, err)
		}
	}
}

func send(t testing.TB, tr inbox.Transport, from, to, text string) *inbox.Message {
	t.Helper()
	m := &inbox.Message{From: from, To: to, Text: text}
	if err := tr.Send(ctxT(t), m); err != nil {
		t.Fatalf("Send(%s→%s): %v", from, to, err)
	}
	return m
}

func listen(t testing.TB, tr inbox.Transport, agent string) inbox.Receiver {
	t.Helper()
	r, err := tr.Listen(ctxT(t), agent)
	if err != nil {
		t.Fatalf("Listen(%q): %v", agent, err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// drain receives and acks until the inbox stays empty for quiet.
func drain(t testing.TB, r inbox.Receiver, quiet time.Duration) []*inbox.Message {
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
			t.Fatalf("Receive: %v", err)
		}
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatalf("Ack: %v", err)
		}
		got = append(got, d.Message)
	}
}

func testDeliverClaimAck(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	sent := send(t, tr, "Alice", "Bob", "hello **Bob**")
	if sent.ID == "" || sent.Timestamp == "" {
		t.Fatalf("Send did not fill id and timestamp: %+v", sent)
	}
	if _, err := time.Parse(inbox.TimeLayout, sent.Timestamp); err != nil {
		t.Fatalf("timestamp %q: %v", sent.Timestamp, err)
	}
	r := listen(t, tr, "Bob")
	d, err := r.Receive(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	m := d.Message
	if m.ID != sent.ID || m.From != "Alice" || m.To != "Bob" || m.Text != "hello **Bob**" || m.Kind() != inbox.TypeText {
		t.Fatalf("received %+v, want the sent message %+v", m, sent)
	}
	if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	if got := drain(t, r, 100*time.Millisecond); len(got) != 0 {
		t.Fatalf("acked message came back: %v", got)
	}
	r.Close()
	r2 := listen(t, tr, "Bob")
	if got := drain(t, r2, 100*time.Millisecond); len(got) != 0 {
		t.Fatalf("acked message redelivered to a new receiver: %v", got)
	}
}

func testOrderPerSender(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	const n = 200
	for i := 0; i < n; i++ {
		send(t, tr, "Alice", "Bob", fmt.Sprint(i))
	}
	got := drain(t, listen(t, tr, "Bob"), 200*time.Millisecond)
	if len(got) != n {
		t.Fatalf("got %d messages, want %d", len(got), n)
	}
	for i, m := range got {
		if m.Text != fmt.Sprint(i) {
			t.Fatalf("message %d is %q: out of send order", i, m.Text)
		}
	}
}

func testConcurrentSenders(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	const senders, each = 6, 60
	r := listen(t, tr, "Bob")
	var wg sync.WaitGroup
	for s := 0; s < senders; s++ {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				m := &inbox.Message{From: fmt.Sprintf("S%d", s), To: "Bob", Text: fmt.Sprint(i)}
				if err := tr.Send(context.Background(), m); err != nil {
					t.Error(err)
					return
				}
			}
		}(s)
	}
	var got []*inbox.Message
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for len(got) < senders*each {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		d, err := r.Receive(ctx)
		cancel()
		if err != nil {
			t.Fatalf("after %d messages: %v", len(got), err)
		}
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
		got = append(got, d.Message)
	}
	<-done
	if extra := drain(t, r, 100*time.Millisecond); len(extra) != 0 {
		t.Fatalf("%d extra messages", len(extra))
	}
	next := map[string]int{}
	ids := map[string]bool{}
	for _, m := range got {
		if ids[m.ID] {
			t.Fatalf("id %s delivered twice", m.ID)
		}
		ids[m.ID] = true
		if m.Text != fmt.Sprint(next[m.From]) {
			t.Fatalf("from %s: got %q, want %d (order per sender)", m.From, m.Text, next[m.From])
		}
		next[m.From]++
	}
}

func testRedeliver(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	sent := send(t, tr, "Alice", "Bob", "once")
	r, err := tr.Listen(ctxT(t), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Receive(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if d.Message.ID != sent.ID {
		t.Fatalf("got %s, want %s", d.Message.ID, sent.ID)
	}
	r.Close() // crash before ack
	r2 := listen(t, tr, "Bob")
	got := drain(t, r2, 100*time.Millisecond)
	if len(got) != 1 || got[0].ID != sent.ID {
		t.Fatalf("unacked message not redelivered exactly once: %v", got)
	}
}

func testDuplicateID(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	m := send(t, tr, "Alice", "Bob", "retry me")
	dup := *m
	if err := tr.Send(ctxT(t), &dup); err != nil {
		t.Fatal(err)
	}
	send(t, tr, "Alice", "Bob", "after")
	got := drain(t, listen(t, tr, "Bob"), 100*time.Millisecond)
	if len(got) != 2 || got[0].ID != m.ID || got[1].Text != "after" {
		t.Fatalf("duplicate id not suppressed: %v", got)
	}
}

func testOversize(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	m := &inbox.Message{From: "Alice", To: "Bob", Text: strings.Repeat("x", inbox.MaxMessageBytes)}
	if err := tr.Send(ctxT(t), m); !errors.Is(err, inbox.ErrTooLarge) {
		t.Fatalf("oversize send: err = %v, want ErrTooLarge", err)
	}
	if got := drain(t, listen(t, tr, "Bob"), 50*time.Millisecond); len(got) != 0 {
		t.Fatalf("oversize message was delivered")
	}
}

// manyA is more "a"s than a name may have: a name one byte too long is a
// slice of it (a constant, so that a longer limit fails to compile).
const manyA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

// HostileNames are names every entry point must refuse with ErrInvalidName.
var HostileNames = []string{"", "..", "../x", "a/b", `a\b`, ".hidden", "-dash", "nul\x00byte",
	manyA[:inbox.MaxNameLen+1], "Аlice" /* Cyrillic А */, "bob\u200b", "a b", "x.json", "~root"}

func testBadNames(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	for _, name := range HostileNames {
		if err := tr.Create(ctxT(t), name); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Create(%q) = %v, want ErrInvalidName", name, err)
		}
		if _, err := tr.Listen(ctxT(t), name); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Listen(%q) = %v, want ErrInvalidName", name, err)
		}
		if err := tr.Send(ctxT(t), &inbox.Message{From: "Alice", To: name, Text: "x"}); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Send(to %q) = %v, want ErrInvalidName", name, err)
		}
		if err := tr.Send(ctxT(t), &inbox.Message{From: name, To: "Bob", Text: "x"}); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Send(from %q) = %v, want ErrInvalidName", name, err)
		}
		if _, err := tr.Exists(ctxT(t), name); !errors.Is(err, inbox.ErrInvalidName) {
			t.Errorf("Exists(%q) = %v, want ErrInvalidName", name, err)
		}
	}
	if ok := inbox.ValidateName(strings.Repeat("a", inbox.MaxNameLen)); ok != nil {
		t.Errorf("a %d-character name was refused: %v", inbox.MaxNameLen, ok)
	}
}

func testNotFound(t *testing.T, tr inbox.Transport) {
	err := tr.Send(ctxT(t), &inbox.Message{From: "Alice", To: "Nobody", Text: "x"})
	if !errors.Is(err, inbox.ErrNotFound) {
		t.Fatalf("send to missing inbox: %v, want ErrNotFound", err)
	}
	if ok, err := tr.Exists(ctxT(t), "Nobody"); ok || err != nil {
		t.Fatalf("Exists(Nobody) = %v, %v", ok, err)
	}
	mustCreate(t, tr, "Nobody")
	if ok, err := tr.Exists(ctxT(t), "Nobody"); !ok || err != nil {
		t.Fatalf("Exists after Create = %v, %v", ok, err)
	}
	mustCreate(t, tr, "Nobody") // idempotent
}

func testOneReceiver(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	r := listen(t, tr, "Bob")
	if _, err := tr.Listen(ctxT(t), "Bob"); !errors.Is(err, inbox.ErrBusy) {
		t.Fatalf("second Listen = %v, want ErrBusy", err)
	}
	r.Close()
	listen(t, tr, "Bob")
}

func testWake(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	r := listen(t, tr, "Bob")
	got := make(chan *inbox.Delivery, 1)
	errc := make(chan error, 1)
	go func() {
		d, err := r.Receive(ctxT(t))
		if err != nil {
			errc <- err
			return
		}
		got <- d
	}()
	time.Sleep(50 * time.Millisecond)
	sent := send(t, tr, "Alice", "Bob", "wake up")
	select {
	case d := <-got:
		if d.Message.ID != sent.ID {
			t.Fatalf("woke with %s, want %s", d.Message.ID, sent.ID)
		}
	case err := <-errc:
		t.Fatal(err)
	case <-time.After(20 * time.Second):
		t.Fatal("a blocked Receive was not woken by Send")
	}
}

func testPollEmpty(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	r := listen(t, tr, "Bob")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Receive(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("poll of empty inbox = %v, want context.Canceled", err)
	}
	sent := send(t, tr, "Alice", "Bob", "waiting")
	var d *inbox.Delivery
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if d, err = r.Receive(ctx); err == nil {
			break
		}
	}
	if err != nil || d.Message.ID != sent.ID {
		t.Fatalf("poll with a done context did not return the waiting message: %v", err)
	}
}

func testFields(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	type turn struct {
		DebateID string   `json:"debate_id"`
		Round    int      `json:"round"`
		Refs     []string `json:"evidence_refs"`
	}
	m, err := inbox.NewMessage("Alice", "Bob", "debate_turn", "# Turn\n\ntext", turn{DebateID: "d1", Round: 2, Refs: []string{"a.go:3"}})
	if err != nil {
		t.Fatal(err)
	}
	m.ReplyTo = "req-1"
	if err := tr.Send(ctxT(t), m); err != nil {
		t.Fatal(err)
	}
	got := drain(t, listen(t, tr, "Bob"), 100*time.Millisecond)
	if len(got) != 1 {
		t.Fatalf("got %d messages", len(got))
	}
	g := got[0]
	var tu turn
	if err := g.DecodeFields(&tu); err != nil {
		t.Fatal(err)
	}
	if g.Kind() != "debate_turn" || g.ReplyTo != "req-1" || tu.DebateID != "d1" || tu.Round != 2 || len(tu.Refs) != 1 || tu.Refs[0] != "a.go:3" {
		t.Fatalf("fields lost in transit: %+v %+v", g, tu)
	}
}

func testAckTwice(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	send(t, tr, "Alice", "Bob", "x")
	r := listen(t, tr, "Bob")
	d, err := r.Receive(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	if err := r.Ack(ctxT(t), d); !errors.Is(err, inbox.ErrUnknownDelivery) {
		t.Fatalf("second Ack = %v, want ErrUnknownDelivery", err)
	}
}

// receiveOne receives with a generous deadline and fails the test on error.
func receiveOne(t testing.TB, r inbox.Receiver) *inbox.Delivery {
	t.Helper()
	d, err := r.Receive(ctxT(t))
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	return d
}

// Unacked messages come back to the next receiver in their original order,
// ahead of the ones that were never handed out.
func testRedeliverInOrder(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	for i := 0; i < 4; i++ {
		send(t, tr, "Alice", "Bob", fmt.Sprint(i))
	}
	r, err := tr.Listen(ctxT(t), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	d0, d1 := receiveOne(t, r), receiveOne(t, r)
	if d0.Message.Text != "0" || d1.Message.Text != "1" {
		t.Fatalf("got %q, %q", d0.Message.Text, d1.Message.Text)
	}
	if err := r.Ack(ctxT(t), d0); err != nil {
		t.Fatal(err)
	}
	r.Close() // "1" was handled but never acked
	var texts []string
	for len(texts) < 3 {
		r2 := listen(t, tr, "Bob")
		d := receiveOne(t, r2)
		texts = append(texts, d.Message.Text)
		if err := r2.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
		r2.Close()
	}
	if strings.Join(texts, ",") != "1,2,3" {
		t.Fatalf("after a crash: %v, want 1,2,3", texts)
	}
}

// A message reaches only its recipient's inbox.
func testIsolation(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob", "Carol")
	send(t, tr, "Alice", "Bob", "for Bob")
	send(t, tr, "Alice", "Carol", "for Carol")
	for _, who := range []string{"Bob", "Carol"} {
		got := drain(t, listen(t, tr, who), 100*time.Millisecond)
		if len(got) != 1 || got[0].Text != "for "+who || got[0].To != who {
			t.Fatalf("%s's inbox holds %v", who, got)
		}
	}
}

// A receiver refuses to acknowledge a delivery another receiver handed out.
func testAckForeign(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob", "Carol")
	send(t, tr, "Alice", "Bob", "x")
	rb, rc := listen(t, tr, "Bob"), listen(t, tr, "Carol")
	d := receiveOne(t, rb)
	if err := rc.Ack(ctxT(t), d); !errors.Is(err, inbox.ErrUnknownDelivery) {
		t.Fatalf("Carol acked Bob's delivery: %v, want ErrUnknownDelivery", err)
	}
	if err := rb.Ack(ctxT(t), d); err != nil {
		t.Fatalf("the owner's ack after a refused foreign ack: %v", err)
	}
}

func testListenMissing(t *testing.T, tr inbox.Transport) {
	if _, err := tr.Listen(ctxT(t), "Nobody"); !errors.Is(err, inbox.ErrNotFound) {
		t.Fatalf("Listen on a missing inbox = %v, want ErrNotFound", err)
	}
}

// A closed receiver neither hands out nor acknowledges, and the message it
// held goes to the next receiver.
func testClosedReceiver(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	sent := send(t, tr, "Alice", "Bob", "x")
	r, err := tr.Listen(ctxT(t), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	d := receiveOne(t, r)
	r.Close()
	if err := r.Ack(ctxT(t), d); !errors.Is(err, inbox.ErrClosed) {
		t.Fatalf("Ack after Close = %v, want ErrClosed", err)
	}
	if _, err := r.Receive(ctxT(t)); !errors.Is(err, inbox.ErrClosed) {
		t.Fatalf("Receive after Close = %v, want ErrClosed", err)
	}
	got := drain(t, listen(t, tr, "Bob"), 100*time.Millisecond)
	if len(got) != 1 || got[0].ID != sent.ID {
		t.Fatalf("the next receiver got %v", got)
	}
}

// A message just under the size limit goes through intact: the limit on
// write and the limit on read agree.
func testNearLimit(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	text := strings.Repeat("é", (inbox.MaxMessageBytes-1024)/2)
	m := &inbox.Message{From: "Alice", To: "Bob", Text: text}
	if b, _ := (&inbox.Message{ID: inbox.NewID(), From: "Alice", To: "Bob", Text: text, Timestamp: inbox.Now()}).Encode(); len(b) > inbox.MaxMessageBytes {
		t.Fatalf("test message is %d bytes, over the limit", len(b))
	}
	if err := tr.Send(ctxT(t), m); err != nil {
		t.Fatal(err)
	}
	got := drain(t, listen(t, tr, "Bob"), 100*time.Millisecond)
	if len(got) != 1 || got[0].Text != text {
		t.Fatalf("a message near the limit did not arrive intact (%d messages)", len(got))
	}
}

// Send refuses, with ErrMalformed, a message that no receiver would accept
// (an id over 200 characters, a field that is not UTF-8): accepting it
// would lose it on the way (quarantined, dead-lettered) while the sender
// believes it delivered. The messages around it are delivered as usual,
// and an id of exactly 200 characters is fine.
func testUndeliverable(t *testing.T, tr inbox.Transport) {
	mustCreate(t, tr, "Bob")
	longest := strings.Repeat("i", 200)
	send(t, tr, "Alice", "Bob", "before")
	for name, m := range map[string]*inbox.Message{
		"an id of 201 characters":   {ID: strings.Repeat("i", 201), From: "Alice", To: "Bob", Text: "x"},
		"a field that is not UTF-8": {From: "Alice", To: "Bob", Text: "x", Fields: map[string]json.RawMessage{"k": json.RawMessage("\"\xff\"")}},
	} {
		if err := tr.Send(ctxT(t), m); !errors.Is(err, inbox.ErrMalformed) {
			t.Errorf("Send of a message with %s = %v, want ErrMalformed", name, err)
		}
	}
	if err := tr.Send(ctxT(t), &inbox.Message{ID: longest, From: "Alice", To: "Bob", Text: "longest id"}); err != nil {
		t.Fatalf("Send with a 200-character id: %v", err)
	}
	got := drain(t, listen(t, tr, "Bob"), 100*time.Millisecond)
	var texts []string
	for _, m := range got {
		texts = append(texts, m.Text)
	}
	if strings.Join(texts, ",") != "before,longest id" || got[1].ID != longest {
		t.Fatalf("received %q, want before and the message with the longest id", texts)
	}
}
