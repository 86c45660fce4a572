package livereg

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// Load reads a registration as the registry reads the file, and reads
// nothing from what the registry would refuse: something else in its
// place, a file over the limit, a file naming another agent.
func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, Dir), 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, Path(name)), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("Bob", `{"name":"Bob","pid":42,"host":"h"}`)
	write("Carol", `{"name":"Bob","pid":42}`)
	write("Dave", `{"name":"Dave","pid":42}`+strings.Repeat(" ", MaxRegistrationBytes))
	if err := os.Symlink(filepath.Join(dir, Path("Bob")), filepath.Join(dir, Path("Eve"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, Path("Fay")), 0o700); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h, ok := Load(r, "Bob"); !ok || h != (Head{Name: "Bob", PID: 42, Host: "h"}) {
		t.Errorf("Load(Bob) = %+v, %v", h, ok)
	}
	for _, name := range []string{"Carol", "Dave", "Eve", "Fay", "Gus"} {
		if h, ok := Load(r, name); ok {
			t.Errorf("Load(%s) = %+v, read", name, h)
		}
	}
	if _, _, err := ReadFile(r, "Eve"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile of a link: %v, want ErrNotRegular", err)
	}
	if _, fi, err := ReadFile(r, "Gus"); fi != nil || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of none: %v, %v", fi, err)
	}
}
