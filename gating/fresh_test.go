package gating

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFreshVoices judges the shipped model on self-critiques in two voices
// the corpus does not have (code-review comments and ticket updates),
// never trained on. They were written after the features were settled and
// first measured blind (recall 1.000, skip rate 0.857: two ticket updates
// in a "Status / Question / Answer" layout lost their answer to the status
// line). The parser was fixed for that layout and the ridge penalty chosen
// by leave-one-voice-out afterwards, so these figures are no longer blind.
func TestFreshVoices(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/fresh/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fresh voices: %v", err)
	}
	var all []Example
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := ReadBlocks(f, strings.TrimSuffix(filepath.Base(name), ".txt"))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		m, err := Evaluate(Default(), ex)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-7s %d examples: recall of debate %s, skip rate %s", filepath.Base(name), m.N, figure(m.Recall), figure(m.SkipRate))
		for _, e := range ex {
			d, _ := Default().Decide(e.SelfCritique)
			if d.Outcome != e.Label {
				t.Logf("  %s labelled %s, decided %s (score %.3f)", e.ID, e.Label, d.Outcome, d.Score)
			}
		}
		all = append(all, ex...)
	}
	m, err := Evaluate(Default(), all)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fresh voices, %d examples: recall of debate %s, skip rate %s, AUC %s", m.N, figure(m.Recall), figure(m.SkipRate), figure(m.AUC))
	if m.Recall == nil || m.SkipRate == nil || *m.Recall < 0.9 || *m.SkipRate < 0.6 {
		t.Errorf("on fresh voices recall %s (want ≥ 0.9), skip rate %s (want ≥ 0.6)", figure(m.Recall), figure(m.SkipRate))
	}
}

// figure formats a measured figure, "-" when it is undefined.
func figure(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *v)
}
