package agent

import (
	"context"
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
