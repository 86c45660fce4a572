package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

func FuzzParseScript(f *testing.F) {
	f.Add([]byte(`{"turns":[{"round":1,"position":"p","counter_to":"c","evidence_refs":["a:1"],"confidence_change":-1,"tokens":1,"text":"t","delay_ms":0}]}`))
	f.Add([]byte(`{"turns":[{"claim":"x","reply_fields":{"a":1},"wrong_attempts":2,"reply_round":3}]}`))
	f.Add([]byte(`{"turns":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseScript(data)
		if err != nil {
			return
		}
		if len(s.Turns) == 0 {
			t.Fatal("a script without turns parsed")
		}
		for _, e := range s.Turns {
			if e.DelayMs != 0 {
				return // do not sleep in a fuzzer
			}
		}
		for _, r := range []int{0, 1, 2, 100} {
			rep, err := s.Respond(context.Background(), request(r, 1))
			if err != nil || (rep.Turn == nil && len(rep.Raw) == 0) {
				t.Fatalf("round %d: %v %+v", r, err, rep)
			}
		}
	})
}

func FuzzParseOutput(f *testing.F) {
	f.Add([]byte(`{"position":"p","tokens":3}`))
	f.Add([]byte("Position\nargument\n"))
	f.Add([]byte(`[1]`))
	f.Add([]byte("{not json"))
	f.Add([]byte("```json\n{\"position\":\"p\",\"tokens\":1.5}\n```\n"))
	f.Add([]byte("<think>{\"position\":\"draft\"}</think>Here:\n{\"claim\":\"p\"} done"))
	f.Add([]byte("Voil\xe0\n{\"position\":\"p\",\"tokens\":\"12\"}"))
	f.Fuzz(func(t *testing.T, out []byte) {
		req := request(2, 1)
		rep, err := ParseOutput(out, req)
		if err != nil {
			return
		}
		if rep.Turn != nil {
			if rep.Turn.Round != 2 || rep.Turn.Role != debate.RoleAttacker {
				t.Fatalf("plain text turn %+v", rep.Turn)
			}
			return
		}
		if !isObject(rep.Raw) {
			t.Fatalf("raw output is not an object: %s", rep.Raw)
		}
	})
}

// FuzzParseModelReply: whatever a model writes, the parser returns a turn
// that the coordinator's rules accept for the request, or ErrMalformedReply;
// and a sloppy reply never concedes unless it says so field by field.
func FuzzParseModelReply(f *testing.F) {
	for _, s := range []string{
		`{"position":"p","counter_to":"c","confidence_change":-1,"evidence_refs":["a:1"],"text":"t"}`,
		"prose ```json\n{\"claim\":\"x\"}\n``` more",
		`<think>{"position":"no"}</think>{"position":"","counter_to":"","confidence_change":0}`,
		`{"position":"a","confidence_change":"+1"} {"position":"b"}`,
		`{{{{"position":"x"}`, `{"position":"\"}"}`, `[{"position":"x"}]`, "",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, content string, attacker bool) {
		req := request(1, 1)
		if !attacker {
			req.Role = debate.RoleDefender
		}
		tu, err := ParseModelReply(content, req)
		if err != nil {
			if !errors.Is(err, ErrMalformedReply) {
				t.Fatalf("error %v does not wrap ErrMalformedReply", err)
			}
			return
		}
		if tu.DebateID != req.DebateID || tu.Round != req.Round || tu.Role != req.Role || tu.EvidenceRefs == nil {
			t.Fatalf("turn %+v", tu)
		}
		if tu.ConfidenceChange < -1 || tu.ConfidenceChange > 1 || len(tu.EvidenceRefs) > debate.MaxEvidenceRefs {
			t.Fatalf("out of protocol: %+v", tu)
		}
		if strings.TrimSpace(tu.Position) == "" && (req.Role == debate.RoleDefender || !tu.Concedes()) {
			t.Fatalf("an empty position that the coordinator would reject: %+v", tu)
		}
		if tu.Concedes() && tu.Position == "" && !strings.Contains(content, "confidence_change") {
			t.Fatalf("a concession without an explicit confidence_change: %q", content)
		}
	})
}

// FuzzDecodeCompletion: whatever an endpoint answers with a 2xx, the
// openai client returns text and usage, or an error the loop understands
// (ErrEndpoint: not a chat completion; ErrMalformedReply: cut before any
// text), never a panic; and an error body always reads as one line.
func FuzzDecodeCompletion(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"image","text":"b"}]}}]}`,
		`{"choices":[{"message":{"content":null,"reasoning_content":"r"},"finish_reason":"length"}]}`,
		`{"choices":[{"message":{"content":""},"finish_reason":"length"}],"usage":{"completion_tokens":-9}}`,
		`{"error":{"message":"bad\nkey"}}`, `{"error":"x"}`, `<html>nope</html>`, `{"choices":[]}`, `null`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := decodeCompletion(data)
		text := rep.Content
		if err != nil && !errors.Is(err, ErrEndpoint) && !errors.Is(err, ErrMalformedReply) {
			t.Fatalf("error %v is neither ErrEndpoint nor ErrMalformedReply", err)
		}
		if err != nil && text != "" {
			t.Fatalf("text %q with error %v", text, err)
		}
		if msg := errorMessage(data); strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("error message on several lines: %q", msg)
		}
	})
}
