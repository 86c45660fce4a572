package gating

import (
	"strings"
	"testing"
)

func TestScratchMisses(t *testing.T) {
	ex, _ := Corpus()
	n := len(ex)
	x := make([][NumFeatures]float64, n)
	y := make([]float64, n)
	wt := make([]float64, n)
	for i := range ex {
		x[i] = Extract(ex[i].SelfCritique).Values
		wt[i] = 1
		if ex[i].Label == Debate {
			y[i] = 1
		}
	}
	groups, names := cvGroups(ex, y, 5)
	for k := range names {
		var tr []int
		for i := range ex {
			if groups[i] != k {
				tr = append(tr, i)
			}
		}
		w, b := fit(x, y, wt, tr, 1)
		for i := range ex {
			if groups[i] != k {
				continue
			}
			s := score(w, b, &x[i])
			if (y[i] == 1 && s < 0.0) || (y[i] == 0 && s >= 0.14) {
				f := Extract(ex[i].SelfCritique)
				var fired []string
				for j := range f.Values {
					if f.Values[j] != 0 && (featureDefs[j].kind != kindScalar) {
						fired = append(fired, featureDefs[j].name+"="+f.Text(j))
					}
				}
				t.Logf("%s %s %.2f %s | %s", ex[i].ID, ex[i].Label, s, oneLine(ex[i].Critique, 100), strings.Join(fired, " ; "))
			}
		}
	}
}
