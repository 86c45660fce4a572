package gating

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/vocab"
)

// The gate learns from its user. Labels live in <root>/gate/labels.jsonl,
// one JSON object per line; a model trained on them lives in
// <root>/gate/model.json and replaces the embedded one while it is there.
const (
	LabelDir   = "gate"
	LabelsName = "gate/labels.jsonl"
	ModelName  = "gate/model.json"
)

// Label sources, and how much one label weighs in training against one
// example of the shipped corpus (weight 1): the user's own word counts
// most, a label read off a debate's verdict less.
const (
	SourceUser    = "user"
	SourceOutcome = "outcome"

	UserLabelWeight    = 4
	OutcomeLabelWeight = 2
)

// Label is one line of labels.jsonl: a self-critique and whether it
// deserved a debate, who said so and why.
type Label struct {
	Time   string  `json:"time"`
	Source string  `json:"source"` // user or outcome
	Label  Outcome `json:"label"`
	// DecisionID is the gate.jsonl decision the label is about, if any.
	DecisionID string `json:"decision_id,omitempty"`
	// DebateID is the debate whose verdict gave an outcome label.
	DebateID string `json:"debate_id,omitempty"`
	// Why says what made the label (for outcome labels, the verdict rule).
	Why   string       `json:"why,omitempty"`
	Input SelfCritique `json:"input"`
}

// Example returns the label as a weighted training example.
func (l Label) Example() Example {
	w := float64(UserLabelWeight)
	if l.Source == SourceOutcome {
		w = OutcomeLabelWeight
	}
	return Example{ID: l.DecisionID, Case: l.Source, Label: l.Label, Weight: w, SelfCritique: l.Input}
}

// labelIn is what a line given to "parley gate label" may hold: the corpus
// row shape (the self-critique's JSON fields) or {"layer","text"}, plus
// "label", and optionally "id" and "case".
type labelIn struct {
	jsonCritique
	Text  string `json:"text"`
	ID    string `json:"id"`
	Label string `json:"label"`
	Case  string `json:"case"`
	Voice string `json:"voice"`
}

// ParseLabelLine reads one labelled self-critique: the corpus row shape,
// {"layer","text","label"} (the text is read as "parley gate" reads its
// input), or a line of labels.jsonl (a Label: its "input" and "label").
// It fails on anything a training example cannot be made of.
func ParseLabelLine(line []byte) (Example, error) {
	line, err := checkText(line) // strips a byte order mark, which editors write
	if err != nil {
		return Example{}, err
	}
	if t := bytes.TrimSpace(line); len(t) == 0 || t[0] != '{' {
		// A self-critique given as it is, not as a labelled row.
		return Example{}, fmt.Errorf(`%w: not a JSON object: a line is {"text": "the self-critique", "label": "debate"} (or "skip"), or the self-critique's JSON fields with "label"`, ErrMalformed)
	}
	var stored struct {
		Input json.RawMessage `json:"input"`
	}
	if json.Unmarshal(line, &stored) == nil && len(stored.Input) > 0 {
		return parseStoredLabel(line)
	}
	var in labelIn
	if err := decodeStrict(line, &in); err != nil {
		return Example{}, err
	}
	label, err := parseLabel(in.Label)
	if err != nil {
		return Example{}, err
	}
	var sc SelfCritique
	if strings.TrimSpace(in.Text) != "" {
		if in.Critique != "" || in.Question != "" || in.InitialAnswer != "" || in.FinalAnswer != "" || in.Reasoning != "" {
			return Example{}, fmt.Errorf("%w: give the self-critique as text or as its fields, not both", ErrMalformed)
		}
		if sc, err = ParseBytes([]byte(in.Text)); err != nil {
			return Example{}, err
		}
		if strings.TrimSpace(in.Layer) != "" {
			l, err := vocab.ParseLayer(in.Layer)
			if err != nil {
				return Example{}, fmt.Errorf("%w: %v", ErrMalformed, err)
			}
			sc.Layer = l
		}
	} else if sc, err = in.critique(); err != nil {
		return Example{}, err
	}
	sc.Parsed = nil
	return Example{ID: in.ID, Case: in.Case, Voice: in.Voice, Label: label, SelfCritique: sc}, nil
}

// storedLabelIn is a line of labels.jsonl as AppendLabels writes it (a
// Label), which ParseLabelLine takes too: labels move from one root to
// another, and a gate can be measured on them (gate eval).
type storedLabelIn struct {
	Time       string       `json:"time"`
	Source     string       `json:"source"`
	Label      string       `json:"label"`
	DecisionID string       `json:"decision_id"`
	DebateID   string       `json:"debate_id"`
	Why        string       `json:"why"`
	Input      jsonCritique `json:"input"`
}

// parseStoredLabel reads a line of labels.jsonl as a labelled
// self-critique: its input and its label; what else it says (when, who,
// why, the decision's id) stays behind.
func parseStoredLabel(line []byte) (Example, error) {
	var in storedLabelIn
	if err := decodeStrict(line, &in); err != nil {
		return Example{}, err
	}
	label, err := parseLabel(in.Label)
	if err != nil {
		return Example{}, err
	}
	sc, err := in.Input.critique()
	if err != nil {
		return Example{}, err
	}
	return Example{Label: label, SelfCritique: sc, source: in.Source}, nil
}

// ReadLabelInput reads the JSON Lines given to "parley gate label": every
// line must be valid (blank lines and // comments are skipped); the first
// bad line is an error naming it, and nothing is returned. Input larger
// than MaxCorpusBytes is ErrTooLarge, never read in part.
func ReadLabelInput(r io.Reader) ([]Example, error) {
	lr := &io.LimitedReader{R: r, N: MaxCorpusBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 64<<10), MaxInputBytes+1)
	var out []Example
	for n := 1; sc.Scan(); n++ {
		if lr.N == 0 { // more than MaxCorpusBytes: the rest would be lost
			return nil, fmt.Errorf("%w: larger than %d bytes", ErrTooLarge, MaxCorpusBytes)
		}
		t := bytes.TrimSpace(sc.Bytes())
		if n == 1 {
			t = bytes.TrimPrefix(t, utf8BOM)
		}
		if len(t) == 0 || bytes.HasPrefix(t, []byte("//")) {
			continue
		}
		e, err := ParseLabelLine(t)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if err := labelFits(e); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%w: a line is longer than %d bytes", ErrTooLarge, MaxInputBytes)
		}
		return nil, err
	}
	if lr.N == 0 {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrTooLarge, MaxCorpusBytes)
	}
	return out, nil
}

// labelRoom is what a line of labels.jsonl holds besides the
// self-critique and the example's id: keys, time, source and label.
const labelRoom = 4 << 10

// labelFits says whether e, written as a line of labels.jsonl, stays
// within MaxLogLine, which ReadLabels reads back: JSON escaping can make
// a self-critique's line several times its text ('<' takes six bytes).
func labelFits(e Example) error {
	b, err := json.Marshal(e.SelfCritique)
	if err != nil {
		return err
	}
	if n := len(b) + len(e.ID) + labelRoom; n > MaxLogLine {
		return fmt.Errorf("%w: the self-critique takes %d bytes written as JSON; a label holds at most %d", ErrTooLarge, len(b), MaxLogLine-labelRoom)
	}
	return nil
}

// AppendLabels appends labels to <root>/gate/labels.jsonl (creating the
// directory 0700 and the file 0600) in one write on an O_APPEND
// descriptor, and fsyncs it. A label whose line would be longer than
// ReadLabels reads back (MaxLogLine) is an error wrapping ErrTooLarge, and
// nothing is written.
func AppendLabels(root *os.Root, labels []Label) error {
	if len(labels) == 0 {
		return nil
	}
	var b bytes.Buffer
	for i, l := range labels {
		line, err := json.Marshal(l)
		if err != nil {
			return err
		}
		if len(line) >= MaxLogLine {
			return fmt.Errorf("label %d: %w: its line is %d bytes, more than %s holds (%d)", i+1, ErrTooLarge, len(line), LabelsName, MaxLogLine)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := root.Mkdir(LabelDir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("create %s: %w", LabelDir, err)
	}
	// A named pipe in the file's place would take the line and lose it.
	f, _, err := regfile.OpenFile(root.OpenFile, LabelsName, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("append %s: %w", LabelsName, err)
	}
	data := b.Bytes()
	if torn(f) {
		data = append([]byte{'\n'}, data...)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", LabelsName, err)
	}
	return nil
}

// ReadLabels reads labels.jsonl; lines that do not decode or hold an
// unusable label are skipped and counted in bad.
func ReadLabels(r io.Reader) (labels []Label, bad int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, long, rerr := readLine(br)
		if t := bytes.TrimSpace(line); len(t) > 0 || long {
			var l Label
			if long || json.Unmarshal(t, &l) != nil || (l.Label != Debate && l.Label != Skip) || l.Input.Validate() != nil ||
				(l.Source != SourceUser && l.Source != SourceOutcome) {
				bad++
			} else {
				labels = append(labels, l)
			}
		}
		if rerr == io.EOF {
			return labels, bad, nil
		}
		if rerr != nil {
			return labels, bad, rerr
		}
	}
}

// NewDecisionID returns a short random id for a gate.jsonl decision: 8
// lower-case hex digits.
func NewDecisionID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// FindDecision returns the logged decision whose id is id or starts with
// it; an ambiguous or unknown prefix is an error.
func FindDecision(entries []LogEntry, id string) (LogEntry, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if id == "" {
		return LogEntry{}, fmt.Errorf("empty decision id")
	}
	var found []LogEntry
	for _, e := range entries {
		if e.ID == id {
			return e, nil
		}
		if strings.HasPrefix(e.ID, id) {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		return LogEntry{}, fmt.Errorf("%w %q in %s", ErrNoDecision, id, LogName)
	case 1:
		return found[0], nil
	}
	return LogEntry{}, fmt.Errorf("decision id %q is %w (%d decisions start with it)", id, ErrAmbiguousDecision, len(found))
}

// The errors of FindDecision, for errors.Is: no decision has the id, or
// several start with it.
var (
	ErrNoDecision        = errors.New("no decision")
	ErrAmbiguousDecision = errors.New("ambiguous")
)

// OutcomeLabel reads what a debate's verdict says about the gate's choice
// to debate it:
//   - debate (the debate was worth it) when the defender adopted an
//     attacker's position, or when the position that stands differs from
//     the defender's opening position: the answer changed;
//   - skip (a skip would have done) when every attacker conceded in round 1
//     and the defender's position is the opening one;
//   - no label otherwise: a deadlock, a survived or repeated position over
//     several rounds, an exhausted budget, a timeout, a forfeit or an
//     unavailable agent says nothing clear about whether the debate was
//     needed.
func OutcomeLabel(o *debate.Outcome, opening string) (label Outcome, why string, ok bool) {
	if o == nil {
		return "", "", false
	}
	openHash := debate.PositionHash(opening)
	switch {
	case o.Rule == debate.RuleAdopted:
		return Debate, "the defender adopted an attacker's position", true
	case o.FinalPosition != "" && o.FinalPositionHash != openHash && o.Verdict == debate.ConsensusReached:
		return Debate, "the position that stands differs from the opening one", true
	case o.Rule == debate.RuleConceded && o.Rounds == 1 && debate.PositionHash(o.DefenderPosition) == openHash:
		return Skip, "conceded in round 1 with the defender's position unchanged", true
	}
	return "", "", false
}

// OutcomeLabels derives the outcome labels of the logged debate decisions
// whose debates have a verdict; verdict returns a debate's outcome and
// opening position, or an error for a debate without one (skipped).
func OutcomeLabels(entries []LogEntry, verdict func(debateID string) (*debate.Outcome, string, error)) []Label {
	var out []Label
	for _, e := range entries {
		if e.Outcome != Debate || e.DebateID == "" || e.Input == nil {
			continue
		}
		o, opening, err := verdict(e.DebateID)
		if err != nil {
			continue
		}
		label, why, ok := OutcomeLabel(o, opening)
		if !ok {
			continue
		}
		out = append(out, Label{Time: e.Time, Source: SourceOutcome, Label: label, DecisionID: e.ID, DebateID: e.DebateID,
			Why: string(o.Verdict) + "/" + string(o.Rule) + ": " + why, Input: *e.Input})
	}
	return out
}

// ModelFileName is the name decisions give a model read from a file: the
// first 12 hex digits of its SHA-256.
func ModelFileName(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:6])
}

// LoadModelFile reads a model file and returns its gate, named by the
// file's hash.
func LoadModelFile(data []byte) (*Gate, error) {
	m, err := ReadModel(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	g, err := New(m)
	if err != nil {
		return nil, err
	}
	return g.Named(ModelFileName(data)), nil
}

// LearnOptions tune Learn.
type LearnOptions struct {
	Train TrainOptions
	// Folds for cross-validating on the user's labels (default 5; at least
	// 2, at most the number of labels).
	Folds int
}

// Check says whether Folds can cross-validate the user's labels (an
// *OptionError when not): at least 2. A zero value is checked as given;
// Learn gives it its default first.
func (o LearnOptions) Check() error {
	if o.Folds < 2 {
		return &OptionError{"folds", fmt.Sprint(o.Folds), "at least 2"}
	}
	return nil
}

// LabelKey identifies a label by what it says: its self-critique and its
// label (the first 8 bytes of a SHA-256, hex).
func LabelKey(l Label) string {
	in := l.Input
	in.Parsed = nil
	b, _ := json.Marshal(struct {
		Label Outcome      `json:"label"`
		Input SelfCritique `json:"input"`
	}{l.Label, in})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// CritiqueKey identifies a self-critique by what it says, whatever its
// label (its parse, which is derived from it, left out).
func CritiqueKey(in SelfCritique) string {
	in.Parsed = nil
	b, _ := json.Marshal(in)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Settle returns the labels that count, one for each self-critique, in
// the order they came. A self-critique labelled more than once (a decision
// relabelled, a file of labels added twice) keeps its last label; a label
// of the user's outranks one read off a debate's verdict, whichever came
// last. Labels of other self-critiques are kept as they are.
func Settle(labels []Label) []Label {
	keep := settle(len(labels), func(i int) (string, bool) {
		return CritiqueKey(labels[i].Input), labels[i].Source == SourceUser
	})
	if keep == nil {
		return labels
	}
	out := make([]Label, 0, len(labels))
	for i, l := range labels {
		if keep[i] {
			out = append(out, l)
		}
	}
	return out
}

// settle is Settle's rule over n labels, of which label(i) gives the
// self-critique's key and whether the user gave it: which of them count.
// It returns nil when every one does.
func settle(n int, label func(i int) (key string, user bool)) []bool {
	last := make(map[string]int, n)
	users := make([]bool, n)
	for i := range n {
		k, user := label(i)
		users[i] = user
		if j, ok := last[k]; ok && users[j] && !user {
			continue
		}
		last[k] = i
	}
	if len(last) == n {
		return nil
	}
	keep := make([]bool, n)
	for _, i := range last {
		keep[i] = true
	}
	return keep
}

// LearnResult is what Learn found: the new model and how the current and
// the new model do on the user's own labels.
type LearnResult struct {
	Model *Model
	// Examples is how many examples trained the new model: corpus, user
	// labels, outcome labels.
	Corpus, User, Outcomes int
	// Current and New are recall of debate and skip rate of skip on the
	// labels (user and outcome) the current model was not trained on, the
	// new model's cross-validated (each label scored by a model trained
	// without it). When the current model has seen every label, they are
	// compared on all of them and CurrentSawAll is set: the current
	// model's figures are then in-sample and flatter it.
	Current, New  LabelScore
	CurrentSawAll bool
	// NotWorse says the new model's recall and skip rate are both at least
	// the current one's.
	NotWorse bool
}

// LabelScore is recall of debate and skip rate of skip on a set of labels.
type LabelScore struct {
	N        int     `json:"n"`
	Recall   float64 `json:"recall"`
	SkipRate float64 `json:"skip_rate"`
}

// Learn trains a model on the corpus plus the labels (user labels weighted
// above outcome labels, both above a corpus example), and measures the
// current gate and the new model on the labels. The new model's figures are
// cross-validated: the labels are split into folds, and each fold is scored
// by a model trained on the corpus and the other folds. It trains on the
// labels that count (see Settle). It fails when there are no labels.
func Learn(corpus []Example, labels []Label, current *Gate, opts LearnOptions) (*LearnResult, error) {
	if len(labels) == 0 {
		return nil, fmt.Errorf("%w: no labels to learn from", ErrCorpus)
	}
	if opts.Folds != 0 {
		if err := opts.Check(); err != nil {
			return nil, err
		}
	}
	labels = Settle(labels)
	res := &LearnResult{Corpus: len(corpus)}
	lab := make([]Example, len(labels))
	for i, l := range labels {
		lab[i] = l.Example()
		if l.Source == SourceUser {
			res.User++
		} else {
			res.Outcomes++
		}
	}
	all := append(append([]Example(nil), corpus...), lab...)
	m, err := Train(all, opts.Train)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(labels))
	for i, l := range labels {
		keys[i] = LabelKey(l)
	}
	m.Training.LabelKeys = slices.Compact(slices.Sorted(slices.Values(keys)))
	res.Model = m

	// The labels the comparison is made on: those the current model was
	// not trained on.
	seen := map[string]bool{}
	if cm := current.Model(); cm != nil {
		for _, k := range cm.Training.LabelKeys {
			seen[k] = true
		}
	}
	var cmp []int
	for i := range lab {
		if !seen[keys[i]] {
			cmp = append(cmp, i)
		}
	}
	if len(cmp) == 0 {
		res.CurrentSawAll = true
		for i := range lab {
			cmp = append(cmp, i)
		}
	}
	sub := make([]Example, len(cmp))
	for k, i := range cmp {
		sub[k] = lab[i]
	}

	// The current gate.
	cur := make([]bool, len(cmp))
	for k, i := range cmp {
		d, err := current.Decide(lab[i].SelfCritique)
		if err != nil {
			return nil, err
		}
		cur[k] = d.Debate()
	}
	res.Current = scoreLabels(sub, cur)

	// The new model, cross-validated on the labels.
	folds := opts.Folds
	if folds == 0 {
		folds = 5
	}
	folds = min(folds, len(lab))
	pred := make([]bool, len(lab))
	perLabel := [2]int{}
	fold := make([]int, len(lab))
	for i, e := range lab {
		c := 0
		if e.Label == Debate {
			c = 1
		}
		fold[i] = perLabel[c] % folds
		perLabel[c]++
	}
	for k := 0; k < folds; k++ {
		train := append([]Example(nil), corpus...)
		var held []int
		for i, e := range lab {
			if fold[i] == k {
				held = append(held, i)
			} else {
				train = append(train, e)
			}
		}
		if len(held) == 0 {
			continue
		}
		fm, err := Train(train, opts.Train)
		if err != nil {
			return nil, err
		}
		g, err := New(fm)
		if err != nil {
			return nil, err
		}
		for _, i := range held {
			d, err := g.Decide(lab[i].SelfCritique)
			if err != nil {
				return nil, err
			}
			pred[i] = d.Debate()
		}
	}
	newPred := make([]bool, len(cmp))
	for k, i := range cmp {
		newPred[k] = pred[i]
	}
	res.New = scoreLabels(sub, newPred)
	res.NotWorse = res.New.Recall >= res.Current.Recall && res.New.SkipRate >= res.Current.SkipRate
	return res, nil
}

func scoreLabels(lab []Example, debated []bool) LabelScore {
	s := LabelScore{N: len(lab)}
	var pos, neg, tp, tn int
	for i, e := range lab {
		if e.Label == Debate {
			pos++
			if debated[i] {
				tp++
			}
		} else {
			neg++
			if !debated[i] {
				tn++
			}
		}
	}
	// With no example of a kind there is nothing to miss: the figure is 1.
	s.Recall, s.SkipRate = 1, 1
	if pos > 0 {
		s.Recall = float64(tp) / float64(pos)
	}
	if neg > 0 {
		s.SkipRate = float64(tn) / float64(neg)
	}
	return s
}
