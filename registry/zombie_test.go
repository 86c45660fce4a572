//go:build linux

package registry_test

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/registry"
)

// A killed process that its parent has not reaped yet (a zombie, the
// normal state of a killed agent in a container without an init process)
// is not alive; once reaped it is gone too.
func TestZombieIsNotAlive(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if !registry.PIDAlive(pid) {
		t.Fatalf("a running process (pid %d) is not alive", pid)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Not reaped: the kernel keeps it as a zombie. Wait until it is one.
	deadline := time.Now().Add(10 * time.Second)
	for registry.PIDAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d still alive 10 s after SIGKILL (a zombie counts as alive)", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the test's premise: pid %d should still exist as a zombie: %v", pid, err)
	}
	_ = cmd.Wait()
	if registry.PIDAlive(pid) {
		t.Fatalf("pid %d alive after it was reaped", pid)
	}
}

func TestZombieStatParsing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		stat string
		want bool
	}{
		{"42 (sleep) S 1 42 42 0 -1", false},
		{"42 (sleep) Z 1 42 42 0 -1", true},
		{"42 (sleep) X 1 42", true},
		{"42 (a) Z (b) R 1 2 3", false}, // the name holds ") Z (": the state is after the last ')'
		{"42 (evil) Z) Z 1", true},
		{"42 (name with spaces) R 1", false},
		{"garbage", false},
		{"42 (x)", false},
	} {
		if got := registry.ZombieStat([]byte(c.stat)); got != c.want {
			t.Errorf("%q: zombie %v, want %v", c.stat, got, c.want)
		}
	}
}
