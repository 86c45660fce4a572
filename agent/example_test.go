package agent_test

import (
	"context"
	"fmt"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
)

// A script answers each round with its entry for that round, else its last.
func ExampleScript() {
	s, err := agent.ParseScript([]byte(`{"turns":[
		{"round":1,"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","confidence_change":-1,"tokens":120},
		{"round":2,"position":"","counter_to":"","confidence_change":0}]}`))
	if err != nil {
		panic(err)
	}
	for round := 1; round <= 3; round++ {
		rep, _ := s.Respond(context.Background(), &debate.TurnRequest{DebateID: "d", Round: round, Role: debate.RoleAttacker})
		fmt.Printf("round %d: %q concedes=%v\n", round, rep.Turn.Position, rep.Turn.Concedes())
	}
	// Output:
	// round 1: "Keys leak the creation time" concedes=false
	// round 2: "" concedes=true
	// round 3: "" concedes=true
}
