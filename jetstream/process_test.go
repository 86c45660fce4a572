package jetstream_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

// The test binary doubles as the child processes of these tests: with
// PARLEY_JS_CHILD set it plays that role against PARLEY_JS_URL and exits.
func TestMain(m *testing.M) {
	if role := os.Getenv("PARLEY_JS_CHILD"); role != "" {
		if err := child(role, os.Getenv("PARLEY_JS_URL"), os.Getenv("PARLEY_JS_ARG")); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func child(role, url, arg string) error {
	ctx := context.Background()
	c, err := jetstream.Connect(ctx, jetstream.Config{URL: url, Name: "child-" + role})
	if err != nil {
		return err
	}
	defer c.Close()
	switch role {
	case "claim":
		// Wait for the go line on stdin so that every claimer starts at once.
		fmt.Println("ready")
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			return err
		}
		_, err := jetstream.NewRegistry(c, c.Transport()).Register(ctx, registry.Registration{Name: arg})
		switch {
		case err == nil:
			fmt.Println("won")
		case errors.Is(err, registry.ErrNameTaken):
			fmt.Println("taken")
		default:
			return err
		}
		return nil
	case "hold":
		// Receive without acknowledging, print each text, and wait to be
		// killed.
		r, err := c.Transport().Listen(ctx, arg)
		if err != nil {
			return err
		}
		fmt.Println("listening")
		for {
			d, err := r.Receive(ctx)
			if err != nil {
				return err
			}
			fmt.Println(d.Message.Text)
		}
	}
	return fmt.Errorf("unknown role %q", role)
}

// startChild starts the test binary as a child of role; its stdout is
// returned line by line.
func startChild(t testing.TB, role, url, arg string) (*exec.Cmd, *bufio.Scanner, *os.File) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PARLEY_JS_CHILD="+role, "PARLEY_JS_URL="+url, "PARLEY_JS_ARG="+arg)
	cmd.Stderr = os.Stderr
	stdin, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = stdin
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	t.Cleanup(func() {
		w.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, bufio.NewScanner(out), w
}

// Must show: processes racing to claim one name, exactly one wins.
func TestProcessesRacingForOneNameOneWins(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	connect(t, srv.URL()) // creates the stream and buckets once
	const n = 6
	type claimer struct {
		out *bufio.Scanner
		go_ *os.File
	}
	cs := make([]claimer, n)
	for i := range cs {
		_, out, w := startChild(t, "claim", srv.URL(), "SwiftRaven")
		if !out.Scan() || out.Text() != "ready" {
			t.Fatalf("claimer %d did not start: %q %v", i, out.Text(), out.Err())
		}
		cs[i] = claimer{out, w}
	}
	for _, c := range cs {
		fmt.Fprintln(c.go_, "go")
	}
	results := map[string]int{}
	for i, c := range cs {
		if !c.out.Scan() {
			t.Fatalf("claimer %d said nothing: %v", i, c.out.Err())
		}
		results[c.out.Text()]++
	}
	if results["won"] != 1 || results["taken"] != n-1 {
		t.Fatalf("results %v, want exactly one won and %d taken", results, n-1)
	}
	reg := jetstream.NewRegistry(connect(t, srv.URL()), nil)
	if e, err := reg.Get(ctxT(t), "SwiftRaven"); err != nil || e.PID == os.Getpid() {
		t.Fatalf("the name is held by %+v, %v; want one of the children", e, err)
	}
}

// A receiver killed with messages handed out and never acknowledged: the
// next receiver (on this host, so the dead holder's hold is taken over at
// once) gets every message, the unacknowledged ones first, in send order,
// none twice.
func TestKilledReceiverNextGetsAllInOrder(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	tr := connect(t, srv.URL()).Transport()
	if err := tr.Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	const n = 40
	for i := range n / 2 {
		if err := tr.Send(ctxT(t), &inbox.Message{From: "Alice", To: "Bob", Text: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	cmd, out, _ := startChild(t, "hold", srv.URL(), "Bob")
	if !out.Scan() || out.Text() != "listening" {
		t.Fatalf("child: %q %v", out.Text(), out.Err())
	}
	if _, err := tr.Listen(ctxT(t), "Bob"); !errors.Is(err, inbox.ErrBusy) {
		t.Fatalf("Listen while the child holds the inbox = %v, want ErrBusy", err)
	}
	for i := range 5 {
		if !out.Scan() || out.Text() != fmt.Sprint(i) {
			t.Fatalf("child received %q, want %d", out.Text(), i)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for i := n / 2; i < n; i++ {
		if err := tr.Send(ctxT(t), &inbox.Message{From: "Alice", To: "Bob", Text: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := tr.Listen(ctxT(t), "Bob")
	if err != nil {
		t.Fatalf("Listen after the holder was killed: %v", err)
	}
	defer r.Close()
	var got []string
	for len(got) < n {
		d, err := r.Receive(ctxT(t))
		if err != nil {
			t.Fatalf("after %d: %v", len(got), err)
		}
		got = append(got, d.Message.Text)
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range got {
		if s != fmt.Sprint(i) {
			t.Fatalf("message %d is %q: %v", i, s, got)
		}
	}
	if extra := drainAll(t, r, 300*time.Millisecond); len(extra) != 0 {
		t.Fatalf("delivered twice: %v", extra)
	}
}

func drainAll(t testing.TB, r inbox.Receiver, quiet time.Duration) []string {
	t.Helper()
	var got []string
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
		got = append(got, d.Message.Text)
		if err := r.Ack(ctxT(t), d); err != nil {
			t.Fatal(err)
		}
	}
}

// Must show (transport level): the server stopped and started again on the
// same store while senders send and a receiver receives: every message
// arrives, once, in send order per sender.
func TestServerRestartLosesNothing(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	rc := connect(t, srv.URL())
	sc := connect(t, srv.URL())
	if err := rc.Transport().Create(ctxT(t), "Bob"); err != nil {
		t.Fatal(err)
	}
	r, err := rc.Transport().Listen(ctxT(t), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// PARLEY_LONG=1: more messages and eight restarts at random moments.
	senders, each, restarts := 3, 150, 1
	if os.Getenv("PARLEY_LONG") == "1" {
		each, restarts = 2000, 8
	}
	var wg sync.WaitGroup
	errc := make(chan error, senders)
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := &inbox.Message{From: fmt.Sprintf("S%d", s), To: "Bob", Text: fmt.Sprint(i)}
				if err := sc.Transport().Send(context.Background(), m); err != nil {
					errc <- fmt.Errorf("sender %d message %d: %w", s, i, err)
					return
				}
				time.Sleep(time.Millisecond)
			}
		}()
	}
	restarted := make(chan error, 1)
	go func() {
		for i := range restarts {
			time.Sleep(time.Duration(80+rand.IntN(400*min(i, 1)+1)) * time.Millisecond)
			srv.Stop()
			time.Sleep(time.Duration(100+rand.IntN(1000)) * time.Millisecond)
			if err := srv.Restart(); err != nil {
				restarted <- err
				return
			}
		}
		restarted <- nil
	}()
	next := map[string]int{}
	total := 0
	for total < senders*each {
		select {
		case err := <-errc:
			t.Fatal(err)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		d, err := r.Receive(ctx)
		cancel()
		if err != nil {
			t.Fatalf("after %d messages: %v", total, err)
		}
		m := d.Message
		if m.Text != fmt.Sprint(next[m.From]) {
			t.Fatalf("from %s: got %q, want %d (lost, doubled or reordered)", m.From, m.Text, next[m.From])
		}
		next[m.From]++
		total++
		if err := r.Ack(context.Background(), d); err != nil {
			t.Fatalf("ack: %v", err)
		}
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if err := <-restarted; err != nil {
		t.Fatal(err)
	}
	if extra := drainAll(t, r, 500*time.Millisecond); len(extra) != 0 {
		t.Fatalf("%d messages delivered twice", len(extra))
	}
	if w, _, _, err := rc.Transport().Count(ctxT(t), "Bob"); err != nil || w != 0 {
		t.Fatalf("%d messages left in the inbox, %v", w, err)
	}
}
