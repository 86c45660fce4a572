package debate

import (
	"context"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
)

func FuzzDecodeTurn(f *testing.F) {
	f.Add([]byte(`{"debate_id":"d","round":1,"role":"attacker","position":"p","counter_to":"c","evidence_refs":["a.go:1"],"confidence_change":-1,"tokens":10}`))
	f.Add([]byte(`{"debate_id":"d","round":1,"role":"attacker","claim":"p"}`))
	f.Add([]byte(`{"round":"1"}`))
	f.Add([]byte(`{"evidence_refs":"x","position":null}`))
	req := &TurnRequest{DebateID: "d", RequestID: "d:r1:attacker1:a1", Round: 1, Role: RoleAttacker}
	f.Fuzz(func(t *testing.T, fields []byte) {
		var f map[string]json.RawMessage
		if json.Unmarshal(fields, &f) != nil || f == nil {
			return
		}
		m := &inbox.Message{ID: "x", From: "A", To: "B", Text: "arg", Timestamp: inbox.Now(), Type: TypeTurn, Fields: f}
		tu, err := DecodeTurn(m, req)
		if err != nil {
			return
		}
		if tu.DebateID != "d" || tu.Round != 1 || tu.Role != RoleAttacker || tu.ConfidenceChange < -1 || tu.ConfidenceChange > 1 || tu.Tokens < 0 {
			t.Fatalf("accepted a turn that does not match its request: %+v", tu)
		}
		if strings.TrimSpace(tu.Position) == "" && !tu.Concedes() {
			t.Fatalf("accepted an empty position that does not concede: %+v", tu)
		}
		rec := Record(tu, "A", req.RequestID, m.ID, DefaultBudget(LayerSpec), nil)
		if rec.Tokens < 0 || (rec.TokensEstimated && tu.Tokens > 0) {
			t.Fatalf("record %+v", rec)
		}
		// A recorded turn survives a round trip through JSON.
		b, _ := json.Marshal(rec)
		var back TurnRecord
		if err := json.Unmarshal(b, &back); err != nil || back.Agent != "A" || back.Position != rec.Position {
			t.Fatalf("round trip: %v %+v", err, back)
		}
	})
}

func FuzzEvidenceRef(f *testing.F) {
	dir := f.TempDir()
	for _, s := range []string{"a.go", "a.go:1", "a.go:1-2", "../x", "[[p]]", "[[p|q]]", "https://x.y/z", "/etc/passwd", "a.go:0", "a.go:3-1", "::", "[[]]"} {
		f.Add(s)
	}
	c, err := NewEvidenceChecker(dir, PageFunc(func(ctx context.Context, n string) (bool, error) { return n == "p", nil }))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		ec := c.CheckOne(context.Background(), ref)
		switch ec.Status {
		case EvidenceOK, EvidenceMissing, EvidenceOutOfRange, EvidenceOutside, EvidenceUnchecked, EvidenceInvalid:
		default:
			t.Fatalf("status %q for %q", ec.Status, ref)
		}
		if ec.Status == EvidenceOK && ec.Kind != "wiki" && ec.Kind != "path" {
			t.Fatalf("%q: ok %s in an empty workspace", ref, ec.Kind)
		}
	})
}

func FuzzReplay(f *testing.F) {
	f.Add([]byte(`[{"seq":1,"kind":"open","data":{}}]`))
	f.Add([]byte(`[{"seq":1,"kind":"turn","data":{"round":1}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var events []Event
		if json.Unmarshal(data, &events) != nil {
			return
		}
		st, err := Replay(events)
		if err != nil {
			return
		}
		if st.Session == nil || st.Session.Validate() != nil {
			t.Fatal("replayed a journal without a valid session")
		}
		st.Next()
		st.Judge(st.ElapsedMs)
	})
}

// FuzzDecodeTextTurn feeds plain message texts (what a pi agent or a
// person writes) to the text-turn decoder: it never panics, and a turn it
// accepts matches its request.
func FuzzDecodeTextTurn(f *testing.F) {
	f.Add("```json\n{\"position\":\"p\",\"counter_to\":\"c\",\"confidence_change\":-1}\n```")
	f.Add(`prose {"claim":"p","round":1} more {"position":"q"}`)
	f.Add(`{"position":"","counter_to":"","confidence_change":0}`)
	f.Add(`{"position":"p","evidence_refs":"x"} {{{{ "`)
	f.Add("```\n{\"position\":1}\n```")
	req := &TurnRequest{DebateID: "d", RequestID: "d:r1:attacker1:a1", Round: 1, Role: RoleAttacker}
	f.Fuzz(func(t *testing.T, text string) {
		m := &inbox.Message{ID: "x", From: "A", To: "B", Text: text, Timestamp: inbox.Now()}
		tu, err := DecodeTextTurn(m, req)
		if err != nil {
			return
		}
		if tu.DebateID != "d" || tu.Round != 1 || tu.Role != RoleAttacker || tu.ConfidenceChange < -1 || tu.ConfidenceChange > 1 {
			t.Fatalf("accepted a turn that does not match its request: %+v", tu)
		}
		if strings.TrimSpace(tu.Position) == "" && !tu.Concedes() {
			t.Fatalf("accepted an empty position that does not concede: %+v", tu)
		}
	})
}

// FuzzDecodeUnavailable: a turn_unavailable reply's fields never panic the
// decoder, and one it accepts has a known kind, a detail and bounded text.
func FuzzDecodeUnavailable(f *testing.F) {
	f.Add([]byte(`{"kind":"auth","status":401,"url":"http://x/v1/chat/completions","detail":"HTTP 401","hint":"set $K"}`))
	f.Add([]byte(`{"kind":"bored","detail":"x"}`))
	f.Add([]byte(`{"kind":"unreachable","detail":""}`))
	f.Add([]byte(`{"kind":"cannot_start","detail":"x","status":"401"}`))
	f.Fuzz(func(t *testing.T, fields []byte) {
		var f map[string]json.RawMessage
		if json.Unmarshal(fields, &f) != nil || f == nil {
			return
		}
		m := &inbox.Message{ID: "x", From: "A", To: "B", Text: "t", Timestamp: inbox.Now(), Type: TypeTurnUnavailable, Fields: f}
		u, err := DecodeUnavailable(m)
		if err != nil {
			return
		}
		if !u.valid() || len([]rune(u.Detail)) > 501 || len([]rune(u.Hint)) > 501 || len([]rune(u.URL)) > 501 {
			t.Fatalf("accepted %+v", u)
		}
		_ = u.Error()
	})
}
