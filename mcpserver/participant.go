package mcpserver

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
)

// MaxWait bounds how long one debate_next_turn call waits for a request,
// so that a call returns well within an MCP client's request timeout.
const MaxWait = 30 * time.Second

// answeredLimit is how many answered request ids a participant remembers
// (as agent.DefaultCacheSize for the runner's reply cache).
const answeredLimit = agent.DefaultCacheSize

// sendConfirmWait bounds how long debate_submit_turn waits for the runner
// to deliver the reply.
const sendConfirmWait = 10 * time.Second

// participant is an MCP client taking part in debates under one name: an
// agent.Runner (registration, heartbeat, inbox) whose Responder hands each
// turn request to the client through debate_next_turn and waits for its
// debate_submit_turn.
//
// The runner's goroutine calls Respond; tool calls call next and submit.
// mu guards the fields below it.
type participant struct {
	name    string
	role    debate.Role
	session string
	cancel  context.CancelFunc
	done    chan struct{} // closed when the runner has returned
	runErr  error         // the runner's error, set before done is closed
	// running reports whether a coordinator still runs a debate (nil:
	// always): a request of one that stopped is withdrawn rather than
	// held until its deadline, which would keep the participant from its
	// other debates' requests.
	running func(debateID string) bool

	// lastCall is when a tool call naming the participant last began or
	// ended (Unix ns); inCall counts those still running.
	lastCall atomic.Int64
	inCall   atomic.Int32

	mu sync.Mutex
	// why says why the participant left, once it was made to: what a
	// call that finds it gone is told (see leave).
	why      string
	debateID string    // the debate joined, or the latest one that asked
	pending  *turnSlot // the request waiting for an answer
	// lapsed is the latest request that ended unanswered (its deadline
	// passed, or it was withdrawn), to tell a late answer why.
	lapsed   *lapsedRequest
	wake     chan struct{}
	answered map[string]*answer
	ring     []string
	ringAt   int
	sends    map[string]chan error // request id → delivery attempts of its reply
}

// turnSlot is one request handed to the client.
type turnSlot struct {
	req   *debate.TurnRequest
	reply chan *debate.Turn // buffered 1: submit never blocks
}

// lapsedRequest is a request that ended before the client answered it.
type lapsedRequest struct {
	id  string
	why string // what happened, for the model: "its deadline … passed: …"
}

// answer is a request the client answered.
type answer struct {
	turn      debate.Turn
	req       *debate.TurnRequest // the request it answers
	messageID string
}

func newParticipant(name string, role debate.Role, session, debateID string) *participant {
	p := &participant{
		name: name, role: role, session: session, debateID: debateID,
		done: make(chan struct{}), wake: make(chan struct{}),
		answered: map[string]*answer{}, ring: make([]string, answeredLimit), sends: map[string]chan error{},
	}
	p.lastCall.Store(time.Now().UnixNano())
	return p
}

// enter notes a tool call naming the participant; the function it returns
// notes its end.
func (p *participant) enter() (exit func()) {
	p.inCall.Add(1)
	p.lastCall.Store(time.Now().UnixNano())
	return func() {
		p.lastCall.Store(time.Now().UnixNano())
		p.inCall.Add(-1)
	}
}

// idle is how long the participant has gone without a tool call naming
// it: 0 while one runs.
func (p *participant) idle(now time.Time) time.Duration {
	if p.inCall.Load() > 0 {
		return 0
	}
	return now.Sub(time.Unix(0, p.lastCall.Load()))
}

var _ agent.Responder = (*participant)(nil)

// signal wakes the callers of next. mu must be held.
func (p *participant) signal() {
	close(p.wake)
	p.wake = make(chan struct{})
}

// Respond is called by the runner for every turn request not answered
// before: the request waits for the client until it submits an answer or
// ctx (which carries the request's deadline) ends, or until its debate is
// found no longer running (its coordinator was stopped or killed), when
// it is withdrawn (agent.ErrWithdrawn): a resumed debate asks again.
func (p *participant) Respond(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
	slot := &turnSlot{req: req, reply: make(chan *debate.Turn, 1)}
	p.mu.Lock()
	p.pending, p.debateID = slot, req.DebateID
	p.signal()
	p.mu.Unlock()
	var poll <-chan time.Time
	if p.running != nil {
		t := time.NewTicker(closePoll)
		defer t.Stop()
		poll = t.C
	}
	err := ctx.Err()
	for err == nil {
		select {
		case t := <-slot.reply:
			return &agent.Reply{Turn: t}, nil
		case <-ctx.Done():
			err = ctx.Err()
		case <-poll:
			if !p.running(req.DebateID) {
				err = fmt.Errorf("%w: debate %s is no longer running", agent.ErrWithdrawn, req.DebateID)
			}
		}
	}
	p.mu.Lock()
	if p.pending == slot {
		p.pending = nil
		p.signal()
	}
	select {
	case t := <-slot.reply: // submitted just as the request ended
		p.mu.Unlock()
		return &agent.Reply{Turn: t}, nil
	default:
	}
	switch {
	case errors.Is(err, agent.ErrWithdrawn):
		p.lapsed = &lapsedRequest{req.RequestID, fmt.Sprintf("it was withdrawn, as debate %s is no longer running (see debate_status); debate_resume {\"id\": %q} continues it and asks again", req.DebateID, req.DebateID)}
	case errors.Is(err, context.DeadlineExceeded):
		p.lapsed = &lapsedRequest{req.RequestID, fmt.Sprintf("its deadline (%s) passed before the answer came: the turn is forfeited, as any agent's", req.Budget.Deadline)}
	}
	p.mu.Unlock()
	return nil, err
}

// closePoll is how often a waiting debate_next_turn looks whether the
// debate it waits in has closed (a closing debate sends the participant
// nothing).
const closePoll = 200 * time.Millisecond

// next returns the pending request, waiting up to wait for one. It
// returns nil when none came, at once when over (polled while it waits;
// nil: never) reports that the debate waited in is over; an error when
// the participant stopped.
func (p *participant) next(ctx context.Context, wait time.Duration, over func() bool) (*debate.TurnRequest, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var poll <-chan time.Time
	if over != nil {
		t := time.NewTicker(closePoll)
		defer t.Stop()
		poll = t.C
	}
	for {
		p.mu.Lock()
		slot, wake := p.pending, p.wake
		p.mu.Unlock()
		if slot != nil {
			return slot.req, nil
		}
		select {
		case <-p.done:
			return nil, p.stopped()
		default:
		}
		if over != nil && over() {
			return nil, nil
		}
		select {
		case <-wake:
		case <-poll:
		case <-p.done:
			return nil, p.stopped()
		case <-timer.C:
			return nil, nil
		case <-ctx.Done():
			return nil, nil
		}
	}
}

func (p *participant) stopped() error {
	if p.runErr != nil {
		return fmt.Errorf("participant %s stopped: %w (call debate_join again)", p.name, p.runErr)
	}
	return fmt.Errorf("participant %s left: %s", p.name, p.reason())
}

// leave makes the participant stop, saying why (the first reason given
// stands): the words end with what the client can do.
func (p *participant) leave(why string) {
	p.mu.Lock()
	if p.why == "" {
		p.why = why
	}
	p.mu.Unlock()
	p.cancel()
}

// reason is why the participant left, and what to do.
func (p *participant) reason() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.why == "" {
		return "call debate_join again"
	}
	return p.why
}

// turnFields are the parts of a turn the client writes.
type turnFields struct {
	Position         string
	CounterTo        *string // nil: left out, which for an attacker counters the standing position
	EvidenceRefs     []string
	ConfidenceChange int
	Tokens           int
	Text             string
}

// submit answers the pending request requestID with f. It checks the turn
// as the coordinator will (debate.DecodeTurn on the very message the
// runner sends), hands it to the runner and waits until the reply is
// delivered. A request answered before is not answered again: the same
// answer reports the first delivery (duplicate true), another answer is
// ErrAnswered.
func (p *participant) submit(ctx context.Context, requestID string, f turnFields) (*debate.TurnRequest, *answer, bool, error) {
	p.mu.Lock()
	if a := p.answered[requestID]; a != nil {
		prev := *a
		p.mu.Unlock()
		if !sameTurn(&prev.turn, fieldsTurn(prev.req, f)) {
			return nil, nil, false, fmt.Errorf("%w: %s was answered with another turn, which was sent; a turn cannot be changed", ErrAnswered, requestID)
		}
		return nil, &prev, true, nil
	}
	slot := p.pending
	if l := p.lapsed; (slot == nil || slot.req.RequestID != requestID) && l != nil && l.id == requestID {
		p.mu.Unlock()
		return nil, nil, false, fmt.Errorf("%w %q for %s: %s (call debate_next_turn)", ErrNoPendingTurn, clip.Runes(requestID, 81), p.name, l.why)
	}
	if slot == nil || slot.req.RequestID != requestID {
		want := "none is pending"
		if slot != nil {
			want = "the pending one is " + slot.req.RequestID
		}
		p.mu.Unlock()
		return nil, nil, false, fmt.Errorf("%w %q for %s (%s; call debate_next_turn)", ErrNoPendingTurn, clip.Runes(requestID, 81), p.name, want)
	}
	req := slot.req
	t := fieldsTurn(req, f)
	if err := checkTurn(p.name, req, t); err != nil {
		p.mu.Unlock()
		// What to do next: the refusal leaves the request as it was.
		return nil, nil, false, fmt.Errorf("%w; %s", err, stillPending)
	}
	a := &answer{turn: *t, req: req}
	p.remember(requestID, a)
	sent := make(chan error, 8)
	p.sends[requestID] = sent
	p.pending = nil
	p.signal()
	slot.reply <- t
	p.mu.Unlock()

	defer func() {
		p.mu.Lock()
		delete(p.sends, requestID)
		p.mu.Unlock()
	}()
	timer := time.NewTimer(sendConfirmWait)
	defer timer.Stop()
	var last error
	for tries := 0; ; {
		select {
		case err := <-sent:
			if err == nil {
				p.mu.Lock()
				m := a.messageID
				p.mu.Unlock()
				return req, &answer{turn: *t, messageID: m}, false, nil
			}
			last, tries = err, tries+1
			if tries >= 3 || errors.Is(err, inbox.ErrNotFound) || errors.Is(err, inbox.ErrTooLarge) || errors.Is(err, inbox.ErrInvalidName) {
				return req, nil, false, fmt.Errorf("the turn was accepted but its reply was not delivered: %w", last)
			}
		case <-timer.C:
			return req, nil, false, fmt.Errorf("the turn was accepted but its delivery was not confirmed within %s (last error: %v)", sendConfirmWait, last)
		case <-p.done:
			return req, nil, false, p.stopped()
		case <-ctx.Done():
			return req, nil, false, ctx.Err()
		}
	}
}

// stillPending follows a refused turn: the model learns that it may
// answer the same request again, and how.
const stillPending = "the request is still pending: correct the turn and call debate_submit_turn again with the same request_id"

// checkTurn refuses a turn the coordinator would reject: it builds the
// reply message as the runner will and decodes it with debate.DecodeTurn,
// and checks the message's encoded size.
func checkTurn(from string, req *debate.TurnRequest, t *debate.Turn) error {
	reqMsg := &inbox.Message{ID: debate.RequestMessageID(req.RequestID, req.Budget.Deadline), From: debate.CoordinatorName(req.DebateID), To: from, Type: debate.TypeTurnRequest}
	m, err := debate.NewTurnMessage(from, reqMsg, req.RequestID, t)
	if err != nil {
		return invalidf("%w", err)
	}
	if _, err := m.Encode(); errors.Is(err, inbox.ErrTooLarge) {
		return invalidf("the turn is too long: position, counter_to, evidence_refs and text together must fit in one debate_turn reply of at most %d bytes", inbox.MaxMessageBytes)
	} else if err != nil {
		return invalidf("%w", err)
	}
	if _, err := debate.DecodeTurn(m, req); err != nil {
		return invalidf("%w", err)
	}
	return nil
}

// fieldsTurn is the turn f answers req with: an attacker that leaves
// counter_to out counters the standing position, as with any other agent.
func fieldsTurn(req *debate.TurnRequest, f turnFields) *debate.Turn {
	t := &debate.Turn{
		DebateID: req.DebateID, Round: req.Round, Role: req.Role,
		Position: f.Position, EvidenceRefs: f.EvidenceRefs,
		ConfidenceChange: f.ConfidenceChange, Tokens: f.Tokens, Text: f.Text,
	}
	if f.CounterTo != nil {
		t.CounterTo = *f.CounterTo
	}
	debate.CounterByDefault(t, f.CounterTo != nil, req)
	if t.EvidenceRefs == nil {
		t.EvidenceRefs = []string{}
	}
	return t
}

func sameTurn(a, b *debate.Turn) bool {
	return a.Position == b.Position && a.CounterTo == b.CounterTo && slices.Equal(a.EvidenceRefs, b.EvidenceRefs) &&
		a.ConfidenceChange == b.ConfidenceChange && a.Tokens == b.Tokens && a.Text == b.Text
}

// remember records an answer, forgetting the oldest beyond answeredLimit.
// mu must be held.
func (p *participant) remember(id string, a *answer) {
	if old := p.ring[p.ringAt]; old != "" {
		delete(p.answered, old)
	}
	p.ring[p.ringAt] = id
	p.ringAt = (p.ringAt + 1) % len(p.ring)
	p.answered[id] = a
}

// delivered is called with every attempt to send one of the runner's
// messages.
func (p *participant) delivered(m *inbox.Message, err error) {
	var id string
	if raw, ok := m.Fields["request_id"]; !ok || json.Unmarshal(raw, &id) != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if a := p.answered[id]; a != nil && err == nil && a.messageID == "" {
		a.messageID = m.ID
	}
	if ch := p.sends[id]; ch != nil {
		select {
		case ch <- err:
		default:
		}
	}
}

// state returns the debate the participant last dealt with.
func (p *participant) lastDebate() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.debateID
}

// tapTransport is the runner's transport: the messenger, with every send
// reported to the participant (to confirm the delivery of its replies).
type tapTransport struct {
	Transport
	p *participant
}

func (t tapTransport) Send(ctx context.Context, m *inbox.Message) error {
	err := t.Transport.Send(ctx, m)
	seen := err
	if inbox.Placed(err) {
		seen = nil // in the coordinator's inbox (its directory's sync failed): delivered
	}
	t.p.delivered(m, seen)
	return err
}

// sessionFor is the registry session of an MCP participant called name:
// derived from the name, so that a server that restarts and joins again
// under the same name is the same session and keeps the requests waiting
// in its inbox (a recycled name of another kind of agent does not).
func sessionFor(name string) string {
	sum := sha256.Sum256([]byte("parley/mcp/" + name))
	h := fmt.Sprintf("%x", sum[:16])
	return h[0:8] + "-" + h[8:12] + "-8" + h[13:16] + "-b" + h[17:20] + "-" + h[20:32]
}
