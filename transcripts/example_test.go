package transcripts_test

import (
	"context"
	"fmt"
	"os"

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
	// Output: true 2 true <nil>
}
