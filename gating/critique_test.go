package gating

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

func TestParseJSON(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want SelfCritique
	}{
		{"only critique", `{"critique":"It holds."}`, SelfCritique{Critique: "It holds."}},
		{"all fields", `{"layer":"Verify","question":"Q?","initial_answer":"Yes","reasoning":"R","critique":"C","final_answer":"No",
			"initial_confidence":0.9,"final_confidence":0.4,"evidence_refs":["a.go:1","[[p]]"]}`,
			SelfCritique{Layer: debate.LayerVerify, Question: "Q?", InitialAnswer: "Yes", Reasoning: "R", Critique: "C", FinalAnswer: "No",
				InitialConfidence: conf(0.9), FinalConfidence: conf(0.4), EvidenceRefs: []string{"a.go:1", "[[p]]"}}},
		{"percent string", `{"critique":"C","final_confidence":"80%"}`, SelfCritique{Critique: "C", FinalConfidence: conf(0.8)}},
		{"numeric string", `{"critique":"C","initial_confidence":"0.25"}`, SelfCritique{Critique: "C", InitialConfidence: conf(0.25)}},
		{"confidence alias", `{"critique":"C","confidence":1}`, SelfCritique{Critique: "C", FinalConfidence: conf(1)}},
		{"nulls", `{"critique":"C","final_confidence":null,"layer":""}`, SelfCritique{Critique: "C"}},
		{"leading space and BOM", "\xef\xbb\xbf  \n{\"critique\":\"C\"}\n", SelfCritique{Critique: "C"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if got.Parsed == nil || got.Parsed.Form != "json" {
				t.Errorf("parsed report %+v, want form json", got.Parsed)
			}
			got.Parsed = nil
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestParseText(t *testing.T) {
	t.Parallel()
	md := "# Self-critique for T-412\n\nLayer: verify\n\n## Question\nDo retries stop?\n\n## Initial answer\nYes.\nConfidence: 0.9\n\n" +
		"## Reasoning\nThe counter is checked.\n\n## Self-critique\nThe 429 path resets it.\n\n```\n## Final answer\nConfidence: 7\n```\n\n" +
		"## Final answer\nNo.\n\nFinal confidence: 60%\n\n## Evidence\n- internal/webhook/dispatch.go:88\n- `ci/run.log`\n1. [[adr-011]]\n"
	got, err := Parse(strings.NewReader(md))
	if err != nil {
		t.Fatal(err)
	}
	got.Parsed = nil
	want := SelfCritique{
		Layer: debate.LayerVerify, Question: "Do retries stop?", InitialAnswer: "Yes.", Reasoning: "The counter is checked.",
		Critique:    "The 429 path resets it.\n\n```\n## Final answer\nConfidence: 7\n```",
		FinalAnswer: "No.", InitialConfidence: conf(0.9), FinalConfidence: conf(0.6),
		EvidenceRefs: []string{"internal/webhook/dispatch.go:88", "ci/run.log", "[[adr-011]]"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("markdown:\ngot  %+v\nwant %+v", got, want)
	}

	cases := []struct {
		name string
		in   string
		want SelfCritique
	}{
		{"plain text is the critique", "The lock is held; I checked it.\nConfidence: 85%\n",
			SelfCritique{Critique: "The lock is held; I checked it.", FinalConfidence: conf(0.85)}},
		{"label lines with inline content", "Initial answer: Yes.\nSelf-critique: It might not hold.\nFinal answer: Probably yes.\nConfidence: 0.7",
			SelfCritique{InitialAnswer: "Yes.", Critique: "It might not hold.", FinalAnswer: "Probably yes.", FinalConfidence: conf(0.7)}},
		{"bold headings", "**Answer:** Use cursors.\n**Critique**\nOffsets skip rows.\n**Final answer:** Use cursors.\n- Initial confidence: 0.5\n- Final confidence: 0.8",
			SelfCritique{InitialAnswer: "Use cursors.", Critique: "Offsets skip rows.", FinalAnswer: "Use cursors.", InitialConfidence: conf(0.5), FinalConfidence: conf(0.8)}},
		{"confidence in the answer section is initial", "Answer: Yes\nConfidence: 0.6\nCritique: fine\nConfidence: 0.9",
			SelfCritique{InitialAnswer: "Yes", Critique: "fine", InitialConfidence: conf(0.6), FinalConfidence: conf(0.9)}},
		{"preamble ignored when sections exist", "Some notes first.\n## Critique\nC",
			SelfCritique{Critique: "C"}},
		{"words after the confidence", "Critique: C\nInitial confidence: 0.4 (before the tests)\nFinal confidence: 0.8, fairly sure",
			SelfCritique{Critique: "C", InitialConfidence: conf(0.4), FinalConfidence: conf(0.8)}},
		{"words after a percentage", "Critique: C\nConfidence: 80 % sure",
			SelfCritique{Critique: "C", FinalConfidence: conf(0.8)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			got.Parsed = nil
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestParseMalformed(t *testing.T) {
	t.Parallel()
	tenMiB := strings.Repeat("It might fail. ", (10<<20)/16)
	cases := []struct {
		name string
		in   string
		want error
		msg  string // part of the error message
	}{
		{"invalid JSON", `{"critique": "C",`, ErrMalformed, ""},
		{"JSON confidence 7", `{"critique":"C","final_confidence":7}`, ErrConfidence, "final_confidence is 7"},
		{"JSON confidence -1", `{"critique":"C","initial_confidence":-1}`, ErrConfidence, "initial_confidence is -1"},
		{"JSON confidence 150%", `{"critique":"C","initial_confidence":"150%"}`, ErrMalformed, "150"},
		{"JSON confidence sentence", `{"critique":"C","final_confidence":"pretty good"}`, ErrMalformed, "not a number"},
		{"JSON confidence bool", `{"critique":"C","final_confidence":true}`, ErrMalformed, ""},
		{"JSON empty critique", `{"critique":"   "}`, ErrNoCritique, ""},
		{"JSON missing critique", `{"final_answer":"yes"}`, ErrNoCritique, ""},
		{"JSON unknown key", `{"critique":"C","critque":"x"}`, ErrMalformed, "critque"},
		{"JSON trailing data", `{"critique":"C"} {"critique":"D"}`, ErrMalformed, "trailing"},
		{"JSON unknown layer", `{"critique":"C","layer":"deploy"}`, ErrMalformed, "deploy"},
		{"JSON both confidence and final", `{"critique":"C","confidence":0.5,"final_confidence":0.6}`, ErrMalformed, ""},
		{"JSON blank evidence ref", `{"critique":"C","evidence_refs":[" "]}`, ErrMalformed, "evidence_refs[0]"},
		{"JSON array", `[{"critique":"C"}]`, ErrMalformed, "not a JSON object"},
		{"JSON confidence fraction", `{"critique":"C","final_confidence":"1/2"}`, ErrMalformed, "1/2"},
		{"JSON confidence out of", `{"critique":"C","confidence":"1 out of 4"}`, ErrMalformed, ""},
		{"text empty", "   \n\n", ErrNoCritique, ""},
		{"10 MiB of text", tenMiB, ErrTooLarge, "larger than"},
		{"binary NUL", "Critique: \x00\x01\x02 it holds", ErrBinary, "0x00"},
		{"binary invalid UTF-8", "Critique: \xff\xfe holds", ErrBinary, "UTF-8"},
		{"binary in JSON", "{\"critique\":\"a\x00b\"}", ErrBinary, ""},
		{"escaped NUL in JSON", `{"critique":"a\u0000b"}`, ErrBinary, "critique"},
		{"escaped ESC in JSON", `{"critique":"C","final_answer":"\u001b[2J yes"}`, ErrBinary, "final_answer"},
		{"escaped control in an evidence ref", `{"critique":"C","evidence_refs":["a.go","b\u0007"]}`, ErrBinary, "evidence_refs[1]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cr := &countingReader{r: strings.NewReader(c.in)}
			var (
				sc  SelfCritique
				err error
			)
			if strings.HasPrefix(c.name, "JSON") || c.name == "invalid JSON" {
				// The strict JSON reader; Parse reads invalid JSON as text.
				data, _ := io.ReadAll(cr)
				sc, err = ParseJSON(data)
			} else {
				sc, err = Parse(cr)
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v (parsed %+v)", err, c.want, sc)
			}
			if c.msg != "" && !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q does not say %q", err, c.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if cr.n > MaxInputBytes+1+bytes.MinRead {
				t.Errorf("read %d bytes, limit is %d", cr.n, MaxInputBytes+1)
			}
			if _, derr := Default().Decide(sc); derr == nil {
				t.Errorf("the zero value returned with the error can be decided on")
			}
		})
	}
}

func TestEncodeSelfCritiqueRoundTrips(t *testing.T) {
	t.Parallel()
	sc := SelfCritique{Layer: debate.LayerPlan, Critique: "C \"q\"", InitialConfidence: conf(0.3), EvidenceRefs: []string{"a.go:1"}}
	b, err := EncodeSelfCritique(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	back.Parsed = nil
	if !reflect.DeepEqual(back, sc) {
		t.Errorf("round trip: %+v != %+v", back, sc)
	}
}

// TestOddConfidenceLinesAreReadNotRefused: a confidence line that states
// no usable number is kept as words of the critique and noted, never a
// refusal; a number that is only the start of another one ("1e-1", "0,8",
// "1 of 3 runs passed") is not read as that start.
func TestOddConfidenceLinesAreReadNotRefused(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"7", "-1", "101%", "1 / 2", "1 of 3 runs passed", "1e-1", "0,8", "pretty sure"} {
		sc, err := Parse(strings.NewReader("Critique: C\nConfidence: " + v))
		if err != nil {
			t.Errorf("%q refused: %v", v, err)
			continue
		}
		if sc.FinalConfidence != nil || sc.InitialConfidence != nil {
			t.Errorf("%q read as a confidence: %v %v", v, sc.InitialConfidence, sc.FinalConfidence)
		}
		if !strings.Contains(strings.Join(sc.Parsed.Notes, "|"), "not read") {
			t.Errorf("%q: notes %q do not say the confidence was not read", v, sc.Parsed.Notes)
		}
	}
	sc, err := Parse(strings.NewReader("Critique: C\nConfidence: 0.5\nConfidence: 0.6"))
	if err != nil || sc.InitialConfidence == nil || *sc.InitialConfidence != 0.5 || *sc.FinalConfidence != 0.6 {
		t.Errorf("two confidence lines: %+v, %v", sc, err)
	}
	sc, err = Parse(strings.NewReader("Layer: deploy\nCritique: C"))
	if err != nil || sc.Layer != "" || !strings.Contains(strings.Join(sc.Parsed.Notes, "|"), "deploy") {
		t.Errorf("unknown layer: %+v, %v", sc, err)
	}
}

// TestJSONFieldOfAnotherTypeIsStillReadAsFields: a JSON self-critique
// whose field has another type than the spec's (a critique written as a
// list of points, evidence_refs as one string, a question as a number) is
// read by its fields, the odd ones noted, and never as text, where its
// quoted strings would all be masked and the gate would decide on nothing.
func TestJSONFieldOfAnotherTypeIsStillReadAsFields(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, critique string
		refs               []string
		note               string
	}{
		{"critique as a list", `{"layer":"verify","critique":["I am not sure it retries.","Maybe it never backs off."],"final_confidence":0.4}`,
			"I am not sure it retries.\nMaybe it never backs off.", nil, ""},
		{"evidence_refs as a string", `{"layer":"verify","critique":"I am not sure it retries.","evidence_refs":"retry.go:12"}`,
			"I am not sure it retries.", []string{"retry.go:12"}, ""},
		{"question as a number", `{"layer":"verify","critique":"I am not sure it retries.","question":42}`,
			"I am not sure it retries.", nil, "question left out"},
		{"evidence_refs as numbers", `{"layer":"verify","critique":"I am not sure it retries.","evidence_refs":[1,2]}`,
			"I am not sure it retries.", nil, "evidence_refs left out"},
		{"evidence_refs blank", `{"layer":"verify","critique":"I am not sure it retries.","evidence_refs":"","mood":1}`,
			"I am not sure it retries.", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sc, err := ParseBytes([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if sc.Parsed.Form != "json" || sc.Critique != c.critique || sc.Layer != debate.LayerVerify || !reflect.DeepEqual(sc.EvidenceRefs, c.refs) {
				t.Errorf("read as %s: critique %q, layer %q, refs %q", sc.Parsed.Form, sc.Critique, sc.Layer, sc.EvidenceRefs)
			}
			if notes := strings.Join(sc.Parsed.Notes, "|"); !strings.Contains(notes, c.note) {
				t.Errorf("notes %q do not say %q", notes, c.note)
			}
		})
	}
}

// A JSON self-critique wrapped in a code fence, as chat models write it
// (```json … ```), is read as JSON: its fields and confidences count.
// Before, it was read as Markdown, where a code block is masked whole: a
// stated doubt fired no cue, a stated confidence was "missing", and a
// checked fix debated (score 0.283) for want of anything read.
func TestAFencedJSONSelfCritiqueIsReadAsJSON(t *testing.T) {
	t.Parallel()
	const obj = `{"critique":"Fixed; go test ./retry passes (TestRetry at retry_test.go:40).","final_answer":"Fixed.","final_confidence":0.95}`
	want, err := ParseJSON([]byte(obj))
	if err != nil {
		t.Fatal(err)
	}
	dWant, err := Default().Decide(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"```json\n" + obj + "\n```\n",
		"\n```JSON\n" + obj + "\n```",
		"~~~\n" + obj + "\n~~~\n",
		"````json\n" + obj + "\n````\n",
	} {
		sc, err := ParseBytes([]byte(in))
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if sc.Parsed == nil || sc.Parsed.Form != "json" || sc.Critique != want.Critique || sc.FinalConfidence == nil || *sc.FinalConfidence != 0.95 {
			t.Errorf("%q read as %+v (%+v)", in, sc, sc.Parsed)
			continue
		}
		d, err := Default().Decide(sc)
		if err != nil || d.Outcome != dWant.Outcome || d.Score != dWant.Score {
			t.Errorf("%q decided %v %v, unfenced %v %v", in, d.Outcome, d.Score, dWant.Outcome, dWant.Score)
		}
	}
	// A fence with other text around it, of another language, or with
	// no JSON object in it stays Markdown.
	for _, in := range []string{
		"Here is my check:\n```json\n" + obj + "\n```\n",
		"```go\n" + obj + "\n```\n",
		"```\nI am not sure.\n```\n",
		"```json\n" + obj + "\n```\nBut I never ran it.\n```json\n{}\n```\n",
	} {
		sc, err := ParseBytes([]byte(in))
		if err != nil || sc.Parsed == nil || sc.Parsed.Form != "text" {
			t.Errorf("%q: %v, %+v, want it read as text", in, err, sc.Parsed)
		}
	}
}

// Text after a JSON self-critique (a model's remark below its object) is
// read as critique, so a doubt written there counts. Before, it was
// dropped with only a "read leniently" note, and a confident object
// followed by "Actually I never ran them; I am not sure it compiles"
// decided skip.
func TestTextAfterAJSONObjectIsReadAsCritique(t *testing.T) {
	t.Parallel()
	const obj = `{"critique":"Fixed; go test ./retry passes (TestRetry at retry_test.go:40).","final_confidence":0.95}`
	const doubt = "Actually I never ran them; I am not sure the retry even compiles."
	alone, err := ParseBytes([]byte(obj))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Default().Decide(alone)
	if err != nil || d.Outcome != Skip {
		t.Fatalf("the object alone decided %v, %v; the test needs a skip", d.Outcome, err)
	}
	sc, err := ParseBytes([]byte(obj + "\n" + doubt + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sc.Critique, doubt) || !strings.HasPrefix(sc.Critique, alone.Critique) || sc.FinalConfidence == nil {
		t.Errorf("critique %q (confidence %v), want the field's then the text after it", sc.Critique, sc.FinalConfidence)
	}
	if !slices.Contains(sc.Parsed.Notes, "text after the JSON object: read as critique") {
		t.Errorf("notes %q do not say so", sc.Parsed.Notes)
	}
	if d, err := Default().Decide(sc); err != nil || d.Outcome != Debate {
		t.Errorf("with the doubt after it: %v, %v; want debate", d.Outcome, err)
	}
}
