package agent

import (
	"context"
	"log/slog"
	"testing"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
)

// placedTransport says every send failed once its message was in the
// inbox (the directory's sync), as a failing disk makes the file
// messenger say; it counts the sends.
type placedTransport struct {
	Transport
	sends int
}

func (p *placedTransport) Send(_ context.Context, m *inbox.Message) error {
	p.sends++
	return inboxtest.PlacedError(m)
}

// A reply whose send failed once it was in the coordinator's inbox is
// sent: not tried again (the coordinator would drop the copies), and
// without the waits between tries.
func TestAReplyInTheInboxIsNotSentAgain(t *testing.T) {
	t.Parallel()
	tr := &placedTransport{}
	r := &Runner{Name: "Critic", Transport: tr}
	reply := &inbox.Message{ID: inbox.NewID(), From: "Critic", To: "coordinator", Text: "{}", Timestamp: inbox.Now(), Type: "debate_turn"}
	if !r.send(context.Background(), slog.New(slog.DiscardHandler), reply) || tr.sends != 1 {
		t.Errorf("sent %d times, want once", tr.sends)
	}
}
