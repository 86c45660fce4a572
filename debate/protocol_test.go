package debate

import (
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// A turn's argument survives the messenger, and a turn sent without one is
// recorded without one (not with its own rendering).
func TestTurnArgumentRoundTrip(t *testing.T) {
	t.Parallel()
	req := &TurnRequest{DebateID: "d", Round: 1, Role: RoleAttacker}
	reqMsg := &inbox.Message{ID: "r1", From: "Coordinator-x"}
	for _, text := range []string{"", "Because the keys collide under retries."} {
		tu := &Turn{DebateID: "d", Round: 1, Role: RoleAttacker, Position: "P", CounterTo: "x", ConfidenceChange: -1, EvidenceRefs: []string{"a.go:1"}, Text: text}
		m, err := NewTurnMessage("Agent", reqMsg, "q", tu)
		if err != nil {
			t.Fatal(err)
		}
		if m.Text == "" {
			t.Fatal("the message text is empty: a reader of text alone could not follow")
		}
		data, err := m.Encode()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := inbox.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeTurn(m2, req)
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != text || got.Position != "P" || len(got.EvidenceRefs) != 1 {
			t.Errorf("argument %q came back as %q (%+v)", text, got.Text, got)
		}
	}
}

// An agent's token figure is taken up to MaxTurnTokens; one above it (an
// exec agent printing the largest int64) is no count and is estimated, so
// that it neither ends the debate BUDGET_EXHAUSTED nor wraps the sum.
func TestRecordTokenFigures(t *testing.T) {
	t.Parallel()
	b := DefaultBudget(LayerSpec)
	for _, c := range []struct {
		name      string
		reported  int
		want      int
		estimated bool
	}{
		{"none", 0, EstimateTokens("P" + "x" + "Because."), true},
		{"an honest figure", 1500, 1500, false},
		{"over the allowance, still a count", 50_000, 50_000, false},
		{"the ceiling", MaxTurnTokens, MaxTurnTokens, false},
		{"the largest int64", 9223372036854775807, EstimateTokens("P" + "x" + "Because."), true},
		{"just past the ceiling", MaxTurnTokens + 1, EstimateTokens("P" + "x" + "Because."), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tu := &Turn{DebateID: "d", Round: 1, Role: RoleAttacker, Position: "P", CounterTo: "x", ConfidenceChange: -1, Text: "Because.", Tokens: c.reported}
			rec := Record(tu, "A", "q", "m", b, nil)
			if rec.Tokens != c.want || rec.TokensEstimated != c.estimated {
				t.Fatalf("tokens %d estimated %v, want %d %v", rec.Tokens, rec.TokensEstimated, c.want, c.estimated)
			}
		})
	}
}
