package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/natsserver"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/registrytest"
)

// natsRoot starts an embedded nats-server and returns a root whose
// config.json selects the NATS transport on it.
func natsRoot(t testing.TB) (string, *natsserver.Server) {
	t.Helper()
	srv := startNATS(t)
	root := t.TempDir()
	writeConfig(t, root, fmt.Sprintf(`{"transport":"nats","nats":{"url":%q}}`, srv.URL()))
	return root, srv
}

// startNATS starts an embedded nats-server for the test, stopped at its
// end; when the test fails it shows the server's warnings and errors (the
// cause of a failure its clients only hear of as a generic API error).
func startNATS(t testing.TB, opts ...natsserver.Option) *natsserver.Server {
	t.Helper()
	srv, err := natsserver.Start(t.TempDir(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Stop()
		if !t.Failed() {
			return
		}
		for _, l := range srv.Log() {
			if !strings.Contains(l, "[INF]") {
				t.Logf("nats-server: %s", l)
			}
		}
	})
	return srv
}

func writeConfig(t testing.TB, root, cfg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// natsRegister registers name on the server of url, for this (live)
// process or for a dead one.
func natsRegister(t testing.TB, url, name string, alive bool) {
	t.Helper()
	c, err := jetstream.Connect(context.Background(), jetstream.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := registry.Registration{Name: name}
	if !alive {
		r.PID = registrytest.DeadPID(t)
	}
	if _, err := jetstream.NewRegistry(c, c.Transport()).Register(context.Background(), r); err != nil {
		t.Fatal(err)
	}
}

// The messaging commands work unchanged over the NATS transport, and
// nothing of the messenger lands in the root directory.
func TestMessagingCommandsOverNATS(t *testing.T) {
	t.Parallel()
	root, srv := natsRoot(t)
	mustCLI(t, root, "", "init")
	mustCLI(t, root, "", "agents", "add", "Bob")
	_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", "Bob", "hello **Bob**")
	if code != 0 || !strings.Contains(stderr, "not_active") {
		t.Fatalf("send to an inbox-only agent: exit %d, stderr %q; want a not_active warning", code, stderr)
	}
	for _, text := range []string{"two", "three"} {
		mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", text)
	}
	show := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "show", "Bob"))
	if len(show) != 1 || show[0]["waiting"] != float64(3) || !strings.Contains(fmt.Sprint(show[0]["inbox"]), "parley.inbox.Bob") {
		t.Fatalf("show Bob: %v", show)
	}
	objs := jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Bob"))
	if len(objs) != 1 || objs[0]["text"] != "hello **Bob**" || objs[0]["from"] != "Alice" {
		t.Fatalf("recv: %v", objs)
	}
	objs = jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Bob", "--all"))
	if len(objs) != 2 || objs[0]["text"] != "two" || objs[1]["text"] != "three" {
		t.Fatalf("recv --all: %v", objs)
	}
	out, stderr, code := cli(t, root, "", "recv", "--as", "Bob")
	if code != 0 || out != "" || !strings.Contains(stderr, "no messages") {
		t.Fatalf("recv of an empty inbox: %d %q %q", code, out, stderr)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		runT(t, "", "--root", root, "send", "--from", "Alice", "--to", "Bob", "late")
	}()
	objs = jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Bob", "--wait", "30s"))
	if len(objs) != 1 || objs[0]["text"] != "late" {
		t.Fatalf("recv --wait: %v", objs)
	}
	_, stderr, code = cli(t, root, "", "send", "--from", "Alice", "--to", "Nobody", "x")
	oneLineError(t, stderr, code, "not_found")

	// A receiver holds the inbox: another is told it is busy.
	c, err := jetstream.Connect(context.Background(), jetstream.Config{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Transport().Listen(context.Background(), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, code = cli(t, root, "", "recv", "--as", "Bob")
	oneLineError(t, stderr, code, "busy")
	r.Close()

	// Registrations: list, show, prune, gc.
	natsRegister(t, srv.URL(), "Live", true)
	natsRegister(t, srv.URL(), "Dead", false)
	objs = jsonLines(t, mustCLI(t, root, "", "--json", "agents", "prune"))
	if len(objs) != 1 || objs[0]["pruned"] != "Dead" {
		t.Fatalf("prune: %v", objs)
	}
	objs = jsonLines(t, mustCLI(t, root, "", "--json", "agents", "list"))
	if len(objs) != 1 || objs[0]["name"] != "Live" || objs[0]["protocol"] != "parley/1" {
		t.Fatalf("list: %v", objs)
	}
	natsRegister(t, srv.URL(), "Dead2", false)
	gc := jsonLines(t, mustCLI(t, root, "", "--json", "gc"))
	if len(gc) != 1 || fmt.Sprint(gc[0]["registrations_pruned"]) != "[Dead2]" {
		t.Fatalf("gc: %v", gc)
	}
	// No files to collect over NATS: gc says so rather than "removed 0".
	if out := mustCLI(t, root, "", "gc"); out != "removed 0 stale staging file(s); pruned 0 dead registration(s) (this messenger keeps no acknowledged messages: nothing else to collect)\n" {
		t.Errorf("gc over NATS: %q", out)
	}
	for _, d := range []string{"inbox/Bob", "registry/Live.json"} {
		if _, err := os.Stat(filepath.Join(root, d)); err == nil {
			t.Errorf("%s exists in the root: the file messenger was used", d)
		}
	}
}

// A server URL with a user and password in it (nats://user:pass@host)
// is shown without them wherever parley names the server: "agents add",
// "agents show" (text and JSON), as in its errors.
func TestNATSPasswordInTheURLIsNeverShown(t *testing.T) {
	t.Parallel()
	srv := startNATS(t)
	root := t.TempDir()
	url := strings.Replace(srv.URL(), "nats://", "nats://alice:s3cret@", 1)
	writeConfig(t, root, fmt.Sprintf(`{"transport":"nats","nats":{"url":%q}}`, url))
	shown := strings.Replace(srv.URL(), "nats://", "nats://…@", 1)
	for _, args := range [][]string{{"agents", "add", "Bob"}, {"agents", "show", "Bob"}, {"--json", "agents", "show", "Bob"}} {
		out := mustCLI(t, root, "", args...)
		if strings.Contains(out, "s3cret") || strings.Contains(out, "alice") || !strings.Contains(out, "parley.inbox.Bob on "+shown) {
			t.Errorf("parley %v shows %q; want the inbox on %s, without the user or password", args, out, shown)
		}
	}
}

func TestNATSConfigErrors(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeConfig(t, root, `{"transport":"nats","nats":{"url":"nats://user:secret@127.0.0.1:1","retryMs":300}}`)
	_, stderr, code := cli(t, root, "", "agents", "list")
	// One line says it waits for the server, one why it gave up.
	notice, stderr, _ := strings.Cut(stderr, "\n")
	if !strings.Contains(notice, "the NATS server nats://…@127.0.0.1:1 does not answer") || !strings.Contains(notice, "retrying for up to 300ms") || strings.Contains(notice, "secret") {
		t.Errorf("no notice of the wait: %q", notice)
	}
	oneLineError(t, stderr, code, "nats")
	if !strings.Contains(stderr, "config.json") || strings.Contains(stderr, "secret") {
		t.Errorf("unreachable server: %q; want a hint at config.json and no password", stderr)
	}
	writeConfig(t, root, `{"transport":"nats","nats":{"servers":["x"]}}`)
	_, stderr, code = cli(t, root, "", "agents", "list")
	oneLineError(t, stderr, code, "servers")
	writeConfig(t, root, `{"transport":"carrier-pigeon"}`)
	_, stderr, code = cli(t, root, "", "agents", "list")
	oneLineError(t, stderr, code, "carrier-pigeon")
}

// Over a server that requires credentials, the commands connect with the
// .creds file config.json's nats.credentials names (relative to the
// root); without it, or with another operator's user, they stop with one
// line that names the credentials and where they are configured.
func TestNATSCredentialsFromConfig(t *testing.T) {
	t.Parallel()
	op, err := natsserver.NewOperator("parley-cli")
	if err != nil {
		t.Fatal(err)
	}
	acc, err := op.NewAccount("PARLEY", true)
	if err != nil {
		t.Fatal(err)
	}
	srv := startNATS(t, natsserver.WithOperator(op))
	stranger, err := natsserver.NewOperator("stranger")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := stranger.NewAccount("FOREIGN", true)
	if err != nil {
		t.Fatal(err)
	}
	writeCreds := func(root string, a *natsserver.Account) {
		t.Helper()
		b, err := a.Creds("agent")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, "nats"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "nats", "user.creds"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	withCreds := fmt.Sprintf(`{"transport":"nats","nats":{"url":%q,"credentials":"nats/user.creds"}}`, srv.URL())

	root := t.TempDir()
	writeConfig(t, root, withCreds)
	writeCreds(root, acc)
	mustCLI(t, root, "", "agents", "add", "Bob")
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "hello over credentials")
	objs := jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Bob"))
	if len(objs) != 1 || objs[0]["text"] != "hello over credentials" || objs[0]["from"] != "Alice" {
		t.Fatalf("recv: %v", objs)
	}

	none := t.TempDir()
	writeConfig(t, none, fmt.Sprintf(`{"transport":"nats","nats":{"url":%q}}`, srv.URL()))
	_, stderr, code := cli(t, none, "", "send", "--from", "Alice", "--to", "Bob", "x")
	oneLineError(t, stderr, code, "requires credentials")
	oneLineError(t, stderr, code, `"nats"."credentials" in config.json`)

	other := t.TempDir()
	writeConfig(t, other, withCreds)
	writeCreds(other, foreign)
	_, stderr, code = cli(t, other, "", "recv", "--as", "Bob")
	oneLineError(t, stderr, code, "refused the user of credentials file "+filepath.Join(other, "nats", "user.creds"))
	oneLineError(t, stderr, code, `"nats"."credentials" in config.json`)

	missing := t.TempDir()
	writeConfig(t, missing, withCreds)
	_, stderr, code = cli(t, missing, "", "agents", "list")
	oneLineError(t, stderr, code, filepath.Join(missing, "nats", "user.creds"))
	oneLineError(t, stderr, code, `"nats"."credentials" in config.json`)

	// The message sent with credentials is the only one: nothing was
	// delivered by the refused commands.
	c, err := jetstream.Connect(context.Background(), jetstream.Config{URL: srv.URL(), Credentials: filepath.Join(root, "nats", "user.creds")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if w, _, _, err := c.Transport().Count(context.Background(), "Bob"); err != nil || w != 0 {
		t.Fatalf("Bob's inbox holds %d messages, %v; want 0", w, err)
	}
}
