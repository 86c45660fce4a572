package debate_test

import (
	"context"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
)

// placedMessenger delivers every message, then says its send failed once
// the message was in the inbox (the directory's sync), as a failing disk
// makes the file messenger say.
type placedMessenger struct{ debate.Messenger }

func (m placedMessenger) Send(ctx context.Context, msg *inbox.Message) error {
	if err := m.Messenger.Send(ctx, msg); err != nil {
		return err
	}
	return inboxtest.PlacedError(msg)
}

// A request whose send failed once it was in the agent's inbox was
// delivered: the debate goes on to its verdict, rather than ending on an
// error with the agent holding the request.
func TestARequestInTheInboxIsDeliveredThoughItsSendFailed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(3, 6000),
		att("Critic", turns("1|Use random UUIDv4 keys|Use UUIDv7 keys|-1", "2|||0")),
		def("Proposer", turns("1|Use UUIDv7 keys with a 24h dedup window|")))
	c := h.coordinator(debate.NewMemJournal())
	c.Messenger = placedMessenger{Messenger: h.tr}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o, err := c.Start(ctx, h.session)
	if err != nil {
		t.Fatalf("debate: %v", err)
	}
	if o.Verdict != debate.ConsensusReached || o.Rounds != 2 {
		t.Errorf("outcome %s after %d rounds: %s", o.Verdict, o.Rounds, o.Reason)
	}
}
