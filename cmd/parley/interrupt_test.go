package main

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

// The context main gives a command answers like a background context
// until something could wait on it; from then on SIGTERM (or Ctrl-C) ends
// it, and every context derived from it, as signal.NotifyContext does.
func TestInterruptContextListensOnceAWaitCouldBegin(t *testing.T) {
	c := &interruptContext{}
	defer c.release()
	type key struct{}
	if c.Err() != nil || c.Value(key{}) != nil || c.armed.Load() {
		t.Fatalf("listening before anything asked: err %v, armed %v", c.Err(), c.armed.Load())
	}
	if _, ok := c.Deadline(); ok {
		t.Fatal("a deadline nobody set")
	}
	child, cancel := context.WithTimeout(c, time.Minute) // asks for Done
	defer cancel()
	if !c.armed.Load() {
		t.Fatal("a derived context did not start the listening")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-child.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the derived context")
	}
	if !errors.Is(child.Err(), context.Canceled) || !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("after SIGTERM: child %v, parent %v", child.Err(), c.Err())
	}
}

// A command that never waits (send, version, the root's help) runs
// without listening; every other command listens from its start.
func TestOnlyCommandsThatAskListenLazily(t *testing.T) {
	root := t.TempDir()
	for _, tc := range []struct {
		args []string
		lazy bool
	}{
		{[]string{"--version"}, true},
		{[]string{"version"}, true},
		{[]string{"--root", root, "send", "--from", "Alice", "--to", "Nobody", "hi"}, true},
		{[]string{"--root", root, "agents", "list"}, false},
		{[]string{"--root", root, "gc"}, false},
	} {
		c := &interruptContext{}
		var out, errs syncBuffer
		_ = run(c, tc.args, nil, &out, &errs)
		c.release()
		if c.armed.Load() == tc.lazy {
			t.Errorf("%v: listening %v, want %v", tc.args, c.armed.Load(), !tc.lazy)
		}
	}
}
