package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// execHelperEnv, set, makes the test binary a process that runs one Exec
// turn of the command it holds and nothing else.
const execHelperEnv = "PARLEY_TEST_EXEC_HELPER"

func TestMain(m *testing.M) {
	if command := os.Getenv(execHelperEnv); command != "" {
		_, err := (&Exec{Command: command}).Respond(context.Background(), request(1, 1))
		fmt.Fprintln(os.Stderr, "exec helper:", err)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// An agent process killed outright (kill -9) in the middle of a turn takes
// its command with it, and what the command started: no orphan goes on
// calling a paid API or holding files.
func TestExecDiesWithItsProcess(t *testing.T) {
	t.Parallel()
	pids := filepath.Join(t.TempDir(), "pids")
	// The shell ($$) and a child of it ($!), written whole.
	command := fmt.Sprintf(`sleep 600 & echo "$$ $!" > '%s.tmp' && mv '%s.tmp' '%s'; wait`, pids, pids, pids)
	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(os.Environ(), execHelperEnv+"="+command)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })

	var data []byte
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var err error
		if data, err = os.ReadFile(pids); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not start within 30 s: %v", err)
		}
	}
	var procs [2]int
	if _, err := fmt.Sscan(string(data), &procs[0], &procs[1]); err != nil {
		t.Fatalf("pids %q: %v", data, err)
	}
	t.Cleanup(func() {
		for _, pid := range procs {
			if !processGone(pid) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})

	if err := helper.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	for _, pid := range procs {
		deadline := time.Now().Add(10 * time.Second)
		for !processGone(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d of the command (%s) outlived the agent process by 10 s", pid, strings.TrimSpace(string(data)))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
