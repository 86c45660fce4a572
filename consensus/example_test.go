package consensus_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// File a debate's verdict, then check two positions against it.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "parley")
	defer os.RemoveAll(dir)
	v, _ := vault.Create(filepath.Join(dir, "vault"))
	defer v.Close()
	store, err := consensus.Open(filepath.Join(dir, "root"), v)
	if err != nil {
		panic(err)
	}
	defer store.Close()

	position := "Keep idempotency keys for 24 hours, then delete them"
	record, err := store.File(ctx, &debate.Outcome{
		DebateID: "20261130-spec-idempotency-key-design-abcdef",
		Verdict:  debate.ConsensusReached, Action: debate.ActionProceed, Rule: debate.RuleConceded,
		FinalPosition: position,
		Session: &debate.DebateSession{
			Topic: "Idempotency key expiry", Layer: debate.LayerSpec,
			Participants: []debate.Participant{{Name: "SwiftRaven", Role: debate.RoleDefender}, {Name: "GoldFalcon", Role: debate.RoleAttacker}},
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("filed", record)

	for _, p := range []string{"Idempotency keys are deleted after one day.", "Keep idempotency keys for 7 days, then delete them"} {
		res, err := store.Check(ctx, debate.LayerSpec, "When do idempotency keys expire?", p)
		if err != nil {
			panic(err)
		}
		fmt.Println(res.Status, res.Record.Name, res.Comparison.Differences)
	}
	// Output:
	// filed wiki/consensus/spec-idempotency-key-expiry.md
	// consistent spec-idempotency-key-expiry []
	// conflict spec-idempotency-key-expiry [24 hours → 7 days]
}
