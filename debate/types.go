package debate

import (
	"strings"

	json "github.com/goccy/go-json"
)

// Rule names the end rule that closed a debate.
type Rule string

// The end rules, in the order they are checked (SPEC §5.4).
const (
	RuleConceded  Rule = "conceded"   // every attacker of the round had no further objections
	RuleAdopted   Rule = "adopted"    // the defender adopted an attacker's position
	RuleSurvived  Rule = "survived"   // the defender held while every attacker brought new counters
	RuleRepeated  Rule = "repeated"   // defender unchanged, attackers only repeated themselves
	RuleMaxRounds Rule = "max_rounds" // maxRounds rounds complete
	RuleMaxTokens Rule = "max_tokens" // tokens spent reached maxTokens
	RuleWallClock Rule = "wall_clock" // maxWallClockMs passed
	RuleForfeit   Rule = "forfeit"    // a participant missed its deadline or died
	// RuleUnavailable: an agent that never took a turn could not be reached.
	RuleUnavailable Rule = "unavailable"
)

// Participant is one agent in a debate.
type Participant struct {
	Name  string `json:"name"`
	Role  Role   `json:"role"`
	Agent string `json:"agent,omitempty"` // how it was started: script:FILE, exec:CMD, openai:MODEL, @NAME
}

// ContextItem is material handed to every turn: a file, a vault page or text.
type ContextItem struct {
	Kind string `json:"kind"`          // file | page | text
	Ref  string `json:"ref,omitempty"` // the path or page name it came from
	Text string `json:"text"`
}

// DebateSession defines a debate (SPEC §5.1). It is written once, as
// session.json, when the debate opens.
type DebateSession struct {
	ID    string `json:"id"`
	Topic string `json:"topic"`
	Layer Layer  `json:"layer"`
	Scope string `json:"scope,omitempty"`
	// Position is the defender's opening claim, the position attacked in
	// round 1. Empty means the topic itself.
	Position     string          `json:"position,omitempty"`
	Participants []Participant   `json:"participants"`
	Budget       ConsensusBudget `json:"budget"`
	Context      []ContextItem   `json:"context,omitempty"`
	Created      string          `json:"created"` // RFC 3339, UTC, ms
	// Coordinator is the agent name replies are sent to.
	Coordinator string `json:"coordinator"`
	// Workspace is the directory evidence paths are checked under.
	Workspace string `json:"workspace,omitempty"`
}

// OpeningPosition is the position the defender holds before round 1.
func (s *DebateSession) OpeningPosition() string {
	if strings.TrimSpace(s.Position) != "" {
		return s.Position
	}
	return s.Topic
}

// Defender returns the defending participant.
func (s *DebateSession) Defender() Participant {
	for _, p := range s.Participants {
		if p.Role == RoleDefender {
			return p
		}
	}
	return Participant{}
}

// Attackers returns the attackers in speaking order.
func (s *DebateSession) Attackers() []Participant {
	var out []Participant
	for _, p := range s.Participants {
		if p.Role == RoleAttacker {
			out = append(out, p)
		}
	}
	return out
}

// TurnBudget is the allowance a turn_request grants.
type TurnBudget struct {
	TokensThisTurn int    `json:"tokens_this_turn"`
	Deadline       string `json:"deadline"` // RFC 3339, UTC, ms
}

// Message types on the messenger.
const (
	TypeTurnRequest = "turn_request"
	TypeTurn        = "debate_turn"
)

// TurnRequest is the typed part of a turn_request message (SPEC §5.3).
type TurnRequest struct {
	DebateID  string `json:"debate_id"`
	RequestID string `json:"request_id"`
	Round     int    `json:"round"`
	Role      Role   `json:"role"`
	Topic     string `json:"topic"`
	Layer     Layer  `json:"layer"`
	Scope     string `json:"scope,omitempty"`
	// Position is the defender's standing position when the request was made.
	Position   string        `json:"position"`
	Context    []ContextItem `json:"context"`
	Transcript []TurnRecord  `json:"transcript"`
	Budget     TurnBudget    `json:"budget"`
	// Attempt is 1, or 2 when the first reply was rejected.
	Attempt int `json:"attempt"`
	// MaxRounds is the debate's round limit, so the agent knows how many
	// rounds remain.
	MaxRounds int `json:"max_rounds"`
}

// Turn is the typed part of a debate_turn reply (SPEC §5.3).
type Turn struct {
	DebateID string `json:"debate_id"`
	Round    int    `json:"round"`
	Role     Role   `json:"role"`
	// Position is the succinct statement this agent asserts; "claim" is
	// accepted as an alias on input. Empty only on a conceding attacker turn.
	Position         string   `json:"position"`
	CounterTo        string   `json:"counter_to"`
	EvidenceRefs     []string `json:"evidence_refs"`
	ConfidenceChange int      `json:"confidence_change"`
	Tokens           int      `json:"tokens"`
	Text             string   `json:"text"`
}

// UnmarshalJSON accepts "claim" as an alias of "position".
func (t *Turn) UnmarshalJSON(b []byte) error {
	type plain Turn
	var aux struct {
		plain
		Claim *string `json:"claim"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*t = Turn(aux.plain)
	if t.Position == "" && aux.Claim != nil {
		t.Position = *aux.Claim
	}
	return nil
}

// Concedes reports whether the turn says "no further objections":
// confidence_change 0 and an empty counter_to.
func (t *Turn) Concedes() bool {
	return t.ConfidenceChange == 0 && strings.TrimSpace(t.CounterTo) == ""
}

// EvidenceStatus is the result of checking one evidence reference.
type EvidenceStatus string

// Evidence check results.
const (
	EvidenceOK         EvidenceStatus = "ok"
	EvidenceMissing    EvidenceStatus = "missing"      // file or page does not exist
	EvidenceOutOfRange EvidenceStatus = "out_of_range" // line(s) beyond the end of the file
	EvidenceOutside    EvidenceStatus = "outside_root" // path escapes the workspace
	EvidenceUnchecked  EvidenceStatus = "unchecked"    // URLs are recorded, not fetched
	EvidenceInvalid    EvidenceStatus = "invalid"      // not a recognised reference
)

// EvidenceCheck is one checked evidence reference, stored with its turn.
type EvidenceCheck struct {
	Ref    string         `json:"ref"`
	Kind   string         `json:"kind"` // path, line, range, wiki, url
	Status EvidenceStatus `json:"status"`
	Detail string         `json:"detail,omitempty"`
	// Hash is the hex SHA-256 of the cited lines (HashLines), for a line or
	// range ref found in the workspace: a record keeps it, so that a later
	// change to those lines shows the record as stale.
	Hash string `json:"hash,omitempty"`
}

// TurnRecord is a turn as the coordinator recorded it in the transcript.
type TurnRecord struct {
	Turn
	Agent           string          `json:"agent"`
	RequestID       string          `json:"request_id"`
	MessageID       string          `json:"message_id"`
	PositionHash    string          `json:"position_hash"`
	TokensEstimated bool            `json:"tokens_estimated,omitempty"`
	OverBudget      bool            `json:"over_budget,omitempty"`
	Evidence        []EvidenceCheck `json:"evidence,omitempty"`
}

// UnmarshalJSON decodes a recorded turn, in one pass. It is needed
// because the embedded Turn's own UnmarshalJSON (the "claim" alias) would
// otherwise be promoted and decode the turn's fields only.
func (r *TurnRecord) UnmarshalJSON(b []byte) error {
	type turn Turn // without Turn's UnmarshalJSON
	var aux struct {
		turn
		Claim           *string         `json:"claim"`
		Agent           string          `json:"agent"`
		RequestID       string          `json:"request_id"`
		MessageID       string          `json:"message_id"`
		PositionHash    string          `json:"position_hash"`
		TokensEstimated bool            `json:"tokens_estimated"`
		OverBudget      bool            `json:"over_budget"`
		Evidence        []EvidenceCheck `json:"evidence"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*r = TurnRecord{
		Turn: Turn(aux.turn), Agent: aux.Agent, RequestID: aux.RequestID, MessageID: aux.MessageID,
		PositionHash: aux.PositionHash, TokensEstimated: aux.TokensEstimated,
		OverBudget: aux.OverBudget, Evidence: aux.Evidence,
	}
	if r.Position == "" && aux.Claim != nil {
		r.Position = *aux.Claim
	}
	return nil
}

// EventKind names a transcript event.
type EventKind string

// The transcript events.
const (
	EventOpen     EventKind = "open"     // data: DebateSession
	EventRequest  EventKind = "request"  // data: RequestEvent
	EventTurn     EventKind = "turn"     // data: TurnRecord
	EventRejected EventKind = "rejected" // data: RejectedEvent
	EventForfeit  EventKind = "forfeit"  // data: ForfeitEvent
	EventResume   EventKind = "resume"   // data: ResumeEvent
	// EventClock records the coordinator's active time (the event's
	// ElapsedMs) where no other event would: when it stops before the
	// verdict (Ctrl-C, SIGTERM, an error), and every CheckpointEvery of
	// quiet while it waits on a turn. data: ClockEvent
	EventClock   EventKind = "clock"
	EventVerdict EventKind = "verdict" // data: Outcome (without Turns)
	// EventSeal closes the chain after filing: data Filing, what the
	// filing wrote (the vault page's and the record's bodies by hash).
	EventSeal EventKind = "seal"
)

// Event is one recorded event as a Journal gives it back.
type Event struct {
	Seq  int       `json:"seq"`
	Kind EventKind `json:"kind"`
	At   string    `json:"at"` // RFC 3339, UTC, ms
	// ElapsedMs is the coordinator's active time when the event was
	// recorded; time a crashed coordinator spent dead is not in it.
	ElapsedMs int64           `json:"elapsed_ms"`
	Data      json.RawMessage `json:"data"`
}

// RequestEvent records a turn_request sent to an agent.
type RequestEvent struct {
	RequestID string `json:"request_id"`
	MessageID string `json:"message_id"`
	Round     int    `json:"round"`
	Role      Role   `json:"role"`
	Agent     string `json:"agent"`
	Attempt   int    `json:"attempt"` // 1, or 2 after a rejected reply
	Deadline  string `json:"deadline"`
}

// RejectedEvent records a reply that was refused, and why.
type RejectedEvent struct {
	RequestID string `json:"request_id"`
	MessageID string `json:"message_id"`
	Round     int    `json:"round"`
	Role      Role   `json:"role"`
	Agent     string `json:"agent"`
	Reason    string `json:"reason"`
}

// ForfeitReason says why a turn was forfeited.
type ForfeitReason string

// Forfeit reasons.
const (
	ForfeitDeadline ForfeitReason = "deadline"  // no reply before the deadline
	ForfeitBadReply ForfeitReason = "bad_reply" // a second invalid reply
	ForfeitDied     ForfeitReason = "agent_died"
	// ForfeitUnavailable: the agent or its model endpoint could not be
	// reached (ForfeitEvent.Unavailable says why).
	ForfeitUnavailable ForfeitReason = "unavailable"
)

// ForfeitEvent records a forfeited turn.
type ForfeitEvent struct {
	RequestID string        `json:"request_id"`
	Round     int           `json:"round"`
	Role      Role          `json:"role"`
	Agent     string        `json:"agent"`
	Reason    ForfeitReason `json:"reason"`
	Detail    string        `json:"detail,omitempty"`
	// Unavailable says why, for ForfeitUnavailable.
	Unavailable *UnavailableError `json:"unavailable,omitempty"`
}

// ResumeEvent records that a coordinator picked the debate up again.
type ResumeEvent struct {
	Coordinator string `json:"coordinator"`
	PID         int    `json:"pid"`
	ElapsedMs   int64  `json:"elapsed_ms"`
}

// ClockReason says why a clock event was recorded.
type ClockReason string

// Clock reasons.
const (
	// ClockStopped: the coordinator stopped before the verdict; no
	// coordinator runs the debate after this event until a resume event.
	ClockStopped ClockReason = "stopped"
	// ClockCheckpoint: the coordinator was still running, waiting; what a
	// kill -9 loses is the time since the latest event.
	ClockCheckpoint ClockReason = "checkpoint"
)

// ClockEvent records the coordinator's active time (in the event's
// ElapsedMs) and why it was recorded.
type ClockEvent struct {
	Reason ClockReason `json:"reason"`
	// Detail is why a coordinator stopped: "interrupted", or its error.
	Detail string `json:"detail,omitempty"`
}

// String is the event's reason, with its detail: "checkpoint",
// "stopped: interrupted".
func (c ClockEvent) String() string {
	if c.Detail == "" {
		return string(c.Reason)
	}
	return string(c.Reason) + ": " + c.Detail
}

// Outcome is how a debate closed: what the verdict event records and what a
// Filer files.
type Outcome struct {
	DebateID string  `json:"debate_id"`
	Verdict  Verdict `json:"verdict"`
	Action   Action  `json:"action"`
	Rule     Rule    `json:"rule"`
	// Reason explains the verdict in a sentence.
	Reason string `json:"reason"`
	// FinalPosition is the position that stands: the defender's (conceded,
	// survived), the adopted one, or the last agreed one of an exhausted
	// budget. Empty when nothing was agreed.
	FinalPosition     string `json:"final_position"`
	FinalPositionHash string `json:"final_position_hash"`
	// DefenderPosition and AttackerPositions are the latest positions of
	// each side, keyed by agent name for attackers.
	DefenderPosition  string            `json:"defender_position"`
	AttackerPositions map[string]string `json:"attacker_positions"`
	Rounds            int               `json:"rounds"` // rounds begun
	Tokens            int               `json:"tokens"`
	ElapsedMs         int64             `json:"elapsed_ms"`
	Closed            string            `json:"closed"` // RFC 3339, UTC, ms
	// Unavailable names the agent and the cause of an UNAVAILABLE verdict.
	Unavailable *UnavailableError `json:"unavailable,omitempty"`
	// Session and Turns are filled in for the Filer; they are not repeated
	// in the verdict event.
	Session *DebateSession `json:"-"`
	// Record is where the Filer filed the outcome, set once it has.
	Record string `json:"-"`
	// Filing is what the Filer wrote, set by a Filer that binds its files
	// to the transcript; the journal's Seal records it.
	Filing   *Filing        `json:"-"`
	Turns    []TurnRecord   `json:"-"`
	Forfeits []ForfeitEvent `json:"-"`
	// Decisions is what each slot counted as, in speaking order, and
	// AgreedRound the latest round in which the defender and every
	// attacker asserted one position (0: none): the coordinator's own
	// analysis, worked out from the turns again when the outcome is read
	// back from the journal (or by Analyze), never by a reader.
	Decisions   []Decision `json:"-"`
	AgreedRound int        `json:"-"`
}

// The frontmatter keys that bind a debate's vault page and its consensus
// record to the transcript they were written from (Filing's Head, Events
// and SessionHash).
const (
	FrontmatterHead        = "transcript_head"
	FrontmatterEvents      = "transcript_events"
	FrontmatterSessionHash = "session_hash"
)

// Filing binds what filing a debate wrote to its transcript: the chain as
// it stood at the verdict event (written into the vault page's and the
// record's frontmatter), and a hash of each file's content (kept in the
// chain's closing seal event). Empty paths mean nothing was written there.
type Filing struct {
	// Head and Events are the chain's head and length at the verdict event.
	Head   string `json:"head"`
	Events int    `json:"events"`
	// SessionHash is the SHA-256 of session.json as written at open.
	SessionHash string `json:"session_hash"`
	// Record and Page are vault-relative paths; RecordHash and PageHash
	// the hash of each file's content (transcripts.ContentHash: the
	// frontmatter but for the keys supersession changes, and the body).
	Record     string `json:"record,omitempty"`
	RecordHash string `json:"record_hash,omitempty"`
	Page       string `json:"page,omitempty"`
	PageHash   string `json:"page_hash,omitempty"`
}
