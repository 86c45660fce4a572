package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/suggest"
)

// userLabels are labelled self-critiques in the two shapes "gate label"
// takes: the JSON fields, and {"layer","text"}.
const userLabels = `{"layer":"verify","critique":"Checked: TestRefundIsIdempotent passes and billing/refund.go:77 keys the refund on the request id; 0 duplicates over 1,000 replays.","final_answer":"Fixed.","label":"skip"}
{"layer":"verify","text":"## Review\nI haven't rerun anything; it probably works, not sure about retries.\n## Final answer\nMaybe fixed.","label":"debate"}
// a comment line
{"layer":"plan","text":"Plan holds: dry run on the staging copy took 7 min, replica lag stayed under 2 s (dashboard), rollback rehearsed in 3 min.","label":"skip"}
{"layer":"plan","critique":"Not sure the cutover window is long enough; nobody has timed the restore and the owner is TBD.","label":"debate"}
`

func readLabelsFile(t testing.TB, root string) []gating.Label {
	t.Helper()
	f, err := os.Open(filepath.Join(root, gating.LabelsName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	labels, bad, err := gating.ReadLabels(f)
	if err != nil || bad != 0 {
		t.Fatalf("labels.jsonl: %v, %d bad", err, bad)
	}
	return labels
}

func decisionOf(t testing.TB, out string) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("not a JSON decision: %q", out)
	}
	return d
}

// TestGateLearnsFromItsUser walks the whole loop a user relies on: debates
// the gate sent on yield outcome labels from their verdicts, "gate label"
// adds labelled critiques and labels a logged decision, "gate learn"
// installs a model that is not worse, decisions name the model that made
// them, "--reset" goes back to the embedded model, and a worse model is
// refused unless forced.
func TestGateLearnsFromItsUser(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")

	// Two debates the gate sends on. In the first the attacker concedes in
	// round 1 and the defender's opening position stands: a skip would
	// have done. In the second the defender's position changes before the
	// attacker concedes: the debate was worth it.
	s := writeScripts(t, dir, map[string]string{
		"quick":    `{"turns":[{"round":1,"position":"","counter_to":"","confidence_change":0,"tokens":30}]}`,
		"critic":   concedingCritic,
		"proposer": holdingDefender,
		"stubborn": stubbornDefense,
	})
	crits := map[string]string{
		"quick":  hesitantCritique,
		"critic": `{"layer":"spec","critique":"Not sure UUIDv7 is enough here; the retry window is unknown and I haven't looked at the client.","final_answer":"Maybe UUIDv7","final_confidence":0.5}`,
	}
	for _, agents := range [][2]string{{"quick", "stubborn"}, {"critic", "proposer"}} {
		crit := filepath.Join(dir, agents[0]+"-critique.json")
		if err := os.WriteFile(crit, []byte(crits[agents[0]]), 0o600); err != nil {
			t.Fatal(err)
		}
		out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Idempotency keys", "--position", "Use UUIDv7 keys",
			"--workspace", dir, "--gate", crit, "--agent", "attacker=script:"+s[agents[0]], "--agent", "defender=script:"+s[agents[1]])
		if code != 0 {
			t.Fatalf("debate %v: exit %d: %s\n%s", agents, code, errs, out)
		}
		objs := lines(t, out)
		if objs[0]["decision"] != "debate" || objs[0]["id"] == "" || objs[0]["model"] != gating.EmbeddedName {
			t.Fatalf("gate line %v", objs[0])
		}
	}
	// gate stats: both spec debates are outcome-labelled, one was worth it.
	out, errs, code := dcli(t, root, "--json", "gate", "stats")
	if code != 0 {
		t.Fatalf("stats: exit %d %s", code, errs)
	}
	var st gating.Stats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if ls := st.ByLayer["spec"]; ls.OutcomeLabelled != 2 || ls.WorthIt != 1 || ls.Precision != 0.5 {
		t.Errorf("spec layer stats %+v, want 2 outcome-labelled, 1 worth it, precision 0.5", ls)
	}
	out, _, _ = dcli(t, root, "gate", "stats")
	if !strings.Contains(out, "0.50 (1 of 2 worth it)") {
		t.Errorf("stats output lacks the outcome precision:\n%s", out)
	}

	// gate label FILE|-: every line is checked before any is added.
	bad := userLabels + `{"layer":"spec","critique":"fine","label":"maybe"}` + "\n"
	if _, errs, code := runT(t, bad, "--root", root, "gate", "label", "-"); code != cmdutil.ExitError || !strings.Contains(errs, "line 6") {
		t.Errorf("a bad line: exit %d %q, want 1 naming line 6", code, errs)
	}
	if _, err := os.Stat(filepath.Join(root, gating.LabelsName)); err == nil {
		t.Fatal("a bad input added labels")
	}
	out, errs, code = runT(t, userLabels, "--root", root, "gate", "label", "-")
	if code != 0 || !strings.Contains(out, "added 4 label(s) (2 debate, 2 skip)") {
		t.Fatalf("gate label -: exit %d %q %q", code, out, errs)
	}
	labels := readLabelsFile(t, root)
	if len(labels) != 4 || labels[1].Input.Critique == "" || !strings.Contains(labels[1].Input.Critique, "haven't rerun") || labels[1].Input.FinalAnswer != "Maybe fixed." {
		t.Fatalf("labels %+v", labels)
	}

	// gate label --decision: label a logged decision by a prefix of its id.
	out, _, code = runT(t, settledJSON, "--root", root, "--json", "gate")
	if code != 0 {
		t.Fatal("gate")
	}
	id := decisionOf(t, out)["id"].(string)
	if len(id) != 8 {
		t.Fatalf("decision id %q", id)
	}
	if _, _, code := dcli(t, root, "gate", "label", "--decision", id[:6]); code != cmdutil.ExitUsage {
		t.Errorf("--decision without --debate/--skip: exit %d", code)
	}
	if _, _, code := dcli(t, root, "gate", "label", "--decision", "zzzz", "--skip"); code != cmdutil.ExitError {
		t.Errorf("unknown decision: exit %d", code)
	}
	out, errs, code = dcli(t, root, "gate", "label", "--decision", id[:6], "--skip")
	if code != 0 || !strings.Contains(out, "labelled decision "+id+" as skip") {
		t.Fatalf("label --decision: exit %d %q %q", code, out, errs)
	}
	labels = readLabelsFile(t, root)
	if last := labels[len(labels)-1]; last.DecisionID != id || last.Label != gating.Skip || last.Source != gating.SourceUser || last.Input.Layer != "verify" {
		t.Errorf("decision label %+v", last)
	}
	// Labelled again, a decision counts once, with its last label: learn
	// below still counts 5 user labels.
	for _, again := range []string{"--debate", "--skip"} {
		out, errs, code = dcli(t, root, "gate", "label", "--decision", id, again)
		if code != 0 || !strings.Contains(out, "it replaces your earlier label") {
			t.Fatalf("relabel %s: exit %d %q %q", again, code, out, errs)
		}
	}
	if !strings.Contains(out, "it replaces your earlier label debate") {
		t.Errorf("relabel names the wrong earlier label: %q", out)
	}

	// gate learn: user labels plus the two outcome labels; the new model
	// is not worse on them, so it is installed and decisions name it.
	out, errs, code = dcli(t, root, "--json", "gate", "learn")
	if code != 0 {
		t.Fatalf("learn: exit %d %s", code, errs)
	}
	var lr struct {
		Labels    map[string]int `json:"labels"`
		Installed bool           `json:"installed"`
		NotWorse  bool           `json:"not_worse"`
		Current   struct {
			Model string            `json:"model"`
			Score gating.LabelScore `json:"score"`
		} `json:"current"`
		New struct {
			Model string            `json:"model"`
			Score gating.LabelScore `json:"score"`
		} `json:"new"`
	}
	if err := json.Unmarshal([]byte(out), &lr); err != nil {
		t.Fatal(err)
	}
	if lr.Labels["user"] != 5 || lr.Labels["outcome"] != 2 || lr.Current.Model != gating.EmbeddedName || lr.Current.Score.N != 7 {
		t.Errorf("learn counted %+v", lr)
	}
	if !lr.Installed || !lr.NotWorse || lr.New.Score.Recall < lr.Current.Score.Recall || lr.New.Score.SkipRate < lr.Current.Score.SkipRate {
		t.Fatalf("learn did not install a model that is not worse: %s", out)
	}
	modelPath := filepath.Join(root, gating.ModelName)
	installed, err := os.ReadFile(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	if gating.ModelFileName(installed) != lr.New.Model {
		t.Errorf("installed %s, learn reported %s", gating.ModelFileName(installed), lr.New.Model)
	}
	out, _, _ = runT(t, hesitantMD, "--root", root, "--json", "gate")
	if d := decisionOf(t, out); d["model"] != lr.New.Model {
		t.Errorf("decision names model %v, want %s", d["model"], lr.New.Model)
	}
	out, _, _ = runT(t, hesitantMD, "--root", root, "gate")
	if !strings.Contains(out, "model:    "+lr.New.Model) {
		t.Errorf("printed decision does not name its model:\n%s", out)
	}

	// Learning again with no new label: the installed model has seen every
	// label, and learn says its figures are in-sample.
	out, _, _ = dcli(t, root, "gate", "learn")
	if !strings.Contains(out, "in-sample") {
		t.Errorf("second learn does not say the current model saw every label:\n%s", out)
	}
	// One new label: the comparison is made on it alone.
	if _, errs, code := runT(t, `{"layer":"spec","critique":"Unsure the spec allows this; nobody has read §4 yet and the owner is TBD.","label":"debate"}`+"\n",
		"--root", root, "gate", "label", "-"); code != 0 {
		t.Fatalf("label: %s", errs)
	}
	out, _, _ = dcli(t, root, "gate", "learn")
	if !strings.Contains(out, "compared on the 1 label(s) the current model was not trained on") {
		t.Errorf("learn after one new label:\n%s", out)
	}

	// --reset: the embedded model decides again.
	if out, _, code := dcli(t, root, "gate", "learn", "--reset"); code != 0 || !strings.Contains(out, "embedded model decides again") {
		t.Errorf("reset: exit %d %q", code, out)
	}
	if _, err := os.Stat(modelPath); !os.IsNotExist(err) {
		t.Errorf("model still there after --reset: %v", err)
	}
	out, _, _ = runT(t, hesitantMD, "--root", root, "--json", "gate")
	if d := decisionOf(t, out); d["model"] != gating.EmbeddedName {
		t.Errorf("after reset the decision names %v", d["model"])
	}
	// --reset again under --json: nothing left to remove, still one
	// JSON object on stdout (a script parses it either way).
	if out, _, code := dcli(t, root, "--json", "gate", "learn", "--reset"); code != 0 || strings.TrimSpace(out) != `{"model":"`+gating.EmbeddedName+`","reset":false}` {
		t.Errorf("second --json reset: exit %d %q", code, out)
	}

	// A worse model is refused. The current model here skips everything,
	// which is perfect on labels that all say skip; the user insists that
	// plainly hesitant critiques needed no debate, and a model trained on
	// the corpus plus those labels still debates some of them when they
	// are held out: worse on the user's labels, so not installed.
	root2 := filepath.Join(dir, "root2")
	var m gating.Model
	if err := json.Unmarshal(gating.EmbeddedModel(), &m); err != nil {
		t.Fatal(err)
	}
	m.Bias = -50
	skipAll, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root2, "gate"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root2, gating.ModelName), skipAll, 0o600); err != nil {
		t.Fatal(err)
	}
	insist := `{"layer":"spec","critique":"I think it might break, I'm not sure, nobody has tested the failover and the owner is TBD.","label":"skip"}
{"layer":"plan","critique":"Probably fine? Unclear whether the queue drains; I haven't checked and it could lose messages.","label":"skip"}
{"layer":"verify","critique":"Maybe fixed, maybe not. I couldn't reproduce it and I'm unsure the patch is even deployed.","label":"skip"}
`
	if _, errs, code := runT(t, insist, "--root", root2, "gate", "label", "-"); code != 0 {
		t.Fatalf("label: %s", errs)
	}
	out, errs, code = dcli(t, root2, "gate", "learn")
	if code != 0 || !strings.Contains(out, "not installed") || !strings.Contains(out, gating.ModelFileName(skipAll)) {
		t.Fatalf("learn of a worse model: exit %d %q %q", code, out, errs)
	}
	if now, _ := os.ReadFile(filepath.Join(root2, gating.ModelName)); !bytes.Equal(now, skipAll) {
		t.Error("a worse model replaced the current one")
	}
	// --force installs it anyway.
	out, _, code = dcli(t, root2, "gate", "learn", "--force")
	if now, _ := os.ReadFile(filepath.Join(root2, gating.ModelName)); code != 0 || bytes.Equal(now, skipAll) || !strings.Contains(out, "installed it anyway") {
		t.Errorf("--force: exit %d %q", code, out)
	}
}

// TestGateLearnWithoutLabels: learning needs labels, and says how to add
// them.
func TestGateLearnWithoutLabels(t *testing.T) {
	t.Parallel()
	_, errs, code := dcli(t, t.TempDir(), "gate", "learn")
	if code != cmdutil.ExitUsage || !strings.Contains(errs, "gate label") {
		t.Errorf("exit %d %q", code, errs)
	}
}

// An empty --decision (a shell variable that was not set) is said to be
// one: before, "gate label --decision $UNSET --debate" said "--debate and
// --skip go with --decision ID", though --decision was given.
func TestGateLabelWithAnEmptyDecisionSaysSo(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, id := range []string{"", "  "} {
		_, errs, code := dcli(t, root, "gate", "label", "--decision", id, "--debate")
		if code != cmdutil.ExitUsage || !strings.Contains(errs, "--decision needs the id of a logged decision") || strings.Contains(errs, "go with") {
			t.Errorf("--decision %q: exit %d, %q", id, code, errs)
		}
	}
}

// A learnt model that does not load stops every command that decides with
// it, and each names the command that removes it as the user runs parley:
// with their --root, not the default root's.
func TestABrokenLearntModelNamesResetWithTheCallersRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "my root")
	if err := os.MkdirAll(filepath.Join(root, "gate"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, gating.ModelName), []byte("{not a model"), 0o600); err != nil {
		t.Fatal(err)
	}
	crit := filepath.Join(dir, "critique.txt")
	if err := os.WriteFile(crit, []byte(hesitantCritique), 0o600); err != nil {
		t.Fatal(err)
	}
	labels := filepath.Join(dir, "labels.jsonl")
	if err := os.WriteFile(labels, []byte(userLabels), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := dcli(t, root, "gate", "label", labels); code != 0 {
		t.Fatalf("gate label: exit %d: %s", code, errs)
	}
	telemetry := filepath.Join(dir, "telemetry.jsonl")
	if err := os.WriteFile(telemetry, []byte(`{"timestamp":"2026-12-01T00:00:00Z","task_id":"t1","verdict":"DRIFT","confidence":0.5,"reasons":["x"]}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "(remove it with: " + suggest.CommandLine("parley", "--root", root, "gate", "learn", "--reset") + ")"
	for name, args := range map[string][]string{
		"gate":          {"gate", crit},
		"gate learn":    {"gate", "learn"},
		"debate --gate": {"debate", "run", "--layer", "spec", "--topic", "t", "--agent", "defender=exec:true", "--agent", "attacker=exec:true", "--gate", crit},
		"escalate":      {"escalate", "--telemetry", telemetry},
	} {
		_, errs, code := dcli(t, root, args...)
		if code != cmdutil.ExitError || !strings.Contains(errs, gating.ModelName) || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", name, code, errs, want)
		}
	}
	if _, errs, code := dcli(t, root, "gate", "learn", "--reset"); code != 0 {
		t.Fatalf("the advice as printed: exit %d: %s", code, errs)
	}
	if _, errs, code := dcli(t, root, "gate", crit); code != 0 {
		t.Errorf("gate after the reset: exit %d: %s", code, errs)
	}
}
