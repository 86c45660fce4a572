package gating

import (
	"errors"
	"reflect"
	"testing"
)

var fuzzSeeds = []string{
	`{"critique":"It holds."}`,
	`{"layer":"verify","question":"Q","initial_answer":"Yes","critique":"I think it might fail; see a.go:1","final_answer":"No","initial_confidence":0.9,"final_confidence":"60%","evidence_refs":["a.go:1"]}`,
	`{"critique":"C","confidence":7}`,
	`{"critique":"C"} trailing`,
	`[{"critique":"C"}]`,
	"## Initial answer\nYes\nConfidence: 0.9\n## Self-critique\nI'm not sure. \"might\" `maybe`\n## Final answer\nNo\nFinal confidence: 40%\n## Evidence\n- a.go:1\n",
	"**Critique:** it holds\n```\n## Final answer\n```\nConfidence: 80 %",
	"Confidence: high",
	"plain text, no sections. There is no doubt. ‘quoted might’ “curly maybe”",
	"> quoted\n\n'single quoted maybe' don't",
	"\xef\xbb\xbf{\"critique\":\"\\u0000\"}",
}

// checkParsed holds for every self-critique a parser accepts: it is valid,
// both gates decide on it, and it survives a JSON round trip.
func checkParsed(t *testing.T, sc SelfCritique) {
	if err := sc.Validate(); err != nil {
		t.Fatalf("parser accepted an invalid self-critique: %v", err)
	}
	for _, g := range []*Gate{Default(), Rules()} {
		d, err := g.Decide(sc)
		if err != nil {
			t.Fatalf("%s: %v", g.Mode(), err)
		}
		if d.Outcome != Debate && d.Outcome != Skip || !(d.Score >= 0 && d.Score <= 1) {
			t.Fatalf("%s: decision %+v", g.Mode(), d)
		}
	}
	b, err := EncodeSelfCritique(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseJSON(b)
	if err != nil {
		t.Fatalf("re-parse of %s: %v", b, err)
	}
	back.Parsed, sc.Parsed = nil, nil
	if !reflect.DeepEqual(back, sc) {
		t.Fatalf("round trip changed %+v into %+v", sc, back)
	}
}

func checkErr(t *testing.T, err error) {
	for _, e := range []error{ErrTooLarge, ErrBinary, ErrMalformed, ErrNoCritique, ErrConfidence} {
		if errors.Is(err, e) {
			return
		}
	}
	t.Fatalf("error wraps no package error: %v", err)
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ParseJSON(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		checkParsed(t, sc)
	})
}

func FuzzParseText(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ParseText(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		checkParsed(t, sc)
	})
}

func FuzzParseExample(f *testing.F) {
	f.Add([]byte(`{"id":"x","critique":"C","label":"skip","case":"clean"}`))
	f.Add([]byte(`{"critique":"C","label":"maybe"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseExample(data)
		if err != nil {
			return
		}
		if e.Label != Debate && e.Label != Skip {
			t.Fatalf("label %q", e.Label)
		}
		checkParsed(t, e.SelfCritique)
	})
}

// FuzzParseLabelLine: a line "parley gate label" accepts (a labels.jsonl
// line included) can be trained on and decided.
func FuzzParseLabelLine(f *testing.F) {
	f.Add([]byte(`{"layer":"plan","text":"**Draft:** x\n**Check:** y","label":"debate"}`))
	f.Add([]byte(`{"critique":"c","final_confidence":"80%","label":"skip"}`))
	f.Add([]byte(`{"text":"","label":"skip"}`))
	f.Add([]byte(`{"time":"2026-12-05T01:00:00.000Z","source":"user","label":"skip","decision_id":"3f9a2c1e","input":{"layer":"verify","critique":"Fixed.","final_confidence":0.9}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseLabelLine(data)
		if err != nil {
			return
		}
		if e.Label != Debate && e.Label != Skip {
			t.Fatalf("label %q", e.Label)
		}
		checkParsed(t, e.SelfCritique)
	})
}
