package debate

import (
	"fmt"
	"slices"
	"strings"
)

// Counter is what an attacker's turn counted as when the end rules were
// applied.
type Counter string

// The counters. A counter is new when that attacker never asserted the
// position (by hash) in an earlier round, repeated when it did; a
// conceding turn (confidence_change 0, empty counter_to, or no position)
// is neither.
const (
	CounterNew       Counter = "new"
	CounterRepeated  Counter = "repeated"
	CounterConceding Counter = "conceding"
)

// Stance is what a defender's turn did with its standing position.
type Stance string

// The stances, decided in this order: adopts (moved to a position an
// attacker asserted this round or earlier; the adopted rule), states (its
// first turn, when the session gave no opening position), holds (the same
// position by hash), revises (anything else).
const (
	StanceAdopts  Stance = "adopts"
	StanceStates  Stance = "states"
	StanceHolds   Stance = "holds"
	StanceRevises Stance = "revises"
)

// Decision is what the coordinator decided one settled slot counted as:
// the judgement the end rules were applied to, carried with the Outcome so
// that records, pages and views format it rather than work it out again.
type Decision struct {
	Round int    `json:"round"`
	Role  Role   `json:"role"`
	Agent string `json:"agent"`
	// Forfeit is why the slot was forfeited; empty for a turn.
	Forfeit ForfeitReason `json:"forfeit,omitempty"`
	// Counter is set for an attacker's turn.
	Counter Counter `json:"counter,omitempty"`
	// FirstRound is, for a new or repeated counter, the round in which
	// this attacker first asserted the position.
	FirstRound int `json:"first_round,omitempty"`
	// Stance is set for a defender's turn; Adopted and AdoptedRound name
	// the attacker whose position it adopted, and when that attacker
	// asserted it.
	Stance       Stance `json:"stance,omitempty"`
	Adopted      string `json:"adopted,omitempty"`
	AdoptedRound int    `json:"adopted_round,omitempty"`
}

// decisions is what every slot so far counted as, in speaking order.
func (t *Tally) decisions() []Decision {
	out := make([]Decision, 0, len(t.slots))
	for i := range t.slots {
		sl := &t.slots[i]
		d := Decision{Round: sl.Round, Role: sl.Role, Agent: sl.Agent}
		switch {
		case sl.Forfeit != nil:
			d.Forfeit = sl.Forfeit.Reason
		case sl.Turn != nil:
			if decide := roleSpec(sl.Role).Decide; decide != nil {
				decide(t, sl, &d)
			}
		}
		out = append(out, d)
	}
	return out
}

// decideAttacker: new, repeated or conceding (see Counter).
func decideAttacker(t *Tally, sl *Slot, d *Decision) {
	i := slices.Index(t.attackers, sl.Index)
	if i < 0 {
		return
	}
	d.Counter = t.counter(i, sl.Round)
	if d.Counter == CounterRepeated {
		d.FirstRound = t.firstAsserted(i, sl.Round, sl.asserted())
	} else if d.Counter == CounterNew {
		d.FirstRound = sl.Round
	}
}

// decideDefender: adopts, states, holds or revises (see Stance).
func decideDefender(t *Tally, sl *Slot, d *Decision) {
	if a, q := t.adoptedFrom(sl.Round, sl.asserted()); a != nil {
		d.Stance, d.Adopted, d.AdoptedRound = StanceAdopts, a.Agent, q
		return
	}
	first := true
	for q := 1; q < sl.Round; q++ {
		if p := t.defenderSlot(q); p != nil && p.Turn != nil {
			first = false
			break
		}
	}
	switch {
	case first && strings.TrimSpace(t.s.Position) == "":
		d.Stance = StanceStates
	case sl.asserted() == PositionHash(t.defenderBefore(sl.Round)):
		d.Stance = StanceHolds
	default:
		d.Stance = StanceRevises
	}
}

// Analyze fills in what an outcome's slots counted as (Decisions and
// AgreedRound) when it does not carry them: an Outcome built by hand or
// decoded from a verdict event without its State. The slots are rebuilt
// from the session's speaking order and the outcome's turns and forfeits;
// an outcome without a session is returned as it is. It returns a copy;
// o is not changed.
func Analyze(o *Outcome) *Outcome {
	c := *o
	if o.Session == nil || o.Decisions != nil {
		return &c
	}
	t := newTally(o.Session, SlotsOf(o), o.ElapsedMs)
	c.Decisions = t.decisions()
	_, c.AgreedRound = t.lastAgreed()
	return &c
}

// SlotsOf rebuilds an outcome's slots in speaking order from its turns and
// forfeits and its session's speaking order. A turn or forfeit that cannot
// be a slot of the debate (a speaker or role the session does not have, a
// round below 1 or beyond the number of slots, a slot taken twice: what a
// tampered transcript may hold) is left out.
func SlotsOf(o *Outcome) []Slot {
	speakers := map[string]Speaker{}
	for _, sp := range o.Session.Order() {
		speakers[sp.Name] = sp
	}
	limit := len(o.Turns) + len(o.Forfeits)
	taken := map[[2]int]bool{}
	fits := func(round int, role Role, agent string) (int, bool) {
		sp, ok := speakers[agent]
		if !ok || sp.Role != role || round < 1 || round > limit || taken[[2]int{round, sp.Index}] {
			return 0, false
		}
		taken[[2]int{round, sp.Index}] = true
		return sp.Index, true
	}
	var slots []Slot
	for i := range o.Turns {
		t := o.Turns[i]
		idx, ok := fits(t.Round, t.Role, t.Agent)
		if !ok {
			continue
		}
		if t.PositionHash == "" {
			t.PositionHash = PositionHash(t.Position)
		}
		slots = append(slots, Slot{Round: t.Round, Role: t.Role, Index: idx, Agent: t.Agent, Turn: &t})
	}
	for i := range o.Forfeits {
		f := &o.Forfeits[i]
		idx, ok := fits(f.Round, f.Role, f.Agent)
		if !ok {
			continue
		}
		slots = append(slots, Slot{Round: f.Round, Role: f.Role, Index: idx, Agent: f.Agent, Forfeit: f})
	}
	slices.SortStableFunc(slots, func(a, b Slot) int {
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return a.Index - b.Index
	})
	return slots
}

// Label is the decision in a few words, as records, pages and views print
// it: "new counter", "repeated counter (first made in round 2)",
// "concedes", "adopts Bob's position", "states its position", "holds",
// "revises", "forfeits (deadline)"; "" when nothing was decided beyond who
// spoke.
func (d Decision) Label() string {
	switch {
	case d.Forfeit != "":
		return "forfeits (" + string(d.Forfeit) + ")"
	case d.Counter == CounterNew:
		return "new counter"
	case d.Counter == CounterRepeated:
		return fmt.Sprintf("repeated counter (first made in round %d)", d.FirstRound)
	case d.Counter == CounterConceding:
		return "concedes"
	case d.Stance == StanceAdopts:
		return "adopts " + d.Adopted + "'s position"
	case d.Stance == StanceStates:
		return "states its position"
	case d.Stance != "":
		return string(d.Stance)
	}
	return ""
}
