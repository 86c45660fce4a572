package gating

import (
	"fmt"
	"io"
	"math"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/vocab"
)

// MaxModelBytes bounds a model file.
const MaxModelBytes = 1 << 20

// ModelVersion is the model file format this package reads and writes.
const ModelVersion = 2

// Model is a logistic regression over the features: the score is
// sigmoid(Bias + Σ Weight·value), in raw feature units, each value first
// clamped to the feature's Range. Mean is each feature's training mean,
// against which a cue's contribution is judged.
type Model struct {
	Version   int     `json:"version"`
	Bias      float64 `json:"bias"`
	Threshold float64 `json:"threshold"`
	// LayerThresholds replace Threshold for the layers whose training data
	// supported a threshold of their own.
	LayerThresholds map[vocab.Layer]float64 `json:"layer_thresholds,omitempty"`
	Features        []ModelFeature          `json:"features"`
	Training        TrainingInfo            `json:"training"`
}

// ModelFeature is one feature's weight.
type ModelFeature struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
	Mean   float64 `json:"mean"`
	// Range is the lowest and highest value the feature took in training
	// ([min, max]). A value outside it is scored as the nearer end: the
	// model has not seen it, and a linear model would extrapolate its
	// weight without bound (a hedge said 50 times in one endless sentence
	// would read as a 200-word sentence, far more "detailed" than any
	// critique it learnt from). Empty in model files written before ranges
	// were recorded; such a feature is not clamped.
	Range []float64 `json:"range,omitempty"`
}

// TrainingInfo records how a model was trained and how it did under
// cross-validation (out-of-fold scores, chosen thresholds).
type TrainingInfo struct {
	Examples     int     `json:"examples"`
	Debate       int     `json:"debate"`
	Skip         int     `json:"skip"`
	Folds        int     `json:"folds"`
	L2           float64 `json:"l2"`
	TargetRecall float64 `json:"target_recall"`
	CVRecall     float64 `json:"cv_recall"`
	CVSkipRate   float64 `json:"cv_skip_rate"`
	CVAUC        float64 `json:"cv_auc"`
	// CVHardNegativeSkipRate and CVHardPositiveRecall are the cross-
	// validated figures on the corpus's hard cases (0 when it has none).
	CVHardNegativeSkipRate float64 `json:"cv_hard_negative_skip_rate,omitempty"`
	CVHardPositiveRecall   float64 `json:"cv_hard_positive_recall,omitempty"`
	// LabelKeys identify the user and outcome labels a learnt model was
	// trained on (see LabelKey), so that a later "gate learn" judges it
	// only on labels it has not seen.
	LabelKeys []string `json:"label_keys,omitempty"`
	// Groups are the figures of each cross-validation group held out in
	// turn: one per voice of the corpus (leave one voice out), then folds
	// of the examples without a voice.
	Groups []GroupCV `json:"groups,omitempty"`
}

// GroupCV is how a model trained without a group did on it.
type GroupCV struct {
	Group    string  `json:"group"`
	Debate   int     `json:"debate"`
	Skip     int     `json:"skip"`
	Recall   float64 `json:"recall"`    // of debate, at the model's thresholds
	SkipRate float64 `json:"skip_rate"` // of skip examples
}

// Validate reports a model this package cannot use (ErrModel): another
// version, features that are not exactly FeatureNames in order, a
// non-finite number, a threshold outside [0, 1], an unknown layer.
func (m *Model) Validate() error {
	if m.Version != ModelVersion {
		return fmt.Errorf("%w: version %d (this parley reads %d)", ErrModel, m.Version, ModelVersion)
	}
	if len(m.Features) != NumFeatures {
		return fmt.Errorf("%w: %d features, want %d", ErrModel, len(m.Features), NumFeatures)
	}
	for i, f := range m.Features {
		if f.Name != featureDefs[i].name {
			return fmt.Errorf("%w: feature %d is %q, want %q", ErrModel, i, f.Name, featureDefs[i].name)
		}
		if !finite(f.Weight) || !finite(f.Mean) {
			return fmt.Errorf("%w: feature %q has a non-finite number", ErrModel, f.Name)
		}
		if r := f.Range; len(r) != 0 && (len(r) != 2 || !finite(r[0]) || !finite(r[1]) || r[0] > r[1]) {
			return fmt.Errorf("%w: feature %q: range %v is not [min, max]", ErrModel, f.Name, r)
		}
	}
	if !finite(m.Bias) {
		return fmt.Errorf("%w: non-finite bias", ErrModel)
	}
	if !(m.Threshold >= 0 && m.Threshold <= 1) {
		return fmt.Errorf("%w: threshold %v outside [0, 1]", ErrModel, m.Threshold)
	}
	for l, t := range m.LayerThresholds {
		if pl, err := vocab.ParseLayer(string(l)); err != nil || pl != l || !(t >= 0 && t <= 1) {
			return fmt.Errorf("%w: layer threshold %q: %v", ErrModel, l, t)
		}
	}
	return nil
}

// ReadModel reads and validates a model file (at most MaxModelBytes).
func ReadModel(r io.Reader) (*Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxModelBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxModelBytes {
		return nil, fmt.Errorf("%w: %w: larger than %d bytes", ErrModel, ErrTooLarge, MaxModelBytes)
	}
	var m Model
	if err := decodeObject(data, &m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrModel, err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Encode returns the model file: indented JSON with a trailing newline.
// The same model always encodes to the same bytes.
func (m *Model) Encode() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// roundModel rounds every number of a model file to 1e-6 (weights per
// unit, means, thresholds) so that the file reads well and does not depend
// on the last bits of floating-point arithmetic.
func roundModel(m *Model) {
	r := func(v float64) float64 { return math.Round(v*1e6) / 1e6 }
	m.Bias, m.Threshold = r(m.Bias), r(m.Threshold)
	for l, t := range m.LayerThresholds {
		m.LayerThresholds[l] = r(t)
	}
	for i := range m.Features {
		m.Features[i].Weight, m.Features[i].Mean = r(m.Features[i].Weight), r(m.Features[i].Mean)
		for k, v := range m.Features[i].Range {
			m.Features[i].Range[k] = r(v)
		}
	}
	ti := &m.Training
	ti.CVRecall, ti.CVSkipRate, ti.CVAUC = r(ti.CVRecall), r(ti.CVSkipRate), r(ti.CVAUC)
	ti.CVHardNegativeSkipRate, ti.CVHardPositiveRecall = r(ti.CVHardNegativeSkipRate), r(ti.CVHardPositiveRecall)
}
