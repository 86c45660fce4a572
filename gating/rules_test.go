package gating

import (
	"strings"
	"testing"
)

// TestRulesMode pins the seed's starter rule: skip iff confidence ≥ 0.8 and
// no uncertainty markers.
func TestRulesMode(t *testing.T) {
	t.Parallel()
	const clean = "The handler returns 400 for a missing key; the test covers it."
	const marked = "The handler probably returns 400 for a missing key."
	cases := []struct {
		name    string
		sc      SelfCritique
		outcome Outcome
	}{
		{"0.79 no marker", SelfCritique{Critique: clean, FinalConfidence: conf(0.79)}, Debate},
		{"0.8 no marker", SelfCritique{Critique: clean, FinalConfidence: conf(0.8)}, Skip},
		{"0.81 no marker", SelfCritique{Critique: clean, FinalConfidence: conf(0.81)}, Skip},
		{"0.79 marker", SelfCritique{Critique: marked, FinalConfidence: conf(0.79)}, Debate},
		{"0.8 marker", SelfCritique{Critique: marked, FinalConfidence: conf(0.8)}, Debate},
		{"0.81 marker", SelfCritique{Critique: marked, FinalConfidence: conf(0.81)}, Debate},
		{"1.0 marker", SelfCritique{Critique: marked, FinalConfidence: conf(1)}, Debate},
		{"confidence missing, no marker", SelfCritique{Critique: clean}, Debate},
		{"confidence missing, marker", SelfCritique{Critique: marked}, Debate},
		{"only initial 0.9", SelfCritique{Critique: clean, InitialConfidence: conf(0.9)}, Skip},
		{"final 0.7 wins over initial 0.9", SelfCritique{Critique: clean, InitialConfidence: conf(0.9), FinalConfidence: conf(0.7)}, Debate},
		{"final 0.9 wins over initial 0.5", SelfCritique{Critique: clean, InitialConfidence: conf(0.5), FinalConfidence: conf(0.9)}, Skip},
		{"modal marker", SelfCritique{Critique: "The retry might loop.", FinalConfidence: conf(0.9)}, Debate},
		{"first-person marker", SelfCritique{Critique: "I think it holds.", FinalConfidence: conf(0.9)}, Debate},
		{"negated booster is a marker", SelfCritique{Critique: "I'm not sure it holds.", FinalConfidence: conf(0.9)}, Debate},
		{"unknown marker", SelfCritique{Critique: "The owner is TBD.", FinalConfidence: conf(0.9)}, Debate},
		{"marker in the final answer", SelfCritique{Critique: clean, FinalAnswer: "Probably yes.", FinalConfidence: conf(0.9)}, Debate},
		{"marker in the reasoning", SelfCritique{Critique: clean, Reasoning: "It seems so.", FinalConfidence: conf(0.9)}, Debate},
		{"marker only in the question", SelfCritique{Critique: clean, Question: "Might it loop?", FinalConfidence: conf(0.9)}, Skip},
		{"marker only in quotes", SelfCritique{Critique: `The ticket says "it might loop"; it does not.`, FinalConfidence: conf(0.9)}, Skip},
		{"marker only in code", SelfCritique{Critique: "The `maybeRetry` call is gone.\n```\n// probably fine\n```", FinalConfidence: conf(0.9)}, Skip},
		{"negated hedge is no marker", SelfCritique{Critique: "There is no doubt it holds.", FinalConfidence: conf(0.9)}, Skip},
		{"booster is no marker", SelfCritique{Critique: "It clearly holds.", FinalConfidence: conf(0.85)}, Skip},
	}
	g := Rules()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			d, err := g.Decide(c.sc)
			if err != nil {
				t.Fatal(err)
			}
			if d.Outcome != c.outcome {
				t.Errorf("decision %s, want %s (score %v, cues %+v)", d.Outcome, c.outcome, d.Score, d.Cues)
			}
			if d.Mode != ModeRules || d.Threshold != 0.2 {
				t.Errorf("mode %s threshold %v", d.Mode, d.Threshold)
			}
			if (d.Score > d.Threshold) != (d.Outcome == Debate) {
				t.Errorf("score %v vs threshold %v disagrees with %s", d.Score, d.Threshold, d.Outcome)
			}
			if d.Outcome == Debate && len(d.Cues) == 0 {
				t.Errorf("a debate with no cues")
			}
		})
	}
}

// TestParseModeAnyCase: a mode is read as a layer is (vocab.ParseLayer): in
// any case, surrounding space ignored; anything else is refused with both
// modes named.
func TestParseModeAnyCase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Mode{"model": ModeModel, "rules": ModeRules, "RULES": ModeRules, " Model ": ModeModel, "Rules\n": ModeRules} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "rule", "classifier", "model rules"} {
		if got, err := ParseMode(in); err == nil || !strings.Contains(err.Error(), "use model or rules") {
			t.Errorf("ParseMode(%q) = %q, %v; want an error naming model and rules", in, got, err)
		}
	}
}
