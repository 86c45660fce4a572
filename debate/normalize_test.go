package debate

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

func TestTurnClaimAlias(t *testing.T) {
	t.Parallel()
	var tu Turn
	if err := json.Unmarshal([]byte(`{"debate_id":"d","round":1,"role":"attacker","claim":"X holds","counter_to":"Y"}`), &tu); err != nil {
		t.Fatal(err)
	}
	if tu.Position != "X holds" || tu.Role != RoleAttacker {
		t.Fatalf("claim alias: %+v", tu)
	}
	if err := json.Unmarshal([]byte(`{"position":"P","claim":"C"}`), &tu); err != nil || tu.Position != "P" {
		t.Fatalf("position wins over claim: %+v %v", tu, err)
	}
}

// A recorded turn decodes every field, its own and its Turn's, with the
// "claim" alias (position wins when both are there).
func TestTurnRecordDecodes(t *testing.T) {
	t.Parallel()
	want := TurnRecord{
		Turn: Turn{DebateID: "d", Round: 2, Role: RoleDefender, Position: "P", CounterTo: "C", EvidenceRefs: []string{"a.go:1"},
			ConfidenceChange: -1, Tokens: 7, Text: "why"},
		Agent: "Proposer", RequestID: "r", MessageID: "m", PositionHash: "h", TokensEstimated: true, OverBudget: true,
		Evidence: []EvidenceCheck{{Ref: "a.go:1", Kind: "line", Status: EvidenceOK}},
	}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got TurnRecord
	if err := json.Unmarshal(data, &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip: %v\n got %+v\nwant %+v", err, got, want)
	}
	for in, pos := range map[string]string{
		`{"claim":"X holds","agent":"Critic"}`:               "X holds",
		`{"position":"P","claim":"C","agent":"Critic"}`:      "P",
		`{"position":"","claim":"X holds","agent":"Critic"}`: "X holds",
	} {
		var r TurnRecord
		if err := json.Unmarshal([]byte(in), &r); err != nil || r.Position != pos || r.Agent != "Critic" {
			t.Errorf("%s: %+v %v", in, r, err)
		}
	}
}

func TestDefaultBudgets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		l                Layer
		rounds, tok, per int
	}{{LayerSpec, 3, 6000, 2000}, {LayerPlan, 3, 10000, 3000}, {LayerVerify, 4, 8000, 2000}} {
		b := DefaultBudget(tc.l)
		if b.MaxRounds != tc.rounds || b.MaxTokens != tc.tok || b.MaxTokensPerRound != tc.per || b.MaxWallClockMs != 120000 || b.ConvergenceRounds != 1 {
			t.Errorf("%s: %+v", tc.l, b)
		}
		if err := b.Validate(); err != nil {
			t.Error(err)
		}
	}
	two := 2
	if b := DefaultBudget(LayerSpec).Apply(BudgetOverride{MaxRounds: &two}); b.MaxRounds != 2 || b.MaxTokens != 6000 {
		t.Errorf("override: %+v", b)
	}
	zero := 0
	if err := DefaultBudget(LayerSpec).Apply(BudgetOverride{MaxTokens: &zero}).Validate(); !errors.Is(err, ErrInvalidBudget) {
		t.Errorf("zero tokens accepted: %v", err)
	}
	if EstimateTokens("abcde") != 2 || EstimateTokens("") != 0 {
		t.Error("EstimateTokens")
	}
}

// BenchmarkTurnRecordDecode measures decoding one recorded turn, as every
// replay, status and transcript page does for each turn.
func BenchmarkTurnRecordDecode(b *testing.B) {
	rec := TurnRecord{
		Turn:  Turn{DebateID: "d", Round: 1, Role: RoleAttacker, Position: "p", EvidenceRefs: []string{"a.go:1"}, Text: strings.Repeat("x ", 200)},
		Agent: "Critic", RequestID: "r", Evidence: []EvidenceCheck{{Ref: "a.go:1", Kind: "line", Status: EvidenceOK}},
	}
	data, err := json.Marshal(rec)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var r TurnRecord
		if err := json.Unmarshal(data, &r); err != nil || r.Agent != "Critic" || r.Position != "p" {
			b.Fatal(err)
		}
	}
}
