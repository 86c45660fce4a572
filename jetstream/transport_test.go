package jetstream_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
	"github.com/parleyhq/parley/internal/natsserver"
	"github.com/parleyhq/parley/jetstream"
)

// The JetStream transport passes the inbox conformance suite unchanged,
// each subtest against its own embedded server.
func TestConformance(t *testing.T) {
	t.Parallel()
	inboxtest.Run(t, func(t testing.TB) inbox.Transport {
		return connect(t, startServer(t).URL()).Transport()
	})
}

func sendT(t testing.TB, tr inbox.Transport, m *inbox.Message) *inbox.Message {
	t.Helper()
	if err := tr.Send(ctxT(t), m); err != nil {
		t.Fatalf("Send: %v", err)
	}
	return m
}

func listenT(t testing.TB, tr inbox.Transport, agent string) inbox.Receiver {
	t.Helper()
	r, err := tr.Listen(ctxT(t), agent)
	if err != nil {
		t.Fatalf("Listen(%s): %v", agent, err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// rawPublish publishes data to subject with a plain client, as a foreign or
// broken sender would.
func rawPublish(t testing.TB, url, subject string, data []byte) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := njs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctxT(t), subject, data); err != nil {
		t.Fatal(err)
	}
}

// Messages that do not decode are moved to parley.dead.<Name> with the
// reason in a header, never handed out; the messages around them are.
func TestPoisonMessagesAreDeadLettered(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	c := connect(t, srv.URL())
	tr := c.Transport()
	if err := tr.Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	bad := [][]byte{
		[]byte(`{"id":"x","from":"Alice","text":"no timestamp"}`),
		[]byte("\xff\xfe binary"),
		[]byte(`{"id":"y","from":"../etc","text":"t","timestamp":"2026-01-01T00:00:00.000Z"}`),
		[]byte(`[1,2,3]`),
		{},
	}
	sendT(t, tr, &inbox.Message{From: "Alice", To: "Bob", Text: "before"})
	for _, b := range bad {
		rawPublish(t, srv.URL(), jetstream.InboxSubject("Bob"), b)
	}
	sendT(t, tr, &inbox.Message{From: "Alice", To: "Bob", Text: "after"})
	r := listenT(t, tr, "Bob")
	qn, ok := r.(inbox.QuarantineNotifier)
	if !ok {
		t.Fatalf("%T does not tell of dead-lettered messages", r)
	}
	var told []inbox.Quarantine
	qn.NotifyQuarantine(func(q inbox.Quarantine) { told = append(told, q) })
	if got := drainAll(t, r, 300*time.Millisecond); strings.Join(got, ",") != "before,after" {
		t.Fatalf("received %v, want before,after", got)
	}
	if len(told) != len(bad) {
		t.Fatalf("told of %d dead letters (%+v), want %d", len(told), told, len(bad))
	}
	for _, q := range told {
		if q.Agent != "Bob" || q.Where != jetstream.DeadSubject("Bob") || q.Reason == "" {
			t.Errorf("dead letter told as %+v, want Bob, %s and a reason", q, jetstream.DeadSubject("Bob"))
		}
	}
	waiting, _, dead, err := tr.Count(ctxT(t), "Bob")
	if err != nil || waiting != 0 || dead != len(bad) {
		t.Fatalf("Count = %d waiting, %d dead, %v; want 0 and %d", waiting, dead, err, len(bad))
	}
	s, err := njsStream(t, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range bad {
		m, err := s.GetMsg(ctxT(t), 1, njs.WithGetMsgSubject(jetstream.DeadSubject("Bob")))
		if err != nil {
			t.Fatal(err)
		}
		if string(m.Data) != string(b) || m.Header.Get(jetstream.HeaderReason) == "" || m.Header.Get(jetstream.HeaderInbox) != "Bob" {
			t.Fatalf("dead letter %d: %q with headers %v; want %q with a reason", i, m.Data, m.Header, b)
		}
		if err := s.DeleteMsg(ctxT(t), m.Sequence); err != nil {
			t.Fatal(err)
		}
	}
}

func njsStream(t testing.TB, url string) (njs.Stream, error) {
	nc, err := nats.Connect(url)
	if err != nil {
		return nil, err
	}
	t.Cleanup(nc.Close)
	js, err := njs.New(nc)
	if err != nil {
		return nil, err
	}
	return js.Stream(ctxT(t), jetstream.StreamName)
}

// A Send retried with the same id is stored once on the server (the
// duplicate window), yet the same id sent to two inboxes reaches both.
func TestMessageIDDeduplication(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	tr := connect(t, srv.URL()).Transport()
	for _, n := range []string{"Bob", "Carol"} {
		if err := tr.Create(ctxT(t), n); err != nil {
			t.Fatal(err)
		}
	}
	m := sendT(t, tr, &inbox.Message{From: "Alice", To: "Bob", Text: "once"})
	again := *m
	sendT(t, tr, &again)
	other := connect(t, srv.URL()).Transport() // a retry from another connection
	again2 := *m
	sendT(t, other, &again2)
	if w, _, _, err := tr.Count(ctxT(t), "Bob"); err != nil || w != 1 {
		t.Fatalf("after three sends of one id: %d stored, %v; want 1", w, err)
	}
	toCarol := *m
	toCarol.To = "Carol"
	sendT(t, tr, &toCarol)
	if w, _, _, err := tr.Count(ctxT(t), "Carol"); err != nil || w != 1 {
		t.Fatalf("the same id to another inbox: %d stored, %v; want 1", w, err)
	}
}

// A hold left by a receiver on another host (it cannot be PID-checked)
// keeps the inbox busy until its TTL runs out; then Listen takes it.
func TestHoldOfAnotherHostExpires(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	// Renewed every third of the TTL: 2 s leaves a renewal 1.3 s of
	// slack on a loaded machine under -race (1 s left 0.67 s, and a late
	// renewal once let the other receiver in).
	ttl := 2 * time.Second
	tr := connect(t, srv.URL(), func(c *jetstream.Config) { c.LockTTL = ttl }).Transport()
	if err := tr.Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	kv := bucket(t, srv.URL(), jetstream.InboxBucket)
	if _, err := kv.Create(ctxT(t), "lock.Bob", []byte(`{"holder":"h","host":"elsewhere","pid":1,"since":"2026-01-01T00:00:00.000Z"}`), njs.KeyTTL(ttl)); err != nil {
		t.Fatal(err)
	}
	_, err := tr.Listen(ctxT(t), "Bob")
	if !errors.Is(err, inbox.ErrBusy) || !strings.Contains(err.Error(), "elsewhere") {
		t.Fatalf("Listen while another host holds the inbox = %v, want ErrBusy naming the host", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r, err := tr.Listen(ctxT(t), "Bob")
		if err == nil {
			r.Close()
			break
		}
		if !errors.Is(err, inbox.ErrBusy) || time.Now().After(deadline) {
			t.Fatalf("Listen after the hold's TTL: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// A receiver renews its hold, so it keeps the inbox far beyond the TTL; a
// receiver whose hold was taken by another (it expired while the server
// was out of reach) stops with ErrLockLost.
func TestHoldRenewedAndLost(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	// Renewed every third of the TTL: 2 s leaves a renewal 1.3 s of
	// slack on a loaded machine under -race (1 s left 0.67 s, and a late
	// renewal once let the other receiver in).
	ttl := 2 * time.Second
	tr := connect(t, srv.URL(), func(c *jetstream.Config) { c.LockTTL = ttl }).Transport()
	if err := tr.Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	r := listenT(t, tr, "Bob")
	time.Sleep(3 * ttl)
	other := connect(t, srv.URL(), func(c *jetstream.Config) { c.LockTTL = ttl }).Transport()
	if _, err := other.Listen(ctxT(t), "Bob"); !errors.Is(err, inbox.ErrBusy) {
		t.Fatalf("Listen after three TTLs of a live receiver = %v, want ErrBusy (the hold is renewed)", err)
	}
	kv := bucket(t, srv.URL(), jetstream.InboxBucket)
	// The thief purges the hold and creates its own. The live holder
	// takes a purged hold back when it renews in between (as it would an
	// expired one): then the thief tries again.
	for attempt := 0; ; attempt++ {
		if err := kv.Purge(ctxT(t), "lock.Bob"); err != nil {
			t.Fatal(err)
		}
		_, err := kv.Create(ctxT(t), "lock.Bob", []byte(`{"holder":"thief","host":"elsewhere","pid":1}`), njs.KeyTTL(time.Minute))
		if err == nil {
			break
		}
		if !errors.Is(err, njs.ErrKeyExists) || attempt == 10 {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		_, err := r.Receive(ctx)
		if errors.Is(err, jetstream.ErrLockLost) && errors.Is(err, inbox.ErrBusy) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("a receiver whose hold was taken kept receiving: %v", err)
		}
	}
}

// With a server whose max_payload is the default 1 MiB, a message that
// fits parley's limit but not the server's is refused with ErrTooLarge and
// a hint, not half-sent.
func TestServerMaxPayloadBelowParleysLimit(t *testing.T) {
	t.Parallel()
	srv, err := natsserver.Start(t.TempDir(), natsserver.MaxPayload(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	tr := connect(t, srv.URL()).Transport()
	if err := tr.Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	big := &inbox.Message{From: "Alice", To: "Bob", Text: strings.Repeat("x", inbox.MaxMessageBytes-2000)}
	err = tr.Send(ctxT(t), big)
	if !errors.Is(err, inbox.ErrTooLarge) || !strings.Contains(err.Error(), "max_payload") {
		t.Fatalf("Send over the server's max_payload = %v, want ErrTooLarge naming max_payload", err)
	}
	if w, _, _, _ := tr.Count(ctxT(t), "Bob"); w != 0 {
		t.Fatalf("%d messages stored", w)
	}
}

func TestConnectErrors(t *testing.T) {
	t.Parallel()
	t.Run("no server", func(t *testing.T) {
		t.Parallel()
		waited := 0
		_, err := jetstream.Connect(ctxT(t), jetstream.Config{URL: "nats://user:secret@127.0.0.1:1", Retry: 300 * time.Millisecond,
			Waiting: func(error, time.Duration) { waited++ }})
		if !errors.Is(err, jetstream.ErrUnavailable) || strings.Contains(err.Error(), "secret") || waited != 1 {
			t.Fatalf("Connect to nothing = %v (waiting said %d times), want ErrUnavailable without the password", err, waited)
		}
	})
	// A command started while the server restarts waits for it: Connect
	// says once that it waits, then connects when the server is back.
	t.Run("server back within the window", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t)
		srv.Stop()
		var waits atomic.Int32
		done := make(chan error, 1)
		go func() {
			c, err := jetstream.Connect(ctxT(t), jetstream.Config{URL: srv.URL(), Retry: 30 * time.Second,
				Waiting: func(error, time.Duration) { waits.Add(1) }})
			if err == nil {
				c.Close()
			}
			done <- err
		}()
		for waits.Load() == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		if err := srv.Restart(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil || waits.Load() != 1 {
			t.Fatalf("Connect while the server restarted: %v (waiting said %d times)", err, waits.Load())
		}
	})
	t.Run("incompatible stream", func(t *testing.T) {
		t.Parallel()
		srv := startServer(t)
		nc, err := nats.Connect(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		js, _ := njs.New(nc)
		if _, err := js.CreateStream(ctxT(t), njs.StreamConfig{Name: jetstream.StreamName, Subjects: []string{"other.>"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := jetstream.Connect(ctxT(t), jetstream.Config{URL: srv.URL()}); !errors.Is(err, jetstream.ErrIncompatible) {
			t.Fatalf("Connect with a foreign PARLEY stream = %v, want ErrIncompatible", err)
		}
	})
	t.Run("missing credentials file", func(t *testing.T) {
		t.Parallel()
		_, err := jetstream.Connect(ctxT(t), jetstream.Config{URL: "nats://127.0.0.1:1", Credentials: "/nonexistent/user.creds"})
		if !errors.Is(err, jetstream.ErrAuth) || !strings.Contains(err.Error(), "/nonexistent/user.creds") {
			t.Fatalf("Connect with a missing credentials file = %v", err)
		}
	})
}

// A receiver whose hold expired while it was cut off, and was taken by
// another receiver, must not take the inbox back: resetting its consumer
// (as it does after a reconnection or when its iterator fails) would delete
// the new holder's consumer and hand it the new holder's messages. It stops
// with ErrLockLost instead, and the new holder receives everything in order.
func TestExpiredHolderDoesNotTakeTheInboxBack(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	// A long TTL: the old holder's renewal goroutine does not notice the
	// loss during the test; only what Receive does decides. A short
	// AckWait: what the old holder pulled and dropped comes back soon.
	ttl := func(c *jetstream.Config) { c.LockTTL, c.AckWait = time.Minute, time.Second }
	old := connect(t, srv.URL(), ttl).Transport()
	if err := old.Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	stale := listenT(t, old, "Bob")
	// The receiver is cut off from the server for longer than the TTL: its
	// renewals do not arrive, the server lets the hold expire and another
	// receiver takes the inbox.
	jetstream.StaleHold(stale)
	kv := bucket(t, srv.URL(), jetstream.InboxBucket)
	if err := kv.Purge(ctxT(t), "lock.Bob"); err != nil {
		t.Fatal(err)
	}
	cur := connect(t, srv.URL(), ttl).Transport()
	r := listenT(t, cur, "Bob")
	for i := range 3 {
		sendT(t, cur, &inbox.Message{From: "Alice", To: "Bob", Text: strconv.Itoa(i)})
	}

	ctx, cancel := context.WithTimeout(ctxT(t), 3*time.Second)
	defer cancel()
	d, err := stale.Receive(ctx)
	if err == nil {
		t.Fatalf("the receiver whose hold was taken received %q", d.Message.Text)
	}
	if !errors.Is(err, jetstream.ErrLockLost) || !errors.Is(err, inbox.ErrBusy) {
		t.Fatalf("Receive of the receiver whose hold was taken = %v, want ErrLockLost and ErrBusy", err)
	}
	var got []string
	for range 3 {
		d, err := r.Receive(ctxT(t))
		if err != nil {
			t.Fatalf("the holder after %v: %v", got, err)
		}
		got = append(got, d.Message.Text)
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(got, ",") != "0,1,2" {
		t.Fatalf("the holder received %v, want 0,1,2", got)
	}
}

// A delivery of the inbox's consumer that goes to another puller (a
// receiver that lost its hold and has not noticed yet, or a pull request
// it sent before a cut and that reached the server late) would come back to
// the holder only after AckWait, behind the sender's later messages. The
// receiver sees the gap in the consumer's delivery numbers and resets, so
// it still receives the sender's messages in order, without waiting.
func TestDeliveryToAnotherPullerKeepsTheOrder(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	tr := connect(t, srv.URL()).Transport() // AckWait 30 s: waiting for it would be seen
	if err := tr.Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	r := listenT(t, tr, "Bob")
	s, err := njsStream(t, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	cons, err := s.Consumer(ctxT(t), jetstream.ConsumerName("Bob"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor := func(what string, ok func(*njs.ConsumerInfo) bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			info, err := cons.Info(ctxT(t))
			if err != nil {
				t.Fatal(err)
			}
			if ok(info) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("consumer never reached %s: %+v", what, info)
			}
		}
	}
	send := func(from, to int) {
		for i := from; i < to; i++ {
			sendT(t, tr, &inbox.Message{From: "Alice", To: "Bob", Text: strconv.Itoa(i)})
		}
	}
	// The receiver's prefetch takes the first 64 messages at its first
	// Receive, and asks for more only as they are received.
	send(0, 64)
	d, err := r.Receive(ctxT(t))
	if err != nil || d.Message.Text != "0" {
		t.Fatalf("first Receive = %v, %v; want message 0", d, err)
	}
	if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	waitFor("63 deliveries pending and no pull waiting", func(i *njs.ConsumerInfo) bool { return i.NumAckPending == 63 && i.NumWaiting == 0 })
	// Another puller takes message 64.
	foreign := make(chan error, 1)
	go func() {
		b, err := cons.Fetch(1, njs.FetchMaxWait(20*time.Second))
		if err == nil {
			for range b.Messages() {
			}
			err = b.Error()
		}
		foreign <- err
	}()
	waitFor("the other puller waiting", func(i *njs.ConsumerInfo) bool { return i.NumWaiting == 1 })
	send(64, 65)
	if err := <-foreign; err != nil {
		t.Fatal(err)
	}
	send(65, 80)
	ctx, cancel := context.WithTimeout(ctxT(t), 10*time.Second) // well inside AckWait
	defer cancel()
	for want := 1; want < 80; want++ {
		d, err := r.Receive(ctx)
		if err != nil {
			t.Fatalf("waiting for message %d: %v", want, err)
		}
		if d.Message.Text != strconv.Itoa(want) {
			t.Fatalf("received %q, want %d (send order)", d.Message.Text, want)
		}
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
	}
}

// More replicas than a single server can keep (the "replicas": 3 meant
// for a cluster, given to one server) is ErrIncompatible, naming the
// setting and what to set it to, not the server's bare API error.
func TestReplicasOnASingleServerSayWhatToSet(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := jetstream.Connect(ctx, jetstream.Config{URL: srv.URL(), Name: t.Name(), Replicas: 3})
	if err == nil {
		c.Close()
		t.Fatal("3 replicas on a single server: connected")
	}
	if !errors.Is(err, jetstream.ErrIncompatible) || !strings.Contains(err.Error(), `3 replicas asked ("nats"."replicas")`) ||
		!strings.Contains(err.Error(), `set "replicas" to 1`) {
		t.Fatalf("Connect = %v; want ErrIncompatible saying to set replicas to 1", err)
	}
}

// A "replicas" raised after the stream was made is not silently ignored:
// the stream keeps fewer copies than the configuration promises, so
// connecting is ErrIncompatible. On a single server, which can keep no
// more than one copy, it says to set "replicas" to 1, as for a new stream,
// and never to raise the stream (which the server would refuse). Fewer
// asked than kept is fine.
func TestReplicasRaisedOnAnExistingStreamIsRefused(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := jetstream.Connect(ctx, jetstream.Config{URL: srv.URL(), Name: t.Name(), Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = jetstream.Connect(ctx, jetstream.Config{URL: srv.URL(), Name: t.Name(), Replicas: 3})
	if err == nil {
		c.Close()
		t.Fatal("stream kept with 1 replica, 3 asked: connected")
	}
	if !errors.Is(err, jetstream.ErrIncompatible) || !strings.Contains(err.Error(), `3 replicas asked ("nats"."replicas")`) ||
		!strings.Contains(err.Error(), `set "replicas" to 1`) || !strings.Contains(err.Error(), "is a single server") ||
		strings.Contains(err.Error(), "nats stream edit") {
		t.Fatalf("Connect = %v; want ErrIncompatible saying to set replicas to 1, as the server is not a cluster", err)
	}
}

// Receive with a done context polls, and a poll waits up to two seconds:
// with the server out of reach it fails then, saying so, instead of
// retrying for the whole retry window (a Ctrl-C'd watch or agent stopped
// only when that window ended, over a minute later).
func TestPollWithTheServerDownEndsAfterAPollsWait(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	tr := connect(t, srv.URL(), func(c *jetstream.Config) { c.Retry = 10 * time.Minute }).Transport()
	if err := tr.Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	r := listenT(t, tr, "Bob")
	srv.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C
	done := make(chan error, 1)
	go func() {
		d, err := r.Receive(ctx)
		if d != nil {
			err = fmt.Errorf("delivered %q with the server down", d.Message.Text)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, context.Canceled) {
			t.Fatalf("Receive = %v; want the error of a server out of reach", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a poll with the server down still waits after a minute (the retry window is 10 minutes)")
	}
}
