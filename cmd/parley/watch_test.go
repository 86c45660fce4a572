package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// startWatch runs "parley watch" with args until the returned stop is
// called; stop returns what run returned.
func startWatch(t *testing.T, root string, args ...string) (out, errb *syncBuffer, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errb = &syncBuffer{}, &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--root", root, "--json", "watch"}, args...), strings.NewReader(""), out, errb)
	}()
	var once bool
	var err error
	stop = func() error {
		if !once {
			once = true
			cancel()
			err = <-done
		}
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return out, errb, stop
}

// waitFor polls cond for up to 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func registration(t *testing.T, root, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "registry", name+".json"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("registration of %s: %v: %s", name, err, b)
	}
	return m
}

// regTime is the time in field k of registration reg.
func regTime(t *testing.T, reg map[string]any, k string) time.Time {
	t.Helper()
	s, _ := reg[k].(string)
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("registration %s %q: %v", k, s, err)
	}
	return at
}

// A watch makes its name a live agent for as long as it runs: a sender
// gets no not_active warning, the registration carries what pi-messenger
// needs to message it and stays alive past the heartbeat TTL, and it is
// gone when the watch stops. Mail that arrives between two watches waits
// for the next one (the same holder), and a second watch of the same name
// is refused without disturbing the first.
func TestWatchRegistersWhileItRuns(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Nadia")
	// A short TTL, so that the test shows the heartbeat keeping it alive;
	// long enough that a heartbeat (every third of it) delayed by a busy
	// machine does not let the registration go stale.
	const ttl = 3 * time.Second
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(fmt.Sprintf(`{"messenger":{"heartbeatTtlMs":%d}}`, ttl.Milliseconds())), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, _ := cli(t, root, "", "send", "--from", "Quill", "--to", "Nadia", "waiting since before the watch"); !strings.Contains(stderr, "not_active") {
		t.Fatalf("send to an agent nobody watches: no not_active warning: %q", stderr)
	}

	out, errb, stop := startWatch(t, root, "--as", "Nadia")
	waitFor(t, "the waiting message", func() bool { return strings.Contains(out.String(), "waiting since before the watch") })
	reg := registration(t, root, "Nadia")
	for _, k := range []string{"name", "pid", "sessionId", "cwd", "startedAt", "heartbeatAt"} {
		if reg[k] == nil || reg[k] == "" {
			t.Errorf("registration lacks %q: %v", k, reg)
		}
	}
	if int(reg["pid"].(float64)) != os.Getpid() {
		t.Errorf("registered pid %v, want this process %d", reg["pid"], os.Getpid())
	}
	// Only heartbeats keep it live past its first TTL: wait for one dated
	// more than a TTL after the watch registered.
	started := regTime(t, reg, "startedAt")
	waitFor(t, "a heartbeat more than a TTL after the start", func() bool {
		r := registration(t, root, "Nadia")
		return r != nil && r["heartbeatAt"] != nil && regTime(t, r, "heartbeatAt").Sub(started) > ttl
	})
	_, stderr, code := cli(t, root, "", "send", "--from", "Quill", "--to", "Nadia", "while watched")
	if code != cmdutil.ExitOK || strings.Contains(stderr, "not_active") {
		t.Fatalf("send to a watched agent: exit %d, %q", code, stderr)
	}
	waitFor(t, "the message sent while watched", func() bool { return strings.Contains(out.String(), "while watched") })
	objs := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "list"))
	if len(objs) != 1 || objs[0]["name"] != "Nadia" || objs[0]["alive"] != true {
		t.Fatalf("agents list while watching: %v", objs)
	}

	// A second watch of the same name is refused; the first keeps its
	// registration and its inbox.
	_, stderr, code = cli(t, root, "", "watch", "--as", "Nadia")
	if code != cmdutil.ExitError || !strings.Contains(stderr, "Nadia") {
		t.Fatalf("second watch: exit %d, %q", code, stderr)
	}
	if r := registration(t, root, "Nadia"); r == nil || r["sessionId"] != reg["sessionId"] {
		t.Fatalf("second watch changed the registration: %v", r)
	}
	mustCLI(t, root, "", "send", "--from", "Quill", "--to", "Nadia", "after the refused watch")
	waitFor(t, "the message after the refused watch", func() bool { return strings.Contains(out.String(), "after the refused watch") })

	if err := stop(); err != nil {
		t.Fatalf("watch ended with %v, stderr %q", err, errb.String())
	}
	if r := registration(t, root, "Nadia"); r != nil {
		t.Fatalf("registration left after the watch stopped: %v", r)
	}
	if _, stderr, _ := cli(t, root, "", "send", "--from", "Quill", "--to", "Nadia", "between watches"); !strings.Contains(stderr, "not_active") {
		t.Fatalf("send after the watch stopped: no not_active warning: %q", stderr)
	}
	out2, _, stop2 := startWatch(t, root, "--as", "Nadia")
	waitFor(t, "the message sent between watches", func() bool { return strings.Contains(out2.String(), "between watches") })
	if err := stop2(); err != nil {
		t.Fatal(err)
	}
	if aside, _ := filepath.Glob(filepath.Join(root, "inbox", "Nadia", "aside", "*", "*.json")); len(aside) != 0 {
		t.Fatalf("a second watch set the mail aside: %v", aside)
	}
}

// --no-register only reads: the name stays unregistered, senders are
// told it is not running, and a name nobody knows is not_found with or
// without it (a typo makes no agent).
func TestWatchNoRegisterAndUnknownNames(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Otto")
	out, _, stop := startWatch(t, root, "--as", "Otto", "--no-register")
	_, stderr, code := cli(t, root, "", "send", "--from", "Quill", "--to", "Otto", "read only")
	if code != cmdutil.ExitOK || !strings.Contains(stderr, "not_active") {
		t.Fatalf("send to a --no-register watch: exit %d, %q", code, stderr)
	}
	waitFor(t, "the message", func() bool { return strings.Contains(out.String(), "read only") })
	if r := registration(t, root, "Otto"); r != nil {
		t.Fatalf("--no-register registered: %v", r)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"watch", "--as", "Ottto"}, {"watch", "--as", "Ottto", "--no-register"}} {
		_, stderr, code := cli(t, root, "", args...)
		oneLineError(t, stderr, code, "not_found")
	}
	if _, err := os.Stat(filepath.Join(root, "inbox", "Ottto")); !os.IsNotExist(err) {
		t.Fatalf("watch of an unknown name made its inbox: %v", err)
	}
	if r := registration(t, root, "Ottto"); r != nil {
		t.Fatalf("watch of an unknown name registered it: %v", r)
	}
}

// A watch process stopped by SIGINT or SIGTERM (Ctrl-C, a supervisor)
// unregisters on its way out; one killed with SIGKILL leaves its
// registration behind, and the next sender sees it is not running (its
// process is gone).
func TestWatchProcessUnregistersOnSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			mustCLI(t, root, "", "agents", "add", "Wren")
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(exe, "--root", root, "watch", "--as", "Wren")
			cmd.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the registration", func() bool {
				r := registration(t, root, "Wren")
				return r != nil && int(r["pid"].(float64)) == cmd.Process.Pid
			})
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			r := registration(t, root, "Wren")
			if sig == syscall.SIGKILL {
				if r == nil {
					t.Fatal("SIGKILL: the registration vanished")
				}
			} else if r != nil {
				t.Fatalf("%v: registration left behind: %v", sig, r)
			}
			_, stderr, code := cli(t, root, "", "send", "--from", "Quill", "--to", "Wren", "still there?")
			if code != cmdutil.ExitOK || !strings.Contains(stderr, "not_active") {
				t.Fatalf("send after the watch ended: exit %d, %q", code, stderr)
			}
		})
	}
}

// A watch whose reader went away (parley watch --as Wren | head -1, a
// consumer that died) ends at the next message it cannot print: that
// message stays waiting, unacknowledged, and the watch unregisters as on
// Ctrl-C, rather than dying of SIGPIPE with its registration left behind.
func TestWatchWhoseReaderWentAwayUnregisters(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Wren")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "--root", root, "watch", "--as", "Wren")
	cmd.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	cmd.Stdout = pw
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	pw.Close()
	waitFor(t, "the registration", func() bool {
		r := registration(t, root, "Wren")
		return r != nil && int(r["pid"].(float64)) == cmd.Process.Pid
	})
	pr.Close() // the reader goes away
	mustCLI(t, root, "", "send", "--from", "Quill", "--to", "Wren", "anyone?")
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("the watch died of %v (%v), stderr %q", ws.Signal(), err, stderr.String())
	}
	if err != nil {
		t.Fatalf("the watch ended with %v, stderr %q; want a quiet end", err, stderr.String())
	}
	if r := registration(t, root, "Wren"); r != nil {
		t.Fatalf("registration left behind: %v", r)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "inbox", "Wren", "*.json")); len(m) != 1 {
		t.Fatalf("waiting after the watch ended: %v; want the message it could not print", m)
	}
}

// Several watch processes of one name started at once: one watches, the
// others are refused as a second watch is (the inbox is busy), and the one
// that runs is registered under its own PID, so that agents list shows it
// live and senders reach it. The race is run a few times over.
func TestConcurrentWatchProcessesLeaveTheSurvivorRegistered(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Zed")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const rounds, watchers = 2, 3
	for round := range rounds {
		cmds := make([]*exec.Cmd, watchers)
		exited := make(chan *exec.Cmd, watchers)
		stderrs := make([]*syncBuffer, watchers)
		for i := range cmds {
			stderrs[i] = &syncBuffer{}
			cmds[i] = exec.Command(exe, "--root", root, "watch", "--as", "Zed")
			cmds[i].Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
			cmds[i].Stderr = stderrs[i]
		}
		for _, c := range cmds {
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.Process.Kill() })
		}
		for _, c := range cmds {
			go func() { _ = c.Wait(); exited <- c }()
		}
		refused := map[*exec.Cmd]bool{}
		for range watchers - 1 {
			select {
			case c := <-exited:
				refused[c] = true
			case <-time.After(30 * time.Second):
				t.Fatalf("round %d: %d of %d watches were refused, want %d", round, len(refused), watchers, watchers-1)
			}
		}
		var survivor *exec.Cmd
		for i, c := range cmds {
			if !refused[c] {
				survivor = c
				continue
			}
			if code := c.ProcessState.ExitCode(); code != cmdutil.ExitError || !strings.Contains(stderrs[i].String(), "busy") {
				t.Errorf("round %d: a refused watch: exit %d, %q", round, code, stderrs[i].String())
			}
		}
		reg := registration(t, root, "Zed")
		if reg == nil || int(reg["pid"].(float64)) != survivor.Process.Pid {
			t.Fatalf("round %d: registration %v, want the running watch's pid %d", round, reg, survivor.Process.Pid)
		}
		objs := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "list"))
		if len(objs) != 1 || objs[0]["name"] != "Zed" || objs[0]["alive"] != true {
			t.Fatalf("round %d: agents list: %v", round, objs)
		}
		if _, stderr, code := cli(t, root, "", "send", "--from", "Quill", "--to", "Zed", "--require-live", "are you there?"); code != cmdutil.ExitOK {
			t.Fatalf("round %d: send to the running watch: exit %d, %q", round, code, stderr)
		}
		if err := survivor.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		<-exited
		if r := registration(t, root, "Zed"); r != nil {
			t.Fatalf("round %d: registration left after the watch stopped: %v", round, r)
		}
	}
}

// A watch that takes over a name says what it set aside as every command
// says a warning, its code first ("parley: warning: moved_aside: …"), on
// standard error also under --json: its standard output carries only
// messages, one wire-form object per line, for the program that reads it.
func TestWatchSaysWhatItSetAsideByItsCode(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	adoptInbox(t, root, "Bob", "session-1")
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "for the earlier Bob")
	out, errb, stop := startWatch(t, root, "--as", "Bob")
	// Sent once the earlier holder's mail is set aside, so that it is not.
	waitFor(t, "the warning", func() bool { return strings.Contains(errb.String(), "set aside in") })
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "for this watch")
	waitFor(t, "the message to this watch", func() bool { return strings.Contains(out.String(), "for this watch") })
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errb.String(), "parley: warning: moved_aside: 1 unclaimed message(s) of the previous holder of Bob were set aside in ") {
		t.Errorf("stderr %q; want the moved_aside warning by its code", errb.String())
	}
	for _, o := range jsonLines(t, out.String()) {
		if o["id"] == nil || o["text"] != "for this watch" {
			t.Errorf("watch --json printed %v on standard output; want only the message sent to it", o)
		}
	}
}
