package gating

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/parleyhq/parley/vocab"
)

// TrainOptions tune Train; zero fields take the defaults.
type TrainOptions struct {
	// Folds is the number of cross-validation folds for examples without a
	// voice (default 5). Examples with a voice are cross-validated by
	// leaving one voice out.
	Folds int
	// TargetRecall is the recall of "debate" the threshold must reach on
	// out-of-fold scores (default 0.95).
	TargetRecall float64
	// L2 is the ridge penalty on standardised weights (default 4, chosen by
	// leave-one-voice-out cross-validation among 0.5, 1, 2, 4 and 8).
	L2 float64
	// MinLayerExamples is how many examples of each label a layer needs for
	// a threshold of its own (default 20).
	MinLayerExamples int
}

func (o *TrainOptions) defaults() {
	if o.Folds == 0 {
		o.Folds = 5
	}
	if o.TargetRecall == 0 {
		o.TargetRecall = 0.95
	}
	if o.L2 == 0 {
		o.L2 = 4
	}
	if o.MinLayerExamples == 0 {
		o.MinLayerExamples = 20
	}
}

// OptionError is a training option no model can be fitted with.
type OptionError struct {
	Option string // folds, target_recall or l2
	Value  string // as given
	Want   string // what it must be
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("gating: training option %s %s: %s", e.Option, e.Value, e.Want)
}

// Check says which option, if any, no model can be fitted with (an
// *OptionError): fewer than 2 folds, a target recall outside (0, 1], a
// ridge penalty that is not a finite number above 0. A zero value is
// checked as given; Train gives it its default first.
func (o TrainOptions) Check() error {
	switch {
	case o.Folds < 2:
		return &OptionError{"folds", fmt.Sprint(o.Folds), "at least 2"}
	case !(o.TargetRecall > 0 && o.TargetRecall <= 1):
		return &OptionError{"target_recall", fmt.Sprint(o.TargetRecall), "above 0 and at most 1"}
	case !(o.L2 > 0) || math.IsInf(o.L2, 1):
		return &OptionError{"l2", fmt.Sprint(o.L2), "a finite number above 0"}
	}
	return nil
}

// Train fits a logistic regression on the examples and chooses its
// thresholds. It is deterministic: the same examples in the same order give
// the same model, bit for bit. The folds are stratified by label in corpus
// order (the k-th example of a label goes to fold k mod Folds); the global
// threshold is the highest one whose out-of-fold recall of "debate" reaches
// TargetRecall, and so is each layer's where the layer has
// MinLayerExamples of each label. The final weights are fitted on all the
// examples.
func Train(examples []Example, opts TrainOptions) (*Model, error) {
	opts.defaults()
	if err := opts.Check(); err != nil {
		return nil, err
	}
	n := len(examples)
	x := make([][NumFeatures]float64, n)
	y := make([]float64, n)
	wt := make([]float64, n)
	var pos, neg int
	for i := range examples {
		x[i] = Extract(examples[i].SelfCritique).Values
		wt[i] = examples[i].Weight
		if wt[i] <= 0 {
			wt[i] = 1
		}
		if examples[i].Label == Debate {
			y[i] = 1
			pos++
		} else {
			neg++
		}
	}
	if pos < opts.Folds || neg < opts.Folds {
		return nil, fmt.Errorf("%w: %d debate and %d skip examples; need at least %d of each", ErrCorpus, pos, neg, opts.Folds)
	}

	groups, names := cvGroups(examples, y, opts.Folds)
	oof := make([]float64, n)
	for k := range names {
		var train []int
		for i := range examples {
			if groups[i] != k {
				train = append(train, i)
			}
		}
		w, b := fit(x, y, wt, train, opts.L2)
		for i := range examples {
			if groups[i] == k {
				oof[i] = score(w, b, &x[i])
			}
		}
	}

	m := &Model{Version: ModelVersion}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	m.Threshold = chooseThreshold(oof, y, all, opts.TargetRecall)
	// With voices, the threshold must also reach the target on every voice
	// held out in turn (a voice needs MinLayerExamples debate examples to
	// count), and no layer gets a threshold of its own: a per-layer
	// threshold tuned on the pool could undo the per-voice guarantee.
	voiced := false
	for k, name := range names {
		if strings.HasPrefix(name, "fold-") {
			continue
		}
		voiced = true
		var idx []int
		var gp int
		for i := range examples {
			if groups[i] == k {
				idx = append(idx, i)
				gp += int(y[i])
			}
		}
		if gp >= opts.MinLayerExamples {
			m.Threshold = math.Min(m.Threshold, chooseThreshold(oof, y, idx, opts.TargetRecall))
		}
	}
	for _, l := range vocab.Layers {
		if voiced {
			break
		}
		var idx []int
		var lp, ln int
		for i := range examples {
			if examples[i].Layer == l {
				idx = append(idx, i)
				if y[i] == 1 {
					lp++
				} else {
					ln++
				}
			}
		}
		if lp >= opts.MinLayerExamples && ln >= opts.MinLayerExamples {
			if m.LayerThresholds == nil {
				m.LayerThresholds = map[vocab.Layer]float64{}
			}
			m.LayerThresholds[l] = chooseThreshold(oof, y, idx, opts.TargetRecall)
		}
	}
	var tp, fn, tn int
	for i := range examples {
		t := m.Threshold
		if lt, ok := m.LayerThresholds[examples[i].Layer]; ok {
			t = lt
		}
		switch {
		case y[i] == 1 && oof[i] >= t:
			tp++
		case y[i] == 1:
			fn++
		case oof[i] < t:
			tn++
		}
	}
	w, b := fit(x, y, wt, all, opts.L2)
	m.Bias = b
	mean := means(x, all)
	lo, hi := ranges(x)
	m.Features = make([]ModelFeature, NumFeatures)
	for j := range m.Features {
		m.Features[j] = ModelFeature{Name: featureDefs[j].name, Weight: w[j], Mean: mean[j], Range: []float64{lo[j], hi[j]}}
	}
	m.Training = TrainingInfo{
		Examples: n, Debate: pos, Skip: neg, Folds: len(names), L2: opts.L2, TargetRecall: opts.TargetRecall,
		CVRecall: float64(tp) / float64(tp+fn), CVSkipRate: float64(tn) / float64(neg), CVAUC: auc(oof, y),
	}
	m.Training.Groups = groupFigures(examples, y, oof, groups, names, m)
	var hn, hnSkip, hp, hpDebate int
	for i, e := range examples {
		t := m.Threshold
		if lt, ok := m.LayerThresholds[e.Layer]; ok {
			t = lt
		}
		switch e.Case {
		case KindHardNegative:
			hn++
			if oof[i] < t {
				hnSkip++
			}
		case KindHardPositive:
			hp++
			if oof[i] >= t {
				hpDebate++
			}
		}
	}
	if hn > 0 {
		m.Training.CVHardNegativeSkipRate = float64(hnSkip) / float64(hn)
	}
	if hp > 0 {
		m.Training.CVHardPositiveRecall = float64(hpDebate) / float64(hp)
	}
	roundModel(m)
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

func score(w [NumFeatures]float64, b float64, x *[NumFeatures]float64) float64 {
	z := b
	for j := range w {
		z += w[j] * x[j]
	}
	return 1 / (1 + math.Exp(-z))
}

func means(x [][NumFeatures]float64, idx []int) (mu [NumFeatures]float64) {
	for _, i := range idx {
		for j := range mu {
			mu[j] += x[i][j]
		}
	}
	for j := range mu {
		mu[j] /= float64(len(idx))
	}
	return mu
}

// ranges returns each feature's lowest and highest value over x (not
// empty).
func ranges(x [][NumFeatures]float64) (lo, hi [NumFeatures]float64) {
	lo, hi = x[0], x[0]
	for _, xi := range x[1:] {
		for j, v := range xi {
			lo[j], hi[j] = math.Min(lo[j], v), math.Max(hi[j], v)
		}
	}
	return lo, hi
}

// cvGroups assigns every example to a cross-validation group: its voice
// when it has one (leave one voice out), else a stratified fold in corpus
// order among the examples without a voice (the k-th of a label goes to
// fold k mod folds). names lists the groups in order of first appearance.
func cvGroups(examples []Example, y []float64, folds int) (groups []int, names []string) {
	groups = make([]int, len(examples))
	index := map[string]int{}
	seen := [2]int{}
	for i, e := range examples {
		name := e.Voice
		if name == "" {
			c := int(y[i])
			name = fmt.Sprintf("fold-%d", seen[c]%folds+1)
			seen[c]++
		}
		k, ok := index[name]
		if !ok {
			k = len(names)
			index[name] = k
			names = append(names, name)
		}
		groups[i] = k
	}
	return groups, names
}

// groupFigures are the cross-validated figures of each held-out group at
// the model's thresholds.
func groupFigures(examples []Example, y, oof []float64, groups []int, names []string, m *Model) []GroupCV {
	out := make([]GroupCV, len(names))
	for k, name := range names {
		out[k].Group = name
	}
	for i, e := range examples {
		g := &out[groups[i]]
		t := m.Threshold
		if lt, ok := m.LayerThresholds[e.Layer]; ok {
			t = lt
		}
		if y[i] == 1 {
			g.Debate++
			if oof[i] >= t {
				g.Recall++
			}
		} else {
			g.Skip++
			if oof[i] < t {
				g.SkipRate++
			}
		}
	}
	for k := range out {
		if out[k].Debate > 0 {
			out[k].Recall /= float64(out[k].Debate)
		}
		if out[k].Skip > 0 {
			out[k].SkipRate /= float64(out[k].Skip)
		}
		out[k].Recall = math.Round(out[k].Recall*1e4) / 1e4
		out[k].SkipRate = math.Round(out[k].SkipRate*1e4) / 1e4
	}
	return out
}

// fit is ridge-penalised, weighted logistic regression by Newton's method
// on standardised features; it returns weights and bias in raw units.
func fit(x [][NumFeatures]float64, y, wt []float64, idx []int, l2 float64) (w [NumFeatures]float64, b float64) {
	const p = NumFeatures + 1 // bias last
	mu := means(x, idx)
	var sd [NumFeatures]float64
	for _, i := range idx {
		for j := range sd {
			d := x[i][j] - mu[j]
			sd[j] += d * d
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j] / float64(len(idx)))
		if sd[j] < 1e-12 {
			sd[j] = 1
		}
	}
	z := make([][p]float64, len(idx))
	for r, i := range idx {
		for j := 0; j < NumFeatures; j++ {
			z[r][j] = (x[i][j] - mu[j]) / sd[j]
		}
		z[r][NumFeatures] = 1
	}
	var beta [p]float64
	for iter := 0; iter < 100; iter++ {
		var g [p]float64
		h := make([][p]float64, p)
		for r, i := range idx {
			t := 0.0
			for j := 0; j < p; j++ {
				t += beta[j] * z[r][j]
			}
			pr := 1 / (1 + math.Exp(-t))
			e := wt[i] * (pr - y[i])
			v := wt[i] * pr * (1 - pr)
			for j := 0; j < p; j++ {
				g[j] += e * z[r][j]
				vz := v * z[r][j]
				for k := 0; k <= j; k++ {
					h[j][k] += vz * z[r][k]
				}
			}
		}
		for j := 0; j < p; j++ {
			for k := 0; k < j; k++ {
				h[k][j] = h[j][k]
			}
		}
		for j := 0; j < NumFeatures; j++ {
			g[j] += l2 * beta[j]
			h[j][j] += l2
		}
		h[NumFeatures][NumFeatures] += 1e-9
		step := solve(h, g)
		maxStep := 0.0
		for j := range beta {
			beta[j] -= step[j]
			maxStep = math.Max(maxStep, math.Abs(step[j]))
		}
		if maxStep < 1e-10 {
			break
		}
	}
	b = beta[NumFeatures]
	for j := 0; j < NumFeatures; j++ {
		w[j] = beta[j] / sd[j]
		b -= beta[j] * mu[j] / sd[j]
	}
	return w, b
}

// solve solves h·s = g for a symmetric positive definite h by Cholesky
// decomposition.
func solve(h [][NumFeatures + 1]float64, g [NumFeatures + 1]float64) (s [NumFeatures + 1]float64) {
	const p = NumFeatures + 1
	var l [p][p]float64
	for i := 0; i < p; i++ {
		for j := 0; j <= i; j++ {
			sum := h[i][j]
			for k := 0; k < j; k++ {
				sum -= l[i][k] * l[j][k]
			}
			if i == j {
				l[i][i] = math.Sqrt(math.Max(sum, 1e-300))
			} else {
				l[i][j] = sum / l[j][j]
			}
		}
	}
	var t [p]float64
	for i := 0; i < p; i++ {
		sum := g[i]
		for k := 0; k < i; k++ {
			sum -= l[i][k] * t[k]
		}
		t[i] = sum / l[i][i]
	}
	for i := p - 1; i >= 0; i-- {
		sum := t[i]
		for k := i + 1; k < p; k++ {
			sum -= l[k][i] * s[k]
		}
		s[i] = sum / l[i][i]
	}
	return s
}

// chooseThreshold returns the highest threshold at which the scores of the
// examples idx recall at least target of their "debate" examples, set
// half-way down to the next lower score so that it has a margin.
func chooseThreshold(scores, y []float64, idx []int, target float64) float64 {
	var pos, all []float64
	for _, i := range idx {
		all = append(all, scores[i])
		if y[i] == 1 {
			pos = append(pos, scores[i])
		}
	}
	if len(pos) == 0 {
		return 0.5
	}
	sort.Float64s(pos)
	sort.Float64s(all)
	need := int(math.Ceil(target*float64(len(pos)) - 1e-9))
	misses := len(pos) - need
	edge := pos[misses]
	below := 0.0
	for _, s := range all {
		if s < edge {
			below = s
		}
	}
	return (edge + below) / 2
}

// auc is the area under the ROC curve of scores for labels y (1 = debate),
// ties counted half.
func auc(scores, y []float64) float64 {
	type sy struct{ s, y float64 }
	v := make([]sy, len(scores))
	for i := range scores {
		v[i] = sy{scores[i], y[i]}
	}
	sort.SliceStable(v, func(i, j int) bool { return v[i].s < v[j].s })
	var rankSum, pos float64
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j].s == v[i].s {
			j++
		}
		avg := float64(i+j+1) / 2 // ranks i+1 … j
		for k := i; k < j; k++ {
			if v[k].y == 1 {
				rankSum += avg
				pos++
			}
		}
		i = j
	}
	neg := float64(len(v)) - pos
	if pos == 0 || neg == 0 {
		return 0
	}
	return (rankSum - pos*(pos+1)/2) / (pos * neg)
}
