package agentscmd

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdtest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/registry"
)

// TestAgentRunChecksItsFlags: "agent run" takes a valid name, a role and
// exactly one way of answering; anything else is refused before it
// registers or opens anything.
func TestAgentRunChecksItsFlags(t *testing.T) {
	var got *RunOptions
	code := cmdtest.Exit(NewCmdRun(cmdtest.Factory(), func(o *RunOptions) error { got = o; return nil }),
		"--name", "Skeptic_2", "--role", "attacker", "--script", "turns.json")
	if code != cmdutil.ExitOK || got == nil || got.Name != "Skeptic_2" || got.Role != debate.Role("attacker") || got.Spec != "script:turns.json" || got.Parent != 0 {
		t.Fatalf("exit %d, options %+v", code, got)
	}
	// A flag missing or of the wrong form is a usage error (exit 2) that
	// names it; a name that is not one is invalid_name (exit 1), as for
	// every command that takes an agent's name.
	for _, tc := range []struct {
		why  string
		args []string
		code int
		says string
	}{
		{"no name", []string{"--role", "attacker", "--exec", "true"}, cmdutil.ExitUsage, "--name"},
		{"an empty name", []string{"--name", "", "--role", "attacker", "--exec", "true"}, cmdutil.ExitUsage, "--name"},
		{"not a name", []string{"--name", "../etc", "--role", "attacker", "--script", "turns.json"}, cmdutil.ExitError, "invalid_name"},
		{"no role", []string{"--name", "Skeptic", "--exec", "true"}, cmdutil.ExitUsage, "--role is required"},
		{"no such role", []string{"--name", "Skeptic", "--role", "judge-of-all", "--script", "turns.json"}, cmdutil.ExitUsage, "--role"},
		{"no way to answer", []string{"--name", "Skeptic", "--role", "attacker"}, cmdutil.ExitUsage, "--exec"},
		{"two ways to answer", []string{"--name", "Skeptic", "--role", "attacker", "--script", "t.json", "--exec", "./bot"}, cmdutil.ExitUsage, "exactly one"},
		{"an argument", []string{"--name", "Skeptic", "--role", "attacker", "--script", "t.json", "extra"}, cmdutil.ExitUsage, ""},
	} {
		code, stderr := cmdtest.Run(NewCmdRun(cmdtest.Factory(), func(*RunOptions) error { t.Errorf("%s reached the run function", tc.why); return nil }), tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.says) {
			t.Errorf("%s: exit %d, %q; want exit %d saying %q", tc.why, code, stderr, tc.code, tc.says)
		}
	}
}

// TestAgentsNameOneAgent: show and add take one name each; list and
// prune take none.
func TestAgentsNameOneAgent(t *testing.T) {
	var got *NameOptions
	if code := cmdtest.Exit(NewCmdShow(cmdtest.Factory(), func(o *NameOptions) error { got = o; return nil }), "LuckyOtter"); code != cmdutil.ExitOK || got == nil || got.Name != "LuckyOtter" {
		t.Errorf("show: exit %d, options %+v", code, got)
	}
	got = nil
	if code := cmdtest.Exit(NewCmdAdd(cmdtest.Factory(), func(o *NameOptions) error { got = o; return nil }), "LateBird"); code != cmdutil.ExitOK || got == nil || got.Name != "LateBird" {
		t.Errorf("add: exit %d, options %+v", code, got)
	}
	never := func(what string) func() error {
		return func() error { t.Errorf("%s reached the run function", what); return nil }
	}
	if code := cmdtest.Exit(NewCmdShow(cmdtest.Factory(), func(*NameOptions) error { return never("show a b")() }), "a", "b"); code != cmdutil.ExitUsage {
		t.Errorf("show a b: exit %d", code)
	}
	if code := cmdtest.Exit(NewCmdAdd(cmdtest.Factory(), func(*NameOptions) error { return never("add")() })); code != cmdutil.ExitUsage {
		t.Errorf("add without a name: exit %d", code)
	}
	if code := cmdtest.Exit(NewCmdList(cmdtest.Factory(), func(*RootOptions) error { return never("list x")() }), "x"); code != cmdutil.ExitUsage {
		t.Errorf("list x: exit %d", code)
	}
	if code := cmdtest.Exit(NewCmdPrune(cmdtest.Factory(), func(*RootOptions) error { return never("prune x")() }), "x"); code != cmdutil.ExitUsage {
		t.Errorf("prune x: exit %d", code)
	}
}

// TestAgentRunNamesEverySignalThatStopsIt: the help of "agent run" names
// each signal on which it unregisters and stops (interrupt.Signals), the
// hang-up of a closed terminal included.
func TestAgentRunNamesEverySignalThatStopsIt(t *testing.T) {
	long := NewCmdRun(cmdtest.Factory(), nil).Long
	// SIGHUP and SIGINT by name: interrupt.Signals leaves them out in a
	// process that ignores them (a test run under nohup, or in the
	// background by a script).
	names := []string{"SIGHUP", "SIGINT"}
	for _, s := range interrupt.Signals() {
		names = append(names, unix.SignalName(s.(syscall.Signal)))
	}
	for _, name := range names {
		if !strings.Contains(long, name) {
			t.Errorf("agent run --help does not name %s, which unregisters the agent:\n%s", name, long)
		}
	}
}

// An agent run under a root that does not exist (a mistyped --root) is
// refused as recv and watch refuse it, and makes no root of its own where
// no debate would look.
func TestAgentRunRefusesAMissingRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "turns.json")
	if err := os.WriteFile(script, []byte(`{"turns":[{"position":"p","text":"t"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "typo")
	f := cmdtest.Factory()
	f.RootFlag = root
	// Already ended: an agent that did start stops at once, instead of
	// serving until the test times out.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, stderr := cmdtest.RunContext(ctx, NewCmdRun(f, nil), "--name", "Bob", "--role", "defender", "--script", script)
	if code != cmdutil.ExitError || !strings.Contains(stderr, "there is no parley root at "+root) {
		t.Errorf("agent run on a missing root: exit %d, %q; want exit 1 saying there is no root", code, stderr)
	}
	if _, err := os.Lstat(root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("agent run made the root %s: %v", root, err)
	}
}

// "agents list --json" says of each live agent only what it looked at: it
// does not count inboxes ("agents show" does), so it prints no inbox
// counts, rather than "waiting":0 for an agent whose mail is waiting.
func TestAgentsListPrintsNoCountItDidNotMake(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	a := app.New(app.Options{Root: root})
	if _, err := a.AddAgent(ctx, "Wren"); err != nil {
		t.Fatal(err)
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Registry().Register(ctx, registry.Registration{Name: "Wren"}); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"one", "two", "three"} {
		if _, err := a.Send(ctx, app.SendRequest{From: "Alice", To: "Wren", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	var out strings.Builder
	f := cmdtest.Factory()
	f.RootFlag, f.JSON, f.Stdout = root, true, &out
	if code, stderr := cmdtest.Run(NewCmdList(f, nil)); code != cmdutil.ExitOK {
		t.Fatalf("agents list: exit %d, %s", code, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil || got["name"] != "Wren" || got["state"] != app.AgentLive {
		t.Fatalf("agents list --json = %q, %v; want Wren, live", out.String(), err)
	}
	for _, k := range []string{"waiting", "acked", "bad", "aside"} {
		if v, ok := got[k]; ok {
			t.Errorf("agents list --json says %q: %v of an inbox it did not count (3 messages wait); line: %s", k, v, out.String())
		}
	}

	out.Reset()
	if code, stderr := cmdtest.Run(NewCmdShow(f, nil), "Wren"); code != cmdutil.ExitOK {
		t.Fatalf("agents show: exit %d, %s", code, stderr)
	}
	got = nil
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil || got["waiting"] != float64(3) {
		t.Fatalf("agents show --json = %q, %v; want \"waiting\":3", out.String(), err)
	}
}
