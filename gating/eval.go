package gating

import (
	"fmt"

	"github.com/parleyhq/parley/vocab"
)

// Metrics is how a gate did on labeled examples; precision and recall are
// those of the "debate" label. SkipRate is the share of skip-labeled
// examples the gate skipped (the debates it rightly saved); Skipped is the
// share of all examples it skipped.
//
// A figure whose denominator is empty is undefined and nil (null in JSON),
// never a measured 0: Precision when the gate decided no debate, Recall
// without a debate example, SkipRate without a skip example, AUC without
// one of each, F1 when precision or recall is undefined.
type Metrics struct {
	N               int                     `json:"n"`
	Accuracy        float64                 `json:"accuracy"`
	Precision       *float64                `json:"precision"`
	Recall          *float64                `json:"recall"`
	F1              *float64                `json:"f1"`
	AUC             *float64                `json:"auc"`
	SkipRate        *float64                `json:"skip_rate"`
	Threshold       float64                 `json:"threshold"`
	LayerThresholds map[vocab.Layer]float64 `json:"layer_thresholds,omitempty"`
	Mode            Mode                    `json:"mode"`
	// Model names the model measured, as decisions name it ("embedded",
	// "rules", or "sha256:" and 12 hex digits of a model file).
	Model   string  `json:"model"`
	Skipped float64 `json:"skipped"`
	TP      int     `json:"tp"`
	FP      int     `json:"fp"`
	TN      int     `json:"tn"`
	FN      int     `json:"fn"`
}

// Evaluate decides every example with g and compares with its label. It
// fails (ErrCorpus) on an empty set or an invalid example.
func Evaluate(g *Gate, examples []Example) (Metrics, error) {
	if len(examples) == 0 {
		return Metrics{}, fmt.Errorf("%w: no examples", ErrCorpus)
	}
	m := Metrics{N: len(examples), Mode: g.Mode(), Model: g.Name(), Threshold: g.Threshold("")}
	if g.model != nil && len(g.model.LayerThresholds) > 0 {
		m.LayerThresholds = g.model.LayerThresholds
	}
	scores := make([]float64, len(examples))
	ys := make([]float64, len(examples))
	for i, e := range examples {
		d, err := g.Decide(e.SelfCritique)
		if err != nil {
			return Metrics{}, fmt.Errorf("%w: example %d (%s): %w", ErrCorpus, i+1, e.ID, err)
		}
		scores[i] = d.Score
		deb := e.Label == Debate
		if deb {
			ys[i] = 1
		}
		switch {
		case deb && d.Debate():
			m.TP++
		case deb:
			m.FN++
		case d.Debate():
			m.FP++
		default:
			m.TN++
		}
	}
	m.Accuracy = float64(m.TP+m.TN) / float64(m.N)
	m.Skipped = float64(m.TN+m.FN) / float64(m.N)
	m.Precision = ratio(m.TP, m.TP+m.FP)
	m.Recall = ratio(m.TP, m.TP+m.FN)
	if m.Precision != nil && m.Recall != nil {
		f1 := 0.0
		if p, r := *m.Precision, *m.Recall; p+r > 0 {
			f1 = 2 * p * r / (p + r)
		}
		m.F1 = &f1
	}
	m.SkipRate = ratio(m.TN, m.TN+m.FP)
	if m.TP+m.FN > 0 && m.TN+m.FP > 0 {
		a := auc(scores, ys)
		m.AUC = &a
	}
	return m, nil
}

// ratio is a/b, or nil (undefined) when b is 0.
func ratio(a, b int) *float64 {
	if b == 0 {
		return nil
	}
	r := float64(a) / float64(b)
	return &r
}
