package debate

import (
	"strings"
	"testing"
)

// testSession has attackers A1…An and defender D, opening position P0.
func testSession(attackers int, b ConsensusBudget) *DebateSession {
	s := &DebateSession{
		ID: "20260101-spec-rules-abcdef", Topic: "rules", Layer: LayerSpec, Position: "P0",
		Budget: b, Coordinator: "Coordinator-abcdef",
	}
	for i := 1; i <= attackers; i++ {
		s.Participants = append(s.Participants, Participant{Name: "A" + string(rune('0'+i)), Role: RoleAttacker})
	}
	s.Participants = append(s.Participants, Participant{Name: "D", Role: RoleDefender})
	return s
}

// slotsOf builds slots from rounds written as one string per speaker:
//
//	"X"        asserts X, countering the defender (confidence -1)
//	"X~"       asserts X with an empty counter_to but confidence -1
//	"X=0"      asserts X, still countering, with confidence 0
//	"ok"       an attacker conceding: empty counter_to, confidence 0
//	"ok:X"     conceding while stating X
//	"!deadline", "!died", "!bad_reply"   a forfeit
//	"X#500"    asserts X and reports 500 tokens (default 10)
func slotsOf(s *DebateSession, rounds ...[]string) []Slot {
	order := s.Order()
	var out []Slot
	for r, speakers := range rounds {
		for i, w := range speakers {
			sp := order[i]
			sl := Slot{Round: r + 1, Role: sp.Role, Index: sp.Index, Agent: sp.Name}
			if reason, ok := strings.CutPrefix(w, "!"); ok {
				sl.Forfeit = &ForfeitEvent{Round: r + 1, Role: sp.Role, Agent: sp.Name, Reason: ForfeitReason(reason)}
				out = append(out, sl)
				continue
			}
			tokens := 10
			if p, n, ok := strings.Cut(w, "#"); ok {
				w = p
				tokens = atoi(n)
			}
			t := Turn{Round: r + 1, Role: sp.Role, Tokens: tokens, ConfidenceChange: -1, CounterTo: "the standing position"}
			switch {
			case w == "ok":
				t.ConfidenceChange, t.CounterTo = 0, ""
			case strings.HasPrefix(w, "ok:"):
				t.ConfidenceChange, t.CounterTo, t.Position = 0, "", w[3:]
			case strings.HasSuffix(w, "~"):
				t.CounterTo, t.Position = "", strings.TrimSuffix(w, "~")
			case strings.HasSuffix(w, "=0"):
				t.ConfidenceChange, t.Position = 0, strings.TrimSuffix(w, "=0")
			default:
				t.Position = w
			}
			if sp.Role == RoleDefender {
				t.CounterTo = ""
			}
			rec := TurnRecord{Turn: t, Agent: sp.Name, PositionHash: PositionHash(t.Position)}
			sl.Turn = &rec
			out = append(out, sl)
		}
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func budget(rounds, tokens, k int) ConsensusBudget {
	return ConsensusBudget{MaxRounds: rounds, MaxTokens: tokens, MaxTokensPerRound: 2000, MaxWallClockMs: 60000, ConvergenceRounds: k}
}

func TestJudgeEndRules(t *testing.T) {
	t.Parallel()
	r := func(s ...string) []string { return s }
	tests := []struct {
		name      string
		attackers int
		budget    ConsensusBudget
		rounds    [][]string
		elapsed   int64
		// want: "" = the debate goes on.
		verdict Verdict
		rule    Rule
		action  Action
		final   string
	}{
		// 1. Conceded.
		{name: "attacker concedes at once: the opening position stands", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("ok")}, verdict: ConsensusReached, rule: RuleConceded, action: ActionProceed, final: "P0"},
		{name: "conceded in round 2: the defender's latest position stands, no defender turn needed", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("ok")}, verdict: ConsensusReached, rule: RuleConceded, action: ActionProceed, final: "P1"},
		{name: "conceding while stating a position still concedes", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("ok:whatever")}, verdict: ConsensusReached, rule: RuleConceded, final: "P1", action: ActionProceed},
		{name: "one of two attackers concedes: the debate goes on", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("ok", "Y")}},
		{name: "both attackers concede", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "Y", "P1"), r("ok", "ok")}, verdict: ConsensusReached, rule: RuleConceded, final: "P1", action: ActionProceed},
		{name: "empty counter_to with confidence -1 is not a concession", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X~")}},
		{name: "confidence 0 with a counter is not a concession", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X=0")}},
		{name: "a forfeited attacker does not concede", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("!bad_reply", "ok")}},
		{name: "the first attacker conceding is not checked before the round's last attacker", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("ok")}},
		// 1. Adopted.
		{name: "the defender adopts the attacker's position (case, spacing, punctuation)", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("Use UUIDv7 keys", "  use   uuidv7 KEYS.")}, verdict: ConsensusReached, rule: RuleAdopted, action: ActionProceed, final: "  use   uuidv7 KEYS."},
		{name: "the defender adopts a position an attacker held in an earlier round", attackers: 1, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("Y", "P2"), r("Z", "X")}, verdict: ConsensusReached, rule: RuleAdopted, final: "X", action: ActionProceed},
		{name: "the defender adopts the second attacker's position", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "Y", "Y")}, verdict: ConsensusReached, rule: RuleAdopted, final: "Y", action: ActionProceed},
		{name: "keeping its own position that an attacker came to share is not adopting", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("P0", "P0")}},
		// 2. Survived.
		{name: "the defender holds while the attacker brings a new counter", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "P0"), r("Y", "P0.")}, verdict: ConsensusReached, rule: RuleSurvived, action: ActionProceed, final: "P0."},
		{name: "survived needs every attacker new", attackers: 2, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "Y", "P1"), r("X2", "Y", "P1")}},
		{name: "survived with two attackers", attackers: 2, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "Y", "P1"), r("X2", "Y2", "P1")}, verdict: ConsensusReached, rule: RuleSurvived, final: "P1", action: ActionProceed},
		{name: "a counter is new per attacker: another attacker's old position counts as new", attackers: 2, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "Y", "P1"), r("Y", "X", "P1")}, verdict: ConsensusReached, rule: RuleSurvived, final: "P1", action: ActionProceed},
		{name: "the opening position is not a defender turn: round 1 cannot survive", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "P0")}},
		{name: "convergenceRounds 2 needs two unchanged rounds", attackers: 1, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "P1"), r("Y", "P1")}},
		{name: "convergenceRounds 2 survived", attackers: 1, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "P1"), r("Y", "P1"), r("Z", "P1")}, verdict: ConsensusReached, rule: RuleSurvived, final: "P1", action: ActionProceed},
		{name: "a changed defender does not survive", attackers: 1, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("Y", "P2")}},
		// 3. Deadlock.
		{name: "the defender holds and the attacker repeats", attackers: 1, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("x.", "P1")}, verdict: Deadlock, rule: RuleRepeated, action: ActionEscalate},
		{name: "mixed new and repeated counters: neither survived nor deadlock", attackers: 2, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "Y", "P1"), r("X", "Y2", "P1")}},
		{name: "a forfeit is neither new nor repeated", attackers: 1, budget: budget(4, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("!bad_reply", "P1")}},
		{name: "convergenceRounds 2 deadlock", attackers: 1, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "P1"), r("X", "P1"), r("X", "P1")}, verdict: Deadlock, rule: RuleRepeated, action: ActionEscalate},
		{name: "convergenceRounds 2: a new counter inside the window blocks deadlock", attackers: 1, budget: budget(5, 6000, 2),
			rounds: [][]string{r("X", "P1"), r("Y", "P1"), r("X", "P1")}},
		// 4. Budget.
		{name: "rounds exhausted, nothing agreed: escalate", attackers: 1, budget: budget(2, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("Y", "P2")}, verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
		{name: "rounds exhausted with a last agreed position: proceed on it", attackers: 1, budget: budget(2, 6000, 1),
			rounds: [][]string{r("P0", "P0"), r("Y", "P2")}, verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionProceed, final: "P0"},
		{name: "the last agreed position is the latest agreed round's", attackers: 1, budget: budget(3, 6000, 2),
			rounds: [][]string{r("P0", "P0"), r("Y", "P2"), r("P2", "p2")}, verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionProceed, final: "p2"},
		{name: "agreement by attackers of whom one repeats and one is new goes on", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("P0", "X", "P0"), r("P0", "P0", "P0")}},
		{name: "a round is not agreed when one attacker differs", attackers: 2, budget: budget(1, 6000, 1),
			rounds: [][]string{r("P0", "Y", "P0")}, verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
		{name: "tokens reach the budget mid-round", attackers: 2, budget: budget(3, 500, 1),
			rounds: [][]string{r("X#200", "Y#300")}, verdict: BudgetExhausted, rule: RuleMaxTokens, action: ActionEscalate},
		{name: "tokens one short of the budget go on", attackers: 1, budget: budget(3, 500, 1),
			rounds: [][]string{r("X#200", "P1#299")}},
		{name: "an over-budget turn counts in full", attackers: 1, budget: budget(3, 500, 1),
			rounds: [][]string{r("X#5000")}, verdict: BudgetExhausted, rule: RuleMaxTokens, action: ActionEscalate},
		{name: "consensus is checked before the budget", attackers: 1, budget: budget(1, 20, 1),
			rounds: [][]string{r("X", "X#50")}, verdict: ConsensusReached, rule: RuleAdopted, final: "X", action: ActionProceed},
		{name: "deadlock is checked before the budget", attackers: 1, budget: budget(2, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("X", "P1")}, verdict: Deadlock, rule: RuleRepeated, action: ActionEscalate},
		{name: "a bad-reply forfeit completes the last round", attackers: 1, budget: budget(2, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("Y", "!bad_reply")}, verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
		// An agent whose every slot was lost to rejected replies never took
		// part: whatever rule closes the debate, it is the agent's failure.
		{name: "a defender whose every reply was rejected: unavailable, not budget", attackers: 1, budget: budget(1, 6000, 1),
			rounds: [][]string{r("X", "!bad_reply")}, verdict: Unavailable, rule: RuleUnavailable, action: ActionEscalate},
		{name: "an attacker whose every reply was rejected: unavailable, not the others' consensus", attackers: 2, budget: budget(3, 6000, 1),
			rounds: [][]string{r("!bad_reply", "Y", "Y")}, verdict: Unavailable, rule: RuleUnavailable, action: ActionEscalate},
		{name: "an attacker silent for every round: unavailable, not budget", attackers: 2, budget: budget(2, 6000, 1),
			rounds: [][]string{r("!bad_reply", "Y", "P1"), r("!bad_reply", "Y2", "P2")}, verdict: Unavailable, rule: RuleUnavailable, action: ActionEscalate},
		{name: "an attacker heard once, then rejected: the debate is an outcome", attackers: 2, budget: budget(2, 6000, 1),
			rounds: [][]string{r("X", "Y", "P1"), r("!bad_reply", "Y2", "P2")}, verdict: BudgetExhausted, rule: RuleMaxRounds, action: ActionEscalate},
		// 5. Timeout.
		{name: "the defender misses its deadline in the last round: timeout, not budget", attackers: 1, budget: budget(1, 6000, 1),
			rounds: [][]string{r("X", "!deadline")}, elapsed: 60000, verdict: Timeout, rule: RuleWallClock, action: ActionEscalate},
		{name: "an agent dies", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X", "P1"), r("!agent_died")}, elapsed: 10, verdict: Timeout, rule: RuleForfeit, action: ActionEscalate},
		{name: "the wall clock passed after a turn", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("X")}, elapsed: 60000, verdict: Timeout, rule: RuleWallClock, action: ActionEscalate},
		{name: "the wall clock passed before round 1", attackers: 1, budget: budget(3, 6000, 1),
			elapsed: 60001, verdict: Timeout, rule: RuleWallClock, action: ActionEscalate},
		{name: "a turn that concedes just as the clock runs out still concedes", attackers: 1, budget: budget(3, 6000, 1),
			rounds: [][]string{r("ok")}, elapsed: 70000, verdict: ConsensusReached, rule: RuleConceded, final: "P0", action: ActionProceed},
		{name: "nothing yet", attackers: 1, budget: budget(3, 6000, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := testSession(tc.attackers, tc.budget)
			slots := slotsOf(s, tc.rounds...)
			o, done := Judge(s, slots, tc.elapsed)
			if tc.verdict == "" {
				for k := 0; k < len(slots); k++ {
					if o, done := Judge(s, slots[:k], 0); done {
						t.Fatalf("closed after %d slots with %s/%s", k, o.Verdict, o.Rule)
					}
				}
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
			if o.FinalPositionHash != PositionHash(tc.final) || o.Reason == "" {
				t.Fatalf("hash %q reason %q", o.FinalPositionHash, o.Reason)
			}
			// The rules are checked after every turn: no earlier prefix may
			// have closed the debate.
			for k := 0; k < len(slots); k++ {
				if o, done := Judge(s, slots[:k], 0); done {
					t.Fatalf("already closed after %d slots with %s/%s", k, o.Verdict, o.Rule)
				}
			}
		})
	}
}

func TestJudgeOutcomeFields(t *testing.T) {
	t.Parallel()
	s := testSession(2, budget(2, 6000, 1))
	slots := slotsOf(s, []string{"X#100", "Y#200", "P1#300"}, []string{"X2#1", "!bad_reply", "P2#2"})
	o, done := Judge(s, slots, 1234)
	if !done || o.Verdict != BudgetExhausted {
		t.Fatalf("%+v", o)
	}
	if o.Rounds != 2 || o.Tokens != 603 || o.ElapsedMs != 1234 || o.DefenderPosition != "P2" {
		t.Fatalf("rounds %d tokens %d elapsed %d defender %q", o.Rounds, o.Tokens, o.ElapsedMs, o.DefenderPosition)
	}
	if o.AttackerPositions["A1"] != "X2" || o.AttackerPositions["A2"] != "Y" {
		t.Fatalf("attacker positions %v", o.AttackerPositions)
	}
	if len(o.Turns) != 5 || len(o.Forfeits) != 1 || o.Session != s {
		t.Fatalf("turns %d forfeits %d", len(o.Turns), len(o.Forfeits))
	}
}

func TestActionFor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v     Verdict
		final string
		want  Action
	}{
		{ConsensusReached, "P", ActionProceed}, {Deadlock, "", ActionEscalate}, {Deadlock, "P", ActionEscalate},
		{BudgetExhausted, "P", ActionProceed}, {BudgetExhausted, " ", ActionEscalate}, {Timeout, "P", ActionEscalate},
	} {
		if got := ActionFor(tc.v, tc.final); got != tc.want {
			t.Errorf("ActionFor(%s, %q) = %s, want %s", tc.v, tc.final, got, tc.want)
		}
	}
}
