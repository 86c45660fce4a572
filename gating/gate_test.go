package gating

import (
	"bytes"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

func TestDecisionJSONShape(t *testing.T) {
	t.Parallel()
	d, err := Default().Decide(SelfCritique{Layer: debate.LayerSpec, Critique: "I think it might fail.", FinalConfidence: conf(0.9)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if want := []string{"cues", "decision", "layer", "mode", "model", "score", "threshold"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	cues := m["cues"].([]any)
	if len(cues) == 0 {
		t.Fatal("no cues")
	}
	var ck []string
	for k := range cues[0].(map[string]any) {
		ck = append(ck, k)
	}
	sort.Strings(ck)
	if want := []string{"feature", "text", "value", "weight"}; !reflect.DeepEqual(ck, want) {
		t.Errorf("cue keys %v, want %v", ck, want)
	}
}

func TestDecideExplainsItself(t *testing.T) {
	t.Parallel()
	g := Default()
	hes := SelfCritique{Layer: debate.LayerVerify, Critique: "I think the counter is probably reset on a 429, but I'm not sure. Whether the backoff path works is unknown.", FinalConfidence: conf(0.9)}
	d, err := g.Decide(hes)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Debate() {
		t.Fatalf("hesitant critique: %s (score %v)", d.Outcome, d.Score)
	}
	texts := map[string]string{}
	for _, c := range d.Cues {
		texts[c.Feature] = c.Text
	}
	if !strings.Contains(texts["hedge_density"], "probably") || !strings.Contains(texts["first_person_uncertainty"], "I'm not sure") || texts["unknown_markers"] != "unknown" {
		t.Errorf("cue texts %v", texts)
	}
	if d.Threshold != g.Threshold(debate.LayerVerify) || d.Layer != debate.LayerVerify {
		t.Errorf("threshold %v layer %q", d.Threshold, d.Layer)
	}
	if d.Score < d.Threshold {
		t.Errorf("debate with score %v < threshold %v", d.Score, d.Threshold)
	}

	sure := SelfCritique{Layer: debate.LayerVerify, InitialAnswer: "Yes, retries stop after five attempts.", FinalAnswer: "Yes, retries stop after five attempts.",
		Critique:     "I re-read the dispatcher loop. The attempt counter is incremented before each send and compared with max_attempts (see `internal/webhook/dispatch.go:88`). TestDispatchStopsAfterMaxAttempts drives six failures and asserts five sends. I stand by the answer.",
		EvidenceRefs: []string{"internal/webhook/dispatch.go:88-104"}, FinalConfidence: conf(0.92)}
	d, err = g.Decide(sure)
	if err != nil {
		t.Fatal(err)
	}
	if d.Debate() {
		t.Errorf("settled critique: %s (score %v, cues %+v)", d.Outcome, d.Score, d.Cues)
	}
}

func TestDecideRefusesInvalidInput(t *testing.T) {
	t.Parallel()
	for _, sc := range []SelfCritique{{}, {Critique: "c", FinalConfidence: conf(1.5)}, {Critique: "c", Layer: "deploy"}} {
		for _, g := range []*Gate{Default(), Rules()} {
			if _, err := g.Decide(sc); err == nil {
				t.Errorf("%s gate decided on invalid %+v", g.Mode(), sc)
			}
		}
	}
}

func TestReadModelRejectsBadModels(t *testing.T) {
	t.Parallel()
	good := EmbeddedModel()
	if _, err := ReadModel(bytes.NewReader(good)); err != nil {
		t.Fatalf("embedded model: %v", err)
	}
	for name, edit := range map[string]func(string) string{
		"renamed feature": func(s string) string { return strings.Replace(s, `"hedge_density"`, `"hedges"`, 1) },
		"version":         func(s string) string { return strings.Replace(s, `"version": 2`, `"version": 1`, 1) },
		"threshold":       func(s string) string { return strings.Replace(s, `"threshold": 0.`, `"threshold": 7.`, 1) },
		"unknown key":     func(s string) string { return strings.Replace(s, `"version": 2`, `"version": 2, "extra": true`, 1) },
		"not JSON":        func(s string) string { return s[:len(s)/2] },
		// Threshold looks a layer up in lower case: "Plan" would be read
		// and never used.
		"capitalised layer": func(s string) string {
			return strings.Replace(s, `"threshold": `, `"layer_thresholds": {"Plan": 0.5}, "threshold": `, 1)
		},
	} {
		if _, err := ReadModel(strings.NewReader(edit(string(good)))); !errors.Is(err, ErrModel) {
			t.Errorf("%s: err = %v, want ErrModel", name, err)
		}
	}
}

// A model file that is not the JSON of a model is called an invalid model
// and what is wrong with its JSON, never a "malformed self-critique" (as
// it was: "invalid model: malformed self-critique: not a JSON object").
func TestAnInvalidModelIsNotCalledASelfCritique(t *testing.T) {
	t.Parallel()
	good := string(EmbeddedModel())
	for name, tc := range map[string]struct{ data, says string }{
		"not JSON":      {"root:x:0:0:root:/root:/bin/bash\n", "not a JSON object"},
		"half a model":  {good[:len(good)/2], "invalid model: "},
		"unknown key":   {strings.Replace(good, `"version": 2`, `"version": 2, "extra": true`, 1), `"extra"`},
		"trailing data": {good + "{}", "trailing data"},
	} {
		_, err := LoadModelFile([]byte(tc.data))
		if !errors.Is(err, ErrModel) || errors.Is(err, ErrMalformed) || strings.Contains(err.Error(), "self-critique") ||
			!strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: err = %v, want an invalid model saying %q and nothing about a self-critique", name, err, tc.says)
		}
	}
}

func TestParseModeAndOutcome(t *testing.T) {
	t.Parallel()
	if _, err := ParseMode("vibes"); err == nil {
		t.Error("ParseMode accepted vibes")
	}
	if m, _ := ParseMode("rules"); m != ModeRules {
		t.Error("rules")
	}
	if _, err := ParseOutcome("maybe"); err == nil {
		t.Error("ParseOutcome accepted maybe")
	}
}
