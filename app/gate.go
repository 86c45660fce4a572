package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/flock"
	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/internal/userfile"
)

// GateFor is the gate that decides in mode: model (also "") decides with
// model, rules with the starter rule. An unknown mode is an *Error
// (ProblemInvalid).
func GateFor(mode string, model *gating.Gate) (*gating.Gate, error) {
	if mode == "" {
		mode = string(gating.ModeModel)
	}
	m, err := gating.ParseMode(mode)
	if err != nil {
		return nil, refuse(ProblemInvalid, "mode", err)
	}
	if m == gating.ModeRules {
		return gating.Rules(), nil
	}
	return model, nil
}

// LoadGate is the gate for mode with the model of modelFile, or when that
// is "" the root's learnt model (RootGate). A model file with the rules
// mode is an *Error (ProblemInvalid).
func (a *App) LoadGate(ctx context.Context, mode, modelFile string) (*gating.Gate, error) {
	rules, err := GateFor(mode, nil)
	if err != nil {
		return nil, err
	}
	if rules != nil {
		if modelFile != "" {
			return nil, refuse(ProblemInvalid, "model", errors.New("applies to the model mode only"))
		}
		return rules, nil
	}
	if modelFile == "" {
		return a.RootGate()
	}
	data, err := readInput(ctx, modelFile, gating.MaxModelBytes)
	if err != nil {
		return nil, refuse(ProblemFile, "model", err)
	}
	g, err := gating.LoadModelFile(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", modelFile, err)
	}
	return g, nil
}

// RootGate is the gate of <root>/gate/model.json (installed by Learn) when
// there is one, else the embedded model's. The model is read under the
// root as a regular file of at most gating.MaxModelBytes: a symbolic link
// out of the root or a named pipe (which would block open(2) for good) in
// its place, or a model that does not load, is an *Error of ProblemState
// that says how to remove it ("{parley gate learn --reset}", for each
// front end to word as it runs it); a directory is ErrModelIsDirectory,
// which its owner removes, and a gate folder that is a link out of the
// root ErrGateOutsideRoot, whose link its owner removes.
func (a *App) RootGate() (*gating.Gate, error) {
	path := filepath.Join(a.root, gating.ModelName)
	data, err := readRootModel(a.root)
	if errors.Is(err, fs.ErrNotExist) {
		return gating.Default(), nil
	}
	var nr *regfile.NotRegularError
	if errors.As(err, &nr) && nr.Mode.IsDir() {
		return nil, fmt.Errorf("%s %w", path, ErrModelIsDirectory)
	}
	if err := a.gateOutside(err); errors.Is(err, ErrGateOutsideRoot) {
		return nil, err
	}
	if err == nil {
		var g *gating.Gate
		if g, err = gating.LoadModelFile(data); err == nil {
			return g, nil
		}
	}
	return nil, newError(ProblemState, "", err, "%s: %v (remove it with: {parley gate learn --reset})", path, err)
}

// gateOutside is err, a failure of an operation in the gate's folder
// (<root>/gate), as ErrGateOutsideRoot naming the folder when the folder
// is a symbolic link out of the root, which os.Root refuses to follow;
// else err as it is.
func (a *App) gateOutside(err error) error {
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return err
	}
	r, rerr := os.OpenRoot(a.root)
	if rerr != nil {
		return err
	}
	defer r.Close()
	if fi, lerr := r.Lstat(gating.LabelDir); lerr != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return err
	}
	// A link inside the root is followed (a dangling one is no folder).
	if _, serr := r.Stat(gating.LabelDir); serr == nil || errors.Is(serr, fs.ErrNotExist) {
		return err
	}
	return fmt.Errorf("%s %w", filepath.Join(a.root, gating.LabelDir), ErrGateOutsideRoot)
}

// readRootModel reads <root>/gate/model.json through os.Root and
// regfile.Open; a missing root or file is fs.ErrNotExist.
func readRootModel(dir string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, _, err := regfile.Open(root.OpenFile, gating.ModelName)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, gating.MaxModelBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > gating.MaxModelBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", gating.ErrTooLarge, gating.MaxModelBytes)
	}
	return data, nil
}

// GateInput is one self-critique to decide on.
type GateInput struct {
	Critique gating.SelfCritique
	// Layer, when set, overrides the self-critique's (spec, plan, verify).
	Layer string
	// Source names where the self-critique came from in the decision log:
	// a file, "-" for standard input, "mcp".
	Source string
	// DebateID is the debate the decision is for, when one runs after it.
	DebateID string
	// Question is the question the log names when the self-critique
	// states none (a debate's topic).
	Question string
}

// GateDecision is a decision with the id it has in gate.jsonl: what
// "parley gate --json" prints.
type GateDecision struct {
	ID string `json:"id"`
	gating.Decision
	// Labellable says whether the log kept the self-critique, so that
	// "gate label --decision ID" can label it (false for one too large).
	Labellable bool `json:"-"`
}

// Decide decides debate or skip for in with g and hands the decision to
// log (nil: not logged). A layer that means nothing is an *Error of
// ProblemInvalid; a self-critique the gate cannot decide on (no critique,
// a confidence out of range), a critique error (CritiqueError).
func Decide(g *gating.Gate, in GateInput, log func(gating.LogEntry) error) (*GateDecision, error) {
	e, err := decide(g, in, log)
	if err != nil {
		return nil, err
	}
	return &GateDecision{ID: e.ID, Decision: e.Decision, Labellable: e.Input != nil}, nil
}

// decide is Decide, with the whole log entry.
func decide(g *gating.Gate, in GateInput, log func(gating.LogEntry) error) (gating.LogEntry, error) {
	sc := in.Critique
	if in.Layer != "" {
		l, err := debate.ParseLayer(in.Layer)
		if err != nil {
			return gating.LogEntry{}, refuse(ProblemInvalid, "layer", err)
		}
		sc.Layer = l
	}
	d, err := g.Decide(sc)
	if err != nil {
		return gating.LogEntry{}, CritiqueError(in.Source, err)
	}
	e := gating.NewLogEntry(d, sc, in.Source, time.Now())
	e.DebateID = in.DebateID
	if e.Question == "" {
		e.Question = in.Question
	}
	if log != nil {
		if err := log(e); err != nil {
			return gating.LogEntry{}, err
		}
	}
	return e, nil
}

// FieldCritique names a self-critique (read from a file, standard input
// or a tool's arguments) in an *Error.
const FieldCritique = "critique"

// CritiqueError is the error of a self-critique the gate cannot read or
// decide on: an *Error of ProblemFile on FieldCritique whose Value is
// where it came from (GateInput.Source), whose cause (Err) is the
// gate's (gating.ErrConfidence, …) and whose message is "source: cause".
func CritiqueError(source string, cause error) *Error {
	e := newError(ProblemFile, FieldCritique, cause, "%s: %v", source, cause)
	e.Value = source
	return e
}

// Decide decides for in with g and appends the decision to the root's
// gate.jsonl, creating the root (0700) when it is missing.
func (a *App) Decide(g *gating.Gate, in GateInput) (*GateDecision, error) {
	return Decide(g, in, a.LogDecision)
}

// LogDecision appends a decision to <root>/gate.jsonl, creating the root
// (0700) when it is missing.
func (a *App) LogDecision(e gating.LogEntry) error {
	return AppendGateLog(a.root, true, e)
}

// AppendGateLog appends a decision to dir/gate.jsonl; with create, dir is
// made (0700) when it is missing.
func AppendGateLog(dir string, create bool, e gating.LogEntry) error {
	root, err := openRoot(dir, create)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := gating.AppendLog(root, e); err != nil {
		return fmt.Errorf("%s: %w (the decision was not recorded)", dir, err)
	}
	return nil
}

// openRoot opens dir as an os.Root; with create, it is made (0700) first.
func openRoot(dir string, create bool) (*os.Root, error) {
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create root: %w", err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil && !create {
		return nil, fmt.Errorf("%s: %w (the decision was not recorded)", dir, err)
	}
	return root, err
}

// GateLog reads <root>/gate.jsonl: the decisions, and how many lines could
// not be read. A missing root or file is no decision at all.
func (a *App) GateLog() ([]gating.LogEntry, int, error) {
	return readRootJSONL(a.root, gating.LogName, gating.ReadLog)
}

// GateLabels reads <root>/gate/labels.jsonl: the labels, and how many
// lines could not be read. A gate folder that is a symbolic link out of
// the root is ErrGateOutsideRoot.
func (a *App) GateLabels() ([]gating.Label, int, error) {
	labels, bad, err := readRootJSONL(a.root, gating.LabelsName, gating.ReadLabels)
	return labels, bad, a.gateOutside(err)
}

// readRootJSONL opens name under the root as a regular file (a named pipe
// must not block in open(2)) and reads it with read.
func readRootJSONL[T any](dir, name string, read func(io.Reader) ([]T, int, error)) ([]T, int, error) {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	f, _, err := regfile.Open(root.OpenFile, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0, nil
	case errors.Is(err, regfile.ErrNotRegular):
		return nil, 0, fmt.Errorf("%w: remove it", err)
	case err != nil:
		return nil, 0, err
	}
	defer f.Close()
	return read(f)
}

// OutcomeLabels derives the outcome labels of the logged debate decisions
// from the verdicts of their debates (see gating.OutcomeLabel). Debates
// that cannot be read give none.
func (a *App) OutcomeLabels(entries []gating.LogEntry) []gating.Label {
	has := false
	for _, e := range entries {
		if e.DebateID != "" && e.Outcome == gating.Debate {
			has = true
			break
		}
	}
	if !has {
		return nil
	}
	st, err := a.OpenDebates()
	if err != nil {
		return nil
	}
	defer st.Close()
	return gating.OutcomeLabels(entries, func(id string) (*debate.Outcome, string, error) {
		v, err := st.Verdict(id)
		if err != nil {
			return nil, "", err
		}
		s, err := st.Session(id)
		if err != nil {
			return nil, "", err
		}
		return &v.Outcome, s.OpeningPosition(), nil
	})
}

// GateStats summarises gate.jsonl: decisions, skip rate, tokens saved
// against always debating at each layer's budget, and the precision of
// debate decisions whose debates labelled them. Warnings name what was
// skipped.
func (a *App) GateStats() (gating.Stats, []string, error) {
	cfg, err := a.Config()
	if err != nil {
		return gating.Stats{}, nil, err
	}
	entries, bad, err := a.GateLog()
	if err != nil {
		return gating.Stats{}, nil, err
	}
	s := gating.Summarize(entries, bad, func(l debate.Layer) int { return cfg.Budget(l).MaxTokens })
	s.AddOutcomes(entries, a.OutcomeLabels(entries))
	var warnings []string
	if bad > 0 {
		warnings = append(warnings, fmt.Sprintf("%d line(s) of %s could not be read and were skipped", bad, gating.LogName))
	}
	return s, warnings, nil
}

// labelTime is the time a label is stamped with.
func labelTime() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// ErrUnlabellable means a logged decision kept no self-critique to label:
// logged by an older parley, or larger than gating.MaxLoggedInput as JSON.
var ErrUnlabellable = errors.New("the decision was logged without its self-critique")

// DecisionLabel is a logged decision labelled: what "gate label
// --decision --json" prints.
type DecisionLabel struct {
	DecisionID  string         `json:"decision_id"`  // the decision's whole id
	GateDecided gating.Outcome `json:"gate_decided"` // what the gate decided
	Label       gating.Outcome `json:"label"`        // what it should have decided
	Labelled    int            `json:"labelled"`     // 1
	// Replaced is the user's earlier label of the same self-critique,
	// which this one replaces in training; "" when there was none.
	Replaced gating.Outcome `json:"replaced,omitempty"`
}

// LabelDecision labels the decision of gate.jsonl whose id (or unique
// prefix) is id: its question deserved a debate (debate) or not. An id
// that names no decision is an *Error (ProblemNotFound; ProblemAmbiguous
// when several start with it, ProblemMissing when it is empty); one
// logged without its self-critique, ErrUnlabellable (with the decision's
// id and outcome).
func (a *App) LabelDecision(id string, debate bool) (*DecisionLabel, error) {
	entries, _, err := a.GateLog()
	if err != nil {
		return nil, err
	}
	e, err := gating.FindDecision(entries, id)
	switch {
	case errors.Is(err, gating.ErrNoDecision):
		return nil, refuse(ProblemNotFound, "", err)
	case errors.Is(err, gating.ErrAmbiguousDecision):
		return nil, refuse(ProblemAmbiguous, "", err)
	case err != nil:
		return nil, refuse(ProblemMissing, "", err)
	}
	out := &DecisionLabel{DecisionID: e.ID, GateDecided: e.Outcome, Label: gating.Skip, Labelled: 1}
	if e.Input == nil {
		return out, ErrUnlabellable
	}
	if debate {
		out.Label = gating.Debate
	}
	l := gating.Label{Time: labelTime(), Source: gating.SourceUser, Label: out.Label, DecisionID: e.ID, DebateID: e.DebateID,
		Why: "the gate decided " + string(e.Outcome), Input: *e.Input}
	earlier, _, err := a.GateLabels()
	if err != nil {
		return nil, err
	}
	key := gating.CritiqueKey(l.Input)
	for _, p := range earlier {
		if p.Source == gating.SourceUser && gating.CritiqueKey(p.Input) == key {
			out.Replaced = p.Label
		}
	}
	return out, a.appendLabels([]gating.Label{l})
}

// Labelled counts the labels AddLabels added.
type Labelled struct {
	Labelled int `json:"labelled"`
	Debate   int `json:"debate"`
	Skip     int `json:"skip"`
	// Replaced counts the labels that replace, in training, an earlier
	// label of the same self-critique (in labels.jsonl or earlier in the
	// input); Changed those of them that label it otherwise.
	Replaced int `json:"replaced"`
	Changed  int `json:"changed"`
}

// AddLabels appends the labelled self-critiques r holds (JSON Lines, see
// gating.ReadLabelInput) to <root>/gate/labels.jsonl: all of them, or none
// when a line is bad. source names r in errors.
func (a *App) AddLabels(r io.Reader, source string) (*Labelled, error) {
	ex, err := gating.ReadLabelInput(r)
	if err != nil {
		return nil, newError(ProblemFile, "", err, "%s: %v (nothing was added)", source, err)
	}
	if len(ex) == 0 {
		return nil, newError(ProblemFile, "", nil, "%s holds no labelled self-critique", source)
	}
	earlier, _, err := a.GateLabels()
	if err != nil {
		return nil, err
	}
	last := map[string]gating.Outcome{}
	for _, p := range earlier {
		if p.Source == gating.SourceUser {
			last[gating.CritiqueKey(p.Input)] = p.Label
		}
	}
	now := labelTime()
	labels := make([]gating.Label, len(ex))
	n := &Labelled{Labelled: len(ex)}
	for i, e := range ex {
		labels[i] = gating.Label{Time: now, Source: gating.SourceUser, Label: e.Label, Why: e.ID, Input: e.SelfCritique}
		if e.Label == gating.Debate {
			n.Debate++
		} else {
			n.Skip++
		}
		key := gating.CritiqueKey(e.SelfCritique)
		if prev, ok := last[key]; ok {
			n.Replaced++
			if prev != e.Label {
				n.Changed++
			}
		}
		last[key] = e.Label
	}
	if err := a.appendLabels(labels); err != nil {
		return nil, err
	}
	return n, nil
}

// appendLabels appends labels to <root>/gate/labels.jsonl, creating the
// root (0700) when it is missing.
func (a *App) appendLabels(labels []gating.Label) error {
	root, err := openRoot(a.root, true)
	if err != nil {
		return err
	}
	defer root.Close()
	return a.gateOutside(gating.AppendLabels(root, labels))
}

// ErrNoLabels means Learn found nothing to learn from: no user label and
// no outcome label.
var ErrNoLabels = errors.New("no labels yet")

// Learned is what Learn did.
type Learned struct {
	*gating.LearnResult
	// CurrentName and NewName name the models compared (the new one by
	// the hash of its file).
	CurrentName, NewName string
	// Path is where the learnt model is installed.
	Path string
	// Installed says whether the new model was installed.
	Installed bool
	// Warnings name what was skipped.
	Warnings []string
}

// MarshalJSON is what "gate learn --json" prints: the labels and corpus
// trained on, both models' figures, and whether the new one was installed.
func (l *Learned) MarshalJSON() ([]byte, error) {
	if l.LearnResult == nil { // ErrNoLabels: nothing was trained
		return json.Marshal(map[string]any{"warnings": l.Warnings})
	}
	return json.Marshal(map[string]any{
		"labels": map[string]int{"user": l.User, "outcome": l.Outcomes}, "corpus": l.Corpus,
		"current":   map[string]any{"model": l.CurrentName, "score": l.Current},
		"new":       map[string]any{"model": l.NewName, "score": l.New, "cross_validated": true},
		"not_worse": l.NotWorse, "installed": l.Installed, "current_saw_all": l.CurrentSawAll,
	})
}

// Learn trains on the shipped corpus plus the user's labels and the
// outcome labels of debates the gate sent to debate, compares the new
// model with the current one on the labels the current one was not
// trained on, and installs it as <root>/gate/model.json when it is not
// worse, or when force. With no label at all it is ErrNoLabels, and
// the result carries only its warnings. It runs under the gate's lock
// (lockGate), from reading the labels and the current model to
// installing the new one: a concurrent Learn or ResetGate of the same
// root (in any process) waits for it, as long as ctx allows.
func (a *App) Learn(ctx context.Context, folds int, force bool) (*Learned, error) {
	unlock, err := a.lockGate(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	user, bad, err := a.GateLabels()
	if err != nil {
		return nil, err
	}
	out := &Learned{Path: filepath.Join(a.root, gating.ModelName)}
	if bad > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d line(s) of %s could not be read and were skipped", bad, gating.LabelsName))
	}
	entries, _, err := a.GateLog()
	if err != nil {
		return nil, err
	}
	labels := append(user, a.OutcomeLabels(entries)...)
	if len(labels) == 0 {
		return out, ErrNoLabels
	}
	corpus, err := gating.Corpus()
	if err != nil {
		return nil, err
	}
	current, err := a.RootGate()
	if err != nil {
		return nil, err
	}
	res, err := gating.Learn(corpus, labels, current, gating.LearnOptions{Folds: folds})
	if err != nil {
		return nil, err
	}
	b, err := res.Model.Encode()
	if err != nil {
		return nil, err
	}
	out.LearnResult, out.CurrentName, out.NewName = res, current.Name(), gating.ModelFileName(b)
	out.Installed = res.NotWorse || force
	if out.Installed {
		if err := a.installModel(durable.Root, b); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// NoticeGateBusy: another Learn or ResetGate holds the gate's lock on
// the root; the App waits for it.
const NoticeGateBusy = "gate_busy"

// lockName is the gate's lock file under the root.
var lockName = gating.LabelDir + "/learn.lock"

// lockGate takes the gate's lock, an exclusive flock on
// <root>/gate/learn.lock (made 0600, in the gate's folder made 0700),
// which Learn and ResetGate hold while they read and replace the learnt
// model, so that of two at once neither installs a model made from what
// the other replaced. When another holds it, it notifies NoticeGateBusy
// and waits as long as ctx allows. A root that does not exist has
// nothing to lock: unlock is then a no-op, and nothing is created.
func (a *App) lockGate(ctx context.Context) (unlock func(), err error) {
	r, err := os.OpenRoot(a.root)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.Mkdir(gating.LabelDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, a.gateOutside(fmt.Errorf("create %s: %w", filepath.Join(a.root, gating.LabelDir), err))
	}
	f, err := r.OpenFile(lockName, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, a.gateOutside(fmt.Errorf("the gate's lock: %w", err))
	}
	ok, err := flock.Try(f, flock.Exclusive)
	if err == nil && !ok {
		a.notify(Notice{Kind: NoticeGateBusy})
		err = flock.Wait(ctx, f, flock.Exclusive)
	}
	if err != nil {
		f.Close()
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("the gate's lock %s: %w", filepath.Join(a.root, lockName), err)
	}
	return func() {
		_ = flock.Unlock(f)
		f.Close()
	}, nil
}

// installModel writes b as <root>/gate/model.json under the root (through
// fsys of it: durable.Root, or a fault-injecting wrapper in tests), so
// that a writer killed mid-write leaves at most a staging file in the
// gate's folder, which Collect removes.
func (a *App) installModel(fsys func(*os.Root) durable.FS, b []byte) error {
	r, err := durable.OpenRoot(a.root)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := r.Mkdir(gating.LabelDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create %s: %w", filepath.Join(a.root, gating.LabelDir), err)
	}
	if err := writeModel(fsys(r), gating.ModelName, b, 0o600); err != nil {
		if err := a.gateOutside(err); errors.Is(err, ErrGateOutsideRoot) {
			return err
		}
		return fmt.Errorf("write model %s: %w", filepath.Join(a.root, gating.ModelName), err)
	}
	return nil
}

// writeModel replaces name in fsys with the model b (durable.WriteFile).
// Its error is the failing step's cause (ENOSPC, …), for the caller to
// name the model's file by: the step names a staging file the user never
// sees.
func writeModel(fsys durable.FS, name string, b []byte, perm fs.FileMode) error {
	err := durable.WriteFile(fsys, name, b, perm)
	var de *durable.PathError
	if !errors.As(err, &de) {
		return err
	}
	cause := de.Err
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(cause, &pe):
		cause = pe.Err
	case errors.As(cause, &le):
		cause = le.Err
	}
	return cause
}

// ResetGate removes the learnt model: the embedded model decides again.
// It reports whether there was one, and its path. What stands in the
// model's place is removed when it is a file, a symbolic link (not its
// target) or a named pipe; a directory, even an empty one, is left alone
// and is ErrModelIsDirectory. It works under the root: a gate folder that
// is a symbolic link out of the root is ErrGateOutsideRoot, and nothing
// it leads to is removed. It waits for a Learn in progress (lockGate), as
// long as ctx allows, so that the model Learn was installing is the one
// removed.
func (a *App) ResetGate(ctx context.Context) (removed bool, path string, err error) {
	path = filepath.Join(a.root, gating.ModelName)
	r, err := os.OpenRoot(a.root)
	if errors.Is(err, fs.ErrNotExist) {
		return false, path, nil
	}
	if err != nil {
		return false, path, err
	}
	defer r.Close()
	if _, err := r.Lstat(gating.LabelDir); errors.Is(err, fs.ErrNotExist) {
		return false, path, nil // no model, and no folder to lock
	}
	unlock, err := a.lockGate(ctx)
	if err != nil {
		return false, path, err
	}
	defer unlock()
	fi, err := r.Lstat(gating.ModelName)
	if errors.Is(err, fs.ErrNotExist) {
		return false, path, nil
	}
	if err != nil {
		return false, path, a.gateOutside(err)
	}
	if fi.IsDir() {
		return false, path, fmt.Errorf("%s %w", path, ErrModelIsDirectory)
	}
	err = r.Remove(gating.ModelName)
	if errors.Is(err, fs.ErrNotExist) {
		return false, path, nil
	}
	return err == nil, path, err
}

// Trained is a model TrainGate wrote: what "gate train --json" prints.
type Trained struct {
	LayerThresholds map[debate.Layer]float64 `json:"layer_thresholds"`
	Out             string                   `json:"out"` // the model's file
	Threshold       float64                  `json:"threshold"`
	Training        gating.TrainingInfo      `json:"training"`
}

// TrainGate fits a model on the labelled corpus in the file data (JSON
// Lines; "" is the corpus shipped in the binary, which reproduces the
// embedded model byte for byte) and writes it to out.
// An out that is a directory, not a regular file or the file data names
// is an *Error (ProblemFile), found before the training, as is "-" (it
// names standard input for the corpus, not a file); so is a model that
// cannot be written.
func TrainGate(ctx context.Context, data, out string, opts gating.TrainOptions) (*Trained, error) {
	if data == "" {
		return trainGate(out, opts, "the shipped corpus", gating.Corpus)
	}
	// The model replaces out whole: out naming the corpus (the same
	// path, a link to it) would replace the user's labels with a model.
	if di, err := os.Stat(data); err == nil {
		if oi, err := os.Stat(out); err == nil && os.SameFile(di, oi) {
			return nil, newError(ProblemFile, "out", nil, "{out} %s is the corpus --data reads: name another file for the model", out)
		}
	}
	return trainGate(out, opts, data, func() ([]gating.Example, error) { return ReadCorpus(ctx, data) })
}

// TrainGateFrom is TrainGate on the labelled corpus read from r (standard
// input), which source names in errors.
func TrainGateFrom(r io.Reader, source, out string, opts gating.TrainOptions) (*Trained, error) {
	return trainGate(out, opts, source, func() ([]gating.Example, error) { return ReadCorpusFrom(r, source) })
}

// trainGate is TrainGate on the corpus load reads, which source names;
// out is checked before anything is read.
func trainGate(out string, opts gating.TrainOptions, source string, load func() ([]gating.Example, error)) (*Trained, error) {
	if out == "-" {
		// "-" is standard input for the corpus; a model made a file named
		// "-" in the working directory.
		return nil, newError(ProblemFile, "out", nil, "{out} -: the model is written to a file, not to standard output: name the file (./- for a file named -)")
	}
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		return nil, newError(ProblemFile, "out", nil, "{out} %s is a directory: name the model's file", out)
	} else if err == nil && !fi.Mode().IsRegular() {
		// The model replaces its file whole: a pipe or a device (such as
		// /dev/stdout) would be replaced by a regular file.
		return nil, newError(ProblemFile, "out", nil, "{out} %s is not a regular file: name a file for the model (it is replaced whole)", out)
	}
	switch fi, err := os.Stat(filepath.Dir(out)); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, newError(ProblemFile, "out", err, "{out} %s: its directory %s does not exist", out, filepath.Dir(out))
	case err == nil && !fi.IsDir():
		return nil, newError(ProblemFile, "out", nil, "{out} %s: %s is not a directory", out, filepath.Dir(out))
	}
	examples, err := load()
	if err != nil {
		return nil, err
	}
	m, err := gating.Train(examples, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	b, err := m.Encode()
	if err != nil {
		return nil, err
	}
	if err := writeOut(out, b); err != nil {
		return nil, newError(ProblemFile, "out", err, "{out} %s: cannot write the model: %v", out, err)
	}
	return &Trained{LayerThresholds: m.LayerThresholds, Out: out, Threshold: m.Threshold, Training: m.Training}, nil
}

// writeOut writes the model b as the file out (0644: a model is no
// secret), staging it beside out.
func writeOut(out string, b []byte) error {
	r, err := os.OpenRoot(filepath.Dir(out))
	if err != nil {
		return err
	}
	defer r.Close()
	return writeModel(durable.Root(r), filepath.Base(out), b, 0o644)
}

// EvalGate measures g on the labelled corpus in the file data.
func EvalGate(ctx context.Context, g *gating.Gate, data string) (gating.Metrics, error) {
	examples, err := ReadCorpus(ctx, data)
	if err != nil {
		return gating.Metrics{}, err
	}
	return evalGate(g, examples, data)
}

// EvalGateFrom measures g on the labelled corpus read from r (standard
// input), which source names in errors.
func EvalGateFrom(g *gating.Gate, r io.Reader, source string) (gating.Metrics, error) {
	examples, err := ReadCorpusFrom(r, source)
	if err != nil {
		return gating.Metrics{}, err
	}
	return evalGate(g, examples, source)
}

func evalGate(g *gating.Gate, examples []gating.Example, source string) (gating.Metrics, error) {
	m, err := gating.Evaluate(g, examples)
	if err != nil {
		return m, fmt.Errorf("%s: %w", source, err)
	}
	return m, nil
}

// ReadCritique parses a self-critique from r (at most
// gating.MaxInputBytes of it), which source names in errors ("-" for
// standard input). What the gate cannot read is a CritiqueError.
func ReadCritique(r io.Reader, source string) (gating.SelfCritique, error) {
	sc, err := gating.Parse(r)
	if err != nil {
		return gating.SelfCritique{}, CritiqueError(source, err)
	}
	return sc, nil
}

// ReadCorpus reads a labelled corpus (JSON Lines) from a file (or a
// stream, which the end of ctx stops reading: userfile.Open). A name that
// cannot be read is an *Error of ProblemFile for the input "data".
func ReadCorpus(ctx context.Context, path string) ([]gating.Example, error) {
	f, err := userfile.Open(ctx, path)
	if err != nil {
		return nil, refuse(ProblemFile, "data", err)
	}
	defer f.Close()
	return ReadCorpusFrom(f, path)
}

// ReadCorpusFrom reads a labelled corpus (JSON Lines) from r, which
// source names in errors.
func ReadCorpusFrom(r io.Reader, source string) ([]gating.Example, error) {
	ex, err := gating.ReadCorpus(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return ex, nil
}
