package inbox_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
)

// receiveN receives and acks until it has n distinct ids or ctx ends; it
// fails the test on any receive error.
func receiveN(t *testing.T, ctx context.Context, r inbox.Receiver, n int) []*inbox.Message {
	t.Helper()
	var got []*inbox.Message
	ids := map[string]bool{}
	for len(ids) < n {
		d, err := r.Receive(ctx)
		if err != nil {
			t.Fatalf("after %d of %d messages: %v", len(ids), n, err)
		}
		if err := r.Ack(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		if ids[d.Message.ID] {
			continue // the consumer's dedup
		}
		ids[d.Message.ID] = true
		got = append(got, d.Message)
	}
	return got
}

func assertNothingBad(t *testing.T, root, agent string) {
	t.Helper()
	des, err := os.ReadDir(filepath.Join(root, "inbox", agent, "bad"))
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		b, _ := os.ReadFile(filepath.Join(root, "inbox", agent, "bad", de.Name()))
		t.Errorf("quarantined: %s: %s", de.Name(), b)
	}
}

// Must show: 8 concurrent sender processes × 500 messages (3000 under
// PARLEY_LONG=1) into one inbox:
// every message claimed exactly once after dedup, each sender's messages in
// send order, none torn.
func TestConcurrentSenderProcesses(t *testing.T) {
	t.Parallel()
	each := 500
	if long() {
		each = 3000
	}
	t.Run("watcher", func(t *testing.T) {
		t.Parallel()
		concurrentSenders(t, 8, each)
	})
	// The same with scans alone, every 2 ms, while the senders write: the
	// scan's confirmation rule keeps each sender's order.
	t.Run("scans only", func(t *testing.T) {
		t.Parallel()
		concurrentSenders(t, 4, 200, inbox.WithoutWatcher(), inbox.WithReconcile(2*time.Millisecond))
	})
}

func concurrentSenders(t *testing.T, senders, each int, opts ...inbox.FileOption) {
	root := t.TempDir()
	tr := newFileAt(t, root, opts...)
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")

	var wg sync.WaitGroup
	sentIDs := make([][]string, senders)
	for s := 0; s < senders; s++ {
		cmd := helper(t, "send", "ROOT="+root, fmt.Sprintf("FROM=S%d", s), "TO=Bob", fmt.Sprintf("COUNT=%d", each))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				sentIDs[s] = append(sentIDs[s], sc.Text())
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("sender %d: %v", s, err)
			}
		}(s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	got := receiveN(t, ctx, r, senders*each)
	wg.Wait()

	next := map[string]int{}
	for _, m := range got {
		want := strconv.Itoa(next[m.From])
		if m.Text != want {
			t.Fatalf("from %s: got message %q, want %q (send order)", m.From, m.Text, want)
		}
		next[m.From]++
	}
	for s := 0; s < senders; s++ {
		if n := next[fmt.Sprintf("S%d", s)]; n != each || len(sentIDs[s]) != each {
			t.Errorf("sender S%d: %d claimed, %d sent, want %d", s, n, len(sentIDs[s]), each)
		}
	}
	if extra := drainFor(t, r, 100*time.Millisecond); len(extra) != 0 {
		t.Fatalf("%d messages claimed twice", len(extra))
	}
	assertNothingBad(t, root, "Bob")
}

// Must show: a sender killed with SIGKILL at random points (200 times under
// PARLEY_LONG=1): no reader ever sees a partial message, and every message
// whose send returned is delivered.
func TestSenderKilledAtRandomPoints(t *testing.T) {
	t.Parallel()
	kills := 30
	if long() {
		kills = 200
	}
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	r := mustListen(t, tr, "Bob")

	// The reader claims concurrently with the senders being killed.
	received := map[string]bool{}
	var mu sync.Mutex
	stop := make(chan struct{})
	readerDone := make(chan error, 1)
	go func() {
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			d, err := r.Receive(ctx)
			cancel()
			if errors.Is(err, context.DeadlineExceeded) {
				select {
				case <-stop:
					readerDone <- nil
					return
				default:
					continue
				}
			}
			if err != nil {
				readerDone <- err
				return
			}
			mu.Lock()
			received[d.Message.ID] = true
			mu.Unlock()
			if err := r.Ack(context.Background(), d); err != nil {
				readerDone <- err
				return
			}
		}
	}()

	// A naive reader (pi-messenger's way: glob *.json, read, parse) runs
	// beside it; it must never find a torn file.
	naiveDone := make(chan error, 1)
	go func() {
		reads := 0
		for {
			select {
			case <-stop:
				t.Logf("naive reader: %d files read whole", reads)
				naiveDone <- nil
				return
			default:
			}
			time.Sleep(200 * time.Microsecond)
			paths, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "*.json"))
			for _, p := range paths {
				b, err := os.ReadFile(p)
				if errors.Is(err, os.ErrNotExist) {
					continue // claimed meanwhile
				}
				if err != nil {
					naiveDone <- err
					return
				}
				if _, err := inbox.Decode(b); err != nil {
					naiveDone <- fmt.Errorf("torn file %s: %v", filepath.Base(p), err)
					return
				}
				reads++
			}
		}
	}()

	var returned []string
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	for i := 0; i < kills; i++ {
		cmd := helper(t, "send", "ROOT="+root, "FROM=Killed", "TO=Bob", "COUNT=0")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the first returned send, then kill at a random point
		// of the following ones.
		br := bufio.NewReader(stdout)
		first, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("sender %d: %v", i, err)
		}
		returned = append(returned, strings.TrimSpace(first))
		time.Sleep(time.Duration(rng.IntN(4000)) * time.Microsecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		rest, _ := io.ReadAll(br)
		for _, line := range strings.Split(string(rest), "\n") {
			if line = strings.TrimSpace(line); len(line) == 36 {
				returned = append(returned, line)
			}
		}
		_ = cmd.Wait()
	}
	// Everything whose send returned must arrive.
	deadline := time.Now().Add(time.Minute)
	for {
		mu.Lock()
		missing := 0
		for _, id := range returned {
			if !received[id] {
				missing++
			}
		}
		mu.Unlock()
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d returned sends never delivered", missing, len(returned))
		}
		time.Sleep(20 * time.Millisecond)
	}
	close(stop)
	if err := <-readerDone; err != nil {
		t.Fatal(err)
	}
	if err := <-naiveDone; err != nil {
		t.Fatal(err)
	}
	assertNothingBad(t, root, "Bob")
	// What the crashes left behind is only staging dot-files, which no
	// reader of *.json picks up.
	des, _ := os.ReadDir(filepath.Join(root, "inbox", "Bob"))
	for _, de := range des {
		if n := de.Name(); inbox.IsMessageName(n) {
			t.Errorf("a message file was left unclaimed: %s", n)
		}
	}
	t.Logf("%d kills, %d returned sends, %d received", kills, len(returned), len(received))
}

// Must show: a receiver killed between handling and acknowledging a
// message gets it redelivered, and a consumer that deduplicates by id (here
// through its durable handled-log) handles it once.
func TestReceiverKilledBeforeAck(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	sent := &inbox.Message{From: "Alice", To: "Bob", Text: "do it once"}
	if err := tr.Send(context.Background(), sent); err != nil {
		t.Fatal(err)
	}
	handled := filepath.Join(t.TempDir(), "handled.log")
	cmd := helper(t, "recv-crash", "ROOT="+root, "TO=Bob", "HANDLED="+handled)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != sent.ID {
		t.Fatalf("helper handled %q, %v; want %s", line, err, sent.ID)
	}
	// While the other process holds the inbox, a second receiver is refused.
	if _, err := tr.Listen(context.Background(), "Bob"); !errors.Is(err, inbox.ErrBusy) {
		t.Fatalf("Listen while another process receives = %v, want ErrBusy", err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	// The consumer restarts: it loads what it handled, then receives.
	seen := inbox.NewSeenSet(100)
	b, err := os.ReadFile(handled)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range strings.Fields(string(b)) {
		seen.Add(id)
	}
	r := mustListen(t, tr, "Bob") // the dead receiver's lock is gone
	d, err := r.Receive(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if d.Message.ID != sent.ID {
		t.Fatalf("redelivered %s, want %s", d.Message.ID, sent.ID)
	}
	if seen.Add(d.Message.ID) {
		if err := handle(handled, d.Message.ID); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Ack(ctxT(t), d); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(handled)
	if n := strings.Count(string(b), sent.ID); n != 1 {
		t.Fatalf("handled %d times, want once", n)
	}
	if _, err := os.Stat(filepath.Join(root, "inbox", "Bob", "cur", d.Handle)); err != nil {
		t.Fatalf("acked message not in cur/: %v", err)
	}
}

// A claim that fails for a reason that is not the file's (here EMFILE: the
// process is out of file descriptors) is reported and tried again first:
// the next Receive must not hand out the same sender's later message
// before it.
func TestClaimFailureKeepsTheOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := newFileAt(t, root)
	mustCreate(t, tr, "Bob")
	for _, text := range []string{"0", "1"} {
		if err := tr.Send(context.Background(), &inbox.Message{From: "Alice", To: "Bob", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := helper(t, "recv-emfile", "ROOT="+root, "TO=Bob").Output()
	if err != nil {
		t.Fatalf("receiver: %v", err)
	}
	if got := strings.Fields(string(out)); strings.Join(got, ",") != "error,0,1" {
		t.Fatalf("receiver printed %q, want an error, then 0 and 1 in send order", got)
	}
}
