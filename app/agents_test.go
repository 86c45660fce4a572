package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/natsserver"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/registrytest"
)

// Prune returns what it removed as the value every front end prints:
// "agents prune --json" writes each as it is, {"pruned": NAME}.
func TestPruneReturnsThePrunedAgents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(t)
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dead := registrytest.DeadPID(t)
	for _, r := range []registry.Registration{{Name: "Wren"}, {Name: "Heron", PID: dead}} {
		if _, err := b.Registry().Register(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	b.Close()
	pruned, ws, err := a.Prune(ctx)
	if err != nil || len(ws) != 0 || len(pruned) != 1 || pruned[0].Agent != "Heron" {
		t.Fatalf("Prune: %+v %v; want Heron, whose process is gone", pruned, err)
	}
	if line, _ := json.Marshal(pruned[0]); string(line) != `{"pruned":"Heron"}` {
		t.Errorf("JSON line %s", line)
	}
	if again, _, err := a.Prune(ctx); err != nil || len(again) != 0 {
		t.Errorf("a second Prune: %+v %v", again, err)
	}
	if _, _, err := newApp(t).Prune(ctx); !IsProblem(err, ProblemNotFound) {
		t.Errorf("Prune without a root: %v, want not_found (and no root made)", err)
	}
}

// A dead registration that cannot be removed does not stop a prune or a
// collection: the others are removed, and that one is a not_removed
// warning naming it; listing the live agents is not disturbed.
func TestPruneAndCollectGoOnPastWhatTheyCannotRemove(t *testing.T) {
	ctx := context.Background()
	RegisterBackend("test-unremovable", func(ctx context.Context, a *App, cfg *config.Config) (Backend, error) {
		rt, err := os.OpenRoot(a.root)
		if err != nil {
			return nil, err
		}
		ffs := &durable.FaultFS{FS: durable.Root(rt)}
		ffs.Fail("remove", "registry/Bravo.json", syscall.EACCES, 0)
		ffs.Fail("remove", "inbox/Wren/.x.", syscall.EACCES, 0)
		tr, err := inbox.NewFileTransport(a.root, inbox.WithFS(ffs))
		if err != nil {
			rt.Close()
			return nil, err
		}
		reg, err := registry.Open(a.root, tr, registry.WithFS(ffs))
		if err != nil {
			rt.Close()
			tr.Close()
			return nil, err
		}
		return unremovable{files: &files{tr: tr, reg: reg}, rt: rt}, nil
	})
	a := newApp(t)
	if err := os.MkdirAll(a.Root(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a.Root(), "config.json"), []byte(`{"transport":"test-unremovable"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dead := func(names ...string) {
		t.Helper()
		for _, n := range names {
			if _, err := b.Registry().Register(ctx, registry.Registration{Name: n, PID: registrytest.DeadPID(t)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := b.Registry().Register(ctx, registry.Registration{Name: "Wren"}); err != nil {
		t.Fatal(err)
	}
	dead("Alpha", "Bravo", "Charlie")

	pruned, ws, err := a.Prune(ctx)
	if err != nil || len(pruned) != 2 || pruned[0].Agent != "Alpha" || pruned[1].Agent != "Charlie" {
		t.Fatalf("Prune: %+v %v; want Alpha and Charlie pruned past Bravo", pruned, err)
	}
	if len(ws) != 1 || ws[0].Code != WarnNotRemoved || ws[0].Agent != "Bravo" || !strings.Contains(ws[0].Text, "permission denied") {
		t.Fatalf("Prune warnings: %+v; want one not_removed for Bravo saying why", ws)
	}
	dead("Delta")
	// A stale staging file Wren's inbox cannot lose, and one Delta's can.
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"inbox/Wren/.x.json.0123456789ab.tmp", "inbox/Delta/.y.json.0123456789ab.tmp"} {
		p = filepath.Join(a.Root(), filepath.FromSlash(p))
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	st, err := a.Collect(ctx, time.Hour)
	if err != nil || !slices.Equal(st.Pruned, []string{"Delta"}) || st.Staging != 1 || len(st.Warnings) != 2 ||
		st.Warnings[0].Agent != "Wren" || st.Warnings[0].Code != WarnNotRemoved || st.Warnings[1].Agent != "Bravo" {
		t.Fatalf("Collect: %+v %v; want Delta's staging file removed, Delta pruned, and warnings for Wren's file and for Bravo", st, err)
	}
	list, err := a.LiveAgents(ctx)
	if err != nil || len(list.Live) != 1 || list.Live[0].Name != "Wren" {
		t.Fatalf("LiveAgents: %+v %v; want Wren", list, err)
	}
	b.Close()
}

// unremovable is the file messenger over a registry that cannot remove
// Bravo's registration.
type unremovable struct {
	*files
	rt *os.Root
}

func (u unremovable) Close() { u.files.Close(); u.rt.Close() }

// An agent's JSON form names it whatever its state: a live agent, one
// that stopped, one that never registered.
func TestAgentNamesItselfInEveryState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(t)
	for _, n := range []string{"Later", "Gone"} {
		if _, err := a.AddAgent(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, r := range []registry.Registration{{Name: "Wren"}, {Name: "Gone", SessionID: "gone-session"}} {
		if _, err := b.Registry().Register(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Registry().Unregister(ctx, "Gone", "gone-session"); err != nil {
		t.Fatal(err)
	}
	list, err := a.LiveAgents(ctx)
	if err != nil || len(list.Live) != 1 {
		t.Fatalf("LiveAgents: %+v %v", list, err)
	}
	live := list.Live
	for _, tc := range []struct{ name, state string }{{"Wren", AgentLive}, {"Gone", AgentStopped}, {"Later", AgentNeverRegistered}} {
		ag, err := a.Agent(ctx, tc.name)
		if err != nil || ag.State != tc.state {
			t.Fatalf("Agent(%s): %+v %v; want %s", tc.name, ag, err, tc.state)
		}
		forms := []*Agent{ag}
		if tc.state == AgentLive {
			forms = append(forms, &live[0])
		}
		for _, f := range forms {
			var got map[string]any
			line, _ := json.Marshal(f)
			if err := json.Unmarshal(line, &got); err != nil || got["name"] != tc.name || got["state"] != tc.state {
				t.Errorf("%s: JSON %s; want \"name\":%q", tc.name, line, tc.name)
			}
		}
	}
}

// An empty listing says where the registry it listed is, for either
// backend: the registry directory under the root, or the bucket on the
// NATS server (not the root, where nothing of the messenger is).
func TestLiveAgentsSaysWhereTheRegistryIs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := t.TempDir()
	a := New(Options{Root: root})
	if _, err := a.AddAgent(ctx, "Wren"); err != nil {
		t.Fatal(err)
	}
	list, err := a.LiveAgents(ctx)
	if err != nil || len(list.Live) != 0 || list.Registry != filepath.Join(root, registry.Dir) {
		t.Fatalf("file messenger: %+v %v; want no agents in %s", list, err, filepath.Join(root, registry.Dir))
	}

	srv, err := natsserver.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	root = t.TempDir()
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(`{"transport":"nats","nats":{"url":"`+srv.URL()+`"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a = New(Options{Root: root})
	if _, err := a.AddAgent(ctx, "Wren"); err != nil {
		t.Fatal(err)
	}
	list, err = a.LiveAgents(ctx)
	if err != nil || len(list.Live) != 0 || !strings.Contains(list.Registry, jetstream.RegistryBucket) ||
		!strings.Contains(list.Registry, jetstream.Redact(srv.URL())) || strings.Contains(list.Registry, root) {
		t.Fatalf("NATS messenger: %+v %v; want no agents in %s on %s", list, err, jetstream.RegistryBucket, srv.URL())
	}
}

// An agent whose registration does not read (a torn write, a hand edit
// gone wrong, a directory in its place) is shown, not an error: it is
// not running (a registration that does not read is not alive), its
// inbox and what waits there are counted, and why the registration does
// not read is said.
func TestAgentWithARegistrationThatDoesNotRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		why   string
		plant func(path string) error
		says  string
	}{
		{"truncated", func(p string) error { return os.WriteFile(p, []byte(`{"name":"Bob","pid":12`), 0o600) }, "malformed registration"},
		{"another name", func(p string) error {
			return os.WriteFile(p, []byte(`{"name":"Carol","pid":12,"sessionId":"s"}`), 0o600)
		}, `names "Carol"`},
		// What is in its place is named in words, not as a mode string.
		{"a directory", func(p string) error { return os.Mkdir(p, 0o700) }, "malformed registration: a directory, not a regular file"},
		{"a symbolic link", func(p string) error { return os.Symlink("/etc/passwd", p) }, "malformed registration: a symbolic link, not a regular file"},
	} {
		a := newApp(t)
		if _, err := a.AddAgent(ctx, "Bob"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Send(ctx, SendRequest{From: "Alice", To: "Bob", Text: "waiting"}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(a.Root(), registry.Dir, "Bob.json")
		if err := tc.plant(path); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Minute)
		os.Chtimes(path, old, old)
		ag, err := a.Agent(ctx, "Bob")
		if err != nil {
			t.Errorf("%s: Agent(Bob) = %v; want Bob shown", tc.why, err)
			continue
		}
		// What "agents show --json" prints.
		line, _ := json.Marshal(ag)
		var got map[string]any
		if err := json.Unmarshal(line, &got); err != nil || got["alive"] != false || got["state"] != AgentStopped ||
			!strings.Contains(fmt.Sprint(got["registration_error"]), tc.says) || got["waiting"] != float64(1) {
			t.Errorf("%s: Agent(Bob) = %s; want stopped, \"registration_error\" saying %q, 1 waiting", tc.why, line, tc.says)
		}
	}
}

// Adding an agent whose name differs from a known agent's only in case
// ("bob" beside "Bob", whether Bob has an inbox or only a registration)
// makes the inbox, and warns: names are case-sensitive, so it is another
// agent. A name of its own case, or another name, warns of nothing.
func TestAddAgentWarnsOfAnotherCase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(t)
	for _, name := range []string{"Bob", "Bob", "Carol"} {
		if added, err := a.AddAgent(ctx, name); err != nil || len(added.Warnings) != 0 {
			t.Fatalf("AddAgent(%s) = %+v, %v; want no warning", name, added, err)
		}
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Registry().Register(ctx, registry.Registration{Name: "Dana", PID: os.Getpid()}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	for _, tc := range []struct{ name, known string }{
		{"bob", "an agent named Bob exists"},
		{"BOB", "agents named Bob, bob exist"},
		{"dana", "an agent named Dana exists"},
	} {
		name := tc.name
		added, err := a.AddAgent(ctx, name)
		if err != nil {
			t.Fatalf("AddAgent(%s): %v", name, err)
		}
		if _, err := os.Stat(added.Inbox); err != nil {
			t.Errorf("AddAgent(%s) made no inbox: %v", name, err)
		}
		if len(added.Warnings) != 1 || added.Warnings[0].Code != WarnOtherCase || added.Warnings[0].Agent != name ||
			added.Warnings[0].Text != tc.known+": "+name+" is another agent, with an inbox of its own (names are case-sensitive)" {
			t.Errorf("AddAgent(%s) warnings %+v; want one other_case saying %s", name, added.Warnings, tc.known)
		}
	}
}
