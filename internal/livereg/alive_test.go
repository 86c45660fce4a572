package livereg

import (
	"os"
	"testing"
	"time"
)

// A process id is this host's only when it fits a pid_t: an id of 2³²
// plus a live one's is no process, though kill(2) would take its low bits.
func TestPIDAliveRefusesIDsBeyondAProcessID(t *testing.T) {
	t.Parallel()
	me := os.Getpid()
	if !PIDAlive(me) {
		t.Fatalf("PIDAlive(%d), this process, is false", me)
	}
	for _, pid := range []int{0, -1, 1 << 32, 1<<32 + me, 1<<63 - 1} {
		if PIDAlive(pid) {
			t.Errorf("PIDAlive(%d) is true", pid)
		}
	}
}

// The rule: a stale or far-future heartbeat is dead; another host's
// registration without one cannot be checked and counts as alive; this
// host's is alive when its process runs.
func TestAlive(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 5, 17, 0, 0, 0, time.UTC)
	running := func(pid int) bool { return pid == 42 }
	for _, tc := range []struct {
		h    Head
		want bool
	}{
		{Head{PID: 42}, true},
		{Head{PID: 43}, false},
		{Head{PID: 42, HeartbeatAt: "2026-12-05T16:59:50.000Z"}, true},
		{Head{PID: 42, HeartbeatAt: "2026-12-05T16:59:00.000Z"}, false},
		{Head{PID: 42, HeartbeatAt: "2026-12-05T17:01:00.000Z"}, false},
		{Head{PID: 42, HeartbeatAt: "yesterday"}, false},
		{Head{PID: 43, Host: "elsewhere"}, true},
		{Head{PID: 43, Host: "here"}, false},
		{Head{PID: 43, Host: "elsewhere", HeartbeatAt: "2026-12-05T16:00:00.000Z"}, false},
	} {
		if got := Alive(tc.h, "here", now, DefaultTTL, running); got != tc.want {
			t.Errorf("Alive(%+v) = %v, want %v", tc.h, got, tc.want)
		}
	}
}
