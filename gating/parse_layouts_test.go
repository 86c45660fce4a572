package gating

import (
	"errors"

	json "github.com/goccy/go-json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
)

// layout is one way a model writes a self-critique, and what the parser
// must make of it.
type layout struct {
	name string
	in   string
	// want: the sections found in order, the critique must contain
	// critique; the answers and the
	// confidences (-1 = not stated).
	sections      []string
	critique      string
	initial, fin  string
	ic, fc        float64
	layer         debate.Layer
	noteSubstring string
}

var layouts = []layout{
	{
		name: "markdown headings, unusual names",
		in: "## Task\nDoes the importer skip rows with a blank SKU?\n\n## Draft answer\nYes, they are skipped.\n\n" +
			"## Self-check\nRe-read `importer/rows.go:57`; the blank check runs before the insert.\n\n## Revised answer\nYes.\n",
		sections: []string{"question", "initial_answer", "critique", "final_answer"},
		critique: "the blank check runs", initial: "Yes, they are skipped.", fin: "Yes.", ic: -1, fc: -1,
	},
	{
		name: "bold labels with colons inside",
		in: "**Question:** Is the index on orders.created_at used?\n**First answer:** Probably yes.\n" +
			"**Reflection:** I never looked at EXPLAIN output, so this is a guess.\n**Final:** Unsure; needs EXPLAIN.\n**Confidence:** 55%\n",
		sections: []string{"question", "initial_answer", "critique", "final_answer"},
		critique: "I never looked at EXPLAIN", initial: "Probably yes.", fin: "Unsure; needs EXPLAIN.", ic: -1, fc: 0.55,
	},
	{
		name: "plain labels in upper and lower case",
		in: "QUESTION: can two workers claim the same job?\nANSWER: no\nanalysis: the claim is a single UPDATE ... WHERE claimed_by IS NULL.\n" +
			"review: the UPDATE is atomic in Postgres; TestClaimRace ran 500 times without a double claim.\nconclusion: no, they cannot.\n",
		sections: []string{"question", "initial_answer", "reasoning", "critique", "final_answer"},
		critique: "TestClaimRace ran 500 times", initial: "no", fin: "no, they cannot.", ic: -1, fc: -1,
	},
	{
		name: "two-confidence sequence: before the critique and after the final answer",
		in: "Initial answer: the flag defaults to off.\nConfidence: 80%\n\nCritique:\nI read config/defaults.go and the flag is declared false.\n\n" +
			"Final answer: the flag defaults to off.\nConfidence: 92%\n",
		sections: []string{"initial_answer", "critique", "final_answer"},
		critique: "declared false", initial: "the flag defaults to off.", fin: "the flag defaults to off.", ic: 0.8, fc: 0.92,
	},
	{
		name:     "three unlabelled confidences: first is initial, last is final",
		in:       "Answer: 3 replicas.\nConfidence: 0.6\nReasoning: the quorum needs 2.\nConfidence: 0.7\nDouble-check: counted the nodes in deploy/prod.yaml, there are 3.\nFinal answer: 3 replicas.\nConfidence: 0.9\n",
		sections: []string{"initial_answer", "reasoning", "critique", "final_answer"},
		critique: "counted the nodes", initial: "3 replicas.", fin: "3 replicas.", ic: 0.6, fc: 0.9,
	},
	{
		name:     "arrow confidence a -> b",
		in:       "Draft: keep the retry at 3.\nVerification: the SLA allows 2 s and each try times out at 500 ms, so 3 fits.\nFinal answer: keep 3.\nConfidence: 0.65 -> 0.85\n",
		sections: []string{"initial_answer", "critique", "final_answer"},
		critique: "each try times out", initial: "keep the retry at 3.", fin: "keep 3.", ic: 0.65, fc: 0.85,
	},
	{
		name:     "unicode arrow with percents and a word label",
		in:       "### Reasoning\nThe lock is taken in Acquire.\n### Critique\nCould Release run twice? No: it checks ownership first.\n### Conclusion\nSafe.\nCertainty: 60% → 85%\n",
		sections: []string{"reasoning", "critique", "final_answer"},
		critique: "Could Release run twice", fin: "Safe.", ic: 0.6, fc: 0.85,
	},
	{
		name:     "no sections at all",
		in:       "The cache key omits the tenant id, so two tenants could read each other's rows. I have not checked whether the key builder adds it elsewhere.",
		critique: "I have not checked", ic: -1, fc: -1, noteSubstring: "no sections",
	},
	{
		name:     "no sections, only a confidence line at the end",
		in:       "looks right to me, ran the migration on a copy of prod and row counts match (1,204,113 both sides)\nconfidence: high\n",
		critique: "row counts match", ic: -1, fc: 0.8, noteSubstring: "no sections",
	},
	{
		name:     "underlined headings",
		in:       "Initial answer\n==============\nUse a partial index.\n\nReview\n------\nThe planner picks it for status = 'open' (EXPLAIN shows Index Scan).\n\nFinal answer\n------------\nUse a partial index.\n",
		sections: []string{"initial_answer", "critique", "final_answer"},
		critique: "EXPLAIN shows Index Scan", initial: "Use a partial index.", fin: "Use a partial index.", ic: -1, fc: -1,
	},
	{
		name:     "tags as models emit them",
		in:       "<thinking>\nThe handler returns 404 for a missing id.\n</thinking>\n<reflection>\nI might be wrong about soft-deleted rows; they may return 410.\n</reflection>\n<answer>\n404, probably.\n</answer>\n",
		sections: []string{"reasoning", "critique", "final_answer"},
		critique: "soft-deleted rows", fin: "404, probably.", ic: -1, fc: -1,
	},
	{
		name:     "numbered headings and a bare Answer after the critique",
		in:       "## 1. Question\nIs the backfill idempotent?\n## 2. Steps\nIt upserts by id.\n## 3. What could go wrong\nA partial run leaves the cursor behind; rerun starts over, which is fine for an upsert.\n## 4. Answer\nYes, idempotent.\nConfidence 0.85\n",
		sections: []string{"question", "reasoning", "critique", "final_answer"},
		critique: "rerun starts over", fin: "Yes, idempotent.", ic: -1, fc: 0.85,
	},
	{
		name:     "labelled initial and final confidence with fractions and words",
		in:       "Layer: plan\nInitial confidence: 7/10\nCritique: the plan skips the rollback step for the schema change.\nFinal confidence: low\n",
		sections: []string{"critique"},
		critique: "skips the rollback", ic: 0.7, fc: 0.3, layer: debate.LayerPlan,
	},
	{
		name:     "a question label inside the critique stays critique",
		in:       "Initial answer: the job is safe to rerun.\nCritique:\nQuestion: could it double-charge a customer? The charge call passes an idempotency key (billing/charge.go:41), so no.\nFinal answer: safe to rerun.\n",
		sections: []string{"initial_answer", "critique", "final_answer"},
		critique: "could it double-charge", initial: "the job is safe to rerun.", fin: "safe to rerun.", ic: -1, fc: -1,
	},
	{
		name:     "no critique section: unlabelled text is the critique",
		in:       "I went through the handler twice and the nil check is there.\n\nFinal answer: no panic possible on an empty body.\nConfidence: 90%\n",
		sections: []string{"final_answer"},
		critique: "nil check is there", fin: "no panic possible on an empty body.", ic: -1, fc: 0.9, noteSubstring: "no critique section",
	},
	{
		name:     "question and answer with a status line: the answer argues",
		in:       "Status: answered\nQuestion: may guests export?\nAnswer: no; the export route checks membership (export/route.go:12).\n",
		sections: []string{"question", "final_answer"},
		critique: "checks membership", fin: "no; the export route checks membership (export/route.go:12).", ic: -1, fc: -1, noteSubstring: "whole text",
	},
	{
		name:     "a chain of thought in tags, then the answer: the answer is the final one",
		in:       "<thinking>\nThe pool holds 20 connections; pgbouncer caps us at 25 (pgbouncer.ini:14).\n</thinking>\n<answer>\nRaise the pool to 25 at most.\n</answer>\nConfidence: 0.8\n",
		sections: []string{"reasoning", "final_answer"},
		critique: "pgbouncer caps us", fin: "Raise the pool to 25 at most.", ic: -1, fc: 0.8, noteSubstring: "read as the final answer",
	},
	{
		name:     "answers in Markdown table rows",
		in:       "| | Answer | Confidence |\n|---|---|---|\n| Initial | 10 per host | 0.8 |\n| Final | 100 per host | 0.9 |\n",
		sections: []string{"initial_answer", "final_answer"},
		critique: "100 per host", initial: "10 per host | 0.8", fin: "100 per host | 0.9", ic: -1, fc: -1,
	},
	{
		name:     "a table of checks stays critique; a verdict line with its confidence",
		in:       "| Check | Result |\n|---|---|\n| unit tests | ok |\n| race | ok |\n\nVerdict: fixed. Confidence 0.92\n",
		sections: []string{"final_answer"},
		critique: "unit tests", fin: "fixed.", ic: -1, fc: 0.92,
	},
	{
		name:     "a self-interrogation in Q/A turns has no initial or final answer",
		in:       "Q: Is the leak fixed?\nA: The heap stays at 380 MB over an hour.\nQ: Could goroutines leak instead?\nA: Checked: NumGoroutine stays at 212.\nQ: Anything else?\nA: No.\n",
		sections: []string{"question"},
		critique: "Could goroutines leak instead?", ic: -1, fc: -1, noteSubstring: "in turns",
	},
	{
		name:     "YAML-ish keys with a quoted value",
		in:       "question: \"Are unknown enum values rejected?\"\nanswer: yes, with 4001\nverification: \"Could a lenient mode exist? Checked config.go: no such flag.\"\nconfidence: 0.9\n",
		sections: []string{"question", "initial_answer", "critique"},
		critique: "Could a lenient mode exist? Checked config.go", ic: -1, fc: 0.9,
	},
	{
		name:     "list items with bold labels and an unreadable confidence",
		in:       "- **Original answer:** ship it Friday\n- **Concerns:** nobody has load-tested the new queue\n- **Updated answer:** ship Monday after a load test\n- **Confidence:** pretty ok\n",
		sections: []string{"initial_answer", "critique", "final_answer"},
		critique: "load-tested", initial: "ship it Friday", fin: "ship Monday after a load test", ic: -1, fc: -1, noteSubstring: "not read",
	},
	{
		name:     "invalid JSON is read as text",
		in:       `{"critique": "the index is used", "confidence": "very"` + "\n",
		critique: "the index is used", ic: -1, fc: -1, noteSubstring: "read as text",
	},
}

func TestParseLayouts(t *testing.T) {
	t.Parallel()
	for _, c := range layouts {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sc, err := ParseBytes([]byte(c.in))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if sc.Parsed == nil {
				t.Fatal("no Parsed report")
			}
			var got []string
			for _, s := range sc.Parsed.Sections {
				got = append(got, s.Section)
			}
			if c.sections != nil && strings.Join(got, ",") != strings.Join(c.sections, ",") {
				t.Errorf("sections %v, want %v", got, c.sections)
			}
			if !strings.Contains(sc.Critique, c.critique) {
				t.Errorf("critique %q lacks %q", sc.Critique, c.critique)
			}
			if c.initial != "" && sc.InitialAnswer != c.initial {
				t.Errorf("initial answer %q, want %q", sc.InitialAnswer, c.initial)
			}
			if c.fin != "" && sc.FinalAnswer != c.fin {
				t.Errorf("final answer %q, want %q", sc.FinalAnswer, c.fin)
			}
			checkConf(t, "initial", sc.InitialConfidence, c.ic)
			checkConf(t, "final", sc.FinalConfidence, c.fc)
			if c.layer != "" && sc.Layer != c.layer {
				t.Errorf("layer %q, want %q", sc.Layer, c.layer)
			}
			if c.noteSubstring != "" && !strings.Contains(strings.Join(sc.Parsed.Notes, "|"), c.noteSubstring) {
				t.Errorf("notes %q lack %q", sc.Parsed.Notes, c.noteSubstring)
			}
			d, err := Default().Decide(sc)
			if err != nil {
				t.Fatal(err)
			}
			if d.Parsed == nil || d.Parsed.Form == "" {
				t.Errorf("decision does not say how the input was parsed: %+v", d.Parsed)
			}
		})
	}
}

func checkConf(t *testing.T, which string, got *float64, want float64) {
	t.Helper()
	switch {
	case want < 0 && got != nil:
		t.Errorf("%s confidence %v, want none", which, *got)
	case want >= 0 && got == nil:
		t.Errorf("%s confidence missing, want %v", which, want)
	case want >= 0 && *got != want:
		t.Errorf("%s confidence %v, want %v", which, *got, want)
	}
}

func TestConfidenceForms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []float64
	}{
		{"0.8", []float64{0.8}}, {"80%", []float64{0.8}}, {"80 %", []float64{0.8}}, {"8/10", []float64{0.8}},
		{"4 out of 5", []float64{0.8}}, {"~0.7 (tests pass)", []float64{0.7}}, {"about 65%.", []float64{0.65}},
		{"high", []float64{0.8}}, {"Very high", []float64{0.9}}, {"medium confidence", []float64{0.6}},
		{"0.55 -> 0.75", []float64{0.55, 0.75}}, {"60% → 85%", []float64{0.6, 0.85}}, {"from 0.5 to 0.9", []float64{0.5, 0.9}},
		{"0.9=>0.4", []float64{0.9, 0.4}},
		// Not confidences: refused values are left unread, never guessed.
		{"1e-1", nil}, {"0,8", nil}, {"7", nil}, {"150%", nil}, {"pretty good", nil}, {"3/7", nil}, {"0.8 -> lots", nil},
	}
	for _, c := range cases {
		got, _ := readConfidences(c.in)
		if len(got) != len(c.want) {
			t.Errorf("%q: got %v, want %v", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: got %v, want %v", c.in, got, c.want)
			}
		}
	}
}

// TestOnlyEmptyBinaryOrOversizedIsRefused: readable text of any shape is
// read; the three refusals wrap their errors.
func TestOnlyEmptyBinaryOrOversizedIsRefused(t *testing.T) {
	t.Parallel()
	readable := []string{"ok", "Confidence: 2", "Confidence: 0.9\nConfidence: 0.8\nConfidence: 0.7", "## Final answer\n",
		"# \n## \n**:**", "Layer: sideways\nfine", "{", "[{", `{"critique": "cut off`, "İİİİ deploy verified. conf 0.9", "ẞ conf",
		`{"critique":"x","extra":1}`, `{"critique":"fine","final_confidence":7}`, `{"critique":"","final_answer":"yes, it holds"}`,
		`{"critique":"c","layer":"deploy","evidence_refs":[" "]}`, `{"critique":"C"} {"critique":"D"}`, `[{"critique":"C"}]`, "Final confidence: 80%\nFinal confidence: 90%"}
	for _, in := range readable {
		if _, err := ParseBytes([]byte(in)); err != nil {
			t.Errorf("%q refused: %v", in, err)
		}
	}
	refused := []struct {
		in   []byte
		want error
	}{
		{[]byte(""), ErrNoCritique}, {[]byte(" \n\t\n"), ErrNoCritique}, {[]byte("a\x00b"), ErrBinary},
		{[]byte("\xff\xfe"), ErrBinary}, {[]byte(strings.Repeat("a", MaxInputBytes+1)), ErrTooLarge},
		// A JSON object with no text at all is empty.
		{[]byte(`{"critique":""}`), ErrNoCritique}, {[]byte(`{"layer":"spec","final_confidence":0.9}`), ErrNoCritique},
	}
	for _, c := range refused {
		if _, err := ParseBytes(c.in); !errors.Is(err, c.want) {
			t.Errorf("%q: %v, want %v", clip.Runes(string(c.in), 21), err, c.want)
		}
	}
}

// FuzzParseReadable: nothing readable is refused, and whatever is read
// can be decided.
func FuzzParseReadable(f *testing.F) {
	for _, l := range layouts {
		f.Add(l.in)
	}
	f.Add("Confidence: 0.5 -> \n**Final answer:**\n<critique>\n")
	f.Fuzz(func(t *testing.T, s string) {
		sc, err := ParseBytes([]byte(s))
		body := strings.TrimPrefix(s, "\ufeff")
		readable := utf8.ValidString(s) && len(s) <= MaxInputBytes && strings.TrimSpace(body) != ""
		for i := 0; i < len(s); i++ {
			if binaryByte(s[i]) {
				readable = false
			}
		}
		// A JSON object whose text fields are all blank is empty.
		emptyObject := errors.Is(err, ErrNoCritique) && json.Valid([]byte(body)) && strings.HasPrefix(strings.TrimSpace(body), "{")
		if readable && err != nil && !emptyObject {
			t.Fatalf("readable input refused: %v", err)
		}
		if err != nil {
			return
		}
		if sc.Parsed == nil {
			t.Fatal("no Parsed report")
		}
		if _, err := Default().Decide(sc); err != nil {
			t.Fatalf("accepted but not decidable: %v", err)
		}
	})
}
