package quicksend

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/registrytest"
)

// env is an environment of the given variables alone.
func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

// liveRoot is a root holding the inboxes of Bob (registered by this live
// process) and Carol (an inbox, no registration).
func liveRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), ".parley")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	withMessenger(t, root, func(ctx context.Context, tr *inbox.FileTransport, reg *registry.Registry) error {
		for _, name := range []string{"Bob", "Carol"} {
			if err := tr.Create(ctx, name); err != nil {
				return err
			}
		}
		_, err := reg.Register(ctx, registry.Registration{Name: "Bob", PID: os.Getpid(), SessionID: "s1"})
		return err
	})
	return root
}

// withMessenger calls do with the file messenger of root open.
func withMessenger(t *testing.T, root string, do func(context.Context, *inbox.FileTransport, *registry.Registry) error) {
	t.Helper()
	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	reg, err := registry.Open(root, tr)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if err := do(context.Background(), tr, reg); err != nil {
		t.Fatal(err)
	}
}

// waiting is what the inboxes of root hold: every message file, by agent.
func waiting(t *testing.T, root string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	dirs, _ := os.ReadDir(filepath.Join(root, inbox.InboxDir))
	for _, d := range dirs {
		files, _ := os.ReadDir(filepath.Join(root, inbox.InboxDir, d.Name()))
		for _, f := range files {
			if strings.HasSuffix(f.Name(), ".json") && !strings.HasPrefix(f.Name(), ".") {
				got[d.Name()] = append(got[d.Name()], f.Name())
			}
		}
	}
	return got
}

// The command lines cobra reads as a send of one text, in the forms
// scripts write them, are read as cobra reads them; every other form is
// left to cobra.
func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want Request
		ok   bool
	}{
		{[]string{"send", "--from", "A", "--to", "B", "hi"}, Request{From: "A", To: "B", Type: "text", Text: "hi"}, true},
		{[]string{"--root", "/r", "send", "--to=B", "hi", "--from=A", "--json"}, Request{Root: "/r", From: "A", To: "B", Type: "text", Text: "hi", JSON: true}, true},
		{[]string{"send", "--from", "A", "--to", "B", "--type", "review", "--reply-to", "x-1", "--require-live", "two words"}, Request{From: "A", To: "B", Type: "review", ReplyTo: "x-1", Text: "two words"}, true},
		{[]string{"send", "--from", "A", "--from", "C", "--to", "B", "hi"}, Request{From: "C", To: "B", Type: "text", Text: "hi"}, true}, // the last wins, as in pflag
		{[]string{"--from", "A", "send", "--to", "B", "hi"}, Request{}, false},                                                           // cobra: unknown flag --from for "parley"
		{[]string{"send", "--from", "A", "--to", "B", "--", "hi"}, Request{}, false},
		{[]string{"send", "--from", "A", "--to", "B", "-"}, Request{}, false},
		{[]string{"send", "--from", "A", "--to", "B"}, Request{}, false},
		{[]string{"send", "--from", "A", "--to", "B", "hi", "there"}, Request{}, false},
		{[]string{"send", "-v", "--from", "A", "--to", "B", "hi"}, Request{}, false},
		{[]string{"send", "--verbose", "--from", "A", "--to", "B", "hi"}, Request{}, false},
		{[]string{"send", "--vault", "v", "--from", "A", "--to", "B", "hi"}, Request{Vault: "v", From: "A", To: "B", Type: "text", Text: "hi"}, true},
		{[]string{"--vault=~/notes", "send", "--from", "A", "--to", "B", "hi", "--vault", ""}, Request{From: "A", To: "B", Type: "text", Text: "hi"}, true}, // the last, empty: none named
		{[]string{"send", "--from", "A", "--to", "B", "hi", "--vault"}, Request{}, false},
		{[]string{"send", "--help"}, Request{}, false},
		{[]string{"send", "--json=false", "--from", "A", "--to", "B", "hi"}, Request{}, false},
		{[]string{"send", "--from", "A", "--to"}, Request{}, false},
		{[]string{"recv", "--as", "B"}, Request{}, false},
		{[]string{"hi", "send", "--from", "A", "--to", "B"}, Request{}, false},
		{[]string{"agents", "send"}, Request{}, false},
		{[]string{"--version"}, Request{}, false},
		{nil, Request{}, false},
	} {
		got, ok := Parse(tc.args)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, %v", tc.args, got, ok, tc.want, tc.ok)
		}
	}
}

// A plain send to a live agent is sent here, durably, and says what the
// command says; its JSON form is the message's wire form.
func TestRunSendsToALiveAgent(t *testing.T) {
	t.Parallel()
	root := liveRoot(t)
	var out bytes.Buffer
	sent, err := Run([]string{"--root", root, "send", "--from", "Alice", "--to", "Bob", "--type", "review", "\ufeffis the key per tenant?"}, env(), &out)
	if !sent || err != nil {
		t.Fatalf("Run = %v, %v; want sent", sent, err)
	}
	msgs := waiting(t, root)
	if len(msgs["Bob"]) != 1 {
		t.Fatalf("inboxes hold %v, want one message for Bob", msgs)
	}
	b, err := os.ReadFile(filepath.Join(root, inbox.InboxDir, "Bob", msgs["Bob"][0]))
	if err != nil {
		t.Fatal(err)
	}
	m, err := inbox.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.From != "Alice" || m.To != "Bob" || m.Type != "review" || m.Text != "is the key per tenant?" {
		t.Errorf("delivered %+v", m)
	}
	if want := "sent " + m.ID + " to Bob\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}

	out.Reset()
	sent, err = Run([]string{"send", "--json", "--from", "Alice", "--to", "Bob", "again"}, env("PARLEY_ROOT", root), &out)
	if !sent || err != nil {
		t.Fatalf("Run --json = %v, %v; want sent", sent, err)
	}
	j, err := inbox.Decode(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
	if err != nil || j.Text != "again" || !strings.HasSuffix(out.String(), "}\n") {
		t.Errorf("--json printed %q (%v)", out.String(), err)
	}
}

// A vault named by --vault or $PARLEY_VAULT (the flag first), which a
// send never opens, leaves the send to this path unless the command
// would refuse it as no directory: there or not yet, "~" for the home
// directory.
func TestRunSendsWithAVaultNamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	if err := os.Mkdir(notes, 0o700); err != nil {
		t.Fatal(err)
	}
	// Under the home directory, a name no one has: a vault not made yet.
	later := "~/.parley-test-vault-" + strings.TrimPrefix(filepath.Base(dir), "TestRunSendsWithAVaultNamed")
	for _, tc := range []struct {
		name string
		args []string
		env  []string
	}{
		{"a vault that is there", []string{"--vault", notes}, nil},
		{"a vault not made yet", []string{"--vault=" + filepath.Join(dir, "later")}, nil},
		{"a vault in the environment", nil, []string{"PARLEY_VAULT", notes}},
		{"a vault in the home directory", []string{"--vault", later}, nil},
		{"a vault named over the environment's file", []string{"--vault", notes}, []string{"PARLEY_VAULT", "/dev/null"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := liveRoot(t)
			var out bytes.Buffer
			args := append(append([]string{"--root", root}, tc.args...), "send", "--from", "Alice", "--to", "Bob", "hi")
			sent, err := Run(args, env(tc.env...), &out)
			if !sent || err != nil {
				t.Fatalf("Run = %v, %v; want it sent", sent, err)
			}
			if msgs := waiting(t, root); len(msgs["Bob"]) != 1 {
				t.Errorf("inboxes hold %v, want one message for Bob", msgs)
			}
		})
	}
}

// Every send that the command would word (a warning, an error), or that
// this path cannot judge alone, is left to the command, with nothing sent
// and nothing printed.
func TestRunLeavesTheRestToTheCommand(t *testing.T) {
	t.Parallel()
	send := func(extra ...string) []string {
		return append([]string{"send", "--from", "Alice", "--to", "Bob"}, extra...)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		env   []string
		setup func(t *testing.T, root string)
	}{
		{name: "turned off", args: send("hi"), env: []string{"PARLEY_FASTPATH", Off}},
		{name: "a vault named that is a file", args: send("hi"), env: []string{"PARLEY_VAULT", "/dev/null"}},
		{name: "a vault named through a file", args: append([]string{"--vault", "/dev/null/notes"}, send("hi")...)},
		{name: "a vault named that is a file, though $PARLEY_VAULT is a directory", args: send("--vault=/dev/null", "hi"), env: []string{"PARLEY_VAULT", "/"}},
		{name: "an agent known but not running (a not_active warning)", args: []string{"send", "--from", "Alice", "--to", "Carol", "hi"}},
		{name: "an agent unknown (not_found)", args: []string{"send", "--from", "Alice", "--to", "Dave", "hi"}},
		{name: "an invalid name", args: []string{"send", "--from", "Al ice", "--to", "Bob", "hi"}},
		{name: "a blank text", args: send("  ")},
		{name: "a text that is not UTF-8", args: send("\xff\xfe")},
		{name: "an invalid type", args: send("--type", "Review", "hi")},
		{name: "a reply id with a space", args: send("--reply-to", "a b", "hi")},
		{name: "a text over the limit", args: send(strings.Repeat("x", inbox.MaxMessageBytes+1))},
		{name: "a text over the limit once encoded", args: send(strings.Repeat("\x01", inbox.MaxMessageBytes/2))},
		{name: "settings (config.json)", args: send("hi"), setup: func(t *testing.T, root string) {
			if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"transport":"file"}`), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a root others can write", args: send("hi"), setup: func(t *testing.T, root string) {
			if err := os.Chmod(root, 0o777); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a vault that is a file", args: send("hi"), setup: func(t *testing.T, root string) {
			if err := os.WriteFile(filepath.Join(root, "vault"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a vault linked out of the root", args: send("hi"), setup: func(t *testing.T, root string) {
			if err := os.Symlink(t.TempDir(), filepath.Join(root, "vault")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a registration that does not read", args: send("hi"), setup: func(t *testing.T, root string) {
			if err := os.WriteFile(filepath.Join(root, registry.Dir, "Bob.json"), []byte("{torn"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a registration of a process gone", args: send("hi"), setup: func(t *testing.T, root string) {
			dead := registrytest.DeadPID(t)
			withMessenger(t, root, func(ctx context.Context, _ *inbox.FileTransport, reg *registry.Registry) error {
				return reg.Update(ctx, "Bob", "s1", func(r *registry.Registration) { r.PID = dead })
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := liveRoot(t)
			if tc.setup != nil {
				tc.setup(t, root)
			}
			var out bytes.Buffer
			sent, err := Run(append([]string{"--root", root}, tc.args...), env(tc.env...), &out)
			if sent || err != nil || out.Len() > 0 {
				t.Errorf("Run = %v, %v, printed %q; want it left to the command", sent, err, out.String())
			}
			if msgs := waiting(t, root); len(msgs) > 0 {
				t.Errorf("left %v in the inboxes", msgs)
			}
		})
	}
	// No root at all: nothing is made.
	dir := t.TempDir()
	var out bytes.Buffer
	if sent, _ := Run([]string{"--root", filepath.Join(dir, "none"), "send", "--from", "A", "--to", "Bob", "hi"}, env(), &out); sent {
		t.Error("sent without a root")
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("made %v looking for a root", entries)
	}
}

// A send that failed once its message was in the inbox (the directory's
// sync) is not left to the command, which would send the message a
// second time: Run says the error itself. Not parallel: it sets the
// package's file options, before the parallel tests run.
func TestRunSaysASendThatFailedInTheInbox(t *testing.T) {
	root := liveRoot(t)
	rt, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	fsys := &inboxtest.DirSyncFails{FS: durable.Root(rt)}
	customFS = fsys
	defer func() { customFS = nil }()
	fsys.Armed.Store(true)
	var out bytes.Buffer
	handled, err := Run([]string{"--root", root, "send", "--from", "Alice", "--to", "Bob", "hi"}, env(), &out)
	if !handled || err == nil || !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "in the inbox nonetheless") {
		t.Fatalf("Run = %v, %v; want it handled, saying the message is in the inbox", handled, err)
	}
	if out.Len() > 0 {
		t.Errorf("printed %q beside the error", out.String())
	}
	if msgs := waiting(t, root); len(msgs["Bob"]) != 1 {
		t.Errorf("inboxes hold %v, want the one message for Bob", msgs)
	}
}

// On a terminal the line goes through termsafe, as the command's output
// does: a text's bidirectional overrides and C1 controls, which JSON does
// not escape, never reach the terminal raw.
func TestRunWritesSafelyToATerminal(t *testing.T) {
	t.Parallel()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	root := liveRoot(t)
	handled, err := Run([]string{"--root", root, "--json", "send", "--from", "Alice", "--to", "Bob", "x \u202e y \u0085 z \x7f"}, env(), tty)
	if !handled || err != nil {
		t.Fatalf("Run = %v, %v", handled, err)
	}
	tty.Close()
	got, _ := io.ReadAll(ptm) // EIO once the terminal's side is closed
	if strings.ContainsAny(string(got), "\u202e\u0085\x7f") || !strings.Contains(string(got), "\uFFFD") {
		t.Errorf("the terminal got %q", got)
	}
}
