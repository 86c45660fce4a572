package debate_test

import (
	"context"
	"fmt"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

type printFiler struct{}

func (printFiler) File(ctx context.Context, o *debate.Outcome) (string, error) {
	return "wiki/consensus/spec-idempotency-keys.md", nil
}

// A whole debate in one process: two scripted agents on the in-memory
// transport, a journal in memory, and the coordinator in between.
func ExampleCoordinator() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := inbox.NewMemTransport()
	scripts := map[string]string{
		"Critic":   `{"turns":[{"round":1,"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","confidence_change":-1},{"round":2,"position":"Keys collide across regions","counter_to":"Use UUIDv7 keys","confidence_change":-1}]}`,
		"Proposer": `{"turns":[{"round":1,"position":"Use UUIDv7 keys"}]}`,
	}
	var stopped []chan error
	for name, script := range scripts {
		s, _ := agent.ParseScript([]byte(script))
		ready, done := make(chan struct{}), make(chan error, 1)
		go func() {
			done <- (&agent.Runner{Name: name, Transport: tr, Responder: s, Ready: func() { close(ready) }}).Run(ctx)
		}()
		<-ready
		stopped = append(stopped, done)
	}
	const id = "20260101-spec-idempotency-keys-abcdef"
	sess := &debate.DebateSession{
		ID: id, Topic: "Idempotency keys", Layer: debate.LayerSpec, Position: "Use UUIDv7 keys",
		Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
		Budget:       debate.DefaultBudget(debate.LayerSpec), Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
	}
	c := &debate.Coordinator{Messenger: tr, Journal: debate.NewMemJournal(), Filer: printFiler{}}
	o, err := c.Start(ctx, sess)
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Verdict, o.Action, o.Rule, o.Rounds)
	fmt.Println(o.FinalPosition)
	fmt.Println(o.Record)
	cancel()
	for _, done := range stopped {
		<-done
	}
	// Output:
	// CONSENSUS_REACHED proceed survived 2
	// Use UUIDv7 keys
	// wiki/consensus/spec-idempotency-keys.md
}

// The end rules are a pure function of the turns so far.
func ExampleJudge() {
	s := &debate.DebateSession{
		ID: "20260101-spec-x-abcdef", Topic: "x", Layer: debate.LayerSpec, Position: "P",
		Participants: []debate.Participant{{Name: "A", Role: debate.RoleAttacker}, {Name: "D", Role: debate.RoleDefender}},
		Budget:       debate.DefaultBudget(debate.LayerSpec), Coordinator: "Coordinator-abcdef",
	}
	turn := func(round int, role debate.Role, agent, pos string) debate.Slot {
		idx := 0
		if role == debate.RoleDefender {
			idx = 1
		}
		return debate.Slot{Round: round, Role: role, Index: idx, Agent: agent, Turn: &debate.TurnRecord{
			Turn:  debate.Turn{Round: round, Role: role, Position: pos, CounterTo: "P", ConfidenceChange: -1, Tokens: 100},
			Agent: agent, PositionHash: debate.PositionHash(pos),
		}}
	}
	slots := []debate.Slot{turn(1, debate.RoleAttacker, "A", "Q"), turn(1, debate.RoleDefender, "D", "P")}
	_, done := debate.Judge(s, slots, 0)
	fmt.Println("after round 1 closed:", done)
	slots = append(slots, turn(2, debate.RoleAttacker, "A", "q."), turn(2, debate.RoleDefender, "D", "P"))
	o, _ := debate.Judge(s, slots, 0)
	fmt.Println(o.Verdict, o.Action, "-", o.Reason)
	// Output:
	// after round 1 closed: false
	// DEADLOCK escalate - the defender's position did not change and the attackers only repeated earlier counters in round 2
}
