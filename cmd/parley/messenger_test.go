package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/registrytest"
)

// cli runs parley with --root root.
func cli(t testing.TB, root, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runT(t, stdin, append([]string{"--root", root}, args...)...)
}

func mustCLI(t testing.TB, root, stdin string, args ...string) string {
	t.Helper()
	out, errs, code := cli(t, root, stdin, args...)
	if code != 0 {
		t.Fatalf("parley %v: exit %d: %s", args, code, errs)
	}
	return out
}

// oneLineError checks that a failure is one line that names code.
func oneLineError(t testing.TB, stderr string, code int, want string) {
	t.Helper()
	if code != cmdutil.ExitError {
		t.Errorf("exit %d, want %d (stderr %q)", code, cmdutil.ExitError, stderr)
	}
	if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.HasPrefix(stderr, "parley: ") {
		t.Errorf("error is not one line: %q", stderr)
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("error %q does not say %s", stderr, want)
	}
}

func jsonLines(t testing.TB, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", line, err)
		}
		objs = append(objs, m)
	}
	return objs
}

// register registers name for this (live) process, or for a dead one.
func register(t testing.TB, root, name string, alive bool) { registerAs(t, root, name, alive, false) }

// registerLive registers name for this process and renews the
// registration until the test ends, however long the test runs (one left
// to itself goes stale after registry.DefaultTTL: a test slowed down by
// the race detector on a busy machine would find its agent not running).
func registerLive(t testing.TB, root, name string) { registerAs(t, root, name, true, true) }

func registerAs(t testing.TB, root, name string, alive, renew bool) {
	t.Helper()
	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.Open(root, tr)
	if err != nil {
		tr.Close()
		t.Fatal(err)
	}
	closeAll := func() { reg.Close(); tr.Close() }
	r := registry.Registration{Name: name}
	if !alive {
		r.PID = registrytest.DeadPID(t)
	}
	got, err := reg.Register(context.Background(), r)
	if err != nil {
		closeAll()
		t.Fatal(err)
	}
	if !renew {
		closeAll()
		return
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				_ = reg.Heartbeat(context.Background(), name, got.SessionID)
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; closeAll() })
}

func TestInitCreatesTheLayout(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "state")
	vault := filepath.Join(t.TempDir(), "vault")
	for i := 0; i < 2; i++ { // idempotent
		mustCLI(t, root, "", "--vault", vault, "init")
	}
	for _, d := range []string{filepath.Join(root, "inbox"), filepath.Join(root, "registry"), filepath.Join(root, "debates"),
		filepath.Join(vault, "wiki", "consensus"), filepath.Join(vault, "wiki", "debates")} {
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v", d, fi, err)
		}
	}
}

// A symbolic link planted inside the root or the vault (here the vault's
// wiki/ and the root's debates/, pointing out) is refused: init creates
// nothing outside, and its error says what to do.
func TestInitRefusesPlantedSymlinks(t *testing.T) {
	t.Parallel()
	for _, planted := range []string{"vault/wiki", "debates"} {
		t.Run(planted, func(t *testing.T) {
			t.Parallel()
			root := filepath.Join(t.TempDir(), "state")
			outside := t.TempDir()
			if err := os.MkdirAll(filepath.Dir(filepath.Join(root, planted)), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(root, planted)); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := cli(t, root, "", "init")
			oneLineError(t, stderr, code, "")
			if !strings.Contains(stderr, "symbolic link") || !strings.Contains(stderr, "remove it") {
				t.Errorf("error %q does not say what stands in the way and what to do", stderr)
			}
			if des, _ := os.ReadDir(outside); len(des) != 0 {
				t.Fatalf("init created %v outside the root through a symbolic link", des)
			}
		})
	}
}

func TestSendRecvRoundTrip(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", "Bob", "hello **Bob**")
	if code != 0 || !strings.Contains(stderr, "not_active") {
		t.Fatalf("send to an inbox-only agent: exit %d, stderr %q; want a not_active warning", code, stderr)
	}
	mustCLI(t, root, "second, from stdin\n", "send", "--from", "Alice", "--to", "Bob", "--type", "note", "-")
	out := mustCLI(t, root, "", "--json", "recv", "--as", "Bob")
	objs := jsonLines(t, out)
	if len(objs) != 1 || objs[0]["text"] != "hello **Bob**" || objs[0]["from"] != "Alice" || objs[0]["type"] != "text" {
		t.Fatalf("recv: %v", objs)
	}
	out = mustCLI(t, root, "", "recv", "--as", "Bob")
	if !strings.Contains(out, "second, from stdin") || !strings.Contains(out, "Alice → Bob · note") {
		t.Fatalf("human recv output: %q", out)
	}
	out, stderr, code = cli(t, root, "", "recv", "--as", "Bob")
	if code != 0 || out != "" || !strings.Contains(stderr, "no messages") {
		t.Fatalf("recv of an empty inbox: %d %q %q", code, out, stderr)
	}
	// Both were acknowledged: they sit in cur/.
	if m, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "cur", "*.json")); len(m) != 2 {
		t.Fatalf("cur/ holds %v", m)
	}
}

func TestSendValidation(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Waiting")
	register(t, root, "Live", true)
	register(t, root, "Dead", false)
	waiting := func(name string) int {
		m, _ := filepath.Glob(filepath.Join(root, "inbox", name, "*.json"))
		return len(m)
	}
	t.Run("not_found", func(t *testing.T) {
		_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", "Nobody", "x")
		oneLineError(t, stderr, code, "not_found")
		if !strings.Contains(stderr, "parley --root "+root+" agents add Nobody") {
			t.Errorf("the error does not say what to do: %q", stderr)
		}
		if _, err := os.Stat(filepath.Join(root, "inbox", "Nobody")); err == nil {
			t.Error("send created an inbox for an unknown agent")
		}
	})
	t.Run("live agent, no warning", func(t *testing.T) {
		_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", "Live", "--require-live", "x")
		if code != 0 || stderr != "" || waiting("Live") != 1 {
			t.Fatalf("exit %d, stderr %q, waiting %d", code, stderr, waiting("Live"))
		}
	})
	t.Run("dead agent: delivered with a warning", func(t *testing.T) {
		out, stderr, code := cli(t, root, "", "--json", "send", "--from", "Alice", "--to", "Dead", "x")
		if code != 0 || stderr != "" || waiting("Dead") != 1 {
			t.Fatalf("exit %d, stderr %q, waiting %d", code, stderr, waiting("Dead"))
		}
		objs := jsonLines(t, out)
		if len(objs) != 2 || objs[0]["warning"] != "not_active" || objs[0]["agent"] != "Dead" || objs[1]["to"] != "Dead" || objs[1]["id"] == "" {
			t.Fatalf("JSON lines: %v", objs)
		}
	})
	t.Run("--require-live: an error, nothing sent", func(t *testing.T) {
		for _, name := range []string{"Dead", "Waiting"} {
			before := waiting(name)
			_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", name, "--require-live", "x")
			oneLineError(t, stderr, code, "not_active")
			if waiting(name) != before {
				t.Errorf("%s: a message was delivered despite --require-live", name)
			}
		}
	})
	t.Run("registered elsewhere without an inbox: the inbox is made", func(t *testing.T) {
		reg := registry.Registration{Name: "PiAgent", PID: os.Getpid(), SessionID: "pi-1"}
		b, _ := reg.Encode()
		if err := os.WriteFile(filepath.Join(root, "registry", "PiAgent.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", "PiAgent", "hi")
		if code != 0 || stderr != "" || waiting("PiAgent") != 1 {
			t.Fatalf("exit %d, stderr %q, waiting %d", code, stderr, waiting("PiAgent"))
		}
	})
	t.Run("the sender need not be registered", func(t *testing.T) {
		mustCLI(t, root, "", "send", "--from", "a_script", "--to", "Live", "x")
	})
	t.Run("usage", func(t *testing.T) {
		for _, args := range [][]string{{"send", "--to", "Live", "x"}, {"send", "--from", "A", "--to", "Live", "--type", "Bad Type", "x"}, {"send", "--from", "A", "--to", "Live", ""}} {
			if _, _, code := cli(t, root, "", args...); code != cmdutil.ExitUsage {
				t.Errorf("%v: exit %d, want %d", args, code, cmdutil.ExitUsage)
			}
		}
	})
}

// Must show: hostile names are rejected with invalid_name everywhere a name
// enters the command line.
func TestHostileNamesRejected(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	for _, name := range inboxtest.HostileNames {
		if name == "" {
			continue
		}
		for _, args := range [][]string{
			{"send", "--from", "Alice", "--to=" + name, "x"},
			{"send", "--from=" + name, "--to", "Bob", "x"},
			{"recv", "--as=" + name},
			{"watch", "--as=" + name},
			{"agents", "add", "--", name},
			{"agents", "show", "--", name},
			{"agent", "run", "--name=" + name, "--role", "attacker", "--script", "x.json"},
		} {
			_, stderr, code := cli(t, root, "", args...)
			oneLineError(t, stderr, code, "invalid_name")
		}
	}
	des, _ := os.ReadDir(filepath.Join(root, "inbox"))
	if len(des) != 1 {
		t.Fatalf("hostile names left entries in inbox/: %v", des)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "*.json")); len(m) != 0 {
		t.Fatalf("a message from a hostile sender was delivered: %v", m)
	}
}

func TestRecvAllAndWait(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	for _, text := range []string{"one", "two", "three"} {
		mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", text)
	}
	objs := jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Bob", "--all"))
	if len(objs) != 3 || objs[0]["text"] != "one" || objs[2]["text"] != "three" {
		t.Fatalf("recv --all: %v", objs)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		runT(t, "", "--root", root, "send", "--from", "Alice", "--to", "Bob", "late")
	}()
	objs = jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Bob", "--wait", "30s"))
	if len(objs) != 1 || objs[0]["text"] != "late" {
		t.Fatalf("recv --wait: %v", objs)
	}
	// A second receiver while one holds the inbox: busy, and says what to do.
	tr, _ := inbox.NewFileTransport(root)
	defer tr.Close()
	r, err := tr.Listen(context.Background(), "Bob")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, stderr, code := cli(t, root, "", "recv", "--as", "Bob")
	oneLineError(t, stderr, code, "busy")
	_, stderr, code = cli(t, root, "", "recv", "--as", "Nobody")
	oneLineError(t, stderr, code, "not_found")
}

// brokenMessage adds agent to root and leaves in its inbox, an hour old,
// a message file cut short; it returns the file's name.
func brokenMessage(t *testing.T, root, agent string) string {
	t.Helper()
	mustCLI(t, root, "", "agents", "add", agent)
	old := time.Now().Add(-time.Hour)
	name := fmt.Sprintf("%013d-000000-dead.json", old.UnixMilli())
	p := filepath.Join(root, "inbox", agent, name)
	if err := os.WriteFile(p, []byte(`{"id":"x","from":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	return name
}

// A message file that cannot be read is set aside in bad/, and recv says
// so on stderr, naming where it went and why, rather than answering "no
// messages" as if nothing had come; stdout keeps only the messages read.
func TestRecvSaysWhatItSetAside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	name := brokenMessage(t, root, "Bob")
	bad := filepath.Join(root, "inbox", "Bob", "bad", name)
	stdout, stderr, code := cli(t, root, "", "recv", "--as", "Bob")
	if code != 0 || stdout != "" {
		t.Fatalf("recv: exit %d, stdout %q", code, stdout)
	}
	if !strings.Contains(stderr, "parley: warning: quarantined: a message for Bob could not be read and was set aside in "+bad+": malformed message") {
		t.Fatalf("recv does not say what it set aside: %q", stderr)
	}
	if _, err := os.Stat(bad); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "fine")
	stdout, stderr, code = cli(t, root, "", "--json", "recv", "--as", "Bob", "--all")
	if objs := jsonLines(t, stdout); code != 0 || len(objs) != 1 || objs[0]["text"] != "fine" {
		t.Fatalf("recv --json after a quarantine: exit %d, %q", code, stdout)
	}
	if strings.Contains(stderr, "set aside") {
		t.Fatalf("a quarantine told twice: %q", stderr)
	}
}

// An agent registered by a tool that made no inbox (or whose inbox was
// removed) is known: recv reads its inbox, made as send makes it, rather
// than saying there is no such agent, "no registration" included.
func TestRecvOfARegisteredAgentWithoutAnInbox(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	register(t, root, "Pi", true)
	if err := os.RemoveAll(filepath.Join(root, "inbox", "Pi")); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := cli(t, root, "", "recv", "--as", "Pi")
	if code != 0 || stdout != "" || strings.Contains(stderr, "not_found") || !strings.Contains(stderr, "no messages for Pi") {
		t.Fatalf("recv of a registered agent without an inbox: exit %d, %q, %q; want no messages", code, stdout, stderr)
	}
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Pi", "hello")
	if out := mustCLI(t, root, "", "recv", "--as", "Pi"); !strings.Contains(out, "hello") {
		t.Fatalf("recv after a send: %q", out)
	}
	_, stderr, code = cli(t, root, "", "recv", "--as", "Nobody")
	if code != 1 || !strings.Contains(stderr, `not_found: no agent "Nobody"`) {
		t.Fatalf("recv of a name nobody knows: exit %d, %q; want not_found", code, stderr)
	}
}

// A name that is another case or a letter off from a known agent is
// probably a slip: not_found says which agent it may have meant, for send,
// recv, watch and agents show alike; a name like no other gets no guess.
func TestNotFoundSuggestsTheNameMeant(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	register(t, root, "Skeptic", true)
	for _, args := range [][]string{
		{"send", "--from", "Alice", "--to", "bob", "hi"},
		{"recv", "--as", "bob"},
		{"watch", "--as", "bob"},
		{"agents", "show", "Bobb"},
		{"send", "--from", "Alice", "--to", "skeptic", "hi"},
	} {
		_, stderr, code := cli(t, root, "", args...)
		want := "did you mean 'Bob'?)"
		if strings.Contains(strings.Join(args, " "), "skeptic") {
			want = "did you mean 'Skeptic'?)"
		}
		if code != 1 || !strings.Contains(stderr, "not_found") || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, %q; want not_found and %q", args, code, stderr, want)
		}
	}
	_, stderr, code := cli(t, root, "", "send", "--from", "Alice", "--to", "Quartermaster", "hi")
	if code != 1 || strings.Contains(stderr, "did you mean") {
		t.Errorf("a name like no other: exit %d, %q; want not_found without a guess", code, stderr)
	}
}

// A message file that cannot be read, and cannot be set aside either
// (here its reason's name in bad/ is taken by a directory; a full disk does
// the same), stays in the inbox; recv says so, naming the file and both
// causes, rather than answering "no messages" over it.
func TestRecvSaysWhatItCouldNotSetAside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	name := brokenMessage(t, root, "Bob")
	p := filepath.Join(root, "inbox", "Bob", name)
	if err := os.MkdirAll(filepath.Join(root, "inbox", "Bob", "bad", name+".reason", "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := cli(t, root, "", "recv", "--as", "Bob")
	if code != 0 || stdout != "" {
		t.Fatalf("recv: exit %d, stdout %q", code, stdout)
	}
	if !strings.Contains(stderr, "parley: warning: quarantined: a message for Bob could not be read (malformed message") ||
		!strings.Contains(stderr, "nor set aside (") || !strings.Contains(stderr, "it stays at "+p+", skipped") {
		t.Fatalf("recv does not say what it could not set aside: %q", stderr)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the file is not where recv said it stays: %v", err)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestWatchStreamsUntilInterrupted(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--root", root, "--json", "watch", "--as", "Bob"}, strings.NewReader(""), &out, &errb)
	}()
	for i := 0; i < 3; i++ {
		mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", strings.Repeat("x", i+1))
	}
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(out.String(), "\n") < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("watch printed %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("watch ended with %v, want nil on interrupt", err)
	}
	objs := jsonLines(t, out.String())
	if len(objs) != 3 || objs[0]["text"] != "x" || objs[2]["text"] != "xxx" {
		t.Fatalf("watch: %v", objs)
	}
}

// Messages and registrations come from other processes. Printed for a
// person, their control characters are shown, never sent to the terminal:
// an escape sequence could clear the screen, retitle the window, write the
// clipboard (OSC 52) or forge the header line of another message.
func TestHumanOutputShowsControlCharacters(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	hostile := "hello\x1b]52;c;ZXZpbA==\x07 \x1b[2J\u009b31m\r── Mallory → Bob · text"
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", hostile)
	// A foreign writer's message whose header fields carry control
	// characters too (send validates what it writes; a foreign file is not).
	raw := `{"id":"x\u001b[1m","from":"Eve","to":"Bob\n── Alice → Bob","text":"t","timestamp":"2026-11-30T12:00:00.000Z","type":"text\u0007"}`
	if err := os.WriteFile(filepath.Join(root, "inbox", "Bob", "9999999999999-foreign.json"), []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	register(t, root, "Carol", true)
	regPath := filepath.Join(root, "registry", "Carol.json")
	b, err := os.ReadFile(regPath)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), `"model": ""`, `"model": "m\u001b]0;owned\u0007"`, 1))
	if err := os.WriteFile(regPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want []string // what must be shown instead
	}{
		{[]string{"recv", "--as", "Bob", "--all"}, []string{`hello\x1b]52;c;ZXZpbA==\x07 \x1b[2J\x9b31m\x0d── Mallory`, `→ Bob\x0a── Alice → Bob · text\x07`}},
		{[]string{"agents", "list"}, []string{`m\x1b]0;owned\x07`}},
		{[]string{"agents", "show", "Carol"}, []string{`m\x1b]0;owned\x07`}},
	} {
		out := mustCLI(t, root, "", tc.args...)
		if i := strings.IndexFunc(out, func(r rune) bool { return r != '\n' && r != '\t' && unicode.IsControl(r) }); i >= 0 {
			t.Errorf("parley %v printed the control character %q: %q", tc.args, out[i:i+1], out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("parley %v does not show %q: %q", tc.args, w, out)
			}
		}
	}
	objs := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "show", "Carol"))
	if len(objs) != 1 || objs[0]["model"] != "m\x1b]0;owned\x07" {
		t.Errorf("--json changed the value: %v", objs)
	}
}

// The mail a recycled name's earlier holder left unclaimed is set aside
// when a new session takes the name; agents show counts it, so that
// messages sent while the agent was down do not vanish from its inbox's
// counts without a trace.
func TestAgentsShowCountsMailSetAside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	adoptInbox(t, root, "Bob", "session-1")
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "are you there?")
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "still there?")
	if n := adoptInbox(t, root, "Bob", "session-2"); n != 2 {
		t.Fatalf("Adopt by a new session set %d aside; want 2", n)
	}
	if out := mustCLI(t, root, "", "agents", "show", "Bob"); !strings.Contains(out, "0 waiting") ||
		!strings.Contains(out, "2 set aside for an earlier holder of the name (aside/)") {
		t.Fatalf("agents show does not count the mail set aside: %q", out)
	}
	objs := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "show", "Bob"))
	if len(objs) != 1 || objs[0]["aside"] != float64(2) || objs[0]["waiting"] != float64(0) {
		t.Fatalf("agents show --json: %v; want aside 2", objs)
	}
	mustCLI(t, root, "", "agents", "add", "Cy")
	if out := mustCLI(t, root, "", "agents", "show", "Cy"); strings.Contains(out, "set aside") {
		t.Fatalf("agents show speaks of mail set aside where there is none: %q", out)
	}
}

// adoptInbox hands name's inbox under root to the registry session
// session, as a new holder of the name does, and returns how many
// waiting messages it set aside for the earlier one.
func adoptInbox(t testing.TB, root, name, session string) int {
	t.Helper()
	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	n, err := tr.Adopt(context.Background(), name, session)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAgentsListShowPrune(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	register(t, root, "Live", true)
	register(t, root, "Dead", false)
	mustCLI(t, root, "", "agents", "add", "Later")

	show := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "show", "Dead"))
	if len(show) != 1 || show[0]["alive"] != false || show[0]["registered"] != true || show[0]["name"] != "Dead" {
		t.Fatalf("show Dead: %v", show)
	}
	show = jsonLines(t, mustCLI(t, root, "", "--json", "agents", "show", "Later"))
	if len(show) != 1 || show[0]["registered"] != false || show[0]["inbox"] == nil || show[0]["name"] != "Later" {
		t.Fatalf("show Later: %v", show)
	}
	if out := mustCLI(t, root, "", "agents", "show", "Live"); !strings.Contains(strings.Join(strings.Fields(out), " "), "status: live pid:") {
		t.Fatalf("show Live: %q", out)
	}
	_, stderr, code := cli(t, root, "", "agents", "show", "Nobody")
	oneLineError(t, stderr, code, "not_found")

	objs := jsonLines(t, mustCLI(t, root, "", "--json", "agents", "prune"))
	if len(objs) != 1 || objs[0]["pruned"] != "Dead" {
		t.Fatalf("prune: %v", objs)
	}
	objs = jsonLines(t, mustCLI(t, root, "", "--json", "agents", "list"))
	if len(objs) != 1 || objs[0]["name"] != "Live" || objs[0]["protocol"] != "parley/1" {
		t.Fatalf("list: %v", objs)
	}
	if out := mustCLI(t, root, "", "agents", "list"); !strings.Contains(out, "Live") || strings.Contains(out, "Dead") {
		t.Fatalf("human list: %q", out)
	}
}

func TestGC(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	register(t, root, "Dead", false)
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "read me")
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "keep me")
	mustCLI(t, root, "", "recv", "--as", "Bob")
	time.Sleep(5 * time.Millisecond)
	objs := jsonLines(t, mustCLI(t, root, "", "--json", "gc", "--older-than", "1ms"))
	if len(objs) != 1 || objs[0]["acked_removed"] != float64(1) || len(objs[0]["registrations_pruned"].([]any)) != 1 {
		t.Fatalf("gc: %v", objs)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "*.json")); len(m) != 1 {
		t.Fatalf("gc touched a waiting message: %v", m)
	}
	if _, _, code := cli(t, root, "", "gc", "--older-than", "soon"); code != cmdutil.ExitUsage {
		t.Fatalf("bad --older-than: exit %d", code)
	}
}

// Entries of registry/ that parley did not write (a directory, empty or
// not, a symbolic link) are neither registrations nor deleted: agents
// list, agents prune and gc leave them, and still do their work on the
// real registrations beside them.
func TestListPruneAndGCLeaveForeignRegistryEntries(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	register(t, root, "Live", true)
	dir := filepath.Join(root, "registry")
	if err := os.MkdirAll(filepath.Join(dir, "X.json", "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "Empty.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere.json"), filepath.Join(dir, "Link.json")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"agents", "list"}, {"agents", "prune"}, {"gc"}} {
		register(t, root, "Dead", false)
		out, stderr, code := cli(t, root, "", append([]string{"--json"}, args...)...)
		if code != cmdutil.ExitOK {
			t.Fatalf("%v: exit %d, %q", args, code, stderr)
		}
		if args[0] == "agents" && args[1] == "list" && !strings.Contains(out, `"name":"Live"`) {
			t.Errorf("agents list: %q; want Live", out)
		}
		if _, err := os.Lstat(filepath.Join(dir, "Dead.json")); !os.IsNotExist(err) {
			t.Errorf("%v did not prune the dead registration: %v", args, err)
		}
		for _, name := range []string{"X.json", "Empty.json", "Link.json"} {
			if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
				t.Errorf("%v removed %s: %v", args, name, err)
			}
		}
	}
}

// An age too large for a duration ("keep everything", or a typo) is a
// usage error: it must not wrap around to a negative age that puts the
// cut-off in the future and removes every acknowledged message.
func TestGCRefusesAnAgeThatOverflows(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	mustCLI(t, root, "", "send", "--from", "Alice", "--to", "Bob", "audit me")
	mustCLI(t, root, "", "recv", "--as", "Bob")
	for _, age := range []string{"200000d", "9223372036854775807d", "-1d", "-5m"} {
		_, stderr, code := cli(t, root, "", "gc", "--older-than", age)
		if code != cmdutil.ExitUsage || !strings.Contains(stderr, "--older-than") {
			t.Errorf("--older-than %s: exit %d, %q; want a usage error", age, code, stderr)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "cur", "*.json")); len(m) != 1 {
		t.Fatalf("gc removed the acknowledged message: %v", m)
	}
}

func TestDemo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := mustCLI(t, dir, "", "demo", "--dir", dir)
	if !strings.Contains(out, "answer 3") || !strings.Contains(out, "Where to look") {
		t.Fatalf("demo output: %s", out)
	}
	again := filepath.Join(dir, "again")
	objs := jsonLines(t, mustCLI(t, dir, "", "--json", "demo", "--dir", again))
	last := objs[len(objs)-1]
	if last["event"] != "done" {
		t.Fatalf("demo --json ends with %v", last)
	}
	// The whole flow happened: a debate to a verdict, its transcript
	// verified, its record filed, its agents run as processes of their own
	// (each logs to the debate's logs/).
	id, _ := last["debate_id"].(string)
	events := map[string]map[string]any{}
	for _, o := range objs {
		if ev, _ := o["event"].(string); ev != "" && o["debate_id"] == id {
			events[ev] = o
		}
	}
	if v := events["verdict"]; v == nil || v["verdict"] != "CONSENSUS_REACHED" || last["verdict"] != "CONSENSUS_REACHED" {
		t.Fatalf("no CONSENSUS_REACHED verdict for %s: %v", id, events["verdict"])
	}
	if v := events["verified"]; v == nil || v["events"] == float64(0) {
		t.Fatalf("the transcript was not verified: %v", v)
	}
	rep, err := openStore(t, again).Verify(id)
	if err != nil || !rep.Intact || !rep.Sealed {
		t.Fatalf("transcript of %s: %+v %v", id, rep, err)
	}
	if _, err := os.Stat(last["record"].(string)); err != nil {
		t.Fatalf("record: %v", err)
	}
	logs, _ := filepath.Glob(filepath.Join(again, "debates", id, "logs", "*.log"))
	if len(logs) != 2 {
		t.Fatalf("agent process logs %v, want the attacker's and the defender's", logs)
	}
}

// send delivers exactly what it was given or nothing: a text over the
// size limit (read from standard input, or over it once encoded) and bytes
// that are not UTF-8 (which JSON would silently turn into U+FFFD) are
// one-line errors and leave the inbox as it was; --reply-to reaches the
// reader.
func TestSendDeliversWhatItWasGivenOrNothing(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	waiting := func() int {
		m, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "*.json"))
		return len(m)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"stdin over 1 MiB", strings.Repeat("a", inbox.MaxMessageBytes+1), []string{"-"}, "too large"},
		{"over 1 MiB once encoded", strings.Repeat(`"`, inbox.MaxMessageBytes-1000), []string{"-"}, "too large"},
		{"binary on stdin", "ok\xff\xfe\x00garbage", []string{"-"}, "not UTF-8"},
		{"binary argument", "", []string{"bad \xc3\x28 bytes"}, "not UTF-8"},
	} {
		_, stderr, code := cli(t, root, tc.stdin, append([]string{"send", "--from", "Alice", "--to", "Bob"}, tc.args...)...)
		oneLineError(t, stderr, code, tc.want)
		if n := waiting(); n != 0 {
			t.Fatalf("%s: %d message(s) delivered, want none", tc.name, n)
		}
	}
	first := jsonLines(t, mustCLI(t, root, "", "--json", "send", "--from", "Alice", "--to", "Bob", "question"))
	id, _ := first[len(first)-1]["id"].(string)
	mustCLI(t, root, "héllo, ünïcode ✓\n", "send", "--from", "Carol", "--to", "Bob", "--reply-to", id, "-")
	objs := jsonLines(t, mustCLI(t, root, "", "--json", "recv", "--as", "Bob", "--all"))
	if len(objs) != 2 || objs[0]["replyTo"] != nil || objs[1]["replyTo"] != id || objs[1]["text"] != "héllo, ünïcode ✓\n" {
		t.Fatalf("recv: %v; want the reply to %s with its text intact", objs, id)
	}
}
