package app

import (
	"bufio"
	"io"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

// startDeafAgent starts, as an agent process of p, one that ignores
// SIGTERM, and returns once it does.
func startDeafAgent(t testing.TB, p *agentProcs, name string) *agentProc {
	t.Helper()
	cmd := exec.Command("sh", "-c", `trap "" TERM; echo ready; exec sleep 3600`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ap := &agentProc{name: name, cmd: cmd, log: nopCloser{}, exited: make(chan struct{})}
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("agent %s: %q, %v", name, line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, out); _ = cmd.Wait(); close(ap.exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-ap.exited })
	p.procs = append(p.procs, ap)
	return ap
}

// The agents a debate started that do not stop when told to are killed,
// every one of them, and the debate's stop returns.
func TestStopKillsEveryAgentThatDoesNotStop(t *testing.T) {
	t.Parallel()
	p := &agentProcs{}
	var aps []*agentProc
	for _, name := range []string{"Attacker", "Defender", "Judge"} {
		aps = append(aps, startDeafAgent(t, p, name))
	}
	stopped := make(chan struct{})
	go func() { p.stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(2 * time.Minute):
		t.Fatal("stop did not return: not every agent that ignores SIGTERM was killed")
	}
	for _, ap := range aps {
		select {
		case <-ap.exited:
		default:
			t.Fatalf("%s still runs after stop", ap.name)
		}
		if ws, ok := ap.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
			t.Errorf("%s ended %v, want killed", ap.name, ap.cmd.ProcessState)
		}
	}
}
