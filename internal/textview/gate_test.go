package textview

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/vocab"
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

// TestGateStatsRangeWithoutTimes: decisions whose time a hand edit removed
// leave the range to the timed ones and are counted; with no time at all
// the range says the times are unknown, never "( … last)".
func TestGateStatsRangeWithoutTimes(t *testing.T) {
	t.Parallel()
	budget := func(vocab.Layer) int { return 1000 }
	for _, c := range []struct {
		name  string
		times []string
		want  string
	}{
		{"timed", []string{"2026-12-01T09:00:00.000Z", "2026-12-03T08:00:00.000Z"}, "2 decision(s) (2026-12-01T09:00:00.000Z … 2026-12-03T08:00:00.000Z): "},
		{"one", []string{"2026-12-01T09:00:00.000Z"}, "1 decision(s) (2026-12-01T09:00:00.000Z): "},
		{"some untimed", []string{"", "2026-12-01T09:00:00.000Z", "yesterday", "2026-12-03T08:00:00.000Z"}, "4 decision(s) (2026-12-01T09:00:00.000Z … 2026-12-03T08:00:00.000Z; 2 without a time): "},
		{"none timed", []string{"", ""}, "2 decision(s) (times unknown): "},
	} {
		t.Run(c.name, func(t *testing.T) {
			var entries []gating.LogEntry
			for _, tm := range c.times {
				entries = append(entries, gating.LogEntry{Time: tm, Decision: gating.Decision{Outcome: gating.Debate, Mode: gating.ModeModel}})
			}
			var b strings.Builder
			if err := GateStats(&b, gating.Summarize(entries, 0, budget), "gate.jsonl"); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.String(), c.want) {
				t.Errorf("stats begin\n%s\nwant %q", b.String(), c.want)
			}
		})
	}
}
