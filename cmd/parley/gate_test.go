package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/gating"
)

const hesitantMD = `Layer: verify

## Initial answer
Yes, retries stop after five attempts.
Confidence: 0.9

## Self-critique
I think the counter is probably reset on a 429, but I'm not sure.
Whether the backoff path works is unknown.

## Final answer
Yes, probably.
Final confidence: 90%
`

const settledJSON = `{"layer":"verify","initial_answer":"Yes, retries stop after five attempts.",
"critique":"I re-read the dispatcher loop. The attempt counter is incremented before each send and compared with max_attempts (see internal/webhook/dispatch.go:88). TestDispatchStopsAfterMaxAttempts drives six failures and asserts five sends. I stand by the answer.",
"final_answer":"Yes, retries stop after five attempts.","final_confidence":0.92,"evidence_refs":["internal/webhook/dispatch.go:88-104"]}`

func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func gateLog(t testing.TB, root string) []gating.LogEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(root, gating.LogName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, bad, err := gating.ReadLog(f)
	if err != nil || bad != 0 {
		t.Fatalf("gate.jsonl: %v, %d bad lines", err, bad)
	}
	return entries
}

func TestGateDecidesPrintsAndLogs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "state")
	md := writeFile(t, dir, "hesitant.md", hesitantMD)

	out, stderr, code := runT(t, "", "--root", root, "gate", md)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"decision: debate", "threshold", "first_person_uncertainty", "I'm not sure", "unknown_markers"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	fi, err := os.Stat(root)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("root dir: %v, mode %v; want 0700", err, fi.Mode().Perm())
	}

	// Standard input, JSON output.
	out, stderr, code = runT(t, settledJSON, "--root", root, "--json", "gate", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("not one JSON object: %q", out)
	}
	var keys []string
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !reflect.DeepEqual(keys, []string{"cues", "decision", "id", "layer", "mode", "model", "parsed", "score", "threshold"}) {
		t.Errorf("keys %v", keys)
	}
	if d["decision"] != "skip" || d["mode"] != "model" {
		t.Errorf("settled critique: %v", d)
	}

	entries := gateLog(t, root)
	if len(entries) != 2 || entries[0].Outcome != gating.Debate || entries[1].Outcome != gating.Skip || entries[0].Source != md || entries[1].Source != "-" {
		t.Fatalf("gate.jsonl entries: %+v", entries)
	}
	if fi, _ := os.Stat(filepath.Join(root, gating.LogName)); fi.Mode().Perm() != 0o600 {
		t.Errorf("gate.jsonl mode %v", fi.Mode().Perm())
	}
}

func TestGateExitCode(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if _, stderr, code := runT(t, hesitantMD, "--root", root, "gate", "--exit-code"); code != cmdutil.ExitBlocked || stderr != "" {
		t.Errorf("debate with --exit-code: exit %d, stderr %q; want 3 and nothing", code, stderr)
	}
	if _, _, code := runT(t, hesitantMD, "--root", root, "gate"); code != 0 {
		t.Errorf("debate without --exit-code: exit %d", code)
	}
	if _, _, code := runT(t, settledJSON, "--root", root, "gate", "--exit-code"); code != 0 {
		t.Errorf("skip with --exit-code: exit %d", code)
	}
}

func TestGateModesAndLayer(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	// Confident and clean, but 0.79: the seed rule debates, at the edge.
	in := `{"critique":"The handler returns 400 for a missing key; the test covers it.","final_confidence":0.79}`
	// A mode is read in any case, as a layer is.
	out, stderr, code := runT(t, in, "--root", root, "--json", "gate", "--mode", "RULES", "--layer", "PLAN")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d gating.Decision
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if d.Outcome != gating.Debate || d.Mode != gating.ModeRules || d.Layer != "plan" {
		t.Errorf("rules decision %+v", d)
	}
	in = strings.Replace(in, "0.79", "0.8", 1)
	out, _, _ = runT(t, in, "--root", root, "--json", "gate", "--mode", "rules")
	if !strings.Contains(out, `"decision":"skip"`) {
		t.Errorf("0.8 clean under rules: %s", out)
	}
	for _, args := range [][]string{{"gate", "--mode", "vibes"}, {"gate", "--layer", "deploy"}, {"gate", "a", "b"}} {
		if _, _, code := runT(t, in, append([]string{"--root", root}, args...)...); code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestGateMalformedInput(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	cases := map[string]string{
		// Only empty, binary or oversized input is refused.
		"empty critique": `{"critique":""}`,
		"empty":          " \n\n",
		"10 MiB":         strings.Repeat("maybe ", (10<<20)/6),
		"binary":         "\x00\x01\x02\x03binary",
	}
	for name, in := range cases {
		out, stderr, code := runT(t, in, "--root", root, "gate")
		if code != cmdutil.ExitError || out != "" {
			t.Errorf("%s: exit %d, output %q; want 1 and nothing", name, code, out)
		}
		if !strings.HasPrefix(stderr, "parley: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: error is not one line: %q", name, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(root, gating.LogName)); err == nil {
		t.Error("a malformed input was logged as a decision")
	}
	// A JSON object that does not fit the fields exactly is read, and the
	// decision says what was left out.
	out, stderr, code := runT(t, `{"critique":"It might fail.","final_confidence":7,"mood":"tired"}`, "--root", root, "gate")
	if code != 0 || !strings.Contains(out, "final_confidence left out") || !strings.Contains(out, "read leniently") {
		t.Errorf("lenient JSON: exit %d %q %q", code, out, stderr)
	}
}

// TestGateCuesHaveNoTerminalControls: a cue quotes the self-critique (an
// agent's words), which may hold C1 controls (U+009B is CSI to a
// terminal); the printed decision carries none.
func TestGateCuesHaveNoTerminalControls(t *testing.T) {
	t.Parallel()
	out, stderr, code := runT(t, "Critique: I am not\u009b sure it holds; it might\u0085 fail.\nConfidence: 0.4", "--root", t.TempDir(), "gate")
	if code != 0 || !strings.Contains(out, "not\uFFFD sure") {
		t.Fatalf("exit %d, cue not shown:\n%s%s", code, out, stderr)
	}
	for _, r := range out {
		if r != '\n' && unicode.IsControl(r) {
			t.Errorf("output carries control %U:\n%q", r, out)
		}
	}
}

func TestGateTrainReproducesEmbeddedModel(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "model.json")
	stdout, stderr, code := runT(t, "", "gate", "train", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, gating.EmbeddedModel()) {
		t.Error("gate train did not reproduce the embedded model")
	}
	if !strings.Contains(stdout, "cross-validated: recall of debate") || !strings.Contains(stdout, "held out") || !strings.Contains(stdout, "nonnative") {
		t.Errorf("output: %s", stdout)
	}
	// The trained file can be used in place of the embedded one.
	if _, stderr, code := runT(t, hesitantMD, "--root", t.TempDir(), "gate", "--model", out); code != 0 {
		t.Errorf("gate --model: exit %d %s", code, stderr)
	}
	if _, _, code := runT(t, "", "gate", "train"); code != cmdutil.ExitUsage {
		t.Errorf("train without --out: exit %d", code)
	}
}

// "gate train --out" replaces its file whole (a temporary file renamed
// over it): an --out that is not a regular file (a named pipe, a device
// such as /dev/stdout) is refused before the training instead of being
// replaced by a regular file, and a model that cannot be written names
// --out, not the temporary file beside it.
func TestGateTrainOutThatCannotBeReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runT(t, "", "gate", "train", "--out", fifo)
	if want := "parley: --out " + fifo + " is not a regular file"; code != cmdutil.ExitError || !strings.HasPrefix(stderr, want) {
		t.Errorf("--out a pipe: exit %d %q, want exit 1 %q", code, stderr, want)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi.Mode(), err)
	}
	// A name the directory takes but its temporary sibling does not fit.
	long := filepath.Join(dir, strings.Repeat("m", 250)+".json")
	_, stderr, code = runT(t, "", "gate", "train", "--out", long)
	if want := "parley: --out " + long + ": cannot write the model: "; code != cmdutil.ExitError || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "/.mmm") {
		t.Errorf("--out too long for its temporary file: exit %d %q, want exit 1 %q…", code, stderr, want)
	}
}

// evalJSONL is a small labelled set written for this test, in voices of
// its own (a release checklist, a code-review note, a chat reply).
const evalJSONL = `{"layer":"verify","critique":"Release checklist: smoke suite 31/31 green on staging, error rate 0.01% over 2 h, rollback rehearsed (3 min).","label":"skip"}
{"layer":"verify","critique":"Smoke tests mostly ran I think. Didn't look at the error rate yet, probably fine.","label":"debate"}
{"layer":"spec","critique":"Reviewer note: the field is nullable per spec §2.4, and TestNullableNickname covers the null case.","label":"skip"}
{"layer":"spec","critique":"Not sure whether nickname can be null; the spec is vague and I haven't found a test.","label":"debate"}
{"layer":"plan","critique":"we could shard later maybe, unclear if we need it, no numbers on growth yet","label":"debate"}
{"layer":"plan","critique":"No sharding: 40 GB today, growing 1.5 GB/month (last 12 months), one instance handles 2 TB.","label":"skip"}
`

func TestGateEvalLabelledSet(t *testing.T) {
	t.Parallel()
	data := writeFile(t, t.TempDir(), "eval.jsonl", evalJSONL)
	out, stderr, code := runT(t, "", "--json", "gate", "eval", "--data", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"n", "accuracy", "precision", "recall", "f1", "auc", "skip_rate", "threshold"} {
		if _, ok := m[k]; !ok {
			t.Errorf("eval JSON lacks %q: %s", k, out)
		}
	}
	if m["n"].(float64) != 6 || m["recall"].(float64) < 1 || m["skip_rate"].(float64) < 0.6 {
		t.Errorf("eval on the labelled set: %v", out)
	}
	out, _, code = runT(t, "", "gate", "eval", "--data", data, "--mode", "rules")
	if code != 0 || !strings.Contains(out, "mode rules") {
		t.Errorf("rules eval: exit %d\n%s", code, out)
	}
	// A set with no skip example has no skip rate and no AUC: null in
	// JSON, "-" in text, never a measured 0.
	debates := writeFile(t, t.TempDir(), "debates.jsonl", strings.Join(strings.Split(evalJSONL, "\n")[1:2], "")+"\n")
	out, stderr, code = runT(t, "", "--json", "gate", "eval", "--data", debates)
	m = nil
	if err := json.Unmarshal([]byte(out), &m); code != 0 || err != nil {
		t.Fatalf("eval of debates only: exit %d, %v: %s%s", code, err, out, stderr)
	}
	if v, ok := m["skip_rate"]; !ok || v != nil || m["auc"] != nil || m["recall"] == nil {
		t.Errorf("eval of debates only: skip_rate and auc should be null, recall a number: %s", out)
	}
	if out, _, _ = runT(t, "", "gate", "eval", "--data", debates); !strings.Contains(out, "auc       -\n") || !strings.Contains(out, "skip rate -  (") {
		t.Errorf("eval of debates only, text:\n%s", out)
	}
	bad := writeFile(t, t.TempDir(), "bad.jsonl", `{"critique":"c","label":"perhaps"}`+"\n")
	if _, stderr, code := runT(t, "", "gate", "eval", "--data", bad); code != cmdutil.ExitError || !strings.Contains(stderr, "line 1") {
		t.Errorf("bad corpus: exit %d %q", code, stderr)
	}
}

// TestGateCorpusFromStandardInput: "--data -" reads the labelled corpus
// from standard input, as the other commands that take "-" do: eval
// measures the same as on the file, train fits the same model, and a bad
// line is named as standard input's.
func TestGateCorpusFromStandardInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := writeFile(t, dir, "eval.jsonl", evalJSONL)
	fromFile, stderr, code := runT(t, "", "--json", "gate", "eval", "--data", data)
	if code != 0 {
		t.Fatalf("eval --data FILE: exit %d: %s", code, stderr)
	}
	fromStdin, stderr, code := runT(t, evalJSONL, "--json", "gate", "eval", "--data", "-")
	if code != 0 || fromStdin != fromFile {
		t.Errorf("eval --data -: exit %d %s\n%s\nwant %s", code, stderr, fromStdin, fromFile)
	}
	if _, stderr, code := runT(t, `{"critique":"c","label":"perhaps"}`+"\n", "gate", "eval", "--data", "-"); code != cmdutil.ExitError || !strings.Contains(stderr, "standard input: ") || !strings.Contains(stderr, "line 1") {
		t.Errorf("bad corpus on standard input: exit %d %q", code, stderr)
	}
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if _, stderr, code := runT(t, "", "gate", "train", "--data", data, "--out", a, "--folds", "2"); code != 0 {
		t.Fatalf("train --data FILE: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runT(t, evalJSONL, "gate", "train", "--data", "-", "--out", b, "--folds", "2"); code != 0 {
		t.Fatalf("train --data -: exit %d: %s", code, stderr)
	}
	ma, _ := os.ReadFile(a)
	mb, _ := os.ReadFile(b)
	if len(ma) == 0 || !bytes.Equal(ma, mb) {
		t.Errorf("train --data - fitted another model than on the file:\n%s\n%s", ma, mb)
	}
}

// TestGateEvalNamesTheModelItMeasures: in a root where "gate learn"
// installed a model, "gate eval" measures that model, as "parley gate"
// decides with it, and says so: the figures are not the embedded model's.
func TestGateEvalNamesTheModelItMeasures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	var m gating.Model
	if err := json.Unmarshal(gating.EmbeddedModel(), &m); err != nil {
		t.Fatal(err)
	}
	m.Bias = -50
	learnt, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "gate"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, gating.ModelName), learnt, 0o600); err != nil {
		t.Fatal(err)
	}
	data := writeFile(t, dir, "eval.jsonl", evalJSONL)
	name := gating.ModelFileName(learnt)
	out, stderr, code := runT(t, "", "--root", root, "--json", "gate", "eval", "--data", data)
	if code != 0 || decisionOf(t, out)["model"] != name {
		t.Errorf("eval JSON does not name the learnt model %s: exit %d %s%s", name, code, out, stderr)
	}
	out, stderr, code = runT(t, "", "--root", root, "gate", "eval", "--data", data)
	if code != 0 || !strings.Contains(out, "model "+name) {
		t.Errorf("eval does not name the learnt model %s: exit %d\n%s%s", name, code, out, stderr)
	}
	out, _, _ = runT(t, "", "--root", root, "gate", "eval", "--help")
	if strings.Contains(out, "instead of the embedded one") {
		t.Errorf("eval --help says the default is the embedded model:\n%s", out)
	}
}

func TestGateStats(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	out, _, code := runT(t, "", "--root", root, "gate", "stats")
	if code != 0 || !strings.Contains(out, "no gate decisions") {
		t.Fatalf("empty stats: exit %d %q", code, out)
	}
	// A config budget changes the estimate: verify costs 5000 here.
	writeFile(t, root, "config.json", `{"debate":{"budgets":{"verify":{"maxTokens":5000}}}}`)
	runT(t, hesitantMD, "--root", root, "gate")  // verify, debate
	runT(t, settledJSON, "--root", root, "gate") // verify, skip
	runT(t, settledJSON, "--root", root, "gate", "--layer", "plan")
	out, stderr, code := runT(t, "", "--root", root, "--json", "gate", "stats")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var s gating.Stats
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Decisions != 3 || s.Skip != 2 || s.TokensAlwaysDebate != 5000+5000+10000 || s.TokensSaved != 15000 {
		t.Errorf("stats %+v", s)
	}
	out, _, _ = runT(t, "", "--root", root, "gate", "stats")
	if !strings.Contains(out, "skip rate 66.7%") || !strings.Contains(out, "saved 15000") {
		t.Errorf("human stats:\n%s", out)
	}
}

// TestBenchGateRuns checks that the benchmark runs and reports (it sets
// GOMAXPROCS, so it does not run in parallel with other tests). The figure
// itself is never judged here.
func TestBenchGateRuns(t *testing.T) {
	out, stderr, code := runT(t, "", "--json", "bench", "gate", "--duration", "20ms")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m["decisions_per_sec"].(float64) <= 0 || m["gomaxprocs"].(float64) != 1 {
		t.Errorf("bench output %v", m)
	}
}

// TestGateLogDoesNotFollowSymlinkOut: a gate.jsonl planted as a symlink to
// a file outside the root is refused, and the file is left alone.
func TestGateLogDoesNotFollowSymlinkOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	outside := writeFile(t, dir, "outside.txt", "precious\n")
	if err := os.Symlink(outside, filepath.Join(root, gating.LogName)); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runT(t, hesitantMD, "--root", root, "gate")
	if code != cmdutil.ExitError || out != "" || !strings.Contains(stderr, "not recorded") {
		t.Errorf("exit %d, out %q, stderr %q; want exit 1 and a one-line error", code, out, stderr)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious\n" {
		t.Errorf("the file outside the root was written: %q", b)
	}
}

// gate stats on a named pipe planted as gate.jsonl: a one-line error that
// says what to do, at once (it blocked in open(2) for good).
func TestGateStatsRefusesANamedPipe(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, gating.LogName), 0o600); err != nil {
		t.Fatal(err)
	}
	type result struct {
		stderr string
		code   int
	}
	done := make(chan result, 1)
	go func() {
		_, stderr, code := runT(t, "", "--root", root, "gate", "stats")
		done <- result{stderr, code}
	}()
	select {
	case r := <-done:
		oneLineError(t, r.stderr, r.code, "not a regular file")
	case <-time.After(20 * time.Second):
		t.Fatal("gate stats blocked on a named pipe as gate.jsonl")
	}
}

// The hint that labels a decision is a command that works as printed:
// with the --root the decision was logged under, and only when the log
// kept the self-critique. Before, it always said "parley gate label
// --decision ID", which looked in the default root ("no decision"), and
// offered it for a self-critique too large to keep, which cannot be
// labelled.
func TestGateLabelHintWorksAsPrinted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "elsewhere")
	out, stderr, code := runT(t, hesitantMD, "--root", root, "gate", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	id := gateLog(t, root)[0].ID
	want := "(label it later: parley --root " + root + " gate label --decision " + id + " --debate, or --skip)"
	if first, _, _ := strings.Cut(out, "\n"); first != "id:       "+id+" "+want {
		t.Fatalf("first line %q, want the id and %q", first, want)
	}
	// The command up to the comma is one a shell runs as it is: no "|",
	// which piped into a command "--skip" after labelling debate.
	cmd, _, _ := strings.Cut(strings.TrimPrefix(want, "(label it later: "), ",")
	if strings.ContainsAny(cmd, "|;&") {
		t.Errorf("the hint %q is not one command", cmd)
	}
	if _, stderr, code := runT(t, "", strings.Fields(cmd)[1:]...); code != 0 {
		t.Errorf("the printed command failed: exit %d: %s", code, stderr)
	}

	big := "Self-critique: " + strings.Repeat("<<<<<<<<<<<<<<<< maybe <<<<<<<<<<<<<<<<<<<<<<<<<<\n", 4500)
	out, stderr, code = runT(t, big, "--root", root, "gate", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	entries := gateLog(t, root)
	last := entries[len(entries)-1]
	if last.Input != nil {
		t.Fatal("the test needs a self-critique too large to keep")
	}
	if first, _, _ := strings.Cut(out, "\n"); first != "id:       "+last.ID {
		t.Errorf("first line %q, want the id and no hint to label what cannot be labelled", first)
	}
}

// A decision logged without its self-critique says how to label the
// self-critique itself in a way "gate label" reads: before, it said
// "parley gate label FILE", and the self-critique's own file was refused
// as "not a JSON object".
func TestAnUnlabellableDecisionSaysHowToLabelItsSelfCritique(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "r")
	big := "Self-critique: " + strings.Repeat("<<<<<<<<<<<<<<<< maybe <<<<<<<<<<<<<<<<<<<<<<<<<<\n", 4500)
	if _, stderr, code := runT(t, big, "--root", root, "gate", "-"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	id := gateLog(t, root)[0].ID
	_, stderr, code := runT(t, "", "--root", root, "gate", "label", "--decision", id, "--debate")
	want := "give parley --root " + root + ` gate label - a line {"text": "the self-critique", "label": "debate"}`
	if code != cmdutil.ExitError || !strings.Contains(stderr, want) || strings.Contains(stderr, "gate label FILE") {
		t.Errorf("exit %d, %q; want it to say %q", code, stderr, want)
	}
}
