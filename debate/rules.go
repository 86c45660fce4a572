package debate

import (
	"fmt"
	"strings"
)

// Slot is one speaking turn of a debate as it ended: with a recorded turn,
// or forfeited. Slots come in speaking order: round 1's attackers in session
// order, round 1's defender, round 2's attackers, and so on.
type Slot struct {
	Round int
	Role  Role
	// Index is the speaker's place in the round (see Speaker.Index).
	Index   int
	Agent   string
	Turn    *TurnRecord   // set when the slot ended in a turn
	Forfeit *ForfeitEvent // set when it was forfeited
}

// asserted returns the slot's position hash, "" for a forfeit or a
// conceding attacker turn that asserts nothing.
func (s *Slot) asserted() string {
	if s.Turn == nil {
		return ""
	}
	return s.Turn.PositionHash
}

// clockForfeit reports a slot lost to the clock or to a dead agent: it ends
// the debate in TIMEOUT and does not complete its round.
func (s *Slot) clockForfeit() bool {
	return s.Forfeit != nil && (s.Forfeit.Reason == ForfeitDeadline || s.Forfeit.Reason == ForfeitDied || s.Forfeit.Reason == ForfeitUnavailable)
}

// Judge applies the end rules of SPEC §5.4, in their order, to a debate
// whose slots so far are given in speaking order, after elapsedMs of active
// time. It is called after every settled slot (and while waiting, with the
// slots unchanged, for the wall clock); it returns the outcome when a rule
// closes the debate. Judge is pure: the same slots and time give the same
// answer. The Closed timestamp is left for the caller to set.
//
// How each rule is read is written down in docs/design.md ("Debates: how
// the end rules are read").
func Judge(s *DebateSession, slots []Slot, elapsedMs int64) (*Outcome, bool) {
	t := newTally(s, slots, elapsedMs)
	if o := t.rules(); o != nil {
		return o, true
	}
	return nil, false
}

// tally is what the end rules need to know about the slots so far.
type tally struct {
	s         *DebateSession
	slots     []Slot
	elapsedMs int64
	attackers int
	tokens    int
	// byRound[r] holds round r's slots (index 0 unused).
	byRound [][]*Slot
}

func newTally(s *DebateSession, slots []Slot, elapsedMs int64) *tally {
	t := &tally{s: s, slots: slots, elapsedMs: elapsedMs, attackers: len(s.Attackers())}
	for i := range slots {
		sl := &slots[i]
		if sl.Turn != nil {
			t.tokens += sl.Turn.Tokens
		}
		for len(t.byRound) <= sl.Round {
			t.byRound = append(t.byRound, nil)
		}
		t.byRound[sl.Round] = append(t.byRound[sl.Round], sl)
	}
	return t
}

// round returns round r's slot for speaker index i, or nil.
func (t *tally) slot(r, i int) *Slot {
	if r < 1 || r >= len(t.byRound) {
		return nil
	}
	for _, sl := range t.byRound[r] {
		if sl.Index == i {
			return sl
		}
	}
	return nil
}

// defenderBefore is the defender's standing position before round r's
// defender turn: its latest turn of an earlier round, else the opening.
func (t *tally) defenderBefore(r int) string {
	for q := r - 1; q >= 1; q-- {
		if d := t.slot(q, t.attackers); d != nil && d.Turn != nil {
			return d.Turn.Position
		}
	}
	return t.s.OpeningPosition()
}

// standing is the defender's latest position: its last turn, else the
// opening position.
func (t *tally) standing() string {
	return t.defenderBefore(len(t.byRound))
}

// assertedBefore reports whether attacker i asserted hash h in a round
// before r.
func (t *tally) assertedBefore(i, r int, h string) bool {
	for q := 1; q < r; q++ {
		if a := t.slot(q, i); a != nil && a.asserted() == h {
			return true
		}
	}
	return false
}

// counterKind classifies attacker i's turn in round r: "new", "repeated",
// or "" for a conceding or forfeited turn (neither new nor repeated).
func (t *tally) counterKind(i, r int) string {
	a := t.slot(r, i)
	if a == nil || a.Turn == nil || a.Turn.Concedes() || a.asserted() == "" {
		return ""
	}
	if t.assertedBefore(i, r, a.asserted()) {
		return "repeated"
	}
	return "new"
}

func (t *tally) rules() *Outcome {
	if len(t.slots) == 0 {
		if t.elapsedMs >= t.s.Budget.MaxWallClockMs {
			return t.close(Timeout, RuleWallClock, "", fmt.Sprintf("the wall clock (%d ms) ran out before round 1", t.s.Budget.MaxWallClockMs))
		}
		return nil
	}
	// 0. An agent that never took a turn could not be reached: not an
	// outcome of the debate, whatever else the slots say.
	if o := t.unavailableRule(); o != nil {
		return o
	}
	last := &t.slots[len(t.slots)-1]
	r := last.Round
	k := t.s.Budget.ConvergenceRounds

	// 1. Consensus, conceded: after the round's last attacker turn.
	if last.Role == RoleAttacker && last.Index == t.attackers-1 {
		all := true
		for i := 0; i < t.attackers; i++ {
			a := t.slot(r, i)
			if a == nil || a.Turn == nil || !a.Turn.Concedes() {
				all = false
				break
			}
		}
		if all {
			who := "the attacker"
			if t.attackers > 1 {
				who = "every attacker"
			}
			return t.close(ConsensusReached, RuleConceded, t.standing(),
				fmt.Sprintf("%s of round %d had no further objections; the defender's position stands", who, r))
		}
	}
	// 1. Consensus, adopted: the defender moved to an attacker's position.
	if last.Role == RoleDefender && last.Turn != nil {
		h := last.asserted()
		if h != "" && h != PositionHash(t.defenderBefore(r)) {
			for q := r; q >= 1; q-- {
				for i := 0; i < t.attackers; i++ {
					if a := t.slot(q, i); a != nil && a.asserted() == h {
						return t.close(ConsensusReached, RuleAdopted, last.Turn.Position,
							fmt.Sprintf("the defender adopted %s's position (asserted in round %d) in round %d", a.Agent, q, r))
					}
				}
			}
		}
	}
	// 2 and 3: the defender unchanged over rounds r-k … r.
	if last.Role == RoleDefender && last.Turn != nil && r-k >= 1 {
		unchanged := true
		h := last.asserted()
		for q := r - k; q < r; q++ {
			d := t.slot(q, t.attackers)
			if d == nil || d.asserted() != h {
				unchanged = false
				break
			}
		}
		if unchanged {
			kinds := map[string]int{}
			for q := r - k + 1; q <= r; q++ {
				for i := 0; i < t.attackers; i++ {
					kinds[t.counterKind(i, q)]++
				}
			}
			n := k * t.attackers
			span := roundSpan(r-k+1, r)
			switch {
			case kinds["new"] == n:
				return t.close(ConsensusReached, RuleSurvived, last.Turn.Position,
					fmt.Sprintf("the defender's position held through %s while every attacker brought a new counter", span))
			case kinds["repeated"] == n:
				return t.close(Deadlock, RuleRepeated, "",
					fmt.Sprintf("the defender's position did not change and the attackers only repeated earlier counters in %s", span))
			}
		}
	}
	// 4. Budget.
	if last.Role == RoleDefender && !last.clockForfeit() && r >= t.s.Budget.MaxRounds {
		return t.exhausted(RuleMaxRounds, fmt.Sprintf("all %d rounds are complete", t.s.Budget.MaxRounds))
	}
	if t.tokens >= t.s.Budget.MaxTokens {
		return t.exhausted(RuleMaxTokens, fmt.Sprintf("the tokens spent (%d) reached the budget (%d) in round %d", t.tokens, t.s.Budget.MaxTokens, r))
	}
	// 5. Timeout.
	if t.elapsedMs >= t.s.Budget.MaxWallClockMs {
		what := "the wall clock"
		if last.clockForfeit() {
			what = fmt.Sprintf("the wall clock ran out waiting for %s (round %d)", last.Agent, r)
		}
		return t.close(Timeout, RuleWallClock, "", fmt.Sprintf("%s (%d ms) passed", what, t.s.Budget.MaxWallClockMs))
	}
	if last.clockForfeit() {
		why := "missed its deadline"
		switch last.Forfeit.Reason {
		case ForfeitDied:
			why = "died"
		case ForfeitUnavailable:
			why = "became unavailable"
			if u := last.Forfeit.Unavailable; u != nil {
				why += ": " + oneLine(u.Detail)
			}
		}
		return t.close(Timeout, RuleForfeit, "", fmt.Sprintf("%s (%s, round %d) %s", last.Agent, last.Role, r, why))
	}
	return nil
}

func roundSpan(from, to int) string {
	if from == to {
		return fmt.Sprintf("round %d", to)
	}
	return fmt.Sprintf("rounds %d–%d", from, to)
}

// exhausted closes with BUDGET_EXHAUSTED: proceed on the last agreed
// position if there is one, else escalate.
func (t *tally) exhausted(rule Rule, why string) *Outcome {
	pos, round := t.lastAgreed()
	if round == 0 {
		return t.close(BudgetExhausted, rule, "", why+"; no position was asserted by every participant in one round")
	}
	return t.close(BudgetExhausted, rule, pos, fmt.Sprintf("%s; every participant asserted the same position in round %d", why, round))
}

// lastAgreed returns the position of the latest round in which every
// participant's turn asserted the same hash, and that round (0: none).
func (t *tally) lastAgreed() (string, int) {
	for r := len(t.byRound) - 1; r >= 1; r-- {
		d := t.slot(r, t.attackers)
		if d == nil || d.asserted() == "" {
			continue
		}
		agreed := true
		for i := 0; i < t.attackers; i++ {
			if a := t.slot(r, i); a == nil || a.asserted() != d.asserted() {
				agreed = false
				break
			}
		}
		if agreed {
			return d.Turn.Position, r
		}
	}
	return "", 0
}

func (t *tally) close(v Verdict, rule Rule, final, reason string) *Outcome {
	o := &Outcome{
		DebateID:          t.s.ID,
		Verdict:           v,
		Action:            ActionFor(v, final),
		Rule:              rule,
		Reason:            reason,
		FinalPosition:     final,
		FinalPositionHash: PositionHash(final),
		DefenderPosition:  t.standing(),
		AttackerPositions: map[string]string{},
		Tokens:            t.tokens,
		ElapsedMs:         t.elapsedMs,
		Session:           t.s,
	}
	if len(t.slots) > 0 {
		o.Rounds = t.slots[len(t.slots)-1].Round
	}
	for i := range t.slots {
		sl := &t.slots[i]
		switch {
		case sl.Turn != nil:
			o.Turns = append(o.Turns, *sl.Turn)
			if sl.Role == RoleAttacker && strings.TrimSpace(sl.Turn.Position) != "" {
				o.AttackerPositions[sl.Agent] = sl.Turn.Position
			}
		case sl.Forfeit != nil:
			o.Forfeits = append(o.Forfeits, *sl.Forfeit)
		}
	}
	return o
}

// ActionFor maps a verdict to its action (SPEC §5.5): proceed on
// CONSENSUS_REACHED, and on BUDGET_EXHAUSTED when a last agreed position
// exists (final is not empty); escalate otherwise.
func ActionFor(v Verdict, final string) Action {
	switch {
	case v == ConsensusReached:
		return ActionProceed
	case v == BudgetExhausted && strings.TrimSpace(final) != "":
		return ActionProceed
	}
	return ActionEscalate
}
