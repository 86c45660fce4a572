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

// stubModel is a chat client that always answers with the same objection:
// a provider is a ChatClient; the turn loop does the rest.
type stubModel struct{}

func (stubModel) Chat(ctx context.Context, req agent.ChatRequest) (agent.ChatReply, error) {
	return agent.ChatReply{
		Content: "My objection:\n```json\n" + `{"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","confidence_change":-1}` + "\n```",
		Usage:   agent.Usage{PromptTokens: 812, CompletionTokens: 31},
	}, nil
}

// The turn loop over any chat client: prompts rendered, the reply read out
// of the prose around it, the tokens the client reported.
func ExampleLLM() {
	llm, err := agent.NewLLM(stubModel{}, agent.LLMConfig{Kind: "stub", MaxRetries: 2})
	if err != nil {
		panic(err)
	}
	rep, err := llm.Respond(context.Background(), &debate.TurnRequest{
		DebateID: "d", Round: 1, MaxRounds: 3, Role: debate.RoleAttacker, Layer: debate.LayerSpec, Topic: "Keys", Position: "Use UUIDv7 keys",
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q counters %q, %d tokens, argument %q\n", rep.Turn.Position, rep.Turn.CounterTo, rep.Turn.Tokens, rep.Turn.Text)
	// Output:
	// "Keys leak the creation time" counters "Use UUIDv7 keys", 31 tokens, argument "My objection:"
}
