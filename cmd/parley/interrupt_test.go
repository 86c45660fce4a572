package main

import (
	"testing"

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
