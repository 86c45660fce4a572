package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/bench"
	"github.com/parleyhq/parley/transcripts"
)

const (
	cliTopic  = "Idempotency key design"
	cliPos    = "Use a client-supplied Idempotency-Key header"
	cliCount  = "Hash the request body instead"
	cliDebate = "20261130-spec-idempotency-key-design-abcdef"
)

// writeDebate records a debate under <root>/debates/<id>/ through package
// transcripts, as a coordinator would: the open event, a request and a turn
// event per turn, the forfeits, the verdict event when closed, and
// verdict.json when sealed.
func writeDebate(t *testing.T, root string, o *debate.Outcome, closed, sealed bool) {
	t.Helper()
	ctx := context.Background()
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := transcripts.OpenStore(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lg, err := st.Create(ctx, o.Session)
	if err != nil {
		t.Fatal(err)
	}
	defer lg.Close()
	appendEvent := func(kind debate.EventKind, data any) {
		if _, err := lg.Append(ctx, kind, 0, data); err != nil {
			t.Fatalf("append %s: %v", kind, err)
		}
	}
	appendEvent(debate.EventOpen, o.Session)
	for _, tr := range o.Turns {
		appendEvent(debate.EventRequest, debate.RequestEvent{RequestID: tr.RequestID, Round: tr.Round, Role: tr.Role, Agent: tr.Agent, Attempt: 1})
		appendEvent(debate.EventTurn, tr)
	}
	for _, f := range o.Forfeits {
		appendEvent(debate.EventForfeit, f)
	}
	if closed {
		appendEvent(debate.EventVerdict, o)
	}
	if sealed {
		if err := lg.Seal(ctx, o, ""); err != nil {
			t.Fatal(err)
		}
	}
}

// cliEnv is a root and a vault for the CLI; args prefixes the global flags.
type cliEnv struct{ root, vault string }

func newCLIEnv(t *testing.T) cliEnv {
	base := t.TempDir()
	return cliEnv{root: filepath.Join(base, "root"), vault: filepath.Join(base, "vault")}
}

func (c cliEnv) run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runT(t, "", append([]string{"--root", c.root, "--vault", c.vault}, args...)...)
}

// fileDebates files outcomes through "consensus file --from-debate".
func (c cliEnv) fileDebates(t *testing.T, outcomes ...*debate.Outcome) {
	t.Helper()
	for _, o := range outcomes {
		writeDebate(t, c.root, o, true, false)
		if out, errOut, code := c.run(t, "consensus", "file", "--from-debate", o.DebateID); code != 0 {
			t.Fatalf("file %s: exit %d\n%s%s", o.DebateID, code, out, errOut)
		}
	}
}

func TestConsensusFileFromDebate(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	o := consensustest.Outcome(cliDebate, cliTopic, debate.LayerSpec, debate.ConsensusReached, cliPos, cliCount, false)
	writeDebate(t, c.root, o, true, false)
	out, _, code := c.run(t, "--json", "consensus", "file", "--from-debate", cliDebate)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(out), &got); err != nil || got["record"] != "wiki/consensus/spec-idempotency-key-design.md" || got["status"] != "filed" {
		t.Fatalf("output %q %v", out, err)
	}
	record := filepath.Join(c.vault, "wiki", "consensus", "spec-idempotency-key-design.md")
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`final_position: "` + cliPos + `"`, `debate_id: "` + cliDebate + `"`, "| 2 | GoldFalcon: _no further objections_ |"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("record lacks %q", want)
		}
	}

	// An interrupted filing: the record is there, the index page is not.
	index := filepath.Join(c.vault, "wiki", "consensus", consensus.IndexName)
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	// The record is there: filing again says so, rather than "filed".
	out, _, code = c.run(t, "consensus", "file", "--from-debate", cliDebate)
	if code != 0 || out != "already filed "+record+": left as it is\n" {
		t.Fatalf("re-filing: exit %d %q", code, out)
	}
	if b, err := os.ReadFile(index); err != nil || !strings.Contains(string(b), "[[spec-idempotency-key-design\\|") {
		t.Errorf("index not repaired: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(record)); len(ents) != 2 {
		t.Errorf("re-filing added records: %v", ents)
	}

	// A crash after the verdict event, before verdict.json: still filed.
	o2 := consensustest.Outcome("20261130-plan-rollout-abcdef", "Rollout", debate.LayerPlan, debate.Deadlock, cliPos, cliCount, false)
	writeDebate(t, c.root, o2, true, false)
	// … with a warning that the debate itself is still not closed.
	if out, errOut, code := c.run(t, "consensus", "file", "--from-debate", o2.DebateID); code != 0 ||
		!strings.Contains(errOut, "parley: warning: debate "+o2.DebateID+" is not closed yet") || !strings.Contains(errOut, "debate resume "+o2.DebateID+" finishes closing it") {
		t.Errorf("verdict event without verdict.json: exit %d %s%s", code, out, errOut)
	}
	// A tampered transcript is refused, naming the bad line.
	o4 := consensustest.Outcome("20261130-spec-tampered-abcdef", "Tampered", debate.LayerSpec, debate.ConsensusReached, cliPos, cliCount, false)
	writeDebate(t, c.root, o4, true, true)
	tp := filepath.Join(c.root, "debates", o4.DebateID, "transcript.jsonl")
	data, err = os.ReadFile(tp)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tp, bytes.Replace(data, []byte(cliPos), []byte("Something else entirely"), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := c.run(t, "consensus", "file", "--from-debate", o4.DebateID); code != 1 || !strings.Contains(errOut, "tampered") || !strings.Contains(errOut, "line") {
		t.Errorf("tampered debate: exit %d %q", code, errOut)
	}
	// Not closed: an error that says so.
	o3 := consensustest.Outcome("20261130-verify-open-abcdef", "Still running", debate.LayerVerify, debate.Timeout, cliPos, cliCount, false)
	writeDebate(t, c.root, o3, false, false)
	if _, errOut, code := c.run(t, "consensus", "file", "--from-debate", o3.DebateID); code != 1 || !strings.Contains(errOut, "not closed") {
		t.Errorf("open debate: exit %d %q", code, errOut)
	}
	if _, _, code := c.run(t, "consensus", "file"); code != cmdutil.ExitUsage {
		t.Errorf("consensus file: exit %d, want usage", code)
	}
	if _, _, code := c.run(t, "consensus", "file", "--from-debate", "../../etc"); code != cmdutil.ExitError {
		t.Errorf("consensus file --from-debate ../../etc: exit %d, want not found", code)
	}
	if _, errOut, code := c.run(t, "consensus", "file", "--from-debate", "20261130-spec-missing-abcdef"); code != 1 || !strings.Contains(errOut, "no debate 20261130-spec-missing-abcdef") {
		t.Errorf("missing debate: exit %d %q", code, errOut)
	}
}

func TestConsensusCheckCLI(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	c.fileDebates(t,
		consensustest.Outcome(cliDebate, cliTopic, debate.LayerSpec, debate.ConsensusReached, cliPos, cliCount, false),
		consensustest.Outcome("20261130-plan-rollout-abcdef", "Rollout of the idempotency keys", debate.LayerPlan, debate.Deadlock, cliPos, cliCount, false),
	)
	record := filepath.Join(c.vault, "wiki", "consensus", "spec-idempotency-key-design.md")

	// consistent: same position up to case, spacing and punctuation.
	out, errOut, code := c.run(t, "consensus", "check", "--layer", "spec", "--topic", "idempotency key design", "--position", "use a CLIENT-supplied  idempotency-key header.")
	if code != 0 || !strings.HasPrefix(out, "consistent: ") || !strings.Contains(out, record) || errOut != "" {
		t.Errorf("consistent: exit %d\n%s%s", code, out, errOut)
	}
	// conflict: exit 3, both positions, what differs and the record's path.
	negated := "Do not use a client-supplied Idempotency-Key header"
	out, errOut, code = c.run(t, "consensus", "check", "--layer", "spec", "--topic", "Which design do idempotency keys have?", "--position", negated)
	if code != cmdutil.ExitBlocked {
		t.Errorf("conflict: exit %d", code)
	}
	for _, want := range []string{"conflict: ", record, cliPos, negated, "differs: use → not use"} {
		if !strings.Contains(out, want) {
			t.Errorf("conflict output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, record) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("conflict stderr %q", errOut)
	}
	// unclear: a position about something else; exit 3, or 0 with a
	// warning under --lenient.
	out, errOut, code = c.run(t, "consensus", "check", "--layer", "spec", "--topic", cliTopic, "--position", cliCount)
	if code != cmdutil.ExitBlocked || !strings.HasPrefix(out, "unclear: ") || !strings.Contains(errOut, "--lenient") {
		t.Errorf("unclear: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = c.run(t, "consensus", "check", "--lenient", "--layer", "spec", "--topic", cliTopic, "--position", cliCount)
	if code != 0 || !strings.HasPrefix(out, "unclear: ") || !strings.Contains(errOut, "warning: unclear") {
		t.Errorf("unclear --lenient: exit %d\n%s%s", code, out, errOut)
	}
	// open: a DEADLOCK record, exit 0 with a warning.
	out, errOut, code = c.run(t, "consensus", "check", "--layer", "plan", "--topic", "Rollout of the idempotency keys", "--position", cliPos)
	if code != 0 || !strings.HasPrefix(out, "open: ") || !strings.Contains(errOut, "warning: the question is open") {
		t.Errorf("open: exit %d\n%s%s", code, out, errOut)
	}
	// none, with related records listed.
	out, _, code = c.run(t, "consensus", "check", "--layer", "verify", "--topic", "Idempotency keys in the gateway", "--position", "keys are checked")
	if code != 0 || !strings.HasPrefix(out, "none: ") || !strings.Contains(out, "related:\n") || !strings.Contains(out, "wiki/consensus/spec-idempotency-key-design.md") {
		t.Errorf("none: exit %d\n%s", code, out)
	}
	// A near miss in the same layer: none, the record it nearly asked
	// listed with how close it came as the question.
	out, _, code = c.run(t, "consensus", "check", "--layer", "spec", "--topic", "Session key design", "--position", "Use a client-supplied Session-Key header")
	if code != 0 || !strings.HasPrefix(out, "none: ") || !regexp.MustCompile(`spec-idempotency-key-design\.md.*\(topic score 0\.[0-5]`).MatchString(out) {
		t.Errorf("near miss: exit %d\n%s", code, out)
	}

	// --json: the shape of the issue.
	for _, tc := range []struct {
		args   []string
		status string
		code   int
	}{
		{[]string{"--layer", "spec", "--topic", cliTopic, "--position", cliPos}, "consistent", 0},
		{[]string{"--layer", "spec", "--topic", cliTopic, "--position", negated}, "conflict", cmdutil.ExitBlocked},
		{[]string{"--layer", "spec", "--topic", cliTopic, "--position", cliCount}, "unclear", cmdutil.ExitBlocked},
		{[]string{"--layer", "plan", "--topic", "Rollout of the idempotency keys", "--position", "x"}, "open", 0},
		{[]string{"--layer", "verify", "--topic", "Idempotency keys in the gateway", "--position", "x"}, "none", 0},
	} {
		out, _, code := c.run(t, append([]string{"--json", "consensus", "check"}, tc.args...)...)
		var got struct {
			Status        string   `json:"status"`
			Record        string   `json:"record"`
			FinalPosition string   `json:"final_position"`
			TopicScore    float64  `json:"topic_score"`
			Differences   []string `json:"differences"`
			Related       []struct {
				Record string  `json:"record"`
				Score  float64 `json:"score"`
			} `json:"related"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v %q", tc.status, err, out)
		}
		if got.Status != tc.status || code != tc.code {
			t.Errorf("%s: status %s exit %d", tc.status, got.Status, code)
		}
		if tc.status == "consistent" && (got.Record != "wiki/consensus/spec-idempotency-key-design.md" || got.FinalPosition != cliPos) {
			t.Errorf("consistent json %+v", got)
		}
		if tc.status == "conflict" && (got.TopicScore != 1 || len(got.Differences) != 1 || got.Differences[0] != "use → not use") {
			t.Errorf("conflict json %+v", got)
		}
		if tc.status == "none" && (len(got.Related) == 0 || got.Related[0].Score <= 0 || got.Record != "") {
			t.Errorf("none json %+v", got)
		}
	}
	for _, args := range [][]string{
		{"consensus", "check", "--layer", "spec", "--topic", cliTopic},
		{"consensus", "check", "--layer", "review", "--topic", cliTopic, "--position", "x"},
		{"consensus", "check", "--layer", "spec", "--topic", cliTopic, "--position", "..."},
	} {
		if _, _, code := c.run(t, args...); code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d, want usage", args, code)
		}
	}
}

func TestConsensusListShowSearchCLI(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	later := consensustest.Outcome("20261201-spec-idempotency-bbbbbb", cliTopic, debate.LayerSpec, debate.ConsensusReached, cliCount, cliPos, false)
	c.fileDebates(t,
		consensustest.Outcome(cliDebate, cliTopic, debate.LayerSpec, debate.ConsensusReached, cliPos, cliCount, false),
		consensustest.Outcome("20261130-plan-rollout-abcdef", "Rollout plan", debate.LayerPlan, debate.Deadlock, cliPos, cliCount, false),
		later,
	)
	// A broken record is skipped with a warning.
	if err := os.WriteFile(filepath.Join(c.vault, "wiki", "consensus", "spec-broken.md"), []byte("---\ntype: consensus\ntopic: [\n---\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := c.run(t, "consensus", "list")
	if code != 0 || strings.Count(out, "\n") != 3 || !strings.Contains(errOut, "warning: skipped wiki/consensus/spec-broken.md") {
		t.Errorf("list: exit %d\n%s%s", code, out, errOut)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--status", "superseded"}, []string{"spec-idempotency-key-design"}},
		{[]string{"--layer", "plan"}, []string{"plan-rollout-plan"}},
		{[]string{"--verdict", "consensus_reached", "--status", "active"}, []string{"spec-idempotency-key-design-2"}},
	} {
		out, _, code := c.run(t, append([]string{"--json", "consensus", "list"}, tc.args...)...)
		var names []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var r consensus.Record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%v: %v %q", tc.args, err, line)
			}
			names = append(names, r.Name)
		}
		if code != 0 || strings.Join(names, ",") != strings.Join(tc.want, ",") {
			t.Errorf("list %v: %v (exit %d)", tc.args, names, code)
		}
	}
	if _, _, code := c.run(t, "consensus", "list", "--status", "maybe"); code != cmdutil.ExitUsage {
		t.Errorf("bad --status: exit %d", code)
	}

	out, _, code = c.run(t, "consensus", "show", "spec-idempotency-key-design")
	if code != 0 || !strings.Contains(out, "status superseded") || !strings.Contains(out, "superseded by spec-idempotency-key-design-2") || !strings.Contains(out, "## Final Position") {
		t.Errorf("show: exit %d\n%s", code, out)
	}
	out, _, code = c.run(t, "--json", "consensus", "show", later.DebateID)
	var shown struct {
		Name string `json:"name"`
		Body string `json:"body"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil || code != 0 || shown.Name != "spec-idempotency-key-design-2" || !strings.Contains(shown.Body, cliCount) {
		t.Errorf("show by debate id: %v %+v", err, shown)
	}
	if _, errOut, code := c.run(t, "consensus", "show", "nothing-here"); code != 1 || !strings.Contains(errOut, "no such consensus record") {
		t.Errorf("show missing: exit %d %q", code, errOut)
	}

	out, _, code = c.run(t, "consensus", "search", "rollout")
	if code != 0 || !strings.Contains(strings.SplitN(out, "\n", 2)[0], "plan-rollout-plan") {
		t.Errorf("search: exit %d\n%s", code, out)
	}
	out, _, _ = c.run(t, "--json", "consensus", "search", "--status", "active", "--limit", "1", "idempotency", "header")
	var hit struct {
		Name  string  `json:"name"`
		Score float64 `json:"score"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &hit); err != nil || hit.Score <= 0 || strings.Count(out, "\n") != 1 {
		t.Errorf("search --json: %v %q", err, out)
	}
	if _, _, code := c.run(t, "consensus", "search"); code != cmdutil.ExitUsage {
		t.Errorf("search without a query: exit %d", code)
	}
}

// TestConsensusOutputHasNoTerminalControls files a record whose topic and
// positions (an agent's words) carry terminal escape sequences, C0 and C1
// controls, and a skipped file whose name carries one: no command prints
// them to the terminal (the --json output keeps them, escaped).
func TestConsensusOutputHasNoTerminalControls(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	topic := "Keys \x1b[2J\x1b]0;owned\x07 design \u009b31m"
	pos := "Use keys\x1b[8m hidden \u009b1m\r overwritten"
	c.fileDebates(t, consensustest.Outcome(cliDebate, topic, debate.LayerSpec, debate.ConsensusReached, pos, cliCount, false))
	if err := os.WriteFile(filepath.Join(c.vault, "wiki", "consensus", "spec-bad\x1b[1m.md"), []byte("---\ntype: consensus\ntopic: [\n---\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"consensus", "list"},
		{"consensus", "search", "keys"},
		{"consensus", "check", "--layer", "spec", "--topic", topic, "--position", "something else \x1b[5m"},
		{"consensus", "check", "--layer", "spec", "--topic", topic, "--position", pos},
		{"consensus", "show", cliDebate},
	} {
		out, errOut, code := c.run(t, args...)
		if code != 0 && code != cmdutil.ExitBlocked {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		for name, text := range map[string]string{"stdout": out, "stderr": errOut} {
			for _, r := range text {
				if r != '\n' && r != '\t' && unicode.IsControl(r) {
					t.Errorf("%v: %s carries control %U:\n%q", args, name, r, text)
					break
				}
			}
		}
	}
	out, _, _ := c.run(t, "--json", "consensus", "list")
	var r consensus.Record
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Topic != topic {
		t.Errorf("--json keeps the topic as filed: %v %q", err, r.Topic)
	}
}

func TestBenchConsensusSmall(t *testing.T) {
	t.Setenv("PARLEY_TEST_AS_CLI", "1") // the checks in new processes run this binary
	out, errOut, code := runT(t, "", "--json", "bench", "consensus", "--records", "300", "--checks", "40", "--processes", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res bench.ConsensusResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Records != 300 || res.WarmChecks != 40 || res.Searches != 2 || res.ColdRebuildMs <= 0 || res.WarmCheckP50Us <= 0 || res.SearchP50Us <= 0 ||
		res.WarmRecordReads != 0 || res.NewProcessRuns != 2 || res.NewProcessP50Ms <= 0 || res.NewProcessRSSMB <= 0 || res.IndexMB <= 0 {
		t.Errorf("figures %+v", res)
	}
}

// A vault named with --vault that does not exist (a typo) is not made by
// a command that only reads records: it says there is none and how to
// make one, rather than answer "none" from an empty vault it just made.
// The default vault, <root>/vault, is part of the root and made with it.
func TestConsensusReadsDoNotMakeANamedVault(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	if _, errOut, code := runT(t, "", "--root", c.root, "init"); code != 0 {
		t.Fatalf("init: exit %d %s", code, errOut)
	}
	typo := c.vault + "-typo"
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"consensus", "check", "--layer", "spec", "--topic", cliTopic, "--position", "x"}, cmdutil.ExitError},
		{[]string{"consensus", "show", "anything"}, cmdutil.ExitError},
		{[]string{"consensus", "search", "keys"}, cmdutil.ExitError},
		{[]string{"vault", "lint"}, cmdutil.ExitError},
		{[]string{"consensus", "list"}, cmdutil.ExitOK},
	} {
		out, errOut, code := runT(t, "", append([]string{"--root", c.root, "--vault", typo}, tc.args...)...)
		want := "there is no vault at " + typo + " (parley --root " + c.root + " --vault " + typo + " init makes one)"
		if code != tc.code || !strings.Contains(out+errOut, want) {
			t.Errorf("%v: exit %d, want %d saying %q:\n%s%s", tc.args, code, tc.code, want, out, errOut)
		}
		if _, err := os.Stat(typo); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%v made the vault %s: %v", tc.args, typo, err)
		}
	}
	// Under --json the list is empty, and stderr says why.
	if out, errOut, code := runT(t, "", "--root", c.root, "--json", "--vault", typo, "consensus", "list"); code != 0 || out != "" ||
		!strings.HasPrefix(errOut, "parley: warning: no consensus records: there is no vault at "+typo) {
		t.Errorf("list --json: exit %d %q %q, want no line and a warning", code, out, errOut)
	}
	// Without --vault, a root made by the messenger alone has no vault
	// yet: a check still answers.
	root := filepath.Join(t.TempDir(), "root")
	if _, errOut, code := runT(t, "", "--root", root, "agents", "add", "Bob"); code != 0 {
		t.Fatalf("agents add: exit %d %s", code, errOut)
	}
	if out, errOut, code := runT(t, "", "--root", root, "consensus", "check", "--layer", "spec", "--topic", cliTopic, "--position", "x"); code != 0 || !strings.HasPrefix(out, "none") {
		t.Errorf("check in a root without a vault: exit %d\n%s%s", code, out, errOut)
	}
}

// Filing again a debate that filed its record: a vault named with
// --vault that does not exist (a typo) is not made, and the error says
// there is no vault there, not that the sealed record is gone and must be
// put back.
func TestConsensusFileDoesNotMakeANamedVault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"c": concedingCritic, "d": holdingDefender})
	out, errOut, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Keys", "--position", "Use UUIDv7 keys",
		"--workspace", dir, "--agent", "attacker=script:"+s["c"], "--agent", "defender=script:"+s["d"])
	if code != 0 {
		t.Fatalf("debate run: exit %d\n%s%s", code, out, errOut)
	}
	objs := lines(t, out)
	id := objs[len(objs)-1]["debate_id"].(string)
	typo := filepath.Join(dir, "vault-typo")
	out, errOut, code = dcli(t, root, "--vault", typo, "consensus", "file", "--from-debate", id)
	want := "there is no vault at " + typo + ", though debate " + id + " filed its record wiki/consensus/spec-keys.md there"
	if code != cmdutil.ExitError || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, want %d saying %q:\n%s%s", code, cmdutil.ExitError, want, out, errOut)
	}
	if _, err := os.Stat(typo); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("consensus file made the vault %s: %v", typo, err)
	}
	if out, errOut, code := dcli(t, root, "consensus", "file", "--from-debate", id); code != 0 || !strings.HasPrefix(out, "already filed ") {
		t.Errorf("in its vault: exit %d\n%s%s", code, out, errOut)
	}
}

// A list that its filters leave empty says that no record matches them,
// not that the vault has no records.
func TestConsensusListSaysTheFilterMatchesNothing(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	c.fileDebates(t, consensustest.Outcome(cliDebate, cliTopic, debate.LayerSpec, debate.ConsensusReached, cliPos, cliCount, false))
	dir := filepath.Join(c.vault, "wiki", "consensus")
	out, errOut, code := c.run(t, "consensus", "list", "--layer", "plan", "--status", "active")
	if want := "no consensus record matches --layer plan --status active in " + dir + "\n"; code != 0 || out != want {
		t.Errorf("list of a filter that matches nothing: exit %d %q %q, want %q", code, out, errOut, want)
	}
	if out, _, code := c.run(t, "consensus", "list", "--layer", "spec"); code != 0 || !strings.Contains(out, "spec-idempotency-key-design") {
		t.Errorf("list --layer spec: exit %d %q", code, out)
	}
}

// A question debated three times: its first record keeps the bare name
// (spec-idempotency-key-design), the one a person or an agent types, and
// "consensus show" of it named only the record that superseded it next
// (-2, itself superseded). Now show names the question's current record,
// the one check answers from, in its header and as "current" under
// --json; the current record names none.
func TestConsensusShowNamesTheCurrentRecord(t *testing.T) {
	t.Parallel()
	c := newCLIEnv(t)
	c.fileDebates(t,
		consensustest.Outcome(cliDebate, cliTopic, debate.LayerSpec, debate.ConsensusReached, cliPos, cliCount, false),
		consensustest.Outcome("20261201-spec-idempotency-bbbbbb", cliTopic, debate.LayerSpec, debate.ConsensusReached, cliCount, cliPos, false),
		consensustest.Outcome("20261202-spec-idempotency-cccccc", cliTopic, debate.LayerSpec, debate.ConsensusReached, cliPos, cliCount, false),
	)
	out, errOut, code := c.run(t, "consensus", "show", "spec-idempotency-key-design")
	if code != 0 || !strings.Contains(out, "superseded by spec-idempotency-key-design-2\ncurrent record of the question: spec-idempotency-key-design-3\n") {
		t.Errorf("show of the first record: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = c.run(t, "--json", "consensus", "show", "spec-idempotency-key-design")
	var p struct{ Name, Current string }
	if err := json.Unmarshal([]byte(out), &p); code != 0 || err != nil || p.Current != "spec-idempotency-key-design-3" {
		t.Errorf("show --json of the first record: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	out, errOut, code = c.run(t, "consensus", "show", "spec-idempotency-key-design-3")
	if code != 0 || strings.Contains(out, "current record") {
		t.Errorf("show of the current record: exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = c.run(t, "--json", "consensus", "show", "spec-idempotency-key-design-3")
	if strings.Contains(out, `"current"`) {
		t.Errorf("show --json of the current record names a current one: %s", out)
	}
}
