package debate

import (
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
// forfeits and its session's speaking order.
func SlotsOf(o *Outcome) []Slot {
	index := map[string]int{}
	for _, sp := range o.Session.Order() {
		index[sp.Name] = sp.Index
	}
	var slots []Slot
	for i := range o.Turns {
		t := o.Turns[i]
		if t.PositionHash == "" {
			t.PositionHash = PositionHash(t.Position)
		}
		slots = append(slots, Slot{Round: t.Round, Role: t.Role, Index: index[t.Agent], Agent: t.Agent, Turn: &t})
	}
	for i := range o.Forfeits {
		f := &o.Forfeits[i]
		slots = append(slots, Slot{Round: f.Round, Role: f.Role, Index: index[f.Agent], Agent: f.Agent, Forfeit: f})
	}
	slices.SortStableFunc(slots, func(a, b Slot) int {
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return a.Index - b.Index
	})
	return slots
}
