package gating

import (
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/parleyhq/parley/vocab"
)

// Outcome is a gate's answer.
type Outcome string

// The two outcomes.
const (
	Debate Outcome = "debate"
	Skip   Outcome = "skip"
)

// ParseOutcome accepts "debate" or "skip", in any case and with spaces
// around it (as vocab.ParseLayer reads a layer), and returns it in lower
// case.
func ParseOutcome(s string) (Outcome, error) {
	switch o := Outcome(strings.ToLower(strings.TrimSpace(s))); o {
	case Debate, Skip:
		return o, nil
	}
	return "", fmt.Errorf("%q is not debate or skip", s)
}

// Mode says how a gate decides.
type Mode string

// The modes.
const (
	// ModeModel scores the features with the logistic-regression model:
	// debate iff score ≥ threshold.
	ModeModel Mode = "model"
	// ModeRules applies the seed's starter rule: skip iff the stated
	// confidence is at least RulesMinConfidence and no uncertainty marker
	// (hedge, modal hedge, first-person uncertainty, unknown marker) fired.
	ModeRules Mode = "rules"
)

// ParseMode accepts "model" or "rules" in any case, surrounding space
// ignored, as vocab.ParseLayer reads a layer; anything else is an error
// that names both.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case ModeModel, ModeRules:
		return m, nil
	}
	return "", fmt.Errorf("unknown gate mode %q (use model or rules)", s)
}

// RulesMinConfidence is the seed rule's confidence bar: skip needs a stated
// confidence of at least 0.8.
const RulesMinConfidence = 0.8

// rulesThreshold is what a rules decision shows as its threshold: its score
// is 1 − confidence, and it debates when the score is above 0.2.
const rulesThreshold = 0.2

// Cue is one feature that fired, with the text that fired it. Value is the
// value the model scored (clamped to the model's training range, see
// ModelFeature.Range); Weight is the model's weight per unit of Value (0 in
// rules mode).
type Cue struct {
	Feature string  `json:"feature"`
	Value   float64 `json:"value"`
	Weight  float64 `json:"weight"`
	Text    string  `json:"text"`
}

// Decision is a gate's answer with its reasons. It encodes to the JSON of
// SPEC §7: {"decision","score","threshold","mode","layer","cues"}.
type Decision struct {
	Outcome Outcome `json:"decision"`
	// Score is the model's probability that the question needs a debate
	// (model mode: debate iff Score ≥ Threshold), or in rules mode
	// 1 − stated confidence, 1 when confidence is missing or a marker fired
	// (debate iff Score > Threshold, 0.2).
	Score     float64     `json:"score"`
	Threshold float64     `json:"threshold"`
	Mode      Mode        `json:"mode"`
	Layer     vocab.Layer `json:"layer,omitempty"`
	// Model names the model that decided: "embedded" for the one shipped
	// in the binary, "sha256:<12 hex>" for a model file, "rules" in rules
	// mode.
	Model string `json:"model,omitempty"`
	// Cues are the features that fired, the ones pushing towards a debate
	// first.
	Cues []Cue `json:"cues"`
	// Parsed says how the self-critique was read (sections found and how,
	// confidences read, what was inferred); nil for a value built in code.
	Parsed *Parsed `json:"parsed,omitempty"`
}

// Debate reports whether the decision is to debate.
func (d Decision) Debate() bool { return d.Outcome == Debate }

// Gate decides debate or skip. It is immutable and safe for concurrent use.
type Gate struct {
	mode  Mode
	name  string
	model *Model
	w, mu [NumFeatures]float64
	// lo and hi bound each feature's value (the model's training range;
	// ±Inf for a model file without ranges).
	lo, hi [NumFeatures]float64
}

//go:embed model.json
var embeddedModel []byte

// EmbeddedModel returns the bytes of the model shipped in the binary
// (gating/model.json, produced by "parley gate train").
func EmbeddedModel() []byte { return bytes.Clone(embeddedModel) }

var defaultGate = sync.OnceValue(func() *Gate {
	m, err := ReadModel(bytes.NewReader(embeddedModel))
	if err != nil {
		panic(fmt.Sprintf("gating: embedded model: %v", err))
	}
	g, err := New(m)
	if err != nil {
		panic(fmt.Sprintf("gating: embedded model: %v", err))
	}
	g.name = EmbeddedName
	return g
})

// Default returns the gate of the embedded model, in model mode.
func Default() *Gate { return defaultGate() }

// Rules returns a gate that applies the seed's starter rule.
func Rules() *Gate { return &Gate{mode: ModeRules, name: "rules"} }

// EmbeddedName is the model name of decisions made by the embedded model.
const EmbeddedName = "embedded"

// Name returns the name decisions give for g's model: "embedded", "rules",
// or the name given to Named (a model file's hash).
func (g *Gate) Name() string { return g.name }

// Named returns a copy of g whose decisions name their model name.
func (g *Gate) Named(name string) *Gate {
	c := *g
	c.name = name
	return &c
}

// New returns a model-mode gate for m.
func New(m *Model) (*Gate, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	g := &Gate{mode: ModeModel, model: m}
	for i, f := range m.Features {
		g.w[i], g.mu[i] = f.Weight, f.Mean
		g.lo[i], g.hi[i] = math.Inf(-1), math.Inf(1)
		if len(f.Range) == 2 {
			g.lo[i], g.hi[i] = f.Range[0], f.Range[1]
		}
	}
	return g, nil
}

// value is feature i of f as the model scores it: clamped to the range the
// model was trained on. A linear model's weight holds only where it was
// fitted; beyond that range it would extrapolate without bound, and a
// length or density that no critique in training reached (one endless
// sentence of repeated hedges, thousands of words of boilerplate around one
// doubt) would outweigh every cue of doubt in the text. Clamping makes each
// feature's pull on the score at most its weight times its training range.
// The score and the cues both read features through here.
func (g *Gate) value(f *Features, i int) float64 {
	return min(max(f.Values[i], g.lo[i]), g.hi[i])
}

// Mode returns how g decides.
func (g *Gate) Mode() Mode { return g.mode }

// Model returns g's model (nil in rules mode). The caller must not change it.
func (g *Gate) Model() *Model { return g.model }

// Threshold returns the threshold g applies to a question of layer l.
func (g *Gate) Threshold(l vocab.Layer) float64 {
	if g.mode == ModeRules {
		return rulesThreshold
	}
	if t, ok := g.model.LayerThresholds[l]; ok {
		return t
	}
	return g.model.Threshold
}

// Decide validates sc and decides. The only errors are sc's own (see
// SelfCritique.Validate); there is no default decision.
func (g *Gate) Decide(sc SelfCritique) (Decision, error) {
	if err := sc.Validate(); err != nil {
		return Decision{}, err
	}
	return g.DecideFeatures(Extract(sc)), nil
}

// Score returns g's score for f: the probability of "debate" in model mode,
// the rule's score in rules mode.
func (g *Gate) Score(f *Features) float64 {
	if g.mode == ModeRules {
		s, _ := rulesScore(f)
		return s
	}
	z := g.model.Bias
	for i := range f.Values {
		z += g.w[i] * g.value(f, i)
	}
	return 1 / (1 + math.Exp(-z))
}

// rulesScore applies the seed rule to f.
func rulesScore(f *Features) (score float64, debate bool) {
	c, ok := f.sc.Confidence()
	if !ok || hesitations(f.a) > 0 {
		return 1, true
	}
	return math.Round((1-c)*1e9) / 1e9, c < RulesMinConfidence
}

// rulesFeatures are the features whose cues the rules mode reports.
var rulesFeatures = []int{FHedgeDensity, FModalDensity, FFirstPersonUncertainty, FUnknownMarkers}

// DecideFeatures decides on already extracted features.
func (g *Gate) DecideFeatures(f *Features) Decision {
	d := Decision{Mode: g.mode, Layer: f.layer, Threshold: g.Threshold(f.layer), Model: g.Name(), Parsed: f.sc.Parsed}
	if g.mode == ModeRules {
		var deb bool
		d.Score, deb = rulesScore(f)
		d.Outcome = Skip
		if deb {
			d.Outcome = Debate
		}
		for _, i := range rulesFeatures {
			if f.Fired(i) {
				d.Cues = append(d.Cues, Cue{Feature: featureDefs[i].name, Value: round4(f.Values[i]), Text: f.Text(i)})
			}
		}
		d.Cues = append(d.Cues, Cue{Feature: "stated_confidence", Value: round4(f.Values[FFinalConfidence]), Text: confidenceText(f.sc)})
		return d
	}
	d.Score = g.Score(f)
	d.Outcome = Skip
	if d.Score >= d.Threshold {
		d.Outcome = Debate
	}
	type scored struct {
		cue     Cue
		contrib float64
	}
	var cs []scored
	for i := range f.Values {
		x := g.value(f, i)
		contrib := g.w[i] * (x - g.mu[i])
		fired := f.Fired(i) || featureDefs[i].kind == kindScalar && math.Abs(contrib) >= scalarCueMin
		if !fired {
			continue
		}
		cs = append(cs, scored{Cue{Feature: featureDefs[i].name, Value: round4(x), Weight: round4(g.w[i]), Text: f.Text(i)}, contrib})
	}
	slices.SortStableFunc(cs, func(x, y scored) int { return cmp.Compare(y.contrib, x.contrib) })
	d.Cues = make([]Cue, len(cs))
	for i, c := range cs {
		d.Cues[i] = c.cue
	}
	return d
}

// scalarCueMin is how far (in log-odds, against the training mean) a scalar
// feature must move the score to be reported as a cue.
const scalarCueMin = 0.5

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
