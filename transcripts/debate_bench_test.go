package transcripts_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// BenchmarkDebateTurnTranscript is debate's BenchmarkDebateTurn with a real
// transcript on disk: every turn event is fsynced (the request event rides
// on that fsync). One op is one turn; each debate has 4 rounds of 2 turns,
// opened (session.json, transcript) and sealed (verdict.json) on disk.
func BenchmarkDebateTurnTranscript(b *testing.B) {
	store, err := transcripts.OpenStore(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	tr := inbox.NewMemTransport()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	instant := agent.ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		t := &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: fmt.Sprintf("%s %d", req.Role, req.Round), ConfidenceChange: -1, Tokens: 50, Text: "an argument"}
		if req.Role == debate.RoleAttacker {
			t.CounterTo = req.Position
		}
		return &agent.Reply{Turn: t}, nil
	})
	var done []chan error
	for _, name := range []string{"Critic", "Proposer"} {
		ready, d := make(chan struct{}), make(chan error, 1)
		go func() {
			d <- (&agent.Runner{Name: name, Transport: tr, Responder: instant, Ready: func() { close(ready) }}).Run(ctx)
		}()
		<-ready
		done = append(done, d)
	}
	budget := debate.ConsensusBudget{MaxRounds: 4, MaxTokens: 1 << 30, MaxTokensPerRound: 2000, MaxWallClockMs: 600000, ConvergenceRounds: 1}
	const letters = "abcdefghijklmnopqrstuvwxyz234567"
	turns := 0
	for i := 0; turns < b.N; i++ {
		suffix := []byte{letters[i%32], letters[i/32%32], letters[i/1024%32], letters[i/32768%32], 'a', 'a'}
		s := &debate.DebateSession{ID: "20260101-verify-bench-" + string(suffix), Topic: "bench", Layer: debate.LayerVerify, Budget: budget,
			Coordinator: "Coordinator", Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}}}
		log, err := store.Create(ctx, s)
		if err != nil {
			b.Fatal(err)
		}
		o, err := (&debate.Coordinator{Messenger: tr, Journal: log, Filer: nopFiler{}}).Start(ctx, s)
		log.Close()
		if err != nil || o.Verdict != debate.BudgetExhausted {
			b.Fatalf("%v %+v", err, o)
		}
		turns += len(o.Turns)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(turns), "µs/turn")
	cancel()
	for _, d := range done {
		<-d
	}
}
