package debate

import (
	"fmt"
	"slices"
	"testing"
)

// What each slot counted as is decided with the end rules, and travels
// with the outcome; Analyze and a replayed journal decide the same.
func TestDecisionsCarriedByTheOutcome(t *testing.T) {
	t.Parallel()
	b := ConsensusBudget{MaxRounds: 3, MaxTokens: 100000, MaxTokensPerRound: 2000, MaxWallClockMs: 60000, ConvergenceRounds: 1}
	for _, tc := range []struct {
		name    string
		opening string
		rounds  [][]string
		rule    Rule
		want    []string
		agreed  int
	}{{
		name: "new then repeated, the defender holds then revises", opening: "P0",
		rounds: [][]string{{"X", "Y", "P0"}, {"X", "Z", "P1"}, {"X", "Z", "P1"}},
		rule:   RuleRepeated,
		want: []string{
			"r1 A1 new counter", "r1 A2 new counter", "r1 D holds",
			"r2 A1 repeated counter (first made in round 1)", "r2 A2 new counter", "r2 D revises",
			"r3 A1 repeated counter (first made in round 1)", "r3 A2 repeated counter (first made in round 2)", "r3 D holds",
		},
	}, {
		name: "a defender with no opening position states it; a forfeit is a forfeit", opening: "",
		rounds: [][]string{{"X", "!bad_reply", "P1"}, {"ok", "ok"}},
		rule:   RuleConceded,
		want:   []string{"r1 A1 new counter", "r1 A2 forfeits (bad_reply)", "r1 D states its position", "r2 A1 concedes", "r2 A2 concedes"},
	}, {
		name: "adopts names the attacker", opening: "P0",
		rounds: [][]string{{"X", "Y", "P0"}, {"Q", "Y", "y."}},
		rule:   RuleAdopted,
		want: []string{
			"r1 A1 new counter", "r1 A2 new counter", "r1 D holds",
			"r2 A1 new counter", "r2 A2 repeated counter (first made in round 1)", "r2 D adopts A2's position",
		},
	}, {
		name: "the agreed round is the latest in which every speaker asserted one position", opening: "P0",
		rounds: [][]string{{"P0", "P0", "P0"}, {"X", "P0", "P0"}, {"Y", "P0", "P0"}},
		rule:   RuleMaxRounds,
		want: []string{
			"r1 A1 new counter", "r1 A2 new counter", "r1 D holds",
			"r2 A1 new counter", "r2 A2 repeated counter (first made in round 1)", "r2 D holds",
			"r3 A1 new counter", "r3 A2 repeated counter (first made in round 1)", "r3 D holds",
		},
		agreed: 1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := testSession(2, b)
			s.Position = tc.opening
			slots := slotsOf(s, tc.rounds...)
			o, ok := Judge(s, slots, 0)
			if !ok || o.Rule != tc.rule {
				t.Fatalf("Judge = %v %v, want the rule %s", o, ok, tc.rule)
			}
			got := labelsOf(o.Decisions)
			if !slices.Equal(got, tc.want) {
				t.Errorf("decisions\n got %q\nwant %q", got, tc.want)
			}
			if o.AgreedRound != tc.agreed {
				t.Errorf("agreed round %d, want %d", o.AgreedRound, tc.agreed)
			}
			// An outcome built without its decisions gets the same from Analyze.
			bare := *o
			bare.Decisions, bare.AgreedRound = nil, 0
			a := Analyze(&bare)
			if !slices.Equal(labelsOf(a.Decisions), got) || a.AgreedRound != o.AgreedRound {
				t.Errorf("Analyze: %q (agreed %d), Judge: %q (agreed %d)", labelsOf(a.Decisions), a.AgreedRound, got, o.AgreedRound)
			}
			if bare.Decisions != nil {
				t.Error("Analyze changed its argument")
			}
		})
	}
}

// A tampered transcript can claim any round, speaker or role: Analyze
// leaves out what cannot be a slot of the debate, and allocates nothing
// in proportion to a claimed round.
func TestAnalyzeHostileSlots(t *testing.T) {
	t.Parallel()
	s := testSession(1, ConsensusBudget{MaxRounds: 3, MaxTokens: 1000, MaxTokensPerRound: 100, MaxWallClockMs: 1000, ConvergenceRounds: 1})
	turn := func(round int, role Role, agent, pos string) TurnRecord {
		return TurnRecord{Turn: Turn{Round: round, Role: role, Position: pos, CounterTo: "c", ConfidenceChange: -1}, Agent: agent, PositionHash: PositionHash(pos)}
	}
	o := &Outcome{Session: s, Turns: []TurnRecord{
		turn(1, RoleAttacker, "A1", "X"),
		turn(1, RoleAttacker, "A1", "X again"), // the slot taken twice
		turn(1, RoleDefender, "D", "P0"),
		turn(1<<40, RoleAttacker, "A1", "far"), // a round no debate reaches
		turn(-3, RoleAttacker, "A1", "negative"),
		turn(2, RoleDefender, "A1", "wrong role"),
		turn(2, RoleAttacker, "Mallory", "not a participant"),
	}, Forfeits: []ForfeitEvent{{Round: 0, Role: RoleDefender, Agent: "D", Reason: ForfeitDeadline}}}
	a := Analyze(o)
	if got, want := labelsOf(a.Decisions), []string{"r1 A1 new counter", "r1 D holds"}; !slices.Equal(got, want) {
		t.Errorf("decisions %q, want %q", got, want)
	}
	// A session that is not a debate (no defender) decides nothing it
	// cannot, and does not panic.
	broken := &Outcome{Session: &DebateSession{ID: s.ID, Participants: []Participant{{Name: "A1", Role: RoleAttacker}}},
		Turns: []TurnRecord{turn(1, RoleAttacker, "A1", "X"), turn(2, RoleAttacker, "A1", "X")}}
	if got := labelsOf(Analyze(broken).Decisions); !slices.Equal(got, []string{"r1 A1 new counter", "r2 A1 repeated counter (first made in round 1)"}) {
		t.Errorf("decisions without a defender: %q", got)
	}
}

func labelsOf(ds []Decision) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("r%d %s %s", d.Round, d.Agent, d.Label()))
	}
	return out
}
