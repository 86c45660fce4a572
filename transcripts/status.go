package transcripts

import (
	"errors"

	"github.com/parleyhq/parley/debate"
)

// Status is where one debate stands against its budget: what "parley debate
// status --json" prints and the MCP tool debate_status returns.
type Status struct {
	// Summary is the debate's one JSON view: what it is about, how it
	// ended once it has, and the tokens and active time spent so far.
	debate.Summary
	Created        string `json:"created"`
	State          State  `json:"state" jsonschema:"running, closed or interrupted"`
	Round          int    `json:"round"`
	MaxRounds      int    `json:"max_rounds"`
	MaxTokens      int    `json:"max_tokens"`
	MaxWallClockMs int64  `json:"max_wall_clock_ms"`
	Events         int    `json:"events"`
	Record         string `json:"record,omitempty"`
	// Integrity is the audit's summary when the caller audited the debate.
	Integrity string `json:"integrity,omitempty"`
	// ResumeRefused, set by the same audit, says that "debate resume"
	// refuses the debate (its files disagree with its seal): a reader
	// points at the audit, not at resume.
	ResumeRefused bool `json:"-"`
}

// Status reads where debate id stands: its Summary, with the budget from its
// session, and the round, tokens, time and verdict replayed from the events
// recorded so far (not verified: Verify does that); the time is the active
// time (debate.State.ActiveMs), which goes on while the debate runs. A transcript that does
// not replay (nothing recorded yet) leaves round, tokens and time at zero
// and the verdict as verdict.json has it; one with a line that does not
// verify (TamperError) gives what the events before it say. An id without
// a debate is ErrNotFound; it is safe to call while the debate runs.
func (s *Store) Status(id string) (*Status, error) {
	// The events give the round and tokens: the summary's count of them
	// would read the transcript a second time.
	sum, err := s.summary(id, false)
	if err != nil {
		return nil, err
	}
	return s.statusOf(sum)
}

// Statuses is Status of every debate under the root, in List's order
// (newest first); a debate whose files cannot be read is skipped, as List
// skips it.
func (s *Store) Statuses() ([]*Status, error) {
	sums, err := s.list(false)
	if err != nil {
		return nil, err
	}
	out := make([]*Status, 0, len(sums))
	for _, sum := range sums {
		st, err := s.statusOf(sum)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// statusOf completes a summary made without progress with the replayed
// events.
func (s *Store) statusOf(sum Summary) (*Status, error) {
	id := sum.DebateID
	events, err := s.Events(id)
	var te *TamperError
	_, swapped := replaced(err)
	if errors.As(err, &te) || swapped || errors.Is(err, ErrNotFound) {
		// An edited line, or a transcript gone or replaced by something
		// that is not a file (its session.json made the summary): the
		// status is what verifies before it, as List still lists the
		// debate; the caller's audit says what is wrong.
		err = nil
	}
	if err != nil {
		return nil, err
	}
	ss := sum.Session
	out := &Status{
		Summary: sum.Summary, Created: ss.Created, State: sum.State,
		MaxRounds: ss.Budget.MaxRounds, MaxTokens: ss.Budget.MaxTokens, MaxWallClockMs: ss.Budget.MaxWallClockMs,
		Events: len(events), Record: sum.Record,
	}
	for i := range events {
		out.Round = max(out.Round, roundOf(events[i].Kind, events[i].Data))
	}
	st, err := debate.Replay(events)
	if err != nil {
		return out, nil // nothing recorded yet (or not replayable): the summary says what it can
	}
	if st.Verdict != nil {
		out.Summary = debate.SummaryOf(ss, st.Verdict)
		out.DebateID, out.Round = id, st.Verdict.Rounds
	}
	// While a coordinator runs the debate, its active time goes on past
	// the latest event.
	out.Tokens, out.ElapsedMs = st.Tokens, st.ActiveMs(sum.State == StateRunning, s.now())
	return out, nil
}

// Continuation is what continues a debate in the state it is in: the one
// judgement every front end words in its own terms ("parley debate resume
// ID", the MCP tool debate_resume).
type Continuation string

const (
	// ContinueNone: the debate runs or is closed; nothing to continue.
	ContinueNone Continuation = ""
	// ContinueResume: no coordinator runs it and it has no verdict:
	// resume continues it.
	ContinueResume Continuation = "resume"
	// ContinueClose: no coordinator runs it and its verdict is recorded
	// but not yet filed and sealed: resume finishes closing it.
	ContinueClose Continuation = "close"
	// ContinueRefused: no coordinator runs it and its files do not
	// verify, so resume refuses it: the audit says what differs.
	ContinueRefused Continuation = "refused"
)

// ContinuationOf is what continues a debate in state, with a verdict
// recorded or not, whose audit refuses a resume or not.
func ContinuationOf(state State, verdict, refused bool) Continuation {
	switch {
	case state != StateInterrupted:
		return ContinueNone
	case refused:
		return ContinueRefused
	case verdict:
		return ContinueClose
	}
	return ContinueResume
}

// Continuation is what continues the debate (ContinuationOf its state,
// verdict and ResumeRefused).
func (s *Status) Continuation() Continuation {
	return ContinuationOf(s.State, s.Verdict != "", s.ResumeRefused)
}
