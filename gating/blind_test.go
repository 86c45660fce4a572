package gating

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// readBlindSet reads gating/testdata/blind: self-critiques in thirteen
// voices and layouts the training corpus does not have (a <thinking> chain
// of thought, PR review comments, ticket comments, YAML-ish reports, Slack
// excerpts, long rambling notes, hurried lowercase notes, proof style,
// stiff translated English, Markdown tables, emoji, heavy spec quotes and
// DRIFT-style verifier reports). They were written before the corpus was
// read closely, labelled by what a careful reviewer would decide, and
// committed with the shipped model's figures on them before any feature
// was changed. The files named in heldOutBlind are never trained on.
func readBlindSet(t *testing.T) map[string][]Example { return readVoiceDir(t, "testdata/blind") }

// readVoiceDir reads every dir/<voice>.txt in the corpus block format.
func readVoiceDir(t *testing.T, dir string) map[string][]Example {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in %s: %v", dir, err)
	}
	out := map[string][]Example{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		voice := strings.TrimSuffix(filepath.Base(name), ".txt")
		ex, err := ReadBlocks(f, voice)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[voice] = ex
	}
	return out
}

// blindFigures is what the blind measurement reports for one set.
type blindFigures struct {
	n, deb, skip   int
	recall, skipRt float64
	hn, hnSkipped  int
	hp, hpDebated  int
}

func measureBlind(t *testing.T, g *Gate, ex []Example) (f blindFigures) {
	t.Helper()
	var tp, tn int
	for _, e := range ex {
		d, err := g.Decide(e.SelfCritique)
		if err != nil {
			t.Fatalf("%s: %v", e.ID, err)
		}
		f.n++
		if e.Label == Debate {
			f.deb++
			if d.Debate() {
				tp++
			}
		} else {
			f.skip++
			if !d.Debate() {
				tn++
			}
		}
		switch e.Case {
		case KindHardNegative:
			f.hn++
			if !d.Debate() {
				f.hnSkipped++
			}
		case KindHardPositive:
			f.hp++
			if d.Debate() {
				f.hpDebated++
			}
		}
	}
	if f.deb > 0 {
		f.recall = float64(tp) / float64(f.deb)
	}
	if f.skip > 0 {
		f.skipRt = float64(tn) / float64(f.skip)
	}
	return f
}

// TestBlindVoices measures the shipped model on the blind set, per voice
// and pooled, and lists every example it gets wrong. Its misses guided the
// parser and feature fixes that followed its first measurement, so it is a
// development set now; TestSealedVoices is the blind figure.
func TestBlindVoices(t *testing.T) {
	t.Parallel()
	reportVoices(t, readBlindSet(t), 130, 0.9, 0.3)
}

// TestHoldoutVoices measures the shipped model on gating/testdata/holdout:
// six more voices (ReAct-style Thought/Action/Observation traces, release
// checklists, formal e-mails, commit messages, forum answers with EDITs,
// Socratic Q/A), written after the fixes the blind set led to and before
// any gate was run on them. Never trained on; its first measurement was
// blind (recall 0.844, skip rate 0.864), and its misses then guided a
// second round of fixes, so it too is a development set now.
func TestHoldoutVoices(t *testing.T) {
	t.Parallel()
	reportVoices(t, readVoiceDir(t, "testdata/holdout"), 50, 0.85, 0.5)
}

// TestSealedVoices measures the shipped model on gating/testdata/sealed:
// four more voices (incident postmortems, terminal transcripts, peer
// reviews, arrow-chained notes), written before the holdout set's misses
// were examined and run only after the last change to the gate. It is the
// blind figure of the gate as shipped.
func TestSealedVoices(t *testing.T) {
	t.Parallel()
	reportVoices(t, readVoiceDir(t, "testdata/sealed"), 40, 0.85, 0.5)
}

// reportVoices logs recall of debate and skip rate per voice and pooled,
// and the misses, and checks the pooled figures against a floor: the gate
// must stay conservative on writing it has never seen (debate when
// unsure) and still save debates.
func reportVoices(t *testing.T, sets map[string][]Example, minN int, minRecall, minSkip float64) {
	t.Helper()
	var voices []string
	for v := range sets {
		voices = append(voices, v)
	}
	sort.Strings(voices)
	g := Default()
	var all []Example
	t.Logf("%-10s %6s %5s %7s %9s", "voice", "debate", "skip", "recall", "skip rate")
	for _, v := range voices {
		f := measureBlind(t, g, sets[v])
		t.Logf("%-10s %6d %5d %7.3f %9.3f", v, f.deb, f.skip, f.recall, f.skipRt)
		all = append(all, sets[v]...)
	}
	f := measureBlind(t, g, all)
	t.Logf("%-10s %6d %5d %7.3f %9.3f", "all", f.deb, f.skip, f.recall, f.skipRt)
	t.Logf("hard negatives skipped %d/%d, hard positives debated %d/%d", f.hnSkipped, f.hn, f.hpDebated, f.hp)
	for _, e := range all {
		d, _ := g.Decide(e.SelfCritique)
		if d.Outcome != e.Label {
			t.Logf("  miss %-9s %-13s labelled %-6s decided %-6s score %.3f", e.ID, e.Case, e.Label, d.Outcome, d.Score)
		}
	}
	if f.n < minN {
		t.Errorf("%d examples, want ≥ %d", f.n, minN)
	}
	if f.recall < minRecall || f.skipRt < minSkip {
		t.Errorf("recall of debate %.3f (want ≥ %.2f), skip rate %.3f (want ≥ %.2f)", f.recall, minRecall, f.skipRt, minSkip)
	}
}
