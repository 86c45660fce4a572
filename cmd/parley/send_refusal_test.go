package main

import (
	"strings"
	"testing"
	"time"
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
	type result struct {
		out, errs string
		code      int
	}
	done := make(chan result, 1)
	go func() {
		out, errs, code := cli(t, root, "", "send", "--from", "Alice", "--to", "Bob", "sent during the outage")
		done <- result{out, errs, code}
	}()
	time.Sleep(time.Second)
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.code != 0 || !strings.Contains(r.out, "sent ") {
		t.Fatalf("send during an outage: exit %d: %s %s", r.code, r.out, r.errs)
	}
	if n := strings.Count(r.errs, "does not answer"); n != 1 || !strings.Contains(r.errs, "retrying for up to 30s") {
		t.Errorf("the wait was said %d times: %q", n, r.errs)
	}
	out := mustCLI(t, root, "", "recv", "--as", "Bob")
	if !strings.Contains(out, "sent during the outage") {
		t.Fatalf("not delivered: %s", out)
	}
}
