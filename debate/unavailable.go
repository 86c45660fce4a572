package debate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
)

// An agent that cannot take its turn at all — its model endpoint refuses
// it (401, 403), does not exist (404), keeps failing (5xx after retries),
// cannot be reached (connection refused, DNS), its process cannot start,
// or its command fails twice over (exits non-zero, prints nothing or no
// turn) — is not a debater with a bad argument: it is unavailable. It says
// so with a TypeTurnUnavailable reply whose fields are an UnavailableError, and
// the coordinator forfeits the turn with ForfeitUnavailable at once (no
// second request). A debate in which an agent that never produced a valid
// turn is unavailable ends UNAVAILABLE: a configuration mistake, not an
// outcome, so nothing is filed (Verdict.Filed).

// ErrUnavailable means an agent, or the model endpoint behind it, could
// not be reached; errors.As finds the *UnavailableError that says why.
var ErrUnavailable = errors.New("agent unavailable")

// TypeTurnUnavailable is the type of an agent's reply to a turn_request
// that it cannot answer at all; its fields are an UnavailableError.
const TypeTurnUnavailable = "turn_unavailable"

// UnavailableKind classifies why an agent could not take its turn.
type UnavailableKind string

// The kinds of unavailability.
const (
	UnavailableAuth        UnavailableKind = "auth"         // the endpoint refused the credentials (401, 403)
	UnavailableNotFound    UnavailableKind = "not_found"    // the endpoint or model does not exist (404)
	UnavailableServer      UnavailableKind = "server_error" // the endpoint kept failing (5xx after retries)
	UnavailableUnreachable UnavailableKind = "unreachable"  // connection refused, DNS, no answer in time
	UnavailableNoStart     UnavailableKind = "cannot_start" // the agent's process or command cannot start
	// UnavailableFailed: the agent's command or model ran but, asked
	// twice, gave no turn (a non-zero exit, no output, output that is not
	// a turn): it is broken, not arguing.
	UnavailableFailed UnavailableKind = "failed"
)

// UnavailableError is why an agent could not take a turn. It is an error value
// (errors.Is(err, ErrUnavailable)) made where the failure happens, carried
// to the coordinator as the fields of a TypeTurnUnavailable reply, and
// recorded with the forfeit and in the outcome.
type UnavailableError struct {
	// Agent is the agent's name (filled in by the coordinator).
	Agent string          `json:"agent,omitempty"`
	Kind  UnavailableKind `json:"kind"`
	// Status is the HTTP status the endpoint answered, if any.
	Status int `json:"status,omitempty"`
	// URL is the endpoint tried, if any.
	URL string `json:"url,omitempty"`
	// Detail is what failed, in a line.
	Detail string `json:"detail"`
	// Hint says what to do about it, in a line.
	Hint string `json:"hint,omitempty"`
	// Err is the failure underneath, where it was made; it does not
	// travel with the reply.
	Err error `json:"-"`
}

// Error is one line: who, what failed, and what to do.
func (u *UnavailableError) Error() string {
	var b strings.Builder
	if u.Agent != "" {
		b.WriteString(u.Agent + " is unavailable: ")
	} else {
		b.WriteString("unavailable: ")
	}
	b.WriteString(flat(u.Detail))
	if u.Hint != "" {
		b.WriteString("; " + flat(u.Hint))
	}
	return b.String()
}

// flat puts s on one line (its length is bounded where it is decoded).
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// Is makes every *UnavailableError match ErrUnavailable.
func (u *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// Unwrap returns the failure underneath, if it is known here.
func (u *UnavailableError) Unwrap() error { return u.Err }

// valid reports whether u names a known kind and says what failed.
func (u *UnavailableError) valid() bool {
	switch u.Kind {
	case UnavailableAuth, UnavailableNotFound, UnavailableServer, UnavailableUnreachable, UnavailableNoStart, UnavailableFailed:
		return strings.TrimSpace(u.Detail) != ""
	}
	return false
}

// NewUnavailableMessage builds the TypeTurnUnavailable reply to the request
// message req: replyTo is req's id and request_id travels with u's fields.
func NewUnavailableMessage(from string, req *inbox.Message, requestID string, u *UnavailableError) (*inbox.Message, error) {
	fields := struct {
		*UnavailableError
		RequestID string `json:"request_id,omitempty"`
	}{u, requestID}
	text := fmt.Sprintf("# Cannot take this turn\n\n%s\n", u.Error())
	m, err := inbox.NewMessage(from, req.From, TypeTurnUnavailable, text, fields)
	if err != nil {
		return nil, err
	}
	m.ReplyTo = req.ID
	return m, nil
}

// DecodeUnavailable reads the fields of a TypeTurnUnavailable message. A
// message of another type, or one without a known kind and a detail, is
// an error wrapping ErrBadReply.
func DecodeUnavailable(m *inbox.Message) (*UnavailableError, error) {
	if m.Kind() != TypeTurnUnavailable {
		return nil, fmt.Errorf("%w: a %q message, not a %s", ErrBadReply, m.Kind(), TypeTurnUnavailable)
	}
	var u UnavailableError
	if err := m.DecodeFields(&u); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadReply, err)
	}
	if !u.valid() {
		return nil, fmt.Errorf("%w: a %s without a known kind and a detail", ErrBadReply, TypeTurnUnavailable)
	}
	u.Detail, u.Hint, u.URL = clip.Runes(u.Detail, 501), clip.Runes(u.Hint, 501), clip.Runes(u.URL, 501)
	return &u, nil
}

// unavailableRule is the first end rule: an agent that never produced a
// valid turn is unavailable. An agent that argued before and then became
// unreachable forfeits like a dead one (TIMEOUT), and the debate is filed.
func unavailableRule(t *Tally) *Outcome {
	last := &t.slots[len(t.slots)-1]
	if last.Forfeit == nil || last.Forfeit.Reason != ForfeitUnavailable {
		return nil
	}
	if t.spoke(last.Agent) {
		return nil
	}
	u := last.Forfeit.Unavailable
	if u == nil {
		u = &UnavailableError{Kind: UnavailableUnreachable, Detail: last.Forfeit.Detail}
	}
	c := *u
	c.Agent = last.Agent
	return t.unavailable(&c)
}
