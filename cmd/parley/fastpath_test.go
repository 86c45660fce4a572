package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/build"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/checkedconfig"
	"github.com/parleyhq/parley/internal/quicksend"
	"github.com/parleyhq/parley/internal/rootdir"
	"github.com/parleyhq/parley/internal/sendcheck"
)

// A send that the fast path takes (internal/quicksend, run in the
// initialisation of cmd/parley/internal/fastpath) says and delivers what
// the whole command does, and spares the rest of the initialisation;
// the sends it leaves to the command are the command's alone.
func TestFastPathSendsAsTheCommandDoes(t *testing.T) {
	t.Parallel()
	root := liveBob(t)
	mustCLI(t, root, "", "agents", "add", "Carol")
	ids := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	stamps := regexp.MustCompile(`"timestamp":"[^"]*"`)
	run := func(fast bool, extraEnv string, args ...string) (stdout, stderr string, code int) {
		t.Helper()
		o, e, code := runBoth(t, fast, extraEnv, append([]string{"--root", root}, args...)...)
		return stamps.ReplaceAllString(ids.ReplaceAllString(o, "ID"), `"timestamp":"T"`), e, code
	}
	vault, notAVault := t.TempDir(), filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(notAVault, []byte("# notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  string
		args []string
	}{
		{"", []string{"send", "--from", "Alice", "--to", "Bob", "is the cache key per tenant?"}},
		{"", []string{"send", "--json", "--from", "Alice", "--to", "Bob", "--type", "review", "--reply-to", "m-1", "see the diff"}},
		{"", []string{"--json", "send", "--to=Bob", "--from=Alice", "--require-live", "flags after the text"}},
		{"", []string{"send", "--from", "Alice", "--to", "Carol", "not running: a warning"}},
		{"", []string{"send", "--from", "Alice", "--to", "Dave", "unknown: an error"}},
		{"", []string{"send", "--from", "Alice", "--to", "Bob", "   "}},
		{"", []string{"send", "--from", "Alice", "--to", "Bob", "two", "words"}},
		{"PARLEY_VAULT=" + vault, []string{"send", "--from", "Alice", "--to", "Bob", "with a vault of one's own"}},
		{"", []string{"--vault", filepath.Join(vault, "not yet"), "send", "--from", "Alice", "--to", "Bob", "a vault not made yet"}},
		{"PARLEY_VAULT=" + notAVault, []string{"send", "--from", "Alice", "--to", "Bob", "a vault that is a file: an error"}},
		{"", []string{"send", "--from", "Alice", "--to", "Bob", "--vault", filepath.Join(notAVault, "x"), "through a file: an error"}},
	} {
		args := tc.args
		before := len(waitingFor(t, root, "Bob")) + len(waitingFor(t, root, "Carol"))
		fo, fe, fc := run(true, tc.env, args...)
		mid := len(waitingFor(t, root, "Bob")) + len(waitingFor(t, root, "Carol"))
		so, se, sc := run(false, tc.env, args...)
		after := len(waitingFor(t, root, "Bob")) + len(waitingFor(t, root, "Carol"))
		if fo != so || fe != se || fc != sc {
			t.Errorf("%s parley %q:\nfast path: exit %d, stdout %q, stderr %q\ncommand:   exit %d, stdout %q, stderr %q", tc.env, args, fc, fo, fe, sc, so, se)
		}
		if mid-before != after-mid {
			t.Errorf("%s parley %q: the fast path delivered %d messages, the command %d", tc.env, args, mid-before, after-mid)
		}
	}
	msgs := waitingFor(t, root, "Bob")
	if len(msgs) != 10 {
		t.Fatalf("Bob's inbox holds %d messages, want 10", len(msgs))
	}
	if m := msgs[2]; m.From != "Alice" || m.Type != "review" || m.ReplyTo != "m-1" || m.Text != "see the diff" {
		t.Errorf("the fast path delivered %+v", m)
	}

	// The whole point: a plain send initialises none of the packages only
	// other commands use (goldmark, the MCP SDK, SQLite), nor those that
	// Go initialises before any package that waits for reflect or strings
	// (gob, the JSON library, the cryptography).
	_, fe, _ := run(true, "GODEBUG=inittrace=1", "send", "--from", "Alice", "--to", "Bob", "traced")
	_, se, _ := run(false, "GODEBUG=inittrace=1", "send", "--from", "Alice", "--to", "Bob", "traced")
	for _, heavy := range []string{"github.com/yuin/goldmark", "github.com/modelcontextprotocol/go-sdk/mcp", "modernc.org/sqlite",
		"encoding/gob @", "github.com/goccy/go-json @", "crypto/internal/fips140/edwards25519 @", "path/filepath @"} {
		if strings.Contains(fe, "init "+heavy) {
			t.Errorf("the fast path initialised %s", heavy)
		}
		if !strings.Contains(se, "init "+heavy) {
			t.Errorf("the command did not initialise %s: the test no longer tells the paths apart", heavy)
		}
	}
}

// runBoth runs this test binary as parley with args, on the fast path or
// with it off, with extraEnv ("NAME=value", or "") added to its
// environment: what it printed and its exit status.
func runBoth(t *testing.T, fast bool, extraEnv string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := testBinary(t, args...)
	if !fast {
		cmd.Env = append(cmd.Env, "PARLEY_FASTPATH="+quicksend.Off)
	}
	if extraEnv != "" {
		cmd.Env = append(cmd.Env, extraEnv)
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// liveBob is a root whose agent Bob has an inbox and is registered by
// this live process.
func liveBob(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	mustCLI(t, root, "", "agents", "add", "Bob")
	registerLive(t, root, "Bob")
	return root
}

// Every command line the fast path reads as a send (quicksend.Parse), the
// command reads as the same send: run in this process (where the fast
// path never runs), it delivers the message Parse read and prints it in
// the form Parse read. The lines are drawn from the flags, values and
// slips a script or a person writes, in any order.
func TestFastPathReadsCommandLinesAsTheCommandDoes(t *testing.T) {
	t.Parallel()
	root := liveBob(t)
	vault, notAVault := t.TempDir(), filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(notAVault, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	pick := func(rng *rand.Rand, xs ...[]string) []string { return xs[rng.IntN(len(xs))] }
	slips := []string{"send", "--from", "--to", "--json", "Bob", "hi", "-", "--", "-v", "--json=true", "--require-live=false", "--to=", "--help", "--type"}
	rng := rand.New(rand.NewPCG(5, 12))
	read, checked := 0, 0
	for range 1500 {
		// The pieces of a send, in any order, some left out, some twice,
		// and now and then a slip among them.
		pieces := [][]string{
			pick(rng, []string{"--from", "Alice"}, []string{"--from=Alice"}, []string{"--from", "ci-runner"}),
			pick(rng, []string{"--to", "Bob"}, []string{"--to=Bob"}, []string{"--to", "bob"}),
			pick(rng, []string{"hi there"}, []string{"é"}, []string{"--not a flag"}, []string{"x=y"}, []string{"help"}, []string{"send"}, []string{"—from"}),
		}
		for _, opt := range [][]string{
			pick(rng, []string{"--root", root}, []string{"--root=" + root}),
			pick(rng, []string{"--type", "review"}, []string{"--type=note"}, []string{"--type", "Bad"}),
			pick(rng, []string{"--reply-to", "m-1"}, []string{"--reply-to=r-2"}, []string{"--reply-to", "--json"}),
			{"--require-live"},
			pick(rng, []string{"--from", "Carol"}, []string{"--to", "Bob"}, []string{"--type", "text"}),
			pick(rng, []string{"--vault", vault}, []string{"--vault=" + notAVault}, []string{"--vault", ""}, []string{"--vault=" + filepath.Join(notAVault, "x")}),
			pick(rng, []string{"--vault", vault}, []string{"--vault", notAVault}),
		} {
			if rng.IntN(2) == 0 {
				pieces = append(pieces, opt)
			}
		}
		rng.Shuffle(len(pieces), func(i, j int) { pieces[i], pieces[j] = pieces[j], pieces[i] })
		args := []string{"--root", root, "send"}
		for _, p := range pieces {
			args = append(args, p...)
		}
		if rng.IntN(2) == 0 { // the global --json, anywhere
			k := 2 + rng.IntN(len(args)-1)
			args = append(args[:k], append([]string{"--json"}, args[k:]...)...)
		}
		if rng.IntN(4) == 0 {
			k := 2 + rng.IntN(len(args)-1)
			args = append(args[:k], append([]string{slips[rng.IntN(len(slips))]}, args[k:]...)...)
		}
		r, ok := quicksend.Parse(args)
		if !ok {
			continue
		}
		read++
		if r.Root != root || sendcheck.Check(r.From, r.To, r.Type, r.ReplyTo, r.Text) != nil || r.To != "Bob" || rootdir.NotADirectory(r.Vault) {
			continue // left to the command by Run (another root, a refusal, an agent not live, a vault that is a file)
		}
		checked++
		before := len(waitingFor(t, root, "Bob"))
		out, errs, code := runT(t, "", args...)
		msgs := waitingFor(t, root, "Bob")
		if code != 0 || errs != "" || len(msgs) != before+1 {
			t.Fatalf("parley %q: Parse read %+v; the command: exit %d, stderr %q, %d delivered", args, r, code, errs, len(msgs)-before)
		}
		m := msgs[len(msgs)-1]
		if m.From != r.From || m.To != r.To || m.Type != r.Type || m.ReplyTo != r.ReplyTo || m.Text != r.Text {
			t.Fatalf("parley %q: Parse read %+v; the command delivered %+v", args, r, m)
		}
		want := "sent " + m.ID + " to Bob\n"
		if r.JSON {
			var b bytes.Buffer
			data, err := m.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if err := quicksend.JSONLine(&b, data); err != nil {
				t.Fatal(err)
			}
			want = b.String()
		}
		if out != want {
			t.Fatalf("parley %q: the command printed %q, Parse's form is %q", args, out, want)
		}
	}
	if checked < 200 {
		t.Fatalf("only %d of %d command lines Parse read were sends to check: the draw no longer tests the path", checked, read)
	}
	t.Logf("%d command lines read as sends, %d of them sent and compared", read, checked)
}

// waitingFor is every message in agent's inbox under root, oldest first.
func waitingFor(t *testing.T, root, agent string) []*inbox.Message {
	t.Helper()
	dir := filepath.Join(root, inbox.InboxDir, agent)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []*inbox.Message
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m, err := inbox.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// Must show: every guarantee of the messenger holds for a send the fast
// path takes. "parley send" processes to a live agent, each killed with
// SIGKILL at a random point of its life (30 times, 200 under
// PARLEY_LONG=1): every send that said "sent ID" is in the inbox once,
// and no message file there is torn (a killed send leaves at most a
// staging file, which starts with a dot). In a root with a config.json,
// changed every few sends so that the command sends (and keeps a new
// copy of it, internal/checkedconfig) between the fast path's sends, the
// kills also fall while the copy is written: the copy left is whole,
// and the send after the kills takes the fast path again.
func TestFastPathSendKilledAtRandomPoints(t *testing.T) {
	t.Parallel()
	t.Run("plain root", func(t *testing.T) { t.Parallel(); killSends(t, false) })
	t.Run("configured root", func(t *testing.T) { t.Parallel(); killSends(t, true) })
}

func killSends(t *testing.T, configured bool) {
	kills := 30
	if os.Getenv("PARLEY_LONG") == "1" {
		kills = 200
	}
	root := liveBob(t)
	config := filepath.Join(root, "config.json")
	settings := func(i int) {
		t.Helper()
		if !configured || i%5 != 0 {
			return
		}
		s := fmt.Sprintf(`{"messenger": {"heartbeatTtlMs": %d}}`, 60000+i)
		if err := os.WriteFile(config, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	settings(0)
	send := func(i int) *exec.Cmd {
		cmd := testBinary(t, "--root", root, "send", "--from", "Killer", "--to", "Bob", "message "+strconv.Itoa(i))
		cmd.Stderr = io.Discard
		return cmd
	}
	// How long one send lives here (a race build starts slowly): the kills
	// fall anywhere from its start to past its end.
	start := time.Now()
	if out, err := send(-1).Output(); err != nil || !strings.HasPrefix(string(out), "sent ") {
		t.Fatalf("a send: %q, %v", out, err)
	}
	life := time.Since(start)
	rng := rand.New(rand.NewPCG(7, uint64(time.Now().UnixNano())))
	said := map[string]bool{}
	killed := 0
	for i := range kills {
		settings(i)
		cmd := send(i)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(life) * 5 / 4)))
		if cmd.Process.Signal(syscall.SIGKILL) == nil {
			killed++
		}
		if err := cmd.Wait(); err == nil {
			id, ok := strings.CutPrefix(strings.TrimSpace(out.String()), "sent ")
			id, _, _ = strings.Cut(id, " ")
			if !ok {
				t.Fatalf("send %d exited 0 saying %q", i, out.String())
			}
			said[id] = true
		}
	}
	entries, err := os.ReadDir(filepath.Join(root, inbox.InboxDir, "Bob"))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // the sender mark, staging files of killed sends
		}
		b, err := os.ReadFile(filepath.Join(root, inbox.InboxDir, "Bob", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m, err := inbox.Decode(b)
		if err != nil {
			t.Fatalf("%s is torn: %v", e.Name(), err)
		}
		count[m.ID]++
	}
	for id := range said {
		if count[id] != 1 {
			t.Errorf("send %s said sent, and its message is in the inbox %d times", id, count[id])
		}
	}
	t.Logf("%d sends, %d signalled, %d said sent, %d messages in the inbox (one send lives %v)", kills, killed, len(said), len(count), life)
	if !configured {
		return
	}
	// The copy is whole (a killed send leaves at most a staging file); a
	// send after the kills keeps it if need be, and the next one takes
	// the fast path.
	if b, err := os.ReadFile(filepath.Join(root, checkedconfig.FileName)); err == nil && !bytes.HasPrefix(b, []byte("parley: config.json as checked")) {
		t.Errorf("the copy of config.json is torn: %q", b)
	}
	for i := range 2 {
		cmd := send(kills + i)
		cmd.Env = append(cmd.Env, "GODEBUG=inittrace=1")
		var e bytes.Buffer
		cmd.Stderr = &e
		if out, err := cmd.Output(); err != nil || !strings.HasPrefix(string(out), "sent ") {
			t.Fatalf("a send after the kills: %q, %v", out, err)
		}
		if i == 1 && strings.Contains(e.String(), "init github.com/yuin/goldmark") {
			t.Errorf("the second send after the kills did not take the fast path")
		}
	}
}

// The fast path imports nothing that would make Go initialise the rest
// first: no reflect (fmt, encoding/json, crypto, x/sys/unix need it), no
// strings or path/filepath (internal/lean says why). Go initialises the
// lexicographically first ready package next, and those are ready only
// after packages that sort before parley's own.
func TestFastPathImportsNothingThatWaits(t *testing.T) {
	t.Parallel()
	const top = "github.com/parleyhq/parley/cmd/parley/internal/fastpath"
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	via := map[string]string{top: ""}
	queue := []string{top}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		pkg, err := build.Import(p, wd, 0)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, im := range pkg.Imports {
			if _, seen := via[im]; seen || im == "C" || im == "unsafe" {
				continue
			}
			via[im] = p
			queue = append(queue, im)
		}
	}
	for _, banned := range []string{"reflect", "fmt", "strings", "path/filepath", "encoding/json", "log/slog", "golang.org/x/sys/unix"} {
		if _, ok := via[banned]; !ok {
			continue
		}
		chain := banned
		for p := via[banned]; p != ""; p = via[p] {
			chain = p + " → " + chain
		}
		t.Errorf("the fast path imports %s: %s", banned, chain)
	}
	if len(via) < 10 {
		t.Fatalf("found only %d packages under %s: the walk no longer follows imports", len(via), top)
	}
}

// A root named through "..", from a directory entered by a symbolic link
// (the shell's $PWD is the link's path, the kernel's "." its target), is
// one directory for the fast path and for every part of the command:
// "../.parley" is the .parley beside the link, as the shell's "cd .."
// would have it, not a second one beside the link's target.
func TestFastPathAndCommandReadARootThroughDotDotAlike(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	home, data := filepath.Join(base, "home"), filepath.Join(base, "data")
	root := filepath.Join(home, ".parley")
	mustCLI(t, root, "", "agents", "add", "Bob")
	registerLive(t, root, "Bob")
	for _, dir := range []string{filepath.Join(data, "work"), filepath.Join(data, ".parley", "registry")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(data, "work"), filepath.Join(home, "work")); err != nil {
		t.Fatal(err)
	}
	for _, fast := range []bool{true, false} {
		cmd := testBinary(t, "--root", "../.parley", "send", "--require-live", "--from", "Alice", "--to", "Bob", "through the link")
		cmd.Dir = filepath.Join(home, "work")
		cmd.Env = append(cmd.Env, "PWD="+cmd.Dir) // as a shell that entered it by the link says
		if !fast {
			cmd.Env = append(cmd.Env, "PARLEY_FASTPATH="+quicksend.Off)
		}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "sent ") {
			t.Errorf("fast path %v: %s(%v)", fast, out, err)
		}
	}
	if n := len(waitingFor(t, root, "Bob")); n != 2 {
		t.Errorf("Bob's inbox beside the link holds %d messages, want 2", n)
	}
	if entries, _ := os.ReadDir(filepath.Join(data, ".parley")); len(entries) != 1 {
		t.Errorf("the command made %d entries in the .parley beside the link's target", len(entries))
	}
}

// "parley --version" and "parley version" print, on the fast path
// (cmd/parley/internal/fastpath, reading the build record without
// runtime/debug), what the command prints, for every form of the command
// line the fast path reads; the forms it leaves to the command are the
// command's alone. And the fast path's version initialises none of the
// packages only other commands use.
func TestFastPathPrintsTheVersionAsTheCommandDoes(t *testing.T) {
	t.Parallel()
	run := func(fast bool, extraEnv string, args ...string) (stdout, stderr string, code int) {
		t.Helper()
		return runBoth(t, fast, extraEnv, args...)
	}
	missing := filepath.Join(t.TempDir(), "no such root")
	for _, args := range [][]string{
		{"--version"},
		{"version"},
		{"--json", "--version"},
		{"version", "--json"},
		{"--root", missing, "version"},
		{"--vault=" + missing, "--version", "--root=" + missing, "--json"},
		// Left to the command: its errors and help.
		{"--version", "--version"},
		{"version", "--version"},
		{"version", "extra"},
		{"--version", "send"},
		{"--root"},
		{"--root", "--version"},
		{"--json=false", "--version"},
		{"-v", "--version"},
		{"--version", "-h"},
	} {
		fo, fe, fc := run(true, "", args...)
		so, se, sc := run(false, "", args...)
		if fo != so || fe != se || fc != sc {
			t.Errorf("parley %q:\nfast path: exit %d, stdout %q, stderr %q\ncommand:   exit %d, stdout %q, stderr %q", args, fc, fo, fe, sc, so, se)
		}
	}
	if out, _, code := run(true, "", "--version"); code != 0 || !strings.HasPrefix(out, "parley ") || !strings.HasSuffix(out, runtime.Version()+"\n") {
		t.Errorf("parley --version: exit %d, %q", code, out)
	}

	// A coverage run is the command's: Go writes a process's counters
	// from a hook installed after the fast path would have exited.
	cover := testBinary(t, "--version")
	cover.Env = append(cover.Env, "GOCOVERDIR="+t.TempDir(), "GODEBUG=inittrace=1")
	var ce bytes.Buffer
	cover.Stderr = &ce
	if out, err := cover.Output(); err != nil || !strings.HasPrefix(string(out), "parley ") {
		t.Errorf("parley --version under GOCOVERDIR: %q, %v", out, err)
	}
	if !strings.Contains(ce.String(), "init github.com/yuin/goldmark") {
		t.Error("under GOCOVERDIR, the fast path answered parley --version")
	}
	_, fe, _ := run(true, "GODEBUG=inittrace=1", "--version")
	_, se, _ := run(false, "GODEBUG=inittrace=1", "--version")
	for _, heavy := range []string{"github.com/yuin/goldmark", "github.com/modelcontextprotocol/go-sdk/mcp", "modernc.org/sqlite",
		"encoding/gob @", "github.com/goccy/go-json @", "path/filepath @"} {
		if strings.Contains(fe, "init "+heavy) {
			t.Errorf("the fast path's version initialised %s", heavy)
		}
		if !strings.Contains(se, "init "+heavy) {
			t.Errorf("the command did not initialise %s: the test no longer tells the paths apart", heavy)
		}
	}
}

// In a root with a config.json, the first send loads it (the command) and
// keeps a copy with what a send over the file messenger takes of it
// (internal/checkedconfig); the sends after it take the fast path while
// config.json is that copy byte for byte, and say and deliver what the
// command does, with the registration TTL config.json sets. Any change to
// the file, or a copy another binary made, sends through the command
// again.
func TestFastPathSendsInAConfiguredRootAsTheCommandDoes(t *testing.T) {
	t.Parallel()
	root := liveBob(t)
	config := filepath.Join(root, "config.json")
	checked := filepath.Join(root, checkedconfig.FileName)
	write := func(name, content string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(name, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, mode); err != nil {
			t.Fatal(err)
		}
	}
	// What parley said, and whether the fast path said it (the command
	// initialises goldmark; the fast path initialises none of it).
	godebug := "inittrace=1"
	send := func(fast bool, text string) (out string, tookFastPath bool) {
		t.Helper()
		o, e, code := runBoth(t, fast, "GODEBUG="+godebug, "--root", root, "send", "--from", "Alice", "--to", "Bob", text)
		var said []string
		for _, l := range strings.Split(e, "\n") {
			if l != "" && !strings.HasPrefix(l, "init ") {
				said = append(said, l)
			}
		}
		ids := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
		return fmt.Sprintf("exit %d, stdout %q, stderr %q", code, ids.ReplaceAllString(o, "ID"), said),
			!strings.Contains(e, "init github.com/yuin/goldmark")
	}
	same := func(step, text string, wantFast bool) {
		t.Helper()
		fo, fast := send(true, text)
		so, _ := send(false, text)
		if fo != so {
			t.Errorf("%s: fast path: %s\ncommand: %s", step, fo, so)
		}
		if fast != wantFast {
			t.Errorf("%s: took the fast path: %v, want %v (%s)", step, fast, wantFast, fo)
		}
	}

	settings := `{"messenger": {"heartbeatTtlMs": 120000}, "debate": {"budgets": {"spec": {"maxRounds": 3}}}}` + "\n"
	write(config, settings, 0o600)
	same("config.json never checked", "one", false)
	copied, err := os.ReadFile(checked)
	if err != nil {
		t.Fatalf("the first send kept no copy of config.json: %v", err)
	}
	if !bytes.HasSuffix(copied, []byte(settings)) {
		t.Fatalf("the copy does not end with config.json:\n%s", copied)
	}
	same("config.json checked", "two", true)

	// The TTL is config.json's (120 s), not the default (30 s): Carol,
	// whose process runs and whose heartbeat is a minute old, is live for
	// both paths, and the fast path sends to her; with a heartbeat older
	// than the TTL she is not, and the command warns.
	mustCLI(t, root, "", "agents", "add", "Carol")
	registerAs(t, root, "Carol", true, false)
	carol := filepath.Join(root, "registry", "Carol.json")
	reg, err := os.ReadFile(carol)
	if err != nil {
		t.Fatal(err)
	}
	at := regexp.MustCompile(`"heartbeatAt": *"[^"]*"`)
	if !at.Match(reg) {
		t.Fatalf("no heartbeatAt in %s", reg)
	}
	for _, tc := range []struct {
		age      time.Duration
		wantFast bool
	}{{time.Minute, true}, {200 * time.Second, false}} {
		beat := time.Now().Add(-tc.age).UTC().Format(time.RFC3339Nano)
		if err := os.WriteFile(carol, at.ReplaceAll(reg, []byte(`"heartbeatAt": "`+beat+`"`)), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := func(fast bool) (string, bool) {
			t.Helper()
			o, e, code := runBoth(t, fast, "GODEBUG=inittrace=1", "--root", root, "send", "--from", "Alice", "--to", "Carol", "are you there?")
			if code != 0 {
				t.Fatalf("send to Carol: exit %d: %s", code, e)
			}
			warned := strings.Contains(e, "not_active")
			return fmt.Sprintf("warned %v, said %v", warned, strings.HasPrefix(o, "sent ")), !strings.Contains(e, "init github.com/yuin/goldmark")
		}
		fo, fast := cmd(true)
		so, _ := cmd(false)
		if fo != so || fast != tc.wantFast {
			t.Errorf("a heartbeat %v old: fast path %s (took it: %v, want %v); command %s", tc.age, fo, fast, tc.wantFast, so)
		}
	}

	for _, tc := range []struct {
		step, config, copied string
		mode                 os.FileMode
		wantFast             bool
	}{
		{"config.json changed by a space", " " + settings, "", 0o600, false},
		{"checked again", " " + settings, "", 0o600, true},
		{"a copy of another build", " " + settings, "other-build", 0o600, false},
		{"config.json writable by others", " " + settings, "", 0o666, false},
		{"an unknown key: an error either way", `{"messenger": {"heartbeatTTL": 5}}`, "", 0o600, false},
		{"an unknown transport: an error either way", `{"transport": "carrier-pigeon"}`, "", 0o600, false},
		{"back to the settings", settings, "", 0o600, false},
		{"and checked", settings, "", 0o600, true},
		// url.Parse takes "host:80:80" only under this GODEBUG: a copy
		// checked under it is not the check of a send without it.
		{"a base URL valid under GODEBUG urlstrictcolons=0 only", `{"openai": {"baseUrl": "http://localhost:80:80/v1"}}`, "", 0o600, false},
	} {
		write(config, tc.config, tc.mode)
		if tc.copied != "" {
			c, err := os.ReadFile(checked)
			if err != nil {
				t.Fatal(err)
			}
			id := regexp.MustCompile(`(?m)^build .*$`)
			write(checked, string(id.ReplaceAll(c, []byte("build "+tc.copied))), 0o600)
		}
		same(tc.step, tc.step, tc.wantFast)
	}
	godebug = "inittrace=1,urlstrictcolons=0"
	same("checked under GODEBUG urlstrictcolons=0", "lax", false)
	same("sent under GODEBUG urlstrictcolons=0", "lax again", true)
	godebug = "inittrace=1"
	same("sent without it: an error either way", "strict", false)
}
