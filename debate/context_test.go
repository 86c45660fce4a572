package debate_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
)

// A spec under debate is the context of every turn. One the agents could
// not be handed (a request carries it twice, JSON-escaped, and a table of
// HTML cells triples its size) is refused before the debate opens: it
// used to be left out of every request without a word, so the critic
// conceded a spec it never saw and the record said CONSENSUS_REACHED. A
// plain document of 256 KiB, the most a context file may hold, reaches
// the agents whole.
func TestContextTheAgentsCannotBeHandedIsRefused(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	respond := func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		mu.Lock()
		for _, c := range req.Context {
			got = append(got, c.Text)
		}
		mu.Unlock()
		t := &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: "Use UUIDv7 keys", Tokens: 10}
		if req.Role == debate.RoleAttacker {
			t.Position, t.CounterTo, t.ConfidenceChange = "Bursts are not specified", req.Position, -1
		}
		return &agent.Reply{Turn: t}, nil
	}
	newDebate := func(doc string) *harness {
		h := newHarness(t, budgetOf(1, 100000),
			party{name: "Critic", role: debate.RoleAttacker, respond: respond},
			party{name: "Proposer", role: debate.RoleDefender, respond: respond})
		h.session.Context = []debate.ContextItem{{Kind: "file", Ref: "docs/spec.md", Text: doc}}
		return h
	}

	table := "# Limits\n\n| tier | limit | note |\n|---|---|---|\n"
	for len(table) < 250<<10 {
		table += "| <b>free</b> | <i>10/s</i> | \"burst\" & <br> queue |\n"
	}
	h := newDebate(table)
	n, err := debate.ContextRequestBytes(h.session)
	if err != nil || n <= debate.MaxContextRequestBytes {
		t.Fatalf("a %d-byte table of HTML cells adds %d bytes to a request (%v), want over %d", len(table), n, err, debate.MaxContextRequestBytes)
	}
	j := debate.NewMemJournal()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	o, err := h.coordinator(j).Start(ctx, h.session)
	if !errors.Is(err, debate.ErrContextTooLarge) || o != nil {
		t.Fatalf("a debate whose context no request can carry: %v, %v; want ErrContextTooLarge", o, err)
	}
	if !strings.Contains(err.Error(), "fewer or shorter files") {
		t.Errorf("the refusal does not say what to do: %v", err)
	}
	if n := len(j.Events()); n != 0 {
		t.Errorf("the refused debate recorded %d events", n)
	}

	plain := strings.Repeat("The service limits each tenant to 100 requests per second.\n", 256<<10/59)
	h = newDebate(plain)
	if err := h.session.CheckContext(); err != nil {
		t.Fatalf("a plain %d-byte spec: %v", len(plain), err)
	}
	o, _ = h.run()
	if o.Rounds != 1 || len(got) != 2 || got[0] != plain || got[1] != plain {
		t.Errorf("%s after %d round(s): the agents were handed %d copies of the spec, want 2 whole", o.Verdict, o.Rounds, len(got))
	}
}
