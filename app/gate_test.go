package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/durable"
)

func critique(t testing.TB, text string) gating.SelfCritique {
	t.Helper()
	sc, err := gating.ParseBytes([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// Decide logs each decision with its id, the layer given over the
// self-critique's, and the debate it is for; refused input logs nothing.
func TestDecideLogsWhatItDecided(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	g, err := a.LoadGate(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	doubtful := critique(t, "Draft: the retry loop is safe.\nSelf-check: I never ran it against a flaky network and I am unsure the backoff resets.\nConfidence: 40%")
	d, err := a.Decide(g, GateInput{Critique: doubtful, Layer: "verify", Source: "notes.md"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.ID) != 8 || d.Layer != debate.LayerVerify {
		t.Errorf("decision %+v", d)
	}
	entries, bad, err := a.GateLog()
	if err != nil || bad != 0 || len(entries) != 1 {
		t.Fatalf("log: %d entries, %d bad, %v", len(entries), bad, err)
	}
	if e := entries[0]; e.ID != d.ID || e.Source != "notes.md" || e.Outcome != d.Outcome || e.Input == nil {
		t.Errorf("logged %+v, decided %+v", e, d)
	}

	// The layer of a debate and its topic fill what the self-critique
	// leaves out (GateDebate).
	s := &debate.DebateSession{ID: "20261201-plan-queue-sharding-abcdef", Topic: "Shard the job queue by tenant", Layer: debate.LayerPlan}
	e, err := a.GateDebate(s, g, critique(t, "I think sharding by tenant is fine but I did not measure the hot tenants."), "-")
	if err != nil {
		t.Fatal(err)
	}
	if e.DebateID != s.ID || e.Question != s.Topic || e.Layer != debate.LayerPlan {
		t.Errorf("GateDebate entry %+v", e)
	}

	for name, tc := range map[string]struct {
		in   GateInput
		want func(error) bool
	}{
		"unknown layer": {GateInput{Critique: doubtful, Layer: "deploy", Source: "-"}, func(err error) bool {
			var ie *Error
			return errors.As(err, &ie) && ie.Field == "layer" && ie.Problem == ProblemInvalid
		}},
		"no critique": {GateInput{Critique: gating.SelfCritique{FinalAnswer: "Ship it."}, Source: "empty.md"}, func(err error) bool {
			var ce *Error
			return errors.As(err, &ce) && ce.Field == FieldCritique && ce.Value == "empty.md" && ce.Problem == ProblemFile &&
				errors.Is(err, gating.ErrNoCritique) && strings.HasPrefix(err.Error(), "empty.md: ")
		}},
	} {
		if _, err := a.Decide(g, tc.in); !tc.want(err) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if entries, _, _ := a.GateLog(); len(entries) != 2 {
		t.Errorf("refused input was logged: %d entries", len(entries))
	}
}

// A server logs only into a root that exists: it never makes one.
func TestAppendGateLogWithoutCreate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "gone")
	err := AppendGateLog(dir, false, gating.LogEntry{ID: "0123abcd"})
	if err == nil || !strings.Contains(err.Error(), "the decision was not recorded") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the root was made: %v", err)
	}
}

func TestGateModes(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	var ie *Error
	if _, err := GateFor("vibes", gating.Default()); !errors.As(err, &ie) || ie.Field != "mode" || ie.Problem != ProblemInvalid {
		t.Errorf("unknown mode: %v", err)
	}
	if g, err := GateFor("rules", gating.Default()); err != nil || g.Mode() != gating.ModeRules {
		t.Errorf("rules: %v", err)
	}
	if _, err := a.LoadGate(context.Background(), "rules", "model.json"); !errors.As(err, &ie) || ie.Field != "model" {
		t.Errorf("a model file with the rules: %v", err)
	}
	// A broken learnt model says how to remove it.
	if err := os.MkdirAll(filepath.Join(a.Root(), "gate"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a.Root(), gating.ModelName), []byte("{not a model"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RootGate(); err == nil || !strings.Contains(err.Error(), "gate learn --reset") {
		t.Errorf("broken model: %v", err)
	}
	// The command is named in braces, for each front end to word as it
	// runs it (the CLI with the caller's --root).
	if _, err := a.RootGate(); !errors.As(err, &ie) || ie.Problem != ProblemState ||
		!strings.HasSuffix(ie.Format(func(f string) string { return "<" + f + ">" }), "(remove it with: <parley gate learn --reset>)") {
		t.Errorf("broken model: %#v", err)
	}
	if removed, _, err := a.ResetGate(context.Background()); !removed || err != nil {
		t.Errorf("reset: %v %v", removed, err)
	}
	if g, err := a.RootGate(); err != nil || g.Name() != gating.Default().Name() {
		t.Errorf("after reset: %v", err)
	}
	if removed, _, err := a.ResetGate(context.Background()); removed || err != nil {
		t.Errorf("second reset: %v %v", removed, err)
	}
	// A reset where there was never a model creates nothing.
	b := newApp(t)
	if err := os.MkdirAll(b.Root(), 0o700); err != nil {
		t.Fatal(err)
	}
	if removed, _, err := b.ResetGate(context.Background()); removed || err != nil {
		t.Errorf("reset without a model: %v %v", removed, err)
	}
	if _, err := os.Lstat(filepath.Join(b.Root(), gating.LabelDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reset without a model made the gate's folder: %v", err)
	}
}

// Labelling a decision: an unknown id is the user's mistake; one logged
// without its self-critique cannot be learnt from; a good one is added.
// Learning with no label at all says so, with the warnings it has.
func TestLabelAndLearnRefusals(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	if err := os.MkdirAll(filepath.Join(a.Root(), "gate"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a.Root(), gating.LabelsName), []byte("{broken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := a.Learn(context.Background(), 3, false)
	if !errors.Is(err, ErrNoLabels) || res == nil || len(res.Warnings) != 1 {
		t.Fatalf("learn without labels: %+v %v", res, err)
	}
	if b, err := res.MarshalJSON(); err != nil || !strings.Contains(string(b), `"warnings":["1 line(s) of`) {
		t.Errorf("learn without labels as JSON: %s %v", b, err)
	}
	if err := os.Remove(filepath.Join(a.Root(), gating.LabelsName)); err != nil {
		t.Fatal(err)
	}

	g := gating.Default()
	d, err := a.Decide(g, GateInput{Critique: critique(t, "Self-check: I am not sure the cache key includes the tenant."), Source: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.LogDecision(gating.LogEntry{ID: "feedf00d", Decision: d.Decision, Source: "old"}); err != nil {
		t.Fatal(err)
	}
	var ie *Error
	if _, err := a.LabelDecision("0000", true); !errors.As(err, &ie) || ie.Problem != ProblemNotFound {
		t.Errorf("unknown decision: %v", err)
	}
	if l, err := a.LabelDecision("feed", true); !errors.Is(err, ErrUnlabellable) || l == nil || l.DecisionID != "feedf00d" {
		t.Errorf("decision without input: %v", err)
	}
	l, err := a.LabelDecision(d.ID[:5], false)
	if err != nil || l.DecisionID != d.ID || l.Label != gating.Skip || l.GateDecided != d.Outcome || l.Labelled != 1 {
		t.Fatalf("label: %+v %v", l, err)
	}
	labels, bad, err := a.GateLabels()
	if err != nil || bad != 0 || len(labels) != 1 || labels[0].DecisionID != d.ID || labels[0].Label != gating.Skip {
		t.Errorf("labels %+v %d %v", labels, bad, err)
	}

	// A file of labels is added whole, or not at all.
	n, err := a.AddLabels(strings.NewReader(`{"layer":"verify","text":"Fixed; TestUpload passes on CI.","label":"skip"}`+"\n"+`{"text":"no label here"}`+"\n"), "mine.jsonl")
	if err == nil || n != nil || !strings.Contains(err.Error(), "nothing was added") {
		t.Errorf("a bad line: %v %v", n, err)
	}
	if _, err := a.AddLabels(strings.NewReader(""), "empty.jsonl"); !errors.As(err, &ie) {
		t.Errorf("no line: %v", err)
	}
	if labels, _, _ := a.GateLabels(); len(labels) != 1 {
		t.Errorf("refused files added labels: %d", len(labels))
	}
}

// TestAddLabelsSaysWhatItRelabels: a file of labels added twice, or a
// self-critique labelled twice in one file, counts once in training; gate
// label says how many of its labels replace an earlier one of the same
// self-critique, and how many of those change it.
func TestAddLabelsSaysWhatItRelabels(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	file := `{"layer":"verify","text":"Maybe broken; not sure.","label":"skip"}
{"layer":"verify","text":"Maybe broken; not sure.","label":"debate"}
{"layer":"verify","text":"Fixed; TestUpload passes on CI.","label":"skip"}
`
	n, err := a.AddLabels(strings.NewReader(file), "mine.jsonl")
	if err != nil || *n != (Labelled{Labelled: 3, Debate: 1, Skip: 2, Replaced: 1, Changed: 1}) {
		t.Fatalf("first add: %+v %v", n, err)
	}
	n, err = a.AddLabels(strings.NewReader(file), "mine.jsonl")
	if err != nil || *n != (Labelled{Labelled: 3, Debate: 1, Skip: 2, Replaced: 3, Changed: 2}) {
		t.Fatalf("the same file again: %+v %v", n, err)
	}
}

// TestTrainGateRefusesWhatCannotBeWritten: an --out that is a directory is
// refused before the training, and a bad option names the corpus it was
// training on, the shipped one included.
func TestTrainGateRefusesWhatCannotBeWritten(t *testing.T) {
	dir := t.TempDir()
	_, err := TrainGate(context.Background(), "", dir, gating.TrainOptions{})
	if !IsProblem(err, ProblemFile) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("out a directory: %v", err)
	}
	// An out in a directory that does not exist is refused before the
	// training, naming the directory, not its staging file.
	missing := filepath.Join(dir, "no", "m.json")
	_, err = TrainGate(context.Background(), "", missing, gating.TrainOptions{TargetRecall: 2})
	if !IsProblem(err, ProblemFile) || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), filepath.Join(dir, "no")+" does not exist") {
		t.Errorf("out in a missing directory: %v", err)
	}
	_, err = TrainGate(context.Background(), "", filepath.Join(dir, "m.json"), gating.TrainOptions{TargetRecall: 2})
	var oe *gating.OptionError
	if !errors.As(err, &oe) || oe.Option != "target_recall" || !strings.HasPrefix(err.Error(), "the shipped corpus: ") {
		t.Errorf("target recall 2: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("a refused training wrote a model")
	}
	// "-" (standard input for --data) is no file to write: it used to
	// make a file named "-" in the working directory.
	t.Chdir(dir)
	_, err = TrainGate(context.Background(), "", "-", gating.TrainOptions{})
	if !IsProblem(err, ProblemFile) || err.Error() != "out -: the model is written to a file, not to standard output: name the file (./- for a file named -)" {
		t.Errorf("out -: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "-")); err == nil {
		t.Error(`a model was written to a file named "-"`)
	}
}

// "gate train --data FILE --out FILE" with both naming the same file (by
// the same path or through a link) is refused before anything is read or
// written: the model used to replace the user's labelled corpus.
func TestTrainGateDoesNotWriteTheModelOverItsCorpus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus.jsonl")
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, `{"critique":"I am not sure about case %d; I never ran it.","label":"debate"}`+"\n", i)
		fmt.Fprintf(&b, `{"critique":"Fixed; go test ./x passes (TestX%d at x_test.go:%d).","final_confidence":0.9,"label":"skip"}`+"\n", i, i+1)
	}
	if err := os.WriteFile(corpus, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(corpus, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{corpus, filepath.Join(dir, ".", "corpus.jsonl"), link} {
		_, err := TrainGate(context.Background(), corpus, out, gating.TrainOptions{})
		var ie *Error
		if !errors.As(err, &ie) || ie.Problem != ProblemFile || ie.Field != "out" || !strings.Contains(err.Error(), "is the corpus --data reads") {
			t.Errorf("out %s: %v, want a refusal naming the corpus", out, err)
		}
		if got, _ := os.ReadFile(corpus); string(got) != b.String() {
			t.Fatalf("out %s: the corpus was overwritten", out)
		}
	}
	// Another file is written as before.
	if _, err := TrainGate(context.Background(), corpus, filepath.Join(dir, "model.json"), gating.TrainOptions{}); err != nil {
		t.Errorf("out another file: %v", err)
	}
}

// A "gate learn" killed between staging the model and renaming it into
// place leaves the old model as it was and at most a staging file beside
// it, in the gate's folder under the root (never in $TMPDIR), named as
// gc knows staging files: once stale, "parley gc" removes it, and keeps
// the labels and the model. The error names the model, not the staging
// file.
func TestLearnKilledMidWriteLeavesOnlyWhatGCRemoves(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(t)
	if _, err := a.Init(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AddLabels(strings.NewReader(`{"layer":"verify","text":"Fixed; TestUpload passes on CI.","label":"skip"}`+"\n"), "mine.jsonl"); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(a.Root(), gating.ModelName)
	if err := a.installModel(durable.Root, []byte(`{"old":true}`)); err != nil {
		t.Fatal(err)
	}
	// The crash: the rename never happens, nor the clean-up after it.
	crash := func(r *os.Root) durable.FS {
		f := &durable.FaultFS{FS: durable.Root(r)}
		f.Fail("rename", "model.json", syscall.EIO, 1)
		f.Fail("remove", "model.json", syscall.EIO, 1)
		return f
	}
	err := a.installModel(crash, []byte(`{"new":true}`))
	if !errors.Is(err, syscall.EIO) || err.Error() != "write model "+model+": input/output error" {
		t.Fatalf("a crashed install: %v", err)
	}
	if b, err := os.ReadFile(model); err != nil || string(b) != `{"old":true}` {
		t.Fatalf("the model after a crashed install: %q %v", b, err)
	}
	ents, err := os.ReadDir(filepath.Dir(model))
	if err != nil {
		t.Fatal(err)
	}
	var staged []string
	for _, e := range ents {
		if e.Name() != "model.json" && e.Name() != "labels.jsonl" {
			staged = append(staged, e.Name())
		}
	}
	if len(staged) != 1 || !durable.IsStagingName(staged[0]) {
		t.Fatalf("the gate's folder holds %v besides the model and labels; want one staging file", staged)
	}
	tmp := filepath.Join(filepath.Dir(model), staged[0])
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(tmp, old, old); err != nil {
		t.Fatal(err)
	}
	st, err := a.Collect(ctx, 7*24*time.Hour)
	if err != nil || st.Staging != 1 || len(st.Warnings) != 0 {
		t.Fatalf("Collect = %+v, %v; want the staging file removed", st, err)
	}
	if _, err := os.Lstat(tmp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s stays: %v", tmp, err)
	}
	if labels, bad, err := a.GateLabels(); err != nil || bad != 0 || len(labels) != 1 {
		t.Errorf("the labels after gc: %d, %d bad, %v", len(labels), bad, err)
	}
}

// Two "gate learn" at once on one root: the one that started first, with
// fewer labels, used to install its model last, over the model of the
// one that had the newer label and said it installed it. Now a learn
// waits (saying so) for the one at work, then compares with the model
// that one installed and trains on every label.
func TestLearnWaitsForTheLearnAtWork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	busy := make(chan struct{}, 1)
	dir := t.TempDir()
	a := New(Options{Root: filepath.Join(dir, "root"), Vault: filepath.Join(dir, "vault"), Notify: func(n Notice) {
		if n.Kind == NoticeGateBusy {
			busy <- struct{}{}
		}
	}})
	first := `{"layer":"verify","text":"Fixed; go test ./upload passes (TestUpload, upload_test.go:12).","label":"skip"}` + "\n" +
		`{"layer":"verify","text":"I am not sure the retry covers a timeout; I never ran it.","label":"debate"}` + "\n"
	if _, err := a.AddLabels(strings.NewReader(first), "first.jsonl"); err != nil {
		t.Fatal(err)
	}
	// The learn at work: it read these two labels and the embedded model,
	// and is about to install what it trained.
	unlock, err := a.lockGate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	labels, _, err := a.GateLabels()
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := gating.Corpus()
	if err != nil {
		t.Fatal(err)
	}
	older, err := gating.Learn(corpus, labels, gating.Default(), gating.LearnOptions{Folds: 2})
	if err != nil {
		t.Fatal(err)
	}
	olderFile, err := older.Model.Encode()
	if err != nil {
		t.Fatal(err)
	}
	// Meanwhile a new label, and a second learn.
	if _, err := a.AddLabels(strings.NewReader(`{"layer":"verify","text":"I doubt the migration ran at all.","label":"debate"}`+"\n"), "new.jsonl"); err != nil {
		t.Fatal(err)
	}
	type learned struct {
		l   *Learned
		err error
	}
	done := make(chan learned, 1)
	go func() {
		l, err := a.Learn(ctx, 2, true)
		done <- learned{l, err}
	}()
	var second learned
	select {
	case <-busy: // it waits for the learn at work
	case second = <-done:
	}
	if err := a.installModel(durable.Root, olderFile); err != nil {
		t.Fatal(err)
	}
	unlock()
	if second.l == nil && second.err == nil {
		second = <-done
	}
	if second.err != nil || !second.l.Installed {
		t.Fatalf("the second learn: %+v %v", second.l, second.err)
	}
	if second.l.User != 3 || second.l.CurrentName != gating.ModelFileName(olderFile) {
		t.Errorf("the second learn trained on %d label(s) and compared with %s; want 3, and the model the first installed (%s)",
			second.l.User, second.l.CurrentName, gating.ModelFileName(olderFile))
	}
	g, err := a.RootGate()
	if err != nil {
		t.Fatal(err)
	}
	if g.Name() != second.l.NewName {
		t.Fatalf("installed: %s; want the second learn's %s", g.Name(), second.l.NewName)
	}
	if n := len(g.Model().Training.LabelKeys); n != 3 {
		t.Errorf("the installed model saw %d label(s); want 3", n)
	}
}
