package debate_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

// instant answers at once with a new position every round, so that a
// debate runs until its round budget is spent.
var instant = agent.ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
	t := &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: fmt.Sprintf("%s holds position %d", req.Role, req.Round),
		ConfidenceChange: -1, Tokens: 50, Text: "An argument of a realistic length, a sentence or two, citing nothing."}
	if req.Role == debate.RoleAttacker {
		t.CounterTo = req.Position
	}
	return &agent.Reply{Turn: t}, nil
})

// BenchmarkDebateTurn measures the coordinator's cost per turn with agents
// that answer instantly, in one process: in-memory transport, in-memory
// journal, agent runners included. One op is one turn; each debate has 4
// rounds of 2 turns (the verify layer's default).
func BenchmarkDebateTurn(b *testing.B) {
	tr := inbox.NewMemTransport()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
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
	b.ReportAllocs()
	turns := 0
	for i := 0; turns < b.N; i++ {
		id := fmt.Sprintf("20260101-verify-bench-%06d", i)
		id = id[:len(id)-6] + fmt.Sprintf("%c%c%c%c%c%c", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26, 'a'+i/17576%26, 'a', 'a')
		s := &debate.DebateSession{ID: id, Topic: "bench", Layer: debate.LayerVerify, Budget: budget, Coordinator: "Coordinator",
			Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}}}
		o, err := (&debate.Coordinator{Messenger: tr, Journal: debate.NewMemJournal(), Filer: printFiler{}}).Start(ctx, s)
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

func BenchmarkJudge(b *testing.B) {
	s := &debate.DebateSession{ID: "20260101-spec-x-abcdef", Topic: "x", Layer: debate.LayerSpec, Position: "P", Coordinator: "C",
		Participants: []debate.Participant{{Name: "A", Role: debate.RoleAttacker}, {Name: "B", Role: debate.RoleAttacker}, {Name: "D", Role: debate.RoleDefender}},
		Budget:       debate.ConsensusBudget{MaxRounds: 10, MaxTokens: 1 << 30, MaxTokensPerRound: 2000, MaxWallClockMs: 1 << 40, ConvergenceRounds: 2}}
	var slots []debate.Slot
	for r := 1; r <= 8; r++ {
		for i, sp := range s.Order() {
			pos := fmt.Sprintf("%s %d %d", sp.Name, r, i)
			slots = append(slots, debate.Slot{Round: r, Role: sp.Role, Index: sp.Index, Agent: sp.Name,
				Turn: &debate.TurnRecord{Turn: debate.Turn{Round: r, Role: sp.Role, Position: pos, CounterTo: "x", ConfidenceChange: -1, Tokens: 9}, Agent: sp.Name, PositionHash: debate.PositionHash(pos)}})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, done := debate.Judge(s, slots, 0); done {
			b.Fatal("closed")
		}
	}
}
