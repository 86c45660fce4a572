package transcripts_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
)

// Record a debate's events, seal it, and verify the hash chain.
func ExampleStore_Verify() {
	dir, _ := os.MkdirTemp("", "parley-example")
	defer os.RemoveAll(dir)
	store, err := transcripts.OpenStore(dir, nil)
	if err != nil {
		panic(err)
	}
	defer store.Close()

	const id = "20260101-spec-idempotency-keys-abcdef"
	sess := &debate.DebateSession{
		ID: id, Topic: "Idempotency keys", Layer: debate.LayerSpec, Coordinator: debate.CoordinatorName(id),
		Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
		Budget:       debate.DefaultBudget(debate.LayerSpec),
	}
	ctx := context.Background()
	log, err := store.Create(ctx, sess)
	if err != nil {
		panic(err)
	}
	log.Append(ctx, debate.EventOpen, 0, sess)
	o := &debate.Outcome{DebateID: id, Verdict: debate.Timeout, Action: debate.ActionEscalate}
	log.Append(ctx, debate.EventVerdict, 120000, o)
	log.Seal(ctx, o, "")
	log.Close()

	rep, err := store.Verify(id)
	fmt.Println(rep.Intact, rep.Events, rep.Sealed, err)
	// The open and verdict events, and the seal event Seal appends.
	// Output: true 3 true <nil>
}

// Read a debate back, verified, and print it for a terminal; a tampered
// transcript would open with a banner naming its first bad line.
func ExampleRenderText() {
	dir, _ := os.MkdirTemp("", "parley-example")
	defer os.RemoveAll(dir)
	store, _ := transcripts.OpenStore(dir, nil)
	defer store.Close()
	const id = "20260101-spec-idempotency-keys-abcdef"
	sess := &debate.DebateSession{
		ID: id, Topic: "Idempotency keys", Layer: debate.LayerSpec, Coordinator: debate.CoordinatorName(id), Created: "2026-01-01T00:00:00.000Z",
		Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
		Budget:       debate.DefaultBudget(debate.LayerSpec),
	}
	ctx := context.Background()
	log, _ := store.Create(ctx, sess)
	log.Append(ctx, debate.EventOpen, 0, sess)
	log.Append(ctx, debate.EventTurn, 5, debate.TurnRecord{Turn: debate.Turn{DebateID: id, Round: 1, Role: debate.RoleAttacker,
		Position: "Keys leak the creation time", CounterTo: "Idempotency keys", ConfidenceChange: -1, Tokens: 120}, Agent: "Critic"})
	log.Close()

	t, _ := store.Read(id)
	v := transcripts.NewView(t)
	fmt.Println(v.Integrity.Summary(), v.State, v.Turns)
	var out strings.Builder
	transcripts.RenderText(&out, v)
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "  Position") || strings.HasPrefix(line, "Critic") {
			fmt.Println(line)
		}
	}
	// Output:
	// verified so far interrupted 1
	// Critic (attacker) · 120 tokens · confidence -1 · line 2
	//   Position: Keys leak the creation time
}
