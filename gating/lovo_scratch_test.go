package gating

import "testing"

func TestScratchLOVO(t *testing.T) {
	ex, err := Corpus()
	if err != nil {
		t.Fatal(err)
	}
	m, err := Train(ex, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("thr %.3f layers %v recall %.3f skip %.3f auc %.3f", m.Threshold, m.LayerThresholds, m.Training.CVRecall, m.Training.CVSkipRate, m.Training.CVAUC)
	for _, g := range m.Training.Groups {
		t.Logf("%-10s d%3d s%3d recall %.3f skip %.3f", g.Group, g.Debate, g.Skip, g.Recall, g.SkipRate)
	}
	for _, f := range m.Features {
		t.Logf("%-28s %+.3f", f.Name, f.Weight)
	}
}
