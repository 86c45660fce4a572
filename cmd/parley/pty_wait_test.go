//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// ptyRun starts parley (this test binary standing in for it) on a new
// terminal, its stdin, stdout and stderr all the terminal, as a user's
// shell would. The returned buffer collects what it prints.
func ptyRun(t *testing.T, args ...string) (*exec.Cmd, *os.File, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Fatalf("start on a pty: %v", err)
	}
	out := &syncBuffer{}
	go func() { _, _ = io.Copy(out, tty) }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_, _ = cmd.Process.Wait()
		}
		tty.Close()
	})
	return cmd, tty, out
}

// waitForText waits until the terminal shows want.
func waitForText(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never showed %q; it shows %q", want, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// exitOf waits for cmd (at most 20 s: a command that ignores Ctrl-C fails
// the test instead of hanging it) and returns its exit code.
func exitOf(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(20 * time.Second):
		t.Fatalf("still waiting 20 s after Ctrl-C")
		return -1
	}
}

// "parley gate" with no file, "parley send … -" and "parley gate label -"
// wait for standard input; on a terminal they say so, and Ctrl-C (the
// terminal turns the keystroke into SIGINT) ends the wait: exit 130,
// nothing logged, sent or labelled.
func TestCtrlCEndsStdinWaitsOnATerminal(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	for _, tc := range []struct {
		name string
		args []string
		hint string
	}{
		{"gate", []string{"--root", root, "gate"}, "reading the self-critique from standard input"},
		{"send -", []string{"--root", root, "send", "--from", "Alice", "--to", "Bob", "-"}, "reading the message from standard input"},
		{"gate label -", []string{"--root", root, "gate", "label", "-"}, "reading labelled self-critiques (JSON Lines) from standard input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, tty, out := ptyRun(t, tc.args...)
			waitForText(t, out, tc.hint)
			if !strings.Contains(out.String(), "Ctrl-C cancels") {
				t.Errorf("the hint does not say how to cancel: %q", out.String())
			}
			if _, err := tty.Write([]byte{3}); err != nil { // Ctrl-C
				t.Fatal(err)
			}
			if code := exitOf(t, cmd); code != cmdutil.ExitInterrupted {
				t.Errorf("exit %d after Ctrl-C, want %d; terminal: %q", code, cmdutil.ExitInterrupted, out.String())
			}
			waitForText(t, out, "interrupted") // "parley: interrupted", or what was left undone
		})
	}
	if _, err := os.Stat(filepath.Join(root, "gate.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an interrupted gate logged a decision: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "gate", "labels.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an interrupted gate label added labels: %v", err)
	}
	if out := mustCLI(t, root, "", "--json", "recv", "--as", "Bob"); out != "" {
		t.Errorf("an interrupted send delivered: %q", out)
	}
}

// Also a plain SIGINT (kill -INT), as a supervisor would send it, ends a
// wait on a terminal's input.
func TestSIGINTEndsStdinWait(t *testing.T) {
	t.Parallel()
	cmd, _, out := ptyRun(t, "--root", t.TempDir(), "gate")
	waitForText(t, out, "reading the self-critique")
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := exitOf(t, cmd); code != cmdutil.ExitInterrupted {
		t.Errorf("exit %d after SIGINT, want %d; terminal: %q", code, cmdutil.ExitInterrupted, out.String())
	}
}

// List commands print a header row on a terminal, never in a pipe or
// under --json.
func TestHeaderRowsOnATerminal(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "init")
	script := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(script, []byte(`{"turns":[{"position":"Keep it"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, root, "", "debate", "run", "--layer", "spec", "--topic", "Headers", "--position", "Keep it",
		"--agent", "attacker=script:"+script, "--agent", "defender=script:"+script)
	register(t, root, "Reviewer", true)
	for _, tc := range []struct {
		args         []string
		header, last string
	}{
		{[]string{"debate", "list"}, "ID", "TOPIC"},
		{[]string{"consensus", "list"}, "DATE", "TOPIC"},
		{[]string{"transcripts", "list"}, "DATE", "TOPIC"},
		{[]string{"agents", "list"}, "NAME", "HEARTBEAT"},
	} {
		cmd, _, out := ptyRun(t, append([]string{"--root", root}, tc.args...)...)
		if code := exitOf(t, cmd); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, out.String())
		}
		time.Sleep(50 * time.Millisecond) // the copy of the last bytes
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[0], tc.header) || !strings.Contains(lines[0], tc.last) {
			t.Errorf("%v on a terminal: no header row: %q", tc.args, out.String())
		}
		piped := mustCLI(t, root, "", tc.args...)
		if strings.Contains(piped, tc.last) {
			t.Errorf("%v in a pipe prints a header: %q", tc.args, piped)
		}
		if js := mustCLI(t, root, "", append([]string{"--json"}, tc.args...)...); strings.Contains(js, tc.last) {
			t.Errorf("%v --json prints a header: %q", tc.args, js)
		}
	}
}

// Every other wait ends on Ctrl-C too: recv --wait is interrupted (130);
// watch and mcp over stdio, whose way to stop Ctrl-C is, end with 0.
func TestCtrlCEndsEveryWait(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	for _, tc := range []struct {
		args  []string
		ready string // what the terminal shows once the command waits; "" for nothing
		code  int
	}{
		{[]string{"recv", "--as", "Bob", "--wait", "10m"}, "", cmdutil.ExitInterrupted},
		{[]string{"watch", "--as", "Bob"}, "watching the inbox of Bob", 0},
		{[]string{"mcp"}, "", 0},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			cmd, tty, out := ptyRun(t, append([]string{"--root", root}, tc.args...)...)
			if tc.ready != "" {
				waitForText(t, out, tc.ready)
			} else {
				time.Sleep(time.Second) // nothing to wait for: let it start waiting
			}
			if _, err := tty.Write([]byte{3}); err != nil {
				t.Fatal(err)
			}
			if code := exitOf(t, cmd); code != tc.code {
				t.Errorf("exit %d after Ctrl-C, want %d; terminal: %q", code, tc.code, out.String())
			}
		})
	}
}
