package debate

import (
	"strings"
	"testing"
)

// An agent whose every reply was rejected is unavailable with a hint in
// its own terms: a model's settings for an openai: agent, the turn
// protocol for any other.
func TestNeverValidHintSpeaksToTheAgentsKind(t *testing.T) {
	t.Parallel()
	for agent, want := range map[string]string{
		"openai:qwen3:8b":    `"jsonMode": true`,
		"exec:./critic.sh":   "answer each turn_request with a debate_turn",
		"@Critic":            "answer each turn_request with a debate_turn",
		"script:critic.json": "answer each turn_request with a debate_turn",
	} {
		s := &DebateSession{ID: "20260101-spec-x-abcdef", Topic: "x", Layer: LayerSpec, Position: "P0", Coordinator: "C",
			Budget:       ConsensusBudget{MaxRounds: 2, MaxTokens: 1 << 20, MaxTokensPerRound: 2000, MaxWallClockMs: 1 << 30, ConvergenceRounds: 2},
			Participants: []Participant{{Name: "A", Role: RoleAttacker, Agent: agent}, {Name: "D", Role: RoleDefender, Agent: "script:d.json"}}}
		var slots []Slot
		for r := 1; r <= 2; r++ {
			slots = append(slots,
				Slot{Round: r, Role: RoleAttacker, Index: 0, Agent: "A", Forfeit: &ForfeitEvent{Round: r, Role: RoleAttacker, Agent: "A", Reason: ForfeitBadReply, Detail: "no JSON object"}},
				Slot{Round: r, Role: RoleDefender, Index: 1, Agent: "D", Turn: &TurnRecord{Turn: Turn{Round: r, Role: RoleDefender, Position: "P0"}, Agent: "D", PositionHash: PositionHash("P0")}})
		}
		u := newTally(s, slots, 0).neverValid()
		if u == nil || u.Agent != "A" || !strings.Contains(u.Hint, want) || !strings.Contains(u.Detail, "each reply was rejected") {
			t.Errorf("%s: %+v; want the hint to say %q", agent, u, want)
		}
	}
}
