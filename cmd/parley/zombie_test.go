//go:build linux

package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startLine starts cmd and waits for a line of its output that contains
// want; it returns the rest of the output as a channel of lines.
func startLine(t *testing.T, cmd interface {
	Start() error
}, out io.Reader, want string) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	timeout := time.After(60 * time.Second)
	var seen []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the process ended before printing %q: %q", want, seen)
			}
			seen = append(seen, l)
			if strings.Contains(l, want) {
				go func() {
					for range lines {
					}
				}()
				return
			}
		case <-timeout:
			t.Fatalf("no %q within 60 s: %q", want, seen)
		}
	}
}

// A watcher killed with SIGKILL and never reaped stays a zombie (its pid
// exists, state Z) — the normal case in a container without an init
// process. A new watcher of the same inbox, started at once, must not be
// refused because of it: over JetStream the dead watcher's hold names its
// pid, and a registered agent's registration does too.
func TestNewWatcherStartsBesideAZombie(t *testing.T) {
	t.Parallel()
	t.Run("jetstream watch", func(t *testing.T) {
		t.Parallel()
		root, _ := natsRoot(t)
		mustRun(t, root, "agents", "add", "Bob")
		first := testBinary(t, "--root", root, "watch", "--as", "Bob")
		stderr, err := first.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		startLine(t, first, stderr, "watching the inbox of Bob")
		killLeavingZombie(t, first.Process.Pid)

		second := testBinary(t, "--root", root, "watch", "--as", "Bob")
		stderr2, err := second.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout2, err := second.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		startLine(t, second, stderr2, "watching the inbox of Bob")
		t.Cleanup(func() { second.Process.Signal(syscall.SIGTERM); second.Wait() })
		mustRun(t, root, "send", "--from", "Alice", "--to", "Bob", "after the zombie")
		got := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stdout2)
			for sc.Scan() {
				if strings.Contains(sc.Text(), "after the zombie") {
					got <- sc.Text()
					return
				}
			}
		}()
		select {
		case <-got:
		case <-time.After(30 * time.Second):
			t.Fatal("the new watcher did not receive the message")
		}
	})
	t.Run("registered agent", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		root := filepath.Join(dir, "root")
		if err := os.MkdirAll(root, 0o700); err != nil { // agent run serves only in a root that exists
			t.Fatal(err)
		}
		s := writeScripts(t, dir, map[string]string{"c": repeatingCritic})
		first := testBinary(t, "--root", root, "agent", "run", "--name", "Carol", "--role", "attacker", "--script", s["c"])
		out, err := first.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		startLine(t, first, out, "is listening")
		killLeavingZombie(t, first.Process.Pid)

		second := testBinary(t, "--root", root, "agent", "run", "--name", "Carol", "--role", "attacker", "--script", s["c"])
		out2, err := second.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		startLine(t, second, out2, "is listening")
		t.Cleanup(func() { second.Process.Signal(syscall.SIGTERM); second.Wait() })
		if !alive(t, root, "Carol") {
			t.Fatal("the new agent is not alive")
		}
	})
}

// killLeavingZombie kills pid with SIGKILL and waits until it is a zombie,
// without reaping it (the test reaps it when it ends).
func killLeavingZombie(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		if zombieState(pid) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d did not become a zombie", pid)
		}
	}
	t.Cleanup(func() {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
	})
}

func zombieState(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && strings.HasPrefix(strings.TrimSpace(string(b[i+1:])), "Z")
}
