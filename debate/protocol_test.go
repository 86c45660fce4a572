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
