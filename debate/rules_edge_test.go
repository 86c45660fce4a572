package debate

import "testing"

// Edge cases of the end rules as docs/design.md reads SPEC §5.4: several
// convergence rounds, several attackers mixing concessions, new and
// repeated counters, forfeits in the middle of a round, and tokens that
// reach the budget on an attacker's turn. Each case also checks that no
// earlier prefix of the slots closed the debate.
func TestJudgeEdgeCases(t *testing.T) {
	t.Parallel()
	r := func(s ...string) []string { return s }
	tests := []struct {
		name      string
		attackers int
		budget    ConsensusBudget
		rounds    [][]string
		elapsed   int64
		verdict   Verdict // "" = the debate goes on
		rule      Rule
		action    Action
		final     string
	}{
		// convergenceRounds > 1.
		{name: "k=2, two attackers new three rounds running: survived at round 3", attackers: 2, budget: budget(5, 6000, 2),
			rounds:  [][]string{r("X", "Y", "P1"), r("X2", "Y2", "P1"), r("X3", "Y3", "P1")},
			verdict: ConsensusReached, rule: RuleSurvived, action: ActionProceed, final: "P1"},
		{name: "k=2, a repeated counter inside the window holds survival off", attackers: 2, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "Y", "P1"), r("X2", "Y", "P1"), r("X3", "Y3", "P1")}},
		{name: "k=2, the window slides past the repeated counter", attackers: 2, budget: budget(5, 6000, 2),
			rounds:  [][]string{r("X", "Y", "P1"), r("X2", "Y", "P1"), r("X3", "Y3", "P1"), r("X4", "Y4", "P1")},
			verdict: ConsensusReached, rule: RuleSurvived, action: ActionProceed, final: "P1"},
		{name: "k=2, two attackers repeating: deadlock at round 3", attackers: 2, budget: budget(5, 6000, 2),
			rounds:  [][]string{r("X", "Y", "P1"), r("X", "Y", "P1"), r("x.", "Y!", "p1")},
			verdict: Deadlock, rule: RuleRepeated, action: ActionEscalate},
		{name: "k=2, a defender that changed counts from its new position", attackers: 1, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "P1"), r("Y", "P2"), r("Z", "P2")}},
		{name: "k=2, a defender that changed survives two rounds later", attackers: 1, budget: budget(5, 6000, 2),
			rounds:  [][]string{r("X", "P1"), r("Y", "P2"), r("Z", "P2"), r("W", "P2")},
			verdict: ConsensusReached, rule: RuleSurvived, action: ActionProceed, final: "P2"},
		{name: "k=3 never fits in 3 rounds: the budget ends it", attackers: 1, budget: budget(3, 6000, 3),
			rounds:  [][]string{r("X", "P1"), r("Y", "P1"), r("Z", "P1")},
			verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
		{name: "k=2, a concession inside the window is neither new nor repeated", attackers: 2, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "Y", "P1"), r("ok", "Y2", "P1"), r("X3", "Y3", "P1")}},
		{name: "k=2, a defender forfeit inside the window breaks the run", attackers: 1, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "P1"), r("Y", "!bad_reply"), r("Z", "P1")}},
		{name: "k=2, deadlock is not reached while a counter is new", attackers: 1, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "P1"), r("X", "P1"), r("Y", "P1")}},

		// Several attackers, mixed.
		{name: "three attackers: concede, new, repeated goes on", attackers: 3, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "Y", "Z", "P1"), r("ok", "Y2", "Z", "P1")}},
		{name: "three attackers: concede, new, new goes on (a concession is not a counter)", attackers: 3, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "Y", "Z", "P1"), r("ok", "Y2", "Z2", "P1")}},
		{name: "three attackers: concede, repeated, repeated goes on", attackers: 3, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "Y", "Z", "P1"), r("ok", "Y", "Z", "P1")}},
		{name: "three attackers all concede in round 2: the defender's round-1 position stands", attackers: 3, budget: budget(4, 6000, 1),
			rounds:  [][]string{r("X", "Y", "Z", "P1"), r("ok", "ok:whatever", "ok")},
			verdict: ConsensusReached, rule: RuleConceded, action: ActionProceed, final: "P1"},
		{name: "one attacker conceding, the other repeating to the end: nothing agreed", attackers: 2, budget: budget(3, 6000, 1),
			rounds:  [][]string{r("X", "Y", "P1"), r("ok", "Y", "P1"), r("ok", "Y", "P1")},
			verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
		{name: "the defender adopts the third attacker's position of an earlier round", attackers: 3, budget: budget(4, 6000, 1),
			rounds:  [][]string{r("X", "Y", "Z", "P1"), r("X2", "Y2", "Z2", "z")},
			verdict: ConsensusReached, rule: RuleAdopted, action: ActionProceed, final: "z"},
		{name: "the defender returning to its opening position that an attacker now holds adopts it", attackers: 1, budget: budget(4, 6000, 1),
			rounds:  [][]string{r("X", "P1"), r("P0", "P0")},
			verdict: ConsensusReached, rule: RuleAdopted, action: ActionProceed, final: "P0"},

		// Forfeits in the middle of a round.
		{name: "the first of two attackers dies: timeout at once, not at the round's end", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "Y", "P1"), r("!agent_died")}, elapsed: 10,
			verdict: Timeout, rule: RuleForfeit, action: ActionEscalate},
		{name: "the first of two attackers misses the wall clock", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "Y", "P1"), r("!deadline")}, elapsed: 60000,
			verdict: Timeout, rule: RuleWallClock, action: ActionEscalate},
		{name: "an attacker missing its own deadline before the wall clock is a forfeit timeout", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "!deadline")}, elapsed: 500,
			verdict: Timeout, rule: RuleForfeit, action: ActionEscalate},
		{name: "an attacker's bad replies mid-round do not end it; the last round still completes", attackers: 2, budget: budget(2, 6000, 1),
			rounds:  [][]string{r("X", "Y", "P1"), r("!bad_reply", "Y2", "P2")},
			verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
		{name: "the defender dies in the last round: timeout, not budget", attackers: 1, budget: budget(2, 6000, 1),
			rounds: [][]string{r("P0", "P0"), r("X", "!agent_died")}, elapsed: 10,
			verdict: Timeout, rule: RuleForfeit, action: ActionEscalate},
		{name: "the defender's bad replies in the last round: budget, on the last agreed position", attackers: 1, budget: budget(2, 6000, 1),
			rounds:  [][]string{r("P0", "P0"), r("X", "!bad_reply")},
			verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionProceed, final: "P0"},
		{name: "a round with a forfeited attacker is not agreed", attackers: 2, budget: budget(2, 6000, 1),
			rounds:  [][]string{r("X", "Y", "P1"), r("!bad_reply", "P1", "P1")},
			verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},

		// Tokens reaching the budget on an attacker's turn.
		{name: "tokens run out on an attacker turn after an agreed round: proceed on it", attackers: 1, budget: budget(3, 500, 1),
			rounds:  [][]string{r("P0", "P0"), r("X#480")},
			verdict: BudgetExhausted, rule: RuleMaxTokens, action: ActionProceed, final: "P0"},
		{name: "tokens run out mid-round: the unfinished round is not agreed", attackers: 2, budget: budget(3, 500, 1),
			rounds:  [][]string{r("X", "Y", "P1"), r("P1", "P1#470")},
			verdict: BudgetExhausted, rule: RuleMaxTokens, action: ActionEscalate},
		{name: "tokens run out on the first of two attackers' concessions: budget, the round is not over", attackers: 2, budget: budget(3, 500, 1),
			rounds:  [][]string{r("X", "Y", "P1"), r("ok#470")},
			verdict: BudgetExhausted, rule: RuleMaxTokens, action: ActionEscalate},
		{name: "tokens run out on the last attacker's concession: consensus comes first", attackers: 2, budget: budget(3, 500, 1),
			rounds:  [][]string{r("X", "Y", "P1"), r("ok", "ok#460")},
			verdict: ConsensusReached, rule: RuleConceded, action: ActionProceed, final: "P1"},
		{name: "tokens and rounds run out on the same defender turn: rounds are named first", attackers: 1, budget: budget(1, 500, 1),
			rounds:  [][]string{r("X", "P1#490")},
			verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
		{name: "tokens run out on an attacker repeating itself: budget, deadlock needs the defender's turn", attackers: 1, budget: budget(4, 500, 1),
			rounds:  [][]string{r("X", "P1"), r("X#480")},
			verdict: BudgetExhausted, rule: RuleMaxTokens, action: ActionEscalate},
		{name: "the wall clock passing on the last round's defender turn: budget comes first", attackers: 1, budget: budget(1, 6000, 1),
			rounds: [][]string{r("X", "P1")}, elapsed: 90000,
			verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := testSession(tc.attackers, tc.budget)
			slots := slotsOf(s, tc.rounds...)
			for k := 0; k < len(slots); k++ {
				if o, done := Judge(s, slots[:k], 0); done {
					t.Fatalf("already closed after %d slots with %s/%s (%s)", k, o.Verdict, o.Rule, o.Reason)
				}
			}
			o, done := Judge(s, slots, tc.elapsed)
			if tc.verdict == "" {
				if done {
					t.Fatalf("closed with %s/%s (%s), want the debate to go on", o.Verdict, o.Rule, o.Reason)
				}
				return
			}
			if !done {
				t.Fatalf("still open, want %s/%s", tc.verdict, tc.rule)
			}
			if o.Verdict != tc.verdict || o.Rule != tc.rule || o.Action != tc.action || o.FinalPosition != tc.final {
				t.Fatalf("got %s/%s/%s final %q (%s), want %s/%s/%s final %q", o.Verdict, o.Rule, o.Action, o.FinalPosition, o.Reason, tc.verdict, tc.rule, tc.action, tc.final)
			}
			if o.Action != ActionFor(o.Verdict, o.FinalPosition) {
				t.Fatalf("action %s does not follow SPEC §5.5 for %s final %q", o.Action, o.Verdict, o.FinalPosition)
			}
		})
	}
}
