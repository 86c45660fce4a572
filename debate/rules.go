package debate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/parleyhq/parley/internal/clip"
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

// EndRule is one named end rule: Check returns the outcome that closes
// the debate when the rule holds for the slots so far, else nil.
type EndRule struct {
	Name  Rule
	Check func(t *Tally) *Outcome
}

// UnavailableRule comes before every other rule (see unavailableRule).
var UnavailableRule = EndRule{RuleUnavailable, unavailableRule}

// SharedRules are checked after every slot, whoever spoke, once the rules
// of the speaker's role (RoleSpec.Rules) did not close the debate.
var SharedRules = []EndRule{
	{RuleMaxRounds, ruleMaxRounds},
	{RuleMaxTokens, ruleMaxTokens},
	{RuleWallClock, ruleWallClock},
	{RuleForfeit, ruleForfeit},
}

// Judge applies the end rules, in their order, to a debate whose slots so
// far are given in speaking order, after elapsedMs of active time: the
// unavailable rule, then the rules of the role whose slot settled last,
// then the budget and clock rules every role shares. It is called after
// every settled slot (and while waiting, with the slots unchanged, for the
// wall clock); it returns the outcome when a rule closes the debate. Judge
// is pure: the same slots and time give the same answer. The Closed
// timestamp is left for the caller to set.
//
// How each rule is read is written down in docs/design.md ("Debates: how
// the end rules are read").
func Judge(s *DebateSession, slots []Slot, elapsedMs int64) (*Outcome, bool) {
	t := newTally(s, slots, elapsedMs)
	if len(slots) == 0 {
		if elapsedMs >= s.Budget.MaxWallClockMs {
			return t.Close(Timeout, RuleWallClock, "", fmt.Sprintf("the wall clock (%d ms) ran out before round 1", s.Budget.MaxWallClockMs)), true
		}
		return nil, false
	}
	for _, r := range t.rules() {
		if o := r.Check(t); o != nil {
			if u := t.neverValid(); u != nil && o.Verdict != Unavailable {
				return t.unavailable(u), true
			}
			return o, true
		}
	}
	return nil, false
}

// neverValid names a participant that had slots and lost every one of them
// to rejected replies (bad_reply: asked twice, never a valid turn), as
// the agent's failure: a debate it never took part in is no outcome, and
// whatever rule closed it (the others agreeing without it, the rounds run
// out) would file one. nil when every participant that was asked gave a
// valid turn at least once. It is checked only when a rule closes the
// debate: until then a later round may still hear the agent.
func (t *Tally) neverValid() *UnavailableError {
	for _, sp := range t.order {
		var last *Slot
		for i := range t.slots {
			sl := &t.slots[i]
			if sl.Agent != sp.Name {
				continue
			}
			if sl.Forfeit == nil || sl.Forfeit.Reason != ForfeitBadReply {
				last = nil
				break
			}
			last = sl
		}
		if last == nil || t.spoke(sp.Name) {
			continue
		}
		detail := fmt.Sprintf("no valid turn in %s: each reply was rejected (the last: %s)", roundSpan(1, last.Round), clip.Line(last.Forfeit.Detail, 201))
		if last.Forfeit.Detail == "" {
			detail = fmt.Sprintf("no valid turn in %s: each reply was rejected", roundSpan(1, last.Round))
		}
		hint := "make the agent answer each turn_request with a debate_turn (a JSON object with its position); its rejected replies are in the transcript"
		if strings.HasPrefix(sp.Agent, "openai:") {
			// A model: what the user can change is the model's settings,
			// not a protocol it never sees.
			hint = "the model never wrote a valid turn (one JSON object with its position): set \"jsonMode\": true under openai in config.json, " +
				"try another model, or adjust the prompts (openai.templates); its rejected replies are in the transcript"
		}
		return &UnavailableError{Agent: sp.Name, Kind: UnavailableFailed, Detail: detail, Hint: hint}
	}
	return nil
}

// spoke reports whether agent took a valid turn in any slot so far.
func (t *Tally) spoke(agent string) bool {
	for i := range t.slots {
		if t.slots[i].Turn != nil && t.slots[i].Agent == agent {
			return true
		}
	}
	return false
}

// unavailable closes the debate UNAVAILABLE for u, whose Agent is set.
func (t *Tally) unavailable(u *UnavailableError) *Outcome {
	o := t.Close(Unavailable, RuleUnavailable, "", u.Error())
	o.Unavailable = u
	return o
}

// rules is the table Judge applies after the last slot, in order.
func (t *Tally) rules() []EndRule {
	out := []EndRule{UnavailableRule}
	out = append(out, roleSpec(t.Last().Role).Rules...)
	return append(out, SharedRules...)
}

// Tally is what the end rules know about a debate's slots so far. Rule
// functions (RoleSpec.Rules) read it and close the debate with Close; it
// is built by Judge and not safe for concurrent use.
type Tally struct {
	s         *DebateSession
	slots     []Slot
	elapsedMs int64
	order     []Speaker
	attackers []int // the speaking index of each attacker, in order
	defender  int   // the defender's speaking index
	tokens    int
	// byRound[r] holds round r's slots (index 0 unused).
	byRound [][]*Slot
	// assertions indexes the attackers' positions, built on first use.
	assertions *assertions
	// lookups counts Slot's calls, for the tests of how the rules scale.
	lookups int
}

// assertions is where the attackers asserted each position hash, so that
// what a turn counted as is looked up, not searched for through every
// earlier round: the cost of a long debate's rules grows with its slots,
// not with their square.
type assertions struct {
	// first[i][h] is the first round in which attacker i asserted h.
	first []map[string]int
	// rounds[h] lists, by round, each round in which an attacker
	// asserted h, with the first such attacker's slot in speaking order.
	rounds map[string][]assertion
}

type assertion struct {
	round int
	slot  *Slot
}

// index returns the attackers' assertions, building them once.
func (t *Tally) index() *assertions {
	if t.assertions != nil {
		return t.assertions
	}
	x := &assertions{first: make([]map[string]int, len(t.attackers)), rounds: map[string][]assertion{}}
	for i := range x.first {
		x.first[i] = map[string]int{}
	}
	for q := 1; q < len(t.byRound); q++ {
		for i := range t.attackers {
			a := t.attacker(q, i)
			if a == nil {
				continue
			}
			h := a.asserted()
			if _, ok := x.first[i][h]; !ok {
				x.first[i][h] = q
			}
			if rs := x.rounds[h]; len(rs) == 0 || rs[len(rs)-1].round != q {
				x.rounds[h] = append(rs, assertion{q, a})
			}
		}
	}
	t.assertions = x
	return x
}

func newTally(s *DebateSession, slots []Slot, elapsedMs int64) *Tally {
	t := &Tally{s: s, slots: slots, elapsedMs: elapsedMs, order: s.Order(), defender: -1}
	for _, sp := range t.order {
		switch sp.Role {
		case RoleAttacker:
			t.attackers = append(t.attackers, sp.Index)
		case RoleDefender:
			t.defender = sp.Index
		}
	}
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

// Session is the debate's session.
func (t *Tally) Session() *DebateSession { return t.s }

// Last is the slot that settled last.
func (t *Tally) Last() *Slot { return &t.slots[len(t.slots)-1] }

// Tokens is the tokens spent so far.
func (t *Tally) Tokens() int { return t.tokens }

// Slot returns round r's slot of the speaker at index i, or nil.
func (t *Tally) Slot(r, i int) *Slot {
	t.lookups++
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

// attacker returns round r's slot of the i-th attacker (0-based), or nil.
func (t *Tally) attacker(r, i int) *Slot { return t.Slot(r, t.attackers[i]) }

// defenderSlot returns round r's defender slot, or nil.
func (t *Tally) defenderSlot(r int) *Slot { return t.Slot(r, t.defender) }

// defenderBefore is the defender's standing position before round r's
// defender turn: its latest turn of an earlier round, else the opening.
func (t *Tally) defenderBefore(r int) string {
	for q := r - 1; q >= 1; q-- {
		if d := t.defenderSlot(q); d != nil && d.Turn != nil {
			return d.Turn.Position
		}
	}
	return t.s.OpeningPosition()
}

// Standing is the defender's latest position: its last turn, else the
// opening position.
func (t *Tally) Standing() string {
	return t.defenderBefore(len(t.byRound))
}

// firstAsserted is the first round before r in which attacker i asserted
// hash h, 0 if none.
func (t *Tally) firstAsserted(i, r int, h string) int {
	if q, ok := t.index().first[i][h]; ok && q < r {
		return q
	}
	return 0
}

// counter is what attacker i's turn in round r counted as; "" for a
// forfeit or a missing slot.
func (t *Tally) counter(i, r int) Counter {
	a := t.attacker(r, i)
	switch {
	case a == nil || a.Turn == nil:
		return ""
	case a.Turn.Concedes() || a.asserted() == "":
		return CounterConceding
	case t.firstAsserted(i, r, a.asserted()) > 0:
		return CounterRepeated
	}
	return CounterNew
}

// conceded: CONSENSUS_REACHED when, after the last attacker turn of a
// round, every attacker of that round sent confidence_change 0 and an empty
// counter_to; the defender's latest position stands.
func conceded(t *Tally) *Outcome {
	last, n := t.Last(), len(t.attackers)
	if last.Role != RoleAttacker || last.Index != t.attackers[n-1] {
		return nil
	}
	r := last.Round
	for i := range n {
		if a := t.attacker(r, i); a == nil || a.Turn == nil || !a.Turn.Concedes() {
			return nil
		}
	}
	who := "the attacker"
	if n > 1 {
		who = "every attacker"
	}
	return t.Close(ConsensusReached, RuleConceded, t.Standing(),
		fmt.Sprintf("%s of round %d had no further objections; the defender's position stands", who, r))
}

// adopted: CONSENSUS_REACHED when a defender turn's position differs from
// its standing position before the turn and equals a position an attacker
// asserted in this round or earlier; the defender's wording stands.
func adopted(t *Tally) *Outcome {
	last := t.Last()
	if last.Role != RoleDefender || last.Turn == nil {
		return nil
	}
	a, q := t.adoptedFrom(last.Round, last.asserted())
	if a == nil {
		return nil
	}
	return t.Close(ConsensusReached, RuleAdopted, last.Turn.Position,
		fmt.Sprintf("the defender adopted %s's position (asserted in round %d) in round %d", a.Agent, q, last.Round))
}

// adoptedFrom is the attacker slot whose position (hash h) the defender's
// turn of round r adopted, latest round first, and its round; nil when
// the turn did not move to an attacker's position.
func (t *Tally) adoptedFrom(r int, h string) (*Slot, int) {
	if h == "" || h == PositionHash(t.defenderBefore(r)) {
		return nil, 0
	}
	rs := t.index().rounds[h]
	// The latest round at or before r.
	k := sort.Search(len(rs), func(k int) bool { return rs[k].round > r }) - 1
	if k < 0 {
		return nil, 0
	}
	return rs[k].slot, rs[k].round
}

// unchangedCounters is, after a defender turn of round r whose position is
// the same as its turns of rounds r-k … r-1 (k = convergenceRounds), how
// many of the attacker turns of rounds r-k+1 … r were new and repeated
// counters, and how many there were; ok is false when the defender moved.
func (t *Tally) unchangedCounters() (fresh, repeated, n int, ok bool) {
	last, k := t.Last(), t.s.Budget.ConvergenceRounds
	r := last.Round
	if last.Role != RoleDefender || last.Turn == nil || r-k < 1 {
		return 0, 0, 0, false
	}
	for q := r - k; q < r; q++ {
		if d := t.defenderSlot(q); d == nil || d.asserted() != last.asserted() {
			return 0, 0, 0, false
		}
	}
	for q := r - k + 1; q <= r; q++ {
		for i := range t.attackers {
			switch t.counter(i, q) {
			case CounterNew:
				fresh++
			case CounterRepeated:
				repeated++
			}
		}
	}
	return fresh, repeated, k * len(t.attackers), true
}

// survived: CONSENSUS_REACHED when the defender's position was unchanged
// for convergenceRounds rounds (its turns of rounds r-k … r) while every
// attacker turn of rounds r-k+1 … r brought a new counter.
func survived(t *Tally) *Outcome {
	fresh, _, n, ok := t.unchangedCounters()
	if !ok || fresh != n {
		return nil
	}
	last := t.Last()
	return t.Close(ConsensusReached, RuleSurvived, last.Turn.Position,
		fmt.Sprintf("the defender's position held through %s while every attacker brought a new counter", roundSpan(last.Round-t.s.Budget.ConvergenceRounds+1, last.Round)))
}

// repeated: DEADLOCK when the defender's position was unchanged for
// convergenceRounds rounds while every attacker turn of those rounds only
// repeated a counter that attacker made before.
func repeated(t *Tally) *Outcome {
	_, rep, n, ok := t.unchangedCounters()
	if !ok || rep != n {
		return nil
	}
	r := t.Last().Round
	return t.Close(Deadlock, RuleRepeated, "",
		fmt.Sprintf("the defender's position did not change and the attackers only repeated earlier counters in %s", roundSpan(r-t.s.Budget.ConvergenceRounds+1, r)))
}

// ruleMaxRounds: BUDGET_EXHAUSTED after the last slot of round maxRounds
// (a turn or a bad_reply forfeit; a slot lost to the clock or a dead agent
// does not complete its round).
func ruleMaxRounds(t *Tally) *Outcome {
	last := t.Last()
	if last.Index != len(t.order)-1 || last.clockForfeit() || last.Round < t.s.Budget.MaxRounds {
		return nil
	}
	return t.exhausted(RuleMaxRounds, fmt.Sprintf("all %d rounds are complete", t.s.Budget.MaxRounds))
}

// ruleMaxTokens: BUDGET_EXHAUSTED as soon as the tokens spent reach
// maxTokens, after any turn.
func ruleMaxTokens(t *Tally) *Outcome {
	if t.tokens < t.s.Budget.MaxTokens {
		return nil
	}
	return t.exhausted(RuleMaxTokens, fmt.Sprintf("the tokens spent (%d) reached the budget (%d) in round %d", t.tokens, t.s.Budget.MaxTokens, t.Last().Round))
}

// ruleWallClock: TIMEOUT once the coordinator's active time reaches
// maxWallClockMs.
func ruleWallClock(t *Tally) *Outcome {
	if t.elapsedMs < t.s.Budget.MaxWallClockMs {
		return nil
	}
	last := t.Last()
	why := fmt.Sprintf("the wall clock (%d ms) ran out", t.s.Budget.MaxWallClockMs)
	if last.clockForfeit() {
		why += fmt.Sprintf(" waiting for %s (round %d)", last.Agent, last.Round)
	}
	return t.Close(Timeout, RuleWallClock, "", why)
}

// ruleForfeit: TIMEOUT when a participant missed its deadline, died or
// became unreachable after it had taken part.
func ruleForfeit(t *Tally) *Outcome {
	last := t.Last()
	if !last.clockForfeit() {
		return nil
	}
	why := "missed its deadline"
	switch last.Forfeit.Reason {
	case ForfeitDied:
		why = "died"
	case ForfeitUnavailable:
		why = "became unavailable"
		if u := last.Forfeit.Unavailable; u != nil {
			why += ": " + clip.Line(u.Detail, 201)
		}
	}
	return t.Close(Timeout, RuleForfeit, "", fmt.Sprintf("%s (%s, round %d) %s", last.Agent, last.Role, last.Round, why))
}

func roundSpan(from, to int) string {
	if from == to {
		return fmt.Sprintf("round %d", to)
	}
	return fmt.Sprintf("rounds %d–%d", from, to)
}

// exhausted closes with BUDGET_EXHAUSTED: proceed on the last agreed
// position if there is one, else escalate.
func (t *Tally) exhausted(rule Rule, why string) *Outcome {
	pos, round := t.lastAgreed()
	if round == 0 {
		return t.Close(BudgetExhausted, rule, "", why+"; no position was asserted by every participant in one round")
	}
	return t.Close(BudgetExhausted, rule, pos, fmt.Sprintf("%s; every participant asserted the same position in round %d", why, round))
}

// lastAgreed returns the position of the latest round in which the
// defender's and every attacker's turn asserted the same hash, and that
// round (0: none).
func (t *Tally) lastAgreed() (string, int) {
	for r := len(t.byRound) - 1; r >= 1; r-- {
		d := t.defenderSlot(r)
		if d == nil || d.asserted() == "" {
			continue
		}
		agreed := true
		for i := range t.attackers {
			if a := t.attacker(r, i); a == nil || a.asserted() != d.asserted() {
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

// Close is the outcome that closes the debate with verdict v by rule, final
// the position that stands ("" when none): the rule's reason, the tokens
// and time spent, every turn and forfeit, and what each slot counted as.
func (t *Tally) Close(v Verdict, rule Rule, final, reason string) *Outcome {
	o := &Outcome{
		DebateID:          t.s.ID,
		Verdict:           v,
		Action:            ActionFor(v, final),
		Rule:              rule,
		Reason:            reason,
		FinalPosition:     final,
		FinalPositionHash: PositionHash(final),
		DefenderPosition:  t.Standing(),
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
	o.Decisions = t.decisions()
	_, o.AgreedRound = t.lastAgreed()
	return o
}
