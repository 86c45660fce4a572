package gating

import (
	"math"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

func crit(text string) SelfCritique { return SelfCritique{Critique: text} }

func conf(v float64) *float64 { return &v }

// featureCase says, for one feature, which self-critiques must fire it and
// which must not. For count and flag features "fire" means a non-zero
// value; scalar features give their own check.
type featureCase struct {
	feature string
	fire    []SelfCritique
	noFire  []SelfCritique
	// text, when set, must appear in the cue text of the first fire case.
	text string
}

func TestFeaturesFireAndDoNotFire(t *testing.T) {
	t.Parallel()
	withRefs := SelfCritique{Critique: "The handler returns 400.", EvidenceRefs: []string{"internal/h.go:12"}}
	cases := []featureCase{
		{feature: "hedge_density",
			fire:   []SelfCritique{crit("The cache is probably stale."), crit("I'm not sure the index helps."), crit("It is not unlikely that the job fails."), crit("This seems right."), crit("I'm fairly confident it holds.")},
			noFire: []SelfCritique{crit("The cache is stale."), crit(`The ticket says "this is probably stale"; the cache is fresh.`), crit("The helper `probably_stale()` returns false."), crit("```\n// probably stale\n```\nThe cache is fresh."), crit("> This is probably stale.\n\nIt is fresh."), crit("There is no doubt the cache is fresh."), crit("This is not a guess.")},
			text:   "probably"},
		{feature: "hedge_density", // negation: "not sure" is a hedge and keeps its negator in the cue text
			fire: []SelfCritique{crit("I'm not sure the index helps.")}, text: "not sure"},
		{feature: "hedge_density",
			fire: []SelfCritique{crit("It is not unlikely that the job fails.")}, text: "not unlikely"},
		{feature: "modal_density",
			fire:   []SelfCritique{crit("The retry might loop."), crit("It could be the pool."), crit("That would break replay.")},
			noFire: []SelfCritique{crit("The retry loops."), crit("I could not reproduce the failure."), crit(`The reviewer wrote "it might loop".`), crit("The `might` flag is unset.")}},
		{feature: "booster_density",
			fire:   []SelfCritique{crit("There is no doubt the key is unique."), crit("This is clearly correct."), crit("The fix is definitely in."), crit("Without question, it holds.")},
			noFire: []SelfCritique{crit("This is correct."), crit("It is not clear that this holds."), crit("It is not unlikely that this holds."), crit(`The author says "definitely fixed".`), crit("I'm not sure it holds.")},
			text:   "no doubt"},
		{feature: "contrast_density",
			fire:   []SelfCritique{crit("The test passes, but the log is noisy."), crit("However, the index is missing."), crit("On the other hand, the cache is cold.")},
			noFire: []SelfCritique{crit("The test passes and the log is clean."), crit(`He said "but it fails".`)}},
		{feature: "first_person_uncertainty",
			fire:   []SelfCritique{crit("I think the lock is held."), crit("I'm not sure the lock is held."), crit("Not sure the lock is held."), crit("We haven't tested the failover."), crit("I am not entirely certain about the lock.")},
			noFire: []SelfCritique{crit("The lock is held."), crit("They think the lock is held."), crit("I'm sure the lock is held."), crit(`The author wrote "I think it's held".`), crit("It seems the lock is held.")},
			text:   "I think"},
		{feature: "first_person_certainty",
			fire:   []SelfCritique{crit("I checked the lock."), crit("I'm confident the lock is held."), crit("I ran the suite twice."), crit("We verified the migration.")},
			noFire: []SelfCritique{crit("The lock is held."), crit("I'm not confident the lock is held."), crit("I'm fairly confident the lock is held."), crit("I didn't run the suite."), crit("`I checked` is a log line.")}},
		{feature: "questions",
			fire:   []SelfCritique{crit("Does the lock survive a restart?"), crit("The lock holds. What about restarts?")},
			noFire: []SelfCritique{crit("The lock survives a restart."), crit(`The reviewer asked "what about restarts?" and the test answers it.`), crit("The `?` operator propagates the error.")}},
		{feature: "conditionals",
			fire:   []SelfCritique{crit("If the key is reused, the charge is replayed."), crit("This holds unless the clock skews."), crit("The result depends on the pool size.")},
			noFire: []SelfCritique{crit("The key is never reused."), crit("The code says `if err != nil`.")}},
		{feature: "unknown_markers",
			fire:   []SelfCritique{crit("Whether the replica lags is unknown."), crit("The owner is TBD."), crit("The failover path is untested."), crit("I have not tested the failover."), crit("This is not verified.")},
			noFire: []SelfCritique{crit("The failover path is tested."), crit("No TODOs remain in the handler."), crit("```\n// TODO: tidy\n```\nDone."), crit(`The ticket says "owner TBD" but the owner is Ana.`), crit("Nothing here is unclear.")}},
		{feature: "reversal_markers",
			fire:   []SelfCritique{crit("On second thought, the cache is the problem."), crit("I was wrong about the index."), crit("Scratch that: the lock is fine."), crit("Upon reflection, the index is missing.")},
			noFire: []SelfCritique{crit("The cache is the problem."), crit(`He wrote "I was wrong" in the PR.`)}},
		{feature: "alternatives",
			fire:   []SelfCritique{crit("Either option works."), crit("Both approaches have a trade-off."), crit("It depends, and a case could be made for both.")},
			noFire: []SelfCritique{crit("The first option works."), crit("The `either` helper is unused.")}},
		{feature: "commitment",
			fire:   []SelfCritique{crit("I recommend the first option."), crit("Therefore the answer holds."), crit("I stand by the answer.")},
			noFire: []SelfCritique{crit("The first option is cheaper."), crit(`The reviewer said "I recommend it".`)}},
		{feature: "answer_flip",
			fire: []SelfCritique{
				{InitialAnswer: "Yes, it holds.", FinalAnswer: "No, it does not.", Critique: "c"},
				{InitialAnswer: "The closure holds.", FinalAnswer: "The closure does not hold.", Critique: "c"},
				{InitialAnswer: "Use opaque cursors for the list endpoints.", FinalAnswer: "Keep offset pagination with a stable sort key.", Critique: "c"},
			},
			noFire: []SelfCritique{
				{InitialAnswer: "Yes. The closure holds: retries stop after five attempts.", FinalAnswer: "Yes, the closure holds.", Critique: "c"},
				{InitialAnswer: "Use opaque cursors.", Critique: "c"},
				{InitialAnswer: "Use opaque cursors for list endpoints.", FinalAnswer: "Use opaque cursors for every list endpoint.", Critique: "c"},
			},
			text: "→"},
		{feature: "answer_change",
			fire:   []SelfCritique{{InitialAnswer: "Use cursors.", FinalAnswer: "Keep offsets.", Critique: "c"}},
			noFire: []SelfCritique{{InitialAnswer: "Use cursors.", FinalAnswer: "Use cursors.", Critique: "c"}, {FinalAnswer: "Use cursors.", Critique: "c"}}},
		{feature: "final_answer_missing",
			fire:   []SelfCritique{crit("c"), {FinalAnswer: "   ", Critique: "c"}},
			noFire: []SelfCritique{{FinalAnswer: "Yes.", Critique: "c"}}},
		{feature: "final_answer_hedged",
			fire:   []SelfCritique{{FinalAnswer: "Probably yes.", Critique: "c"}, {FinalAnswer: "Yes, but the owner is TBD.", Critique: "c"}},
			noFire: []SelfCritique{{FinalAnswer: "Yes.", Critique: "It might fail."}, {FinalAnswer: `Yes ("probably" in the ticket was wrong).`, Critique: "c"}}},
		{feature: "initial_confidence",
			fire:   []SelfCritique{{InitialConfidence: conf(0.6), Critique: "c"}, {FinalConfidence: conf(0.7), Critique: "c"}},
			noFire: []SelfCritique{crit("c")}},
		{feature: "final_confidence",
			fire:   []SelfCritique{{FinalConfidence: conf(0.9), Critique: "c"}, {InitialConfidence: conf(0.5), Critique: "c"}},
			noFire: []SelfCritique{crit("c"), {FinalConfidence: conf(0), Critique: "c"}}},
		{feature: "confidence_gap",
			fire:   []SelfCritique{{InitialConfidence: conf(0.9), FinalConfidence: conf(0.6), Critique: "c"}},
			noFire: []SelfCritique{{InitialConfidence: conf(0.9), Critique: "c"}, {InitialConfidence: conf(0.7), FinalConfidence: conf(0.7), Critique: "c"}}},
		{feature: "confidence_missing",
			fire:   []SelfCritique{crit("c")},
			noFire: []SelfCritique{{InitialConfidence: conf(0.2), Critique: "c"}}},
		{feature: "confidence_high",
			fire:   []SelfCritique{{FinalConfidence: conf(0.8), Critique: "c"}, {InitialConfidence: conf(0.95), Critique: "c"}},
			noFire: []SelfCritique{{FinalConfidence: conf(0.79), Critique: "c"}, {InitialConfidence: conf(0.9), FinalConfidence: conf(0.7), Critique: "c"}, crit("c")}},
		{feature: "confidence_hedge_mismatch",
			fire:   []SelfCritique{{FinalConfidence: conf(0.95), Critique: "It might fail; I think the lock is probably held."}},
			noFire: []SelfCritique{{FinalConfidence: conf(0.95), Critique: "The lock is held."}, crit("It might fail."), {FinalConfidence: conf(0.95), Critique: `The ticket says "might fail, probably".`}}},
		{feature: "evidence_refs",
			fire:   []SelfCritique{withRefs, crit("See internal/webhook/dispatch.go:88-104."), crit("It is in [[adr-011]]."), crit("Per https://example.com/rfc, yes."), crit("The `dispatch.go:88` loop caps it.")},
			noFire: []SelfCritique{crit("The handler returns 400, e.g. for bad JSON; confidence 0.8 and v1.2 are fine.")},
			text:   "internal/h.go:12"},
		{feature: "evidence_missing",
			fire:   []SelfCritique{crit("The handler returns 400.")},
			noFire: []SelfCritique{withRefs, crit("See `internal/h.go:12`.")}},
		{feature: "verify_without_evidence",
			fire:   []SelfCritique{{Layer: debate.LayerVerify, Critique: "I verified the fix."}},
			noFire: []SelfCritique{{Layer: debate.LayerSpec, Critique: "I verified the fix."}, {Layer: debate.LayerVerify, Critique: "I verified the fix.", EvidenceRefs: []string{"ci/run.log"}}}},
		{feature: "checks_stated",
			fire:   []SelfCritique{crit("I ran the suite twice."), crit("Re-read the handler; it returns early."), crit("We traced the request through the proxy.")},
			noFire: []SelfCritique{crit("I haven't run the suite."), crit("The job ran at 02:00."), crit("Nobody traced it.")},
			text:   "I ran"},
		{feature: "numbers",
			fire:   []SelfCritique{crit("It took 3 tries."), crit("Maybe 50 or so.")},
			noFire: []SelfCritique{crit("It took a few tries."), crit("See orders/list.go:40.")}},
		{feature: "dismissals",
			fire:   []SelfCritique{crit("p99 is 320 ms, close enough to the target."), crit("Two tests fail, but trust me, it's fine."), crit("The drop is probably noise.")},
			noFire: []SelfCritique{crit("p99 is 180 ms, under the 200 ms target."), crit("The two failures also happen on main (run #812).")},
			text:   "close enough"},
		{feature: "self_contradiction",
			fire:   []SelfCritique{crit("The cache is safe. Later on, the cache is not safe under failover."), crit("The migration holds the lock. The migration does not hold the lock during backfill.")},
			noFire: []SelfCritique{crit("The cache is safe. The queue is not safe."), crit("The cache is safe. The cache is fast."), crit(`The cache is safe. The ticket says "the cache is not safe" but that was before the fix.`)}},
		{feature: "layer_plan", fire: []SelfCritique{{Layer: debate.LayerPlan, Critique: "c"}}, noFire: []SelfCritique{{Layer: debate.LayerSpec, Critique: "c"}, crit("c")}},
		{feature: "layer_verify", fire: []SelfCritique{{Layer: debate.LayerVerify, Critique: "c"}}, noFire: []SelfCritique{{Layer: debate.LayerPlan, Critique: "c"}}},
		{feature: "layer_missing", fire: []SelfCritique{crit("c")}, noFire: []SelfCritique{{Layer: debate.LayerSpec, Critique: "c"}}},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.feature] = true
		i := featureIndex(t, c.feature)
		for k, sc := range c.fire {
			f := Extract(sc)
			if f.Values[i] == 0 {
				t.Errorf("%s must fire on %q (fire case %d), value is 0", c.feature, describe(sc), k)
			}
			if k == 0 && c.text != "" && !strings.Contains(f.Text(i), c.text) {
				t.Errorf("%s on %q: cue text %q lacks %q", c.feature, describe(sc), f.Text(i), c.text)
			}
		}
		for k, sc := range c.noFire {
			if v := Extract(sc).Values[i]; v != 0 {
				t.Errorf("%s must not fire on %q (no-fire case %d), value is %v (text %q)", c.feature, describe(sc), k, v, Extract(sc).Text(i))
			}
		}
	}
	for _, c := range readerCases() {
		covered[c.feature] = true
	}
	for _, d := range featureDefs {
		if d.kind != kindScalar && !covered[d.name] {
			t.Errorf("feature %s has no fire/no-fire table", d.name)
		}
	}
}

// TestScalarFeatures checks the features that always have a value against
// hand-computed figures and orderings.
func TestScalarFeatures(t *testing.T) {
	t.Parallel()
	f := Extract(crit("The cat sat on the mat. The dog ran? Yes!"))
	want := map[string]float64{
		"words":                math.Log1p(10),
		"sentences":            math.Log1p(3),
		"mean_sentence_length": 10.0 / 3,
		"long_sentence_share":  0,
	}
	for name, w := range want {
		if got, _ := f.Value(name); math.Abs(got-w) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	// 31 words, none said three times in a row (a repeated word would be
	// folded: see collapseRepeats).
	long := Extract(crit("The reader walks every line of the file and keeps the offsets of the sections it finds, then hands them to the scanner that looks for doubts, checks and answers at the end. Short one."))
	if v, _ := long.Value("long_sentence_share"); v != 0.5 {
		t.Errorf("long_sentence_share = %v, want 0.5", v)
	}
	fin := Extract(SelfCritique{Critique: "c", FinalAnswer: "Yes it holds"})
	if v, _ := fin.Value("final_answer_words"); math.Abs(v-math.Log1p(3)) > 1e-9 {
		t.Errorf("final_answer_words = %v, want ln 4", v)
	}
	easy := Extract(crit("The cat sat on the mat. It was a good day. We ran to the park."))
	hard := Extract(crit("Organisational interoperability necessitates comprehensive infrastructural standardisation considerations."))
	for _, name := range []string{"flesch_reading_ease"} {
		e, _ := easy.Value(name)
		h, _ := hard.Value(name)
		if !(e > 90 && h < 10) {
			t.Errorf("%s: easy %v (want > 90), hard %v (want < 10)", name, e, h)
		}
	}
	e, _ := easy.Value("coleman_liau")
	h, _ := hard.Value("coleman_liau")
	if !(e < 3 && h > 20) {
		t.Errorf("coleman_liau: easy %v (want < 3), hard %v (want > 20)", e, h)
	}
	// Quoted text and code do not count towards the lengths either.
	q := Extract(crit("The cat sat. `a b c d e f g h` \"one two three four\""))
	if v, _ := q.Value("words"); math.Abs(v-math.Log1p(3)) > 1e-9 {
		t.Errorf("words with quotes and code = %v, want ln 4", v)
	}
}

func TestFeatureNamesAreUniqueAndDocumented(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, n := range FeatureNames() {
		if seen[n] {
			t.Errorf("duplicate feature %s", n)
		}
		seen[n] = true
		if FeatureDoc(n) == "" {
			t.Errorf("feature %s has no doc", n)
		}
	}
	if len(seen) < 25 {
		t.Errorf("%d features, the issue asks for at least 25", len(seen))
	}
}

func TestLexiconLoads(t *testing.T) {
	t.Parallel()
	l, err := loadLexicon()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"probably", "sure", "doubt", "tbd", "but", "if", "recommend"} {
		if len(l[w]) == 0 {
			t.Errorf("lexicon lacks %q", w)
		}
	}
}

func featureIndex(t testing.TB, name string) int {
	t.Helper()
	for i, d := range featureDefs {
		if d.name == name {
			return i
		}
	}
	t.Fatalf("no feature %q", name)
	return -1
}

func describe(sc SelfCritique) string {
	if sc.InitialAnswer != "" || sc.FinalAnswer != "" {
		return sc.InitialAnswer + " → " + sc.FinalAnswer + " | " + sc.Critique
	}
	return sc.Critique
}

// TestQuotedAndCodeNeverFire: whatever a critique says, once it is all
// inside a fenced code block or a block quote no lexical cue fires (the
// evidence refs still count: a path in code is still a citation).
func TestQuotedAndCodeNeverFire(t *testing.T) {
	t.Parallel()
	ex, err := Corpus()
	if err != nil {
		t.Fatal(err)
	}
	wraps := map[string]func(string) string{
		"fence": func(s string) string { return "```\n" + strings.ReplaceAll(s, "```", "'''") + "\n```" },
		"block quote": func(s string) string {
			return "> " + strings.ReplaceAll(s, "\n", "\n> ")
		},
	}
	for name, wrap := range wraps {
		for _, e := range ex {
			f := Extract(SelfCritique{Critique: wrap(e.Critique)})
			for i, d := range featureDefs {
				// Evidence is looked for in code too: a command or a test
				// name is usually written as code.
				if d.kind == kindCount && i != FEvidenceRefs && i != FEvidenceSpecificity && f.Values[i] != 0 {
					t.Errorf("%s %s: %s fired inside the %s: %q", e.ID, name, d.name, name, f.Text(i))
				}
			}
		}
	}
}

func TestEvidenceCueShowsEachRefOnce(t *testing.T) {
	t.Parallel()
	f := Extract(SelfCritique{Critique: "The load test at tests/load.go:40 exercised it; see also docs/a.md.", EvidenceRefs: []string{"tests/load.go:40"}})
	i := featureIndex(t, "evidence_refs")
	if got, want := f.Text(i), "tests/load.go:40; docs/a.md"; got != want {
		t.Errorf("evidence cue text = %q, want %q", got, want)
	}
	if v, _ := f.Value("evidence_refs"); math.Abs(v-math.Log1p(3)) > 1e-9 {
		t.Errorf("evidence_refs = %v, want ln 4 (the listed ref counts in both places)", v)
	}
}
