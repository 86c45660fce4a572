package textview

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/gating"
)

// TestMetricsSayWhatIsUndefined: a corpus of debate examples only has no
// skip rate and no AUC (nil); they show as "-", not as a measured 0.
func TestMetricsSayWhatIsUndefined(t *testing.T) {
	var b strings.Builder
	if err := Metrics(&b, gating.Metrics{N: 3, TP: 2, FN: 1, Accuracy: 2.0 / 3, Precision: fig(1), Recall: fig(2.0 / 3), F1: fig(0.8), Mode: "model"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"3 examples (3 debate, 0 skip)", "auc       -\n", "skip rate -  (", "precision 1.000", "recall    0.667"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}

func fig(v float64) *float64 { return &v }
