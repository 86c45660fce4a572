package debate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// searchFirstAsserted and searchAdoptedFrom are the rules' lookups as a
// search through every earlier round: the reference the Tally's index
// must answer as.
func searchFirstAsserted(t *Tally, i, r int, h string) int {
	for q := 1; q < r; q++ {
		if a := t.attacker(q, i); a != nil && a.asserted() == h {
			return q
		}
	}
	return 0
}

func searchAdoptedFrom(t *Tally, r int, h string) (*Slot, int) {
	if h == "" || h == PositionHash(t.defenderBefore(r)) {
		return nil, 0
	}
	for q := r; q >= 1; q-- {
		for i := range t.attackers {
			if a := t.attacker(q, i); a != nil && a.asserted() == h {
				return a, q
			}
		}
	}
	return nil, 0
}

// randomDebate is a debate of the given rounds between attackers and a
// defender who draw their positions from so many (a few: counters repeat
// and the defender adopts), with conceding turns, forfeits and, when gaps,
// slots missing.
func randomDebate(rng *rand.Rand, attackers, rounds, positions int, gaps bool) (*DebateSession, []Slot) {
	s := &DebateSession{ID: "20260101-spec-x-abcdef", Topic: "x", Layer: LayerSpec, Position: "P0", Coordinator: "C",
		Budget: ConsensusBudget{MaxRounds: rounds, MaxTokens: 1 << 40, MaxTokensPerRound: 2000, MaxWallClockMs: 1 << 40, ConvergenceRounds: 2}}
	for i := range attackers {
		s.Participants = append(s.Participants, Participant{Name: fmt.Sprintf("A%d", i), Role: RoleAttacker})
	}
	s.Participants = append(s.Participants, Participant{Name: "D", Role: RoleDefender})
	var slots []Slot
	for r := 1; r <= rounds; r++ {
		for _, sp := range s.Order() {
			if gaps && rng.IntN(10) == 0 {
				continue
			}
			sl := Slot{Round: r, Role: sp.Role, Index: sp.Index, Agent: sp.Name}
			switch rng.IntN(12) {
			case 0:
				sl.Forfeit = &ForfeitEvent{Round: r, Role: sp.Role, Agent: sp.Name, Reason: ForfeitBadReply}
			case 1:
				sl.Turn = &TurnRecord{Turn: Turn{Round: r, Role: sp.Role, ConfidenceChange: 0}, Agent: sp.Name}
			default:
				pos := fmt.Sprintf("P%d", rng.IntN(positions))
				sl.Turn = &TurnRecord{Turn: Turn{Round: r, Role: sp.Role, Position: pos, CounterTo: "x", ConfidenceChange: -1, Tokens: 9},
					Agent: sp.Name, PositionHash: PositionHash(pos)}
			}
			slots = append(slots, sl)
		}
	}
	return s, slots
}

// TestTallyAnswersAsTheSearch: on random debates, what every turn counted
// as (new or repeated counter and its first round, the position the
// defender adopted and when) is what searching every earlier round finds.
func TestTallyAnswersAsTheSearch(t *testing.T) {
	t.Parallel()
	for seed := range 200 {
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		s, slots := randomDebate(rng, 1+rng.IntN(3), 1+rng.IntN(40), 2+rng.IntN(8), seed%2 == 1)
		ta := newTally(s, slots, 0)
		for k := range slots {
			sl := &slots[k]
			for r := 0; r <= sl.Round+1; r++ {
				for i := range ta.attackers {
					if got, want := ta.firstAsserted(i, r, sl.asserted()), searchFirstAsserted(ta, i, r, sl.asserted()); got != want {
						t.Fatalf("seed %d: firstAsserted(%d, %d, %q) = %d, want %d", seed, i, r, sl.Turn.Position, got, want)
					}
				}
				ga, gq := ta.adoptedFrom(r, sl.asserted())
				wa, wq := searchAdoptedFrom(ta, r, sl.asserted())
				if ga != wa || gq != wq {
					t.Fatalf("seed %d: adoptedFrom(%d, %q) = %v %d, want %v %d", seed, r, sl.asserted(), ga, gq, wa, wq)
				}
			}
		}
		// And what Close carries, slot by slot.
		want := newTally(s, slots, 0)
		var ds []Decision
		for k := range slots {
			sl := &slots[k]
			d := Decision{Round: sl.Round, Role: sl.Role, Agent: sl.Agent}
			switch {
			case sl.Forfeit != nil:
				d.Forfeit = sl.Forfeit.Reason
			case sl.Role == RoleAttacker:
				i := sl.Index
				switch {
				case sl.Turn.Concedes() || sl.asserted() == "":
					d.Counter = CounterConceding
				case searchFirstAsserted(want, i, sl.Round, sl.asserted()) > 0:
					d.Counter, d.FirstRound = CounterRepeated, searchFirstAsserted(want, i, sl.Round, sl.asserted())
				default:
					d.Counter, d.FirstRound = CounterNew, sl.Round
				}
			default:
				if a, q := searchAdoptedFrom(want, sl.Round, sl.asserted()); a != nil {
					d.Stance, d.Adopted, d.AdoptedRound = StanceAdopts, a.Agent, q
				} else {
					decideDefender(want, sl, &d)
				}
			}
			ds = append(ds, d)
		}
		if got := ta.decisions(); !reflect.DeepEqual(got, ds) {
			t.Fatalf("seed %d: decisions differ from the search's", seed)
		}
	}
}

// TestTallyOfALongDebateLooksUpEachSlotAFewTimes: what every slot of a
// debate of 4000 rounds, where the attackers mostly bring new counters,
// counted as is worked out with a few lookups per slot, not a search
// through every earlier round for each.
func TestTallyOfALongDebateLooksUpEachSlotAFewTimes(t *testing.T) {
	t.Parallel()
	s, slots := randomDebate(rand.New(rand.NewPCG(4000, 1)), 2, 4000, 1<<20, false)
	ta := newTally(s, slots, 0)
	ta.decisions()
	if ta.lookups > 8*len(slots) {
		t.Errorf("%d slot lookups for %d slots", ta.lookups, len(slots))
	}
}

// BenchmarkTallyDecisions measures what Close computes for every slot of
// a long debate (two attackers and a defender) whose positions are
// mostly new every round.
func BenchmarkTallyDecisions(b *testing.B) {
	for _, rounds := range []int{100, 1000, 4000} {
		b.Run(fmt.Sprint(rounds), func(b *testing.B) {
			s, slots := randomDebate(rand.New(rand.NewPCG(uint64(rounds), 1)), 2, rounds, 1<<20, false)
			b.ReportAllocs()
			for b.Loop() {
				newTally(s, slots, 0).decisions()
			}
		})
	}
}
