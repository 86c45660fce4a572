// Package consensustest builds closed debates by hand, for tests and
// benchmarks of consensus filing and lookup.
package consensustest

import (
	"fmt"
	"math/rand/v2"

	"github.com/parleyhq/parley/debate"
)

// Outcome is a two-round debate on topic between SwiftRaven (defender,
// asserting position) and GoldFalcon (attacker, asserting counter) that
// ended with verdict v. For CONSENSUS_REACHED and for BUDGET_EXHAUSTED with
// agreed set, position stands; otherwise nothing was agreed.
func Outcome(id, topic string, l debate.Layer, v debate.Verdict, position, counter string, agreed bool) *debate.Outcome {
	s := &debate.DebateSession{
		ID: id, Topic: topic, Layer: l, Budget: debate.DefaultBudget(l), Created: "2026-11-30T08:00:00.000Z", Coordinator: "Coordinator-test",
		Participants: []debate.Participant{{Name: "SwiftRaven", Role: debate.RoleDefender}, {Name: "GoldFalcon", Role: debate.RoleAttacker}},
	}
	turn := func(round int, role debate.Role, agent, pos string) debate.TurnRecord {
		return debate.TurnRecord{Turn: debate.Turn{Round: round, Role: role, Position: pos, ConfidenceChange: -1, CounterTo: "x", Tokens: 120, Text: pos},
			Agent: agent, PositionHash: debate.PositionHash(pos)}
	}
	o := &debate.Outcome{
		DebateID: id, Verdict: v, Session: s, Closed: "2026-11-30T10:00:00.000Z", Rounds: 2, Tokens: 480, ElapsedMs: 3000,
		DefenderPosition: position, AttackerPositions: map[string]string{"GoldFalcon": counter},
		Turns: []debate.TurnRecord{
			turn(1, debate.RoleAttacker, "GoldFalcon", counter), turn(1, debate.RoleDefender, "SwiftRaven", position),
			turn(2, debate.RoleAttacker, "GoldFalcon", counter), turn(2, debate.RoleDefender, "SwiftRaven", position),
		},
	}
	switch v {
	case debate.ConsensusReached:
		o.Action, o.Rule, o.Reason = debate.ActionProceed, debate.RuleSurvived, "The defender's position survived every new counter."
		o.Turns[2].ConfidenceChange, o.Turns[2].CounterTo, o.Turns[2].Position, o.Turns[2].PositionHash = 0, "", "", ""
		o.FinalPosition = position
	case debate.Deadlock:
		o.Action, o.Rule, o.Reason = debate.ActionEscalate, debate.RuleRepeated, "Both sides repeated themselves."
	case debate.BudgetExhausted:
		o.Action, o.Rule, o.Reason = debate.ActionEscalate, debate.RuleMaxRounds, "The rounds ran out."
		if agreed {
			o.Action, o.FinalPosition = debate.ActionProceed, position
			o.Turns[2] = turn(2, debate.RoleAttacker, "GoldFalcon", position)
		}
	case debate.Timeout:
		o.Action, o.Rule, o.Reason = debate.ActionEscalate, debate.RuleWallClock, "The wall clock ran out."
		o.Turns = o.Turns[:3]
	}
	o.FinalPositionHash = debate.PositionHash(o.FinalPosition)
	return o
}

var (
	adjectives = []string{"durable", "atomic", "idempotent", "cached", "sharded", "encrypted", "versioned", "ordered", "retried", "batched", "signed", "compressed", "replicated", "streaming", "audited", "throttled", "layered", "pooled", "indexed", "scoped"}
	nouns      = []string{"key", "inbox", "transcript", "ledger", "queue", "token", "budget", "session", "record", "index", "vault", "message", "registry", "schema", "cursor", "snapshot", "checkpoint", "lease", "quota", "webhook", "gateway", "migration", "rollout", "timeout", "retry"}
	verbs      = []string{"store", "expire", "rotate", "validate", "reject", "accept", "replay", "compact", "shard", "encrypt", "sign", "retry", "batch", "stream", "audit"}
)

// Outcomes generates n closed debates with realistic words, deterministic
// for a seed: 60% CONSENSUS_REACHED, 15% DEADLOCK, 15% BUDGET_EXHAUSTED
// (half with an agreed position), 10% TIMEOUT, over the three layers; about
// one topic in ten is debated again, so supersession chains occur. It also
// returns the topics, in order.
func Outcomes(n int, seed uint64) ([]*debate.Outcome, []string) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pick := func(words []string) string { return words[r.IntN(len(words))] }
	out := make([]*debate.Outcome, 0, n)
	topics := make([]string, 0, n)
	for i := range n {
		var topic string
		if i > 10 && r.IntN(10) == 0 {
			topic = topics[r.IntN(len(topics))]
		} else {
			topic = fmt.Sprintf("%s %s %s policy %d", pick(adjectives), pick(nouns), pick(nouns), i)
		}
		l := debate.Layers[r.IntN(len(debate.Layers))]
		position := fmt.Sprintf("%s the %s %s before the %s %s", pick(verbs), pick(adjectives), pick(nouns), pick(nouns), pick(verbs))
		counter := fmt.Sprintf("%s the %s instead of the %s", pick(verbs), pick(nouns), pick(nouns))
		v, agreed := RandomVerdict(r)
		id := fmt.Sprintf("20261130-%s-gen%d-%s", l, i, Suffix(r))
		out = append(out, Outcome(id, topic, l, v, position, counter, agreed))
		topics = append(topics, topic)
	}
	return out, topics
}

// RandomVerdict draws a filed debate's verdict in the mix a busy vault
// has: 60% consensus, 15% deadlock, 15% budget exhausted (half of those
// on an agreed round, reported in agreed), 10% timeout.
func RandomVerdict(r *rand.Rand) (v debate.Verdict, agreed bool) {
	switch p := r.IntN(100); {
	case p < 60:
		return debate.ConsensusReached, false
	case p < 75:
		return debate.Deadlock, false
	case p < 90:
		return debate.BudgetExhausted, r.IntN(2) == 0
	default:
		return debate.Timeout, false
	}
}

// Suffix draws the six base-32 letters that end a debate id.
func Suffix(r *rand.Rand) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	b := make([]byte, 6)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}
