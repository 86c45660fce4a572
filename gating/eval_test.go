package gating

import (
	"encoding/json"
	"testing"
)

// TestEvaluateLeavesUndefinedFiguresNull: a labelled set with no debate
// example has no recall, F1 or AUC, and one with no skip example no skip
// rate or AUC; a set on which the gate decided no debate has no precision.
// They are null in JSON, never a measured 0, while the figures that are
// defined keep their values.
func TestEvaluateLeavesUndefinedFiguresNull(t *testing.T) {
	t.Parallel()
	unsure := Example{ID: "unsure", Label: Debate, SelfCritique: SelfCritique{Critique: "I am not sure this is right; I have not checked anything yet, maybe it breaks."}}
	settled := Example{ID: "settled", Label: Skip, SelfCritique: SelfCritique{Critique: "Fixed. I ran `go test ./inbox -run TestClaim -count=1`: ok, 14 pass, 0 fail.", FinalConfidence: conf(0.95)}}
	for _, c := range []struct {
		name      string
		gate      *Gate
		examples  []Example
		null, set []string
	}{
		{"no debate example", Rules(), []Example{settled, settled},
			[]string{"precision", "recall", "f1", "auc"}, []string{"accuracy", "skip_rate", "skipped"}},
		{"no skip example", Default(), []Example{unsure},
			[]string{"skip_rate", "auc"}, []string{"accuracy", "precision", "recall", "f1", "skipped"}},
		{"one of each", Default(), []Example{unsure, settled},
			nil, []string{"accuracy", "precision", "recall", "f1", "auc", "skip_rate", "skipped"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Evaluate(c.gate, c.examples)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			for _, k := range c.null {
				if v, ok := got[k]; !ok || v != nil {
					t.Errorf("%s: %v (present %v), want null: %s", k, v, ok, b)
				}
			}
			for _, k := range c.set {
				if _, ok := got[k].(float64); !ok {
					t.Errorf("%s: %v, want a number: %s", k, got[k], b)
				}
			}
		})
	}
}
