package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// A send that is refused (too large) to an agent that is not running says
// only why it was refused: no not_active warning about a message that
// was never delivered. Over files and over JetStream.
func TestRefusedSendHasNoNotActiveWarning(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 2<<20)
	for name, root := range map[string]func(t *testing.T) string{
		"files": func(t *testing.T) string { return t.TempDir() },
		"nats":  func(t *testing.T) string { r, _ := natsRoot(t); return r },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := root(t)
			mustCLI(t, r, "", "agents", "add", "Sleepy")
			for _, json := range []bool{false, true} {
				args := []string{"send", "--from", "Alice", "--to", "Sleepy", "-"}
				if json {
					args = append([]string{"--json"}, args...)
				}
				out, stderr, code := cli(t, r, big, args...)
				if strings.Contains(out+stderr, "not_active") {
					t.Errorf("json=%v: a refused send warned not_active: %q %q", json, out, stderr)
				}
				oneLineError(t, stderr, code, "too large")
			}
			// A send that goes through still warns.
			if _, stderr, code := cli(t, r, "", "send", "--from", "Alice", "--to", "Sleepy", "hello"); code != 0 || !strings.Contains(stderr, "not_active") {
				t.Errorf("delivered send: exit %d %q", code, stderr)
			}
		})
	}
}

// A send started while the NATS server is down waits for it, saying so
// once, and is delivered when the server is back.
func TestSendWaitsForTheNATSServer(t *testing.T) {
	t.Parallel()
	root, srv := natsRoot(t)
	mustCLI(t, root, "", "agents", "add", "Bob")
	srv.Stop()
	var out, errs syncBuffer
	done := make(chan int, 1)
	go func() {
		err := run(context.Background(), []string{"--root", root, "send", "--from", "Alice", "--to", "Bob", "sent during the outage"}, strings.NewReader(""), &out, &errs)
		done <- cmdutil.ExitCode(err, &errs)
	}()
	// The server comes back once the send said it waits for it.
	for !strings.Contains(errs.String(), "does not answer") {
		select {
		case code := <-done:
			t.Fatalf("send ended (exit %d) without waiting: %q", code, errs.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	time.Sleep(300 * time.Millisecond)
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != 0 || !strings.Contains(out.String(), "sent ") {
		t.Fatalf("send during an outage: exit %d: %s %s", code, out.String(), errs.String())
	}
	if n := strings.Count(errs.String(), "does not answer"); n != 1 || !strings.Contains(errs.String(), "retrying for up to 30s") {
		t.Errorf("the wait was said %d times: %q", n, errs.String())
	}
	if got := mustCLI(t, root, "", "recv", "--as", "Bob"); !strings.Contains(got, "sent during the outage") {
		t.Fatalf("not delivered: %s", got)
	}
}

// Ctrl-C ends the wait for a NATS server that is down, at once, with the
// exit code of every command interrupted while it waited (130).
func TestInterruptTheWaitForNATS(t *testing.T) {
	t.Parallel()
	root, srv := natsRoot(t)
	srv.Stop()
	cmd := testBinary(t, "--root", root, "send", "--from", "Alice", "--to", "Bob", "hello")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for !strings.Contains(stderr.String(), "does not answer") {
		select {
		case err := <-done:
			t.Fatalf("ended before waiting: %v %q", err, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cmd.Process.Signal(os.Interrupt)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not end the wait")
	}
	if code := cmd.ProcessState.ExitCode(); code != cmdutil.ExitInterrupted || !strings.Contains(stderr.String(), "interrupted while waiting for the NATS server") {
		t.Fatalf("exit %d: %q", code, stderr.String())
	}
}
