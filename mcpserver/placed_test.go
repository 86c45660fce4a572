package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
)

// placedTransport says every send failed once its message was in the
// inbox (the directory's sync), as a failing disk makes the file
// messenger say.
type placedTransport struct{ Transport }

func (placedTransport) Send(_ context.Context, m *inbox.Message) error {
	return inboxtest.PlacedError(m)
}

// A participant's reply that is in the coordinator's inbox, though its
// send failed at the directory's sync, is delivered: the tool call that
// submitted the turn is told so, with the reply's message id, rather than
// "its reply was not delivered".
func TestAReplyInTheInboxIsConfirmedToTheClient(t *testing.T) {
	t.Parallel()
	p := &participant{sends: map[string]chan error{}, answered: map[string]*answer{}}
	sent := make(chan error, 1)
	p.sends["r1"] = sent
	p.answered["r1"] = &answer{}
	raw, _ := json.Marshal("r1")
	m := &inbox.Message{ID: inbox.NewID(), From: "Critic", To: "coordinator", Text: "{}", Timestamp: inbox.Now(), Type: "debate_turn",
		Fields: map[string]json.RawMessage{"request_id": raw}}
	if err := (tapTransport{placedTransport{}, p}).Send(context.Background(), m); err == nil {
		t.Error("the transport's error was not passed on to the runner")
	}
	if err := <-sent; err != nil || p.answered["r1"].messageID != m.ID {
		t.Errorf("the participant was told %v (message id %q), want the reply delivered as %s", err, p.answered["r1"].messageID, m.ID)
	}
}
