package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// The tests in this file drive the real parley binary, built once per test
// run into a temporary directory.
var (
	binDir   string
	binOnce  sync.Once
	binPath  string
	binError error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "parley-mcp-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// parleyBin builds cmd/parley once and returns the binary's path.
func parleyBin(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binPath = filepath.Join(binDir, "parley")
		cmd := exec.Command("go", "build", "-o", binPath, "../cmd/parley")
		if out, err := cmd.CombinedOutput(); err != nil {
			binError = fmt.Errorf("go build ./cmd/parley: %v\n%s", err, out)
		}
	})
	if binError != nil {
		t.Fatal(binError)
	}
	return binPath
}

// cli runs the parley binary and returns stdout, stderr and the exit code.
func cli(t testing.TB, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(parleyBin(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// stdioClient starts "parley --root root mcp" and connects the Go SDK's
// client to it over stdio.
func stdioClient(t testing.TB, root string) *mcp.ClientSession {
	t.Helper()
	return connectStdio(t, exec.Command(parleyBin(t), "--root", root, "mcp"))
}

// connectStdio is a client session with the MCP server cmd runs.
func connectStdio(t testing.TB, cmd *exec.Cmd) *mcp.ClientSession {
	t.Helper()
	cmd.Stderr = &testLog{t: t}
	c := mcp.NewClient(&mcp.Implementation{Name: "parley-stdio-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestStdioBinaryNamesTheRootOfItsEnvironment: an MCP client sets the
// server's environment ("env" in its configuration), not the shell in
// which its agent runs what a tool suggests: with $PARLEY_ROOT chosen for
// the server, a suggested command names that root, as the CLI's does
// with --root, or it acts on another root.
func TestStdioBinaryNamesTheRootOfItsEnvironment(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	fileRecords(t, root)
	cmd := exec.Command(parleyBin(t), "mcp")
	cmd.Env = append(os.Environ(), "PARLEY_ROOT="+root)
	cs := connectStdio(t, cmd)
	msg := fails(t, cs, "send", SendInput{From: "Alice", To: "Nobody", Text: "x"})
	_, stderr, code := cli(t, "--root", root, "send", "--from", "Alice", "--to", "Nobody", "x")
	if want := strings.TrimSuffix(strings.TrimPrefix(stderr, "parley: "), "\n"); code == 0 || msg != want {
		t.Errorf("MCP with PARLEY_ROOT says %q\nthe CLI with --root (exit %d) %q", msg, code, want)
	}
}

// testLog copies a child's stderr into the test log.
type testLog struct {
	mu sync.Mutex
	t  testing.TB
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Logf("parley mcp: %s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

// fileRecords files a consensus record and a deadlock into root's vault.
func fileRecords(t testing.TB, root string) {
	t.Helper()
	v, err := vault.Create(filepath.Join(root, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	cs, err := consensus.Open(root, v)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, o := range []*debate.Outcome{
		consensustest.Outcome("20261130-spec-idempotency-keys-aaaaaa", "Idempotency keys", debate.LayerSpec, debate.ConsensusReached, "Use UUIDv7 keys", "Keys leak the creation time", false),
		consensustest.Outcome("20261130-plan-rollout-order-bbbbbb", "Rollout order", debate.LayerPlan, debate.Deadlock, "Roll out by region", "All at once", false),
	} {
		if _, err := cs.File(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
}

// asJSON decodes a JSON value (or re-encodes a decoded one) for comparison.
func asJSON(t testing.TB, v any) any {
	t.Helper()
	b, ok := v.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var out any
	if err := json.Unmarshal(bytes.TrimSpace(b), &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out
}

// TestStdioBinary drives "parley mcp" over stdio with the Go SDK's client:
// the tools, consensus_check equal to "parley consensus check --json",
// debate_status equal to "parley debate status --json", and hostile input
// refused as the CLI refuses it.
func TestStdioBinary(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	fileRecords(t, root)
	cs := stdioClient(t, root)
	if got := cs.InitializeResult().ServerInfo.Name; got != "parley" {
		t.Errorf("server %q", got)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, allTools) {
		t.Errorf("tools %v", names)
	}

	for _, c := range [][3]string{
		{"spec", "Idempotency keys", "use uuidv7 keys"},
		{"spec", "Idempotency keys", "Use random keys"},
		{"plan", "Rollout order", "Roll out everywhere"},
		{"verify", "Idempotency keys", "Use UUIDv7 keys"},
	} {
		got := call(t, cs, "consensus_check", CheckInput{c[0], c[1], c[2]})
		out, _, code := cli(t, "--root", root, "--json", "consensus", "check", "--layer", c[0], "--topic", c[1], "--position", c[2])
		if got.IsError || (code != 0 && code != 3) {
			t.Fatalf("%v: tool error %v (%s), CLI exit %d", c, got.IsError, text(got), code)
		}
		if g, w := asJSON(t, got.StructuredContent), asJSON(t, []byte(out)); !jsonEqual(g, w) {
			t.Errorf("%v: consensus_check\n%v\nconsensus check --json\n%v", c, g, w)
		}
	}

	// Hostile or wrong input: the CLI's message, with the field for the flag.
	for _, c := range []struct {
		tool string
		args any
		cli  []string
		flag string
	}{
		{"send", SendInput{From: "Alice", To: "../Bob", Text: "x"}, []string{"send", "--from", "Alice", "--to", "../Bob", "x"}, "to"},
		{"send", SendInput{From: "A\x00b", To: "Bob", Text: "x"}, []string{"send", "--from", "A\x00b", "--to", "Bob", "x"}, "from"},
		{"recv", RecvInput{As: strings.Repeat("n", 51)}, []string{"recv", "--as", strings.Repeat("n", 51)}, "as"},
		{"consensus_check", CheckInput{"spek", "t", "p"}, []string{"consensus", "check", "--layer", "spek", "--topic", "t", "--position", "p"}, "layer"},
		{"debate_status", IDInput{ID: "../../etc"}, []string{"debate", "status", "../../etc"}, ""},
		{"debate_status", IDInput{ID: "20261130-spec-none-abcdef"}, []string{"debate", "status", "20261130-spec-none-abcdef"}, ""},
		// The command a refusal suggests acts on the server's root, as the
		// CLI's does: "parley --root ROOT agents list", not the default root.
		{"send", SendInput{From: "Alice", To: "Nobody", Text: "x"}, []string{"send", "--from", "Alice", "--to", "Nobody", "x"}, ""},
	} {
		if strings.ContainsRune(strings.Join(c.cli, ""), 0) {
			// A NUL cannot travel in argv: the CLI never sees such a name.
			fails(t, cs, c.tool, c.args)
			continue
		}
		msg := fails(t, cs, c.tool, c.args)
		_, stderr, code := cli(t, append([]string{"--root", root}, c.cli...)...)
		want := strings.TrimSuffix(strings.TrimPrefix(stderr, "parley: "), "\n")
		if c.flag != "" {
			want = strings.Replace(want, "--"+c.flag+":", c.flag+":", 1)
		}
		if code == 0 || msg != want {
			t.Errorf("%s: MCP says %q, the CLI (exit %d) %q", c.tool, msg, code, stderr)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestMCPDefenderThroughTheBinary is the whole debate with the real
// processes: "parley mcp" holds the defender's registration, debate_start
// runs the debate detached (a coordinator process and a scripted attacker
// process), and the MCP client argues in a loop. The verdict and the record
// are those of "parley debate run" with two scripted agents.
func TestMCPDefenderThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	critic, defender := filepath.Join(dir, "critic.json"), filepath.Join(dir, "proposer.json")
	os.WriteFile(critic, []byte(concedingCritic), 0o600)
	os.WriteFile(defender, []byte(holdingDefender), 0o600)
	topic, position := "Idempotency keys", "Use UUIDv7 keys"

	refRoot := filepath.Join(dir, "ref")
	out, errs, code := cli(t, "--root", refRoot, "--json", "debate", "run", "--layer", "spec", "--topic", topic, "--position", position,
		"--agent", "attacker=script:"+critic, "--agent", "defender=script:"+defender)
	if code != 0 {
		t.Fatalf("debate run: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var want map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &want); err != nil {
		t.Fatal(err)
	}

	root := filepath.Join(dir, "mcp")
	cs := stdioClient(t, root)
	ok[JoinOutput](t, cs, "debate_join", JoinInput{Role: "defender", Name: "Proposer"})
	start := ok[StartOutput](t, cs, "debate_start", StartInput{Layer: "spec", Topic: topic, Position: position,
		Agents: []string{"attacker=script:" + critic, "defender=@Proposer"}})
	if start.PID <= 0 {
		t.Errorf("start: %+v", start)
	}
	sent := argue(t, cs, "Proposer", holdingDefender, nil)
	if len(sent) != 1 || sent[0].DebateID != start.DebateID {
		t.Fatalf("submitted %+v", sent)
	}
	var st StatusOutput
	for range 200 { // the record is filed before verdict.json is sealed
		if st = ok[StatusOutput](t, cs, "debate_status", IDInput{ID: start.DebateID}); st.State == "closed" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st.State != "closed" || string(st.Verdict) != want["verdict"] || string(st.Action) != want["action"] ||
		float64(st.Round) != want["rounds"] || float64(st.Tokens) != want["tokens"] {
		t.Errorf("status %+v, debate run %v", st, want)
	}
	// debate_status is "debate status --json", and takes a unique prefix
	// of the id as the command does.
	sout, _, _ := cli(t, "--root", root, "--json", "debate", "status", start.DebateID)
	if g, w := asJSON(t, st), asJSON(t, []byte(sout)); !jsonEqual(g, w) {
		t.Errorf("debate_status %v\ndebate status --json %v", g, w)
	}
	prefix := start.DebateID[:len(start.DebateID)-4]
	if g, w := asJSON(t, ok[StatusOutput](t, cs, "debate_status", IDInput{ID: prefix})), asJSON(t, st); !jsonEqual(g, w) {
		t.Errorf("debate_status of the prefix %s: %v, want %v", prefix, g, w)
	}
	if tr := ok[TranscriptOutput](t, cs, "transcript_show", IDInput{ID: prefix}); !tr.Intact || !strings.Contains(tr.Markdown, start.DebateID) {
		t.Errorf("transcript_show of the prefix %s: %+v", prefix, tr.Summary)
	}
	norm := func(rec, id string) string {
		rec = normalizeRecord(rec, id)
		rec = regexp.MustCompile(`Attacker1-[a-z2-7]{6}`).ReplaceAllString(rec, "Attacker1")
		return regexp.MustCompile(`Defender-[a-z2-7]{6}`).ReplaceAllString(rec, "Proposer")
	}
	gotRec := norm(readFile(t, filepath.Join(root, "vault", filepath.FromSlash(st.Record))), start.DebateID)
	wantRec := norm(readFile(t, want["record"].(string)), want["debate_id"].(string))
	if gotRec != wantRec {
		t.Errorf("records differ:\n--- MCP defender\n%s\n--- debate run\n%s", gotRec, wantRec)
	}
	if _, _, code := cli(t, "--root", root, "transcripts", "verify", start.DebateID); code != 0 {
		t.Errorf("transcripts verify: exit %d", code)
	}
	// The record and the transcript are resources.
	r, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: DebateURI(start.DebateID)})
	if err != nil || !strings.Contains(r.Contents[0].Text, "CONSENSUS_REACHED") {
		t.Errorf("transcript resource: %v", err)
	}
}

// TestTypeScriptClient is a second, independent client: the official
// TypeScript SDK (testdata/tsclient, installed by "npm ci") lists the tools
// of the binary over stdio and calls consensus_check. Without its
// node_modules the test fails under CI (.ci/run installs them) and installs
// them elsewhere; PARLEY_NO_NODE=1 skips it.
func TestTypeScriptClient(t *testing.T) {
	if os.Getenv("PARLEY_NO_NODE") == "1" {
		t.Skip("PARLEY_NO_NODE=1")
	}
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("testdata", "tsclient"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (set PARLEY_NO_NODE=1 to skip this test): %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s has no node_modules: .ci/run must run npm ci there before the tests (%v)", dir, err)
		}
		npm := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		npm.Dir = dir
		if out, err := npm.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s\n(set PARLEY_NO_NODE=1 to skip this test)", dir, err, out)
		}
	}
	root := filepath.Join(t.TempDir(), "root")
	fileRecords(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "client.mjs"), parleyBin(t), root, "spec", "Idempotency keys", "Use random keys")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, stderr.String())
	}
	var res struct {
		Server string `json:"server"`
		Tools  []struct {
			Name            string   `json:"name"`
			Required        []string `json:"required"`
			HasOutputSchema bool     `json:"hasOutputSchema"`
		} `json:"tools"`
		Check   map[string]any `json:"check"`
		IsError bool           `json:"isError"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if !tool.HasOutputSchema {
			t.Errorf("%s: the TypeScript client sees no output schema", tool.Name)
		}
		if tool.Name == "consensus_check" && !slices.Equal(tool.Required, []string{"layer", "topic", "position"}) {
			t.Errorf("consensus_check requires %v", tool.Required)
		}
	}
	slices.Sort(names)
	if res.Server != "parley" || !slices.Equal(names, allTools) {
		t.Errorf("server %q, tools %v", res.Server, names)
	}
	cliOut, _, code := cli(t, "--root", root, "--json", "consensus", "check", "--layer", "spec", "--topic", "Idempotency keys", "--position", "Use random keys")
	if res.IsError || code != 3 || res.Check["status"] != "conflict" || !jsonEqual(asJSON(t, res.Check), asJSON(t, []byte(cliOut))) {
		t.Errorf("consensus_check from TypeScript: %v (error %v)\nthe CLI (exit %d): %s", res.Check, res.IsError, code, cliOut)
	}
}
