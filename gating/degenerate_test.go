package gating

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The gate's decision must keep its sense on degenerate and hostile input,
// written here in voices of its own (none of it is in the corpus):
//
//   - Repetition: a hesitant sentence that decides debate decides debate
//     however often it is repeated (1 to 400 times, with or without a
//     sentence end between the repeats). Saying a doubt again is not
//     evidence that it was settled.
//   - Accumulation: doubts added one after another, all different, never
//     turn debate into skip.
//   - Padding: a doubt stated once and surrounded by confident boilerplate
//     that names no check (every sentence different) still decides
//     debate, with up to 300 times its own length in padding (some 4,000
//     words, checked at growing steps up to that). Confidence asserted is
//     not a check.
//   - Floods: whitespace, blank lines, punctuation, rules or bullet marks
//     on lines of their own before or after a critique (up to 50,000
//     bytes) do not change its decision, whichever it is. (Glued to the
//     last word they change that word: "conf 0.9!!!!" is not a
//     confidence.)
//   - The reverse: a long confident report whose checks are named decides
//     skip, and still skips when repeated; the same report with one
//     unsettled doubt after it scores higher than without it.
//
// These hold because a unit said three or more times back to back counts
// once (collapseRepeats) and the model scores every feature within the
// range it was trained on (ModelFeature.Range). Before, "I am not sure; "
// said 50 times read as one 200-word sentence and decided skip (score
// 0.012), and "probably " said 100 times, folded to the range but not to
// one saying, still scored 0.176 against the threshold 0.224.

// degenerateDoubts are hesitant units in several voices; each decides
// debate on its own.
var degenerateDoubts = []struct{ name, unit string }{
	{"semicolon chain", "I am not sure; "},
	{"sentences", "I am not sure this is right. "},
	{"modal", "This might fail under load. "},
	{"unknown marker", "TBD. "},
	{"question", "Does the retry double-send? "},
	{"lower case, no stops", "not sure the cache invalidation is safe\n"},
	{"bullet", "- haven't tested the rollback\n"},
	{"polite", "I am afraid I could not verify whether the index is rebuilt, I apologise. "},
	{"german jargon", "Vielleicht klappt der Retry nicht, keine Ahnung. "},
	{"hedge word", "probably "},
	{"emoji", "🤔 maybe it works? "},
}

// confidentPadding returns n different sentences of boilerplate that
// asserts but names no check, in the voice of an over-assured status
// report: no sentence is said twice, so none of it is folded as a repeat.
func confidentPadding(n int) string {
	templates := []string{
		"The %s follows the design document closely. ",
		"Everything in the %s is in order and the change is complete. ",
		"The %s code is clean, well structured and consistent with the rest of the package. ",
		"All requirements for the %s are met. ",
		"This is the standard approach for the %s and it is definitely correct. ",
	}
	parts := []string{"cache", "queue", "parser", "scheduler", "router", "lease table", "config loader",
		"retry loop", "index builder", "audit log", "session store", "rate limiter", "web handler",
		"migration", "worker pool", "metrics exporter", "backup job", "search page", "mailer", "CLI"}
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, templates[k%len(templates)], parts[k/len(templates)%len(parts)])
	}
	return b.String()
}

func decideText(t testing.TB, text string) Decision {
	t.Helper()
	sc, err := ParseBytes([]byte(text))
	if err != nil {
		t.Fatalf("parse %.60q: %v", text, err)
	}
	d, err := Default().Decide(sc)
	if err != nil {
		t.Fatalf("decide %.60q: %v", text, err)
	}
	return d
}

func TestRepeatedDoubtStillDebates(t *testing.T) {
	t.Parallel()
	for _, c := range degenerateDoubts {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if d := decideText(t, c.unit); !d.Debate() {
				t.Fatalf("%q alone: %s (score %.3f); the case is meant to start from debate", c.unit, d.Outcome, d.Score)
			}
			for _, n := range []int{2, 3, 5, 8, 10, 20, 30, 50, 100, 200, 400} {
				text := strings.Repeat(c.unit, n)
				if d := decideText(t, text); !d.Debate() {
					t.Errorf("%q × %d: %s (score %.3f, threshold %.3f)", c.unit, n, d.Outcome, d.Score, d.Threshold)
				}
			}
		})
	}
}

func TestMoreDoubtsNeverSkip(t *testing.T) {
	t.Parallel()
	var all []string
	for _, c := range degenerateDoubts {
		all = append(all, strings.TrimSpace(c.unit))
	}
	for _, sep := range []string{" ", "\n", ". "} {
		t.Run(fmt.Sprintf("sep %q", sep), func(t *testing.T) {
			t.Parallel()
			for n := 1; n <= 3*len(all); n++ {
				var parts []string
				for i := range n {
					parts = append(parts, all[i%len(all)])
				}
				if d := decideText(t, strings.Join(parts, sep)); !d.Debate() {
					t.Errorf("%d doubts: %s (score %.3f)", n, d.Outcome, d.Score)
				}
			}
		})
	}
}

func TestPaddingDoesNotHideADoubt(t *testing.T) {
	t.Parallel()
	doubts := []string{
		"I am not sure the migration is reversible; nobody has tried the rollback.",
		"Open question: what happens when two workers lease the same job? I don't know.",
		"The retry might double-send, I haven't looked.",
		"vielleicht ist der Cache nicht thread-safe, keine Ahnung.",
	}
	for di, doubt := range doubts {
		t.Run(fmt.Sprint(di), func(t *testing.T) {
			t.Parallel()
			if d := decideText(t, doubt); !d.Debate() {
				t.Fatalf("%q alone: %s", doubt, d.Outcome)
			}
			// Up to 300 times the doubt's length in padding, half
			// before it and half after.
			words := len(strings.Fields(doubt))
			for n := 1; ; n = n*3/2 + 1 {
				before, after := confidentPadding(n/2), confidentPadding(n)[len(confidentPadding(n/2)):]
				text := before + doubt + " " + after
				if len(strings.Fields(text)) > 301*words {
					break
				}
				if d := decideText(t, text); !d.Debate() {
					t.Errorf("%q in %d sentences of padding: %s (score %.3f)", doubt, n, d.Outcome, d.Score)
				}
			}
		})
	}
}

// longReport is a confident verify-layer report in the voice of a release
// note, every claim backed by a named check.
const longReport = `Verification of the lease fix.

I ran go test ./queue/... -race -count=20: 0 failures in 20 runs, where main fails 7 of 20.
TestLeaseExpiry and TestDoubleLease now pass; both were red before the patch.
queue/lease.go:88 takes the row lock before reading the expiry, which is what closes the race.
I re-read the migration 0042_lease_idx.sql: it only adds an index, and the down migration drops it.
Load test: 5,000 jobs through 8 workers, p95 lease latency 41 ms against 39 ms before.
`

func TestLongConfidentReport(t *testing.T) {
	t.Parallel()
	if d := decideText(t, longReport); d.Debate() {
		t.Fatalf("the report alone: %s (score %.3f), want skip", d.Outcome, d.Score)
	}
	for _, n := range []int{2, 5, 20} {
		if d := decideText(t, strings.Repeat(longReport, n)); d.Debate() {
			t.Errorf("the report × %d: %s (score %.3f), want skip", n, d.Outcome, d.Score)
		}
	}
	// One doubt added after the report's checks raises its score (more
	// hesitation never reads as less). Whether it is enough to debate is
	// the model's judgement of one doubt against five named checks, not a
	// matter of layout, so it is only logged. (A doubt placed before a
	// check is settled by it, by design: see settleDoubts.)
	alone := decideText(t, longReport).Score
	for _, doubt := range []string{
		"I have not checked whether the index build locks the table in production.\n",
		"Not sure the fix holds with more than 8 workers.\n",
		"Open question: does the down migration run before or after the workers stop? Unclear.\n",
	} {
		d := decideText(t, longReport+doubt)
		t.Logf("report then %q: %s (score %.3g, alone %.3g)", doubt, d.Outcome, d.Score, alone)
		if d.Score <= alone {
			t.Errorf("report then %q: score %.3g, not above the report's own %.3g", doubt, d.Score, alone)
		}
	}
}

func TestFloodsDoNotChangeTheDecision(t *testing.T) {
	t.Parallel()
	texts := []string{
		"I am not sure the cache is safe.",
		"Does the retry double-send? haven't looked",
		longReport,
		"Fixed. TestParseEmptyBody passes, was red before the patch. conf 0.9",
	}
	floods := []string{" ", "\n", "\n\n\n", "\t", "!", ".", "?", "...", "-", "- ", "*", "***\n", "=", "#", ";", "…"}
	for ti, text := range texts {
		want := decideText(t, text).Outcome
		for _, fl := range floods {
			t.Run(fmt.Sprintf("text%d %q", ti, fl), func(t *testing.T) {
				t.Parallel()
				for _, n := range []int{1, 10, 1000, 50000 / len(fl)} {
					flood := strings.Repeat(fl, n)
					for where, s := range map[string]string{"after": text + "\n" + flood, "before": flood + "\n" + text, "both": flood + "\n" + text + "\n" + flood} {
						if _, err := ParseBytes([]byte(s)); err != nil {
							continue // refused input is not decided at all
						}
						if d := decideText(t, s); d.Outcome != want {
							t.Errorf("%q × %d %s: %s (score %.3f), alone %s", fl, n, where, d.Outcome, d.Score, want)
						}
					}
				}
			})
		}
	}
}

// TestScoreWithinTrainingRange: a feature beyond the range the model was
// trained on is scored as the range's end, by the score and the cues alike;
// a model file without ranges scores it as it is.
func TestScoreWithinTrainingRange(t *testing.T) {
	t.Parallel()
	g := Default()
	r := g.Model().Features[FMeanSentenceLength].Range
	if len(r) != 2 {
		t.Fatalf("the embedded model has no range for mean_sentence_length: %v", r)
	}
	sc, err := ParseBytes([]byte("I am not sure the retry is safe."))
	if err != nil {
		t.Fatal(err)
	}
	at := Extract(sc)
	at.Values[FMeanSentenceLength] = r[1]
	beyond := Extract(sc)
	beyond.Values[FMeanSentenceLength] = 50 * r[1]
	if a, b := g.Score(at), g.Score(beyond); a != b {
		t.Errorf("score at the range's end %v, far beyond it %v; want equal", a, b)
	}
	for _, c := range g.DecideFeatures(beyond).Cues {
		if c.Feature == "mean_sentence_length" && c.Value != round4(r[1]) {
			t.Errorf("cue value %v, want the range's end %v", c.Value, r[1])
		}
	}

	m := *g.Model()
	m.Features = append([]ModelFeature(nil), m.Features...)
	for i := range m.Features {
		m.Features[i].Range = nil
	}
	old, err := New(&m)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := old.Score(at), old.Score(beyond); !(b < a) {
		t.Errorf("without ranges: score far beyond %v, want below %v (unclamped, negative weight)", b, a)
	}
	m.Features[0].Range = []float64{2, 1}
	if _, err := New(&m); !errors.Is(err, ErrModel) {
		t.Errorf("range [2, 1]: %v, want ErrModel", err)
	}
}
