package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/interrupt"
)

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
		c := &interrupt.Context{}
		var out, errs syncBuffer
		_ = run(c, tc.args, nil, &out, &errs)
		c.Release()
		if c.Listening() == tc.lazy {
			t.Errorf("%v: listening %v, want %v", tc.args, c.Listening(), !tc.lazy)
		}
	}
}

// A wait that a signal cut short exits with 128 plus the signal's number,
// as a shell reports a process the signal killed: 130 for Ctrl-C, 143 for
// SIGTERM (a supervisor), 129 for a hang-up (the terminal closed); a wait
// whose context ended without a signal exits as Ctrl-C's.
func TestInterruptedExitCodeNamesTheSignal(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	if err := run(context.Background(), []string{"--root", root, "agents", "add", "Bob"}, nil, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sig  os.Signal // nil: cancelled without one
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {nil, 130}} {
		ctx, cancel := context.WithCancelCause(context.Background())
		if tc.sig != nil {
			cancel(&interrupt.SignalError{Signal: tc.sig})
		} else {
			cancel(nil)
		}
		var errb bytes.Buffer
		err := run(ctx, []string{"--root", root, "recv", "--as", "Bob", "--wait", "1h"}, nil, io.Discard, &errb)
		if code := cmdutil.ExitCode(err, &errb); code != tc.want || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("%v: exit %d, stderr %q; want %d, interrupted", tc.sig, code, errb.String(), tc.want)
		}
	}
}
