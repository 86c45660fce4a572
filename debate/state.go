package debate

import (
	"fmt"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/vocab"
)

// State is a debate as its journal describes it: the session, the settled
// slots, the replies rejected so far, the active time spent, and the
// verdict once there is one. It is rebuilt from the events alone, which is
// how a coordinator resumes after a crash. A State is not safe for
// concurrent use.
type State struct {
	Session *DebateSession
	Slots   []Slot
	// ElapsedMs is the active time recorded by the latest event: what
	// a resumed coordinator continues from (ActiveMs is what a reader
	// shows while a coordinator runs).
	ElapsedMs int64
	// Verdict is the recorded outcome, nil while the debate runs.
	Verdict *Outcome
	// Filing is the seal event's data, nil until the filing was sealed.
	Filing *Filing
	// Tokens is the sum of the recorded turns' tokens.
	Tokens int
	// Events is how many events were replayed.
	Events int

	order    []Speaker
	rejected map[string]bool // request ids whose reply was rejected
	settled  map[string]bool // request ids of settled slots
	// lastAt is when the latest event was recorded (zero if its time does
	// not parse); stopped whether it records that its coordinator stopped.
	lastAt  time.Time
	stopped bool
}

// Replay rebuilds a debate's state from its journal's events. The first
// event must open the debate; a turn or forfeit must settle the slot that
// speaking order says comes next; nothing but one seal event may follow
// the verdict. Any other
// sequence is ErrCorrupt.
func Replay(events []Event) (*State, error) {
	st := &State{}
	for i := range events {
		if err := st.Apply(&events[i]); err != nil {
			return nil, fmt.Errorf("event %d: %w", events[i].Seq, err)
		}
	}
	if st.Session == nil {
		return nil, fmt.Errorf("%w: no open event", ErrCorrupt)
	}
	return st, nil
}

// Apply adds one recorded event to the state.
func (st *State) Apply(e *Event) error {
	if st.Session == nil && e.Kind != EventOpen {
		return fmt.Errorf("%w: the first event is %q, not open", ErrCorrupt, e.Kind)
	}
	if st.Filing != nil || (st.Verdict != nil && e.Kind != EventSeal) {
		return fmt.Errorf("%w: a %q event after the verdict", ErrCorrupt, e.Kind)
	}
	st.Events++
	if e.ElapsedMs > st.ElapsedMs {
		st.ElapsedMs = e.ElapsedMs
	}
	st.lastAt, _ = time.Parse(vocab.TimeLayout, e.At)
	st.stopped = false
	decode := func(v any) error {
		if err := json.Unmarshal(e.Data, v); err != nil {
			return fmt.Errorf("%w: %s data: %v", ErrCorrupt, e.Kind, err)
		}
		return nil
	}
	switch e.Kind {
	case EventOpen:
		if st.Session != nil {
			return fmt.Errorf("%w: a second open event", ErrCorrupt)
		}
		var s DebateSession
		if err := decode(&s); err != nil {
			return err
		}
		if err := s.Validate(); err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		st.Session = &s
		st.order = s.Order()
		st.rejected = map[string]bool{}
		st.settled = map[string]bool{}
	case EventTurn:
		var t TurnRecord
		if err := decode(&t); err != nil {
			return err
		}
		round, sp, _ := st.Next()
		if t.Round != round || t.Role != sp.Role || t.Agent != sp.Name {
			return fmt.Errorf("%w: a turn of %s (%s, round %d) where %s (%s, round %d) speaks", ErrCorrupt, t.Agent, t.Role, t.Round, sp.Name, sp.Role, round)
		}
		st.settle(Slot{Round: round, Role: sp.Role, Index: sp.Index, Agent: sp.Name, Turn: &t}, t.RequestID)
		st.Tokens += t.Tokens
	case EventForfeit:
		var f ForfeitEvent
		if err := decode(&f); err != nil {
			return err
		}
		round, sp, _ := st.Next()
		if f.Round != round || f.Role != sp.Role || f.Agent != sp.Name {
			return fmt.Errorf("%w: a forfeit of %s (round %d) where %s (round %d) speaks", ErrCorrupt, f.Agent, f.Round, sp.Name, round)
		}
		st.settle(Slot{Round: round, Role: sp.Role, Index: sp.Index, Agent: sp.Name, Forfeit: &f}, f.RequestID)
	case EventRejected:
		var r RejectedEvent
		if err := decode(&r); err != nil {
			return err
		}
		st.rejected[r.RequestID] = true
	case EventVerdict:
		var o Outcome
		if err := decode(&o); err != nil {
			return err
		}
		st.fill(&o)
		st.Verdict = &o
	case EventSeal:
		if st.Verdict == nil {
			return fmt.Errorf("%w: a seal event before the verdict", ErrCorrupt)
		}
		var f Filing
		if err := decode(&f); err != nil {
			return err
		}
		st.Filing = &f
	case EventClock:
		var c ClockEvent
		if err := decode(&c); err != nil {
			return err
		}
		st.stopped = c.Reason == ClockStopped
	case EventRequest, EventResume:
		// Informational: requests are derived again, time comes from ElapsedMs.
	default:
		return fmt.Errorf("%w: unknown event kind %q", ErrCorrupt, e.Kind)
	}
	return nil
}

func (st *State) settle(sl Slot, requestID string) {
	st.Slots = append(st.Slots, sl)
	if requestID != "" {
		st.settled[requestID] = true
	}
}

// fill gives an outcome read back from the journal what the verdict event
// leaves out: the session, the turns and the forfeits.
func (st *State) fill(o *Outcome) {
	o.Session = st.Session
	o.Turns, o.Forfeits = nil, nil
	for i := range st.Slots {
		if t := st.Slots[i].Turn; t != nil {
			o.Turns = append(o.Turns, *t)
		} else if f := st.Slots[i].Forfeit; f != nil {
			o.Forfeits = append(o.Forfeits, *f)
		}
	}
	t := newTally(st.Session, st.Slots, o.ElapsedMs)
	o.Decisions = t.decisions()
	_, o.AgreedRound = t.lastAgreed()
}

// Next returns the slot that speaks next: its round, its speaker, and the
// attempt its request is at (1, 2 after one rejected reply, 3 when both
// attempts were rejected and the turn is forfeited).
func (st *State) Next() (round int, sp Speaker, attempt int) {
	n := len(st.order)
	round = len(st.Slots)/n + 1
	sp = st.order[len(st.Slots)%n]
	attempt = 1
	for attempt <= 2 && st.rejected[RequestID(st.Session.ID, round, sp, attempt)] {
		attempt++
	}
	return round, sp, attempt
}

// Turns returns the recorded turns in order.
func (st *State) Turns() []TurnRecord {
	var out []TurnRecord
	for i := range st.Slots {
		if t := st.Slots[i].Turn; t != nil {
			out = append(out, *t)
		}
	}
	return out
}

// Judge applies the end rules to the state at elapsedMs.
func (st *State) Judge(elapsedMs int64) (*Outcome, bool) {
	return Judge(st.Session, st.Slots, elapsedMs)
}

// ActiveMs is the debate's active time as a reader sees it at now: the
// time recorded by the latest event and, while a coordinator runs the
// debate (running: it holds the debate's lock), the time since that event,
// which the coordinator has not recorded yet. That extra time is at most
// CheckpointEvery, the longest a running coordinator goes without
// recording (so a coordinator that took over from one killed with -9, and
// has not recorded its resume yet, does not count the time in between);
// it is none after a verdict or after an event that records that its
// coordinator stopped (the next one has not recorded its resume yet); and
// it never takes the total past the wall clock. Readers (debate status,
// the MCP tool, the web pages) ask this; the coordinator keeps its own
// clock and records it in every event.
func (st *State) ActiveMs(running bool, now time.Time) int64 {
	ms := st.ElapsedMs
	if !running || st.Session == nil || st.Verdict != nil || st.stopped || st.lastAt.IsZero() {
		return ms
	}
	b := st.Session.Budget
	since := min(max(now.Sub(st.lastAt), 0), CheckpointEvery(b))
	return max(ms, min(ms+since.Milliseconds(), b.MaxWallClockMs))
}

// ProgressOf describes an event already applied to the state, as a
// Coordinator reports it: for those who follow a debate from its journal.
func (st *State) ProgressOf(e *Event) Progress {
	s := st.Session
	p := Progress{Event: *e, Tokens: st.Tokens, ElapsedMs: e.ElapsedMs}
	if s != nil {
		p.DebateID, p.MaxRounds, p.MaxTokens, p.MaxWallClockMs = s.ID, s.Budget.MaxRounds, s.Budget.MaxTokens, s.Budget.MaxWallClockMs
	}
	var who struct {
		Round  int    `json:"round"`
		Rounds int    `json:"rounds"`
		Role   Role   `json:"role"`
		Agent  string `json:"agent"`
		Reason string `json:"reason"`
		Pos    string `json:"position"`
		Claim  string `json:"claim"`
		Rule   Rule   `json:"rule"`
	}
	_ = json.Unmarshal(e.Data, &who)
	p.Round, p.Role, p.Agent = who.Round, who.Role, who.Agent
	switch e.Kind {
	case EventTurn:
		p.Detail = who.Pos
		if p.Detail == "" {
			p.Detail = who.Claim
		}
	case EventRejected, EventForfeit:
		p.Detail = who.Reason
	case EventVerdict:
		p.Round, p.Detail, p.Outcome = who.Rounds, string(who.Rule), st.Verdict
	case EventClock:
		// The slot it waited on, as the coordinator reports it.
		var c ClockEvent
		_ = json.Unmarshal(e.Data, &c)
		if s != nil {
			round, sp, _ := st.Next()
			p.Round, p.Role, p.Agent = round, sp.Role, sp.Name
		}
		p.Detail, p.Clock = c.String(), &c
	}
	return p
}
