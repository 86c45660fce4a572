package debate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/interrupt"
)

// Enroller makes the coordinator known as an agent for as long as it runs
// (cmd/parley passes the registry). leave undoes it; it is called once.
type Enroller interface {
	Enroll(ctx context.Context, name string) (leave func(context.Context), err error)
}

// Progress reports one recorded event to whoever draws the debate: the
// event, and where the debate stands against its budget. It is delivered
// on the coordinator's goroutine; a slow callback slows the debate.
type Progress struct {
	DebateID string
	Event    Event
	// Round is the round the event belongs to (0 for open, resume and
	// verdict when no round began), MaxRounds the budget's.
	Round, MaxRounds int
	Role             Role
	Agent            string
	// Detail is a short description: a rejection's reason, a forfeit's
	// reason, a verdict's rule.
	Detail                    string
	Tokens, MaxTokens         int
	ElapsedMs, MaxWallClockMs int64
	// Outcome is set on the verdict event, Clock on a clock event.
	Outcome *Outcome
	Clock   *ClockEvent
}

// DefaultPresenceInterval is how often a waiting coordinator asks whether
// the agent it waits for is still alive.
const DefaultPresenceInterval = 250 * time.Millisecond

// Coordinator runs one debate: it sends each speaker a turn_request,
// collects and validates the debate_turn replies, records every event in
// the Journal, applies the end rules after every turn, and closes the
// debate by recording the verdict, filing it and sealing the journal.
//
// All the debate's state is owned by the goroutine that calls Start or
// Resume; the Coordinator starts no goroutine of its own. A Coordinator
// runs one debate, once.
type Coordinator struct {
	// Messenger reaches the agents; required, but by Resume of a debate
	// that has its verdict (which only files it).
	Messenger Messenger
	// Journal records the debate; required. Start needs an empty one,
	// Resume one that holds the debate so far.
	Journal Journal
	// Filer files the verdict; required.
	Filer Filer
	// Presence tells whether an agent is alive; nil counts every agent
	// as alive (then only the wall clock ends a wait).
	Presence Presence
	// Enroller registers the coordinator as an agent; optional.
	Enroller Enroller
	// Pages checks [[page]] evidence; nil records pages as unchecked.
	Pages PageIndex
	// Progress, when set, is called after every recorded event.
	Progress func(Progress)
	// Logger receives debug and warning logs; nil discards them.
	Logger *slog.Logger
	// PresenceInterval overrides DefaultPresenceInterval.
	PresenceInterval time.Duration
	// CheckpointInterval overrides CheckpointEvery of the debate's budget
	// (tests shorten it; a longer one lets a reader's ActiveMs lag).
	CheckpointInterval time.Duration
	// Clock, when set, is read instead of time.Now to measure the active
	// time (tests make it jump).
	Clock func() time.Time

	st       *State
	log      *slog.Logger
	base     int64      // active time recorded before this process took over
	started  time.Time  // when this process took over
	active   pauseClock // what of the time since started this process did not run
	look     time.Time  // the coordinator's latest look at the clock (tick)
	grace    time.Time  // until then, no agent is judged dead (see tick)
	evidence *EvidenceChecker
	rcv      inbox.Receiver
}

// Start opens a new debate on an empty journal and runs it to its verdict.
// It returns the outcome, with Record set to where the Filer filed it. An
// error means the debate did not close (cancelled, or the journal, the
// messenger or the filer failed); it can be resumed. A session that is
// not valid, or whose context could not be handed to the agents
// (ErrContextTooLarge), is refused before anything is recorded.
func (c *Coordinator) Start(ctx context.Context, s *DebateSession) (*Outcome, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := s.CheckContext(); err != nil {
		return nil, err
	}
	if n := len(c.Journal.Events()); n != 0 {
		return nil, fmt.Errorf("start %s: the journal already holds %d events (use resume)", s.ID, n)
	}
	c.init()
	c.st = &State{}
	if err := c.record(ctx, EventOpen, s); err != nil {
		return nil, err
	}
	return c.run(ctx, false)
}

// Resume continues the debate recorded in the journal: requests are sent
// again under the same request ids, replies that arrived meanwhile are
// taken from the inbox, and turns already recorded are never counted again.
// The active time continues from the last recorded event: a coordinator
// that stopped cleanly recorded all of its own (a clock event), one killed
// with -9 all but the time since its latest event (see CheckpointEvery).
// A debate that already has a verdict is filed and sealed if it was not
// yet, and its outcome returned.
func (c *Coordinator) Resume(ctx context.Context) (*Outcome, error) {
	st, err := Replay(c.Journal.Events())
	if err != nil {
		return nil, err
	}
	c.init()
	c.st = st
	c.base = st.ElapsedMs
	if st.Verdict != nil {
		if c.Journal.Sealed() {
			return st.Verdict, nil
		}
		return c.file(ctx, st.Verdict)
	}
	return c.run(ctx, true)
}

func (c *Coordinator) init() {
	c.log = c.Logger
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.PresenceInterval <= 0 {
		c.PresenceInterval = DefaultPresenceInterval
	}
	c.started = c.now()
	c.look = c.started
	c.active = pauseClock{look: c.started}
}

// now is the time on the coordinator's clock.
func (c *Coordinator) now() time.Time {
	if c.Clock != nil {
		return c.Clock()
	}
	return time.Now()
}

// elapsed is the debate's active time: what earlier processes recorded plus
// this one's, but for the time this process did not run (tick).
func (c *Coordinator) elapsed() int64 {
	now := c.tick()
	return c.base + (now.Sub(c.started) - c.active.paused()).Milliseconds()
}

// tick looks at the clock. While the coordinator runs, a goroutine of its
// own (watchClock) looks every PresenceInterval, whatever the coordinator
// waits on; a longer stretch between two looks than pauseAfter is a
// process that did not run (stopped by Ctrl-Z or SIGSTOP and continued
// later, its virtual machine paused, the machine asleep): it counts as
// one PresenceInterval, as the time no coordinator ran does not count.
// Time the coordinator spent waiting on the messenger (a NATS server that
// does not answer) counts, as a wait on an agent does.
//
// A longer stretch than pauseAfter between two looks of the coordinator
// itself, stopped or waiting, is one in which the agents' heartbeats may
// have aged as much (Ctrl-Z stops the terminal's whole job; an outage of
// the messenger stops their heartbeats): for pauseAfter, none is judged
// dead.
func (c *Coordinator) tick() time.Time {
	now := c.now()
	if gap := c.active.observe(now, c.pauseAfter(), c.PresenceInterval); gap > 0 {
		c.log.Warn("the coordinator did not run for a while (stopped and continued?); that time does not count against the wall clock", "op", "clock", "gap", gap)
	}
	if gap := now.Sub(c.look); gap > c.pauseAfter() {
		c.grace = now.Add(c.pauseAfter())
		c.log.Warn("the coordinator did not look at the debate for a while (stopped, or waiting on the messenger); no agent is judged dead until its heartbeat could be renewed", "op", "clock", "gap", gap)
	}
	c.look = now
	return now
}

// watchClock looks at the clock every PresenceInterval until stop is
// closed, so that a coordinator waiting on a call that does not return
// (the messenger during an outage) is not taken for a stopped process.
func (c *Coordinator) watchClock(stop <-chan struct{}, after time.Duration) {
	t := time.NewTicker(c.PresenceInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if gap := c.active.observe(c.now(), after, c.PresenceInterval); gap > 0 {
				c.log.Warn("the coordinator did not run for a while (stopped and continued?); that time does not count against the wall clock", "op", "clock", "gap", gap)
			}
		}
	}
}

// pauseClock sums the stretches in which no goroutine of the process
// looked at the clock: the time it did not run. Safe for concurrent use.
type pauseClock struct {
	mu    sync.Mutex
	look  time.Time     // the latest look, by any goroutine
	stops time.Duration // the time the process did not run
}

// observe looks at the clock at now. A stretch since the latest look
// longer than after is time the process did not run, of which all but
// every is added up and returned (0 otherwise).
func (p *pauseClock) observe(now time.Time, after, every time.Duration) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	gap := now.Sub(p.look)
	if now.After(p.look) {
		p.look = now
	}
	if gap <= after {
		return 0
	}
	p.stops += gap - every
	return gap
}

// paused is the time the process did not run, so far.
func (p *pauseClock) paused() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stops
}

// pauseAfter is the longest stretch between two looks at the clock that
// counts in full: a checkpoint interval of the debate's budget, and
// never less than four waits.
func (c *Coordinator) pauseAfter() time.Duration {
	var b ConsensusBudget
	if c.st != nil && c.st.Session != nil {
		b = c.st.Session.Budget
	}
	return max(CheckpointEvery(b), 4*c.PresenceInterval)
}

// remaining is how long the wall clock still allows. It is kept between
// zero and the budget (which Validate bounds by MaxWallClock), so that an
// elapsed time read from a damaged transcript cannot overflow it.
func (c *Coordinator) remaining() time.Duration {
	budget := c.st.Session.Budget.MaxWallClockMs
	left := min(max(budget-c.elapsed(), 0), budget)
	return time.Duration(left) * time.Millisecond
}

// run runs the debate to its verdict. When it stops before the verdict
// (ctx ended, or a failure), it records the active time this process
// spent in a clock event, so that a resumed debate's wall clock goes on
// from there.
func (c *Coordinator) run(ctx context.Context, resumed bool) (*Outcome, error) {
	c.log = c.log.With("debate_id", c.st.Session.ID)
	stop, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		c.watchClock(stop, c.pauseAfter())
	}()
	defer func() {
		close(stop)
		<-watched
	}()
	o, err := c.loop(ctx, resumed)
	if err != nil && c.st.Verdict == nil {
		detail := err.Error()
		if errors.Is(err, context.Canceled) {
			detail = "interrupted"
		}
		if cerr := c.record(context.WithoutCancel(ctx), EventClock, ClockEvent{Reason: ClockStopped, Detail: clip.Line(detail, 201)}); cerr != nil {
			c.log.Warn("the active time of this run is not recorded; a resume will not count it", "op", "stop", "err", cerr)
		}
	}
	return o, err
}

func (c *Coordinator) loop(ctx context.Context, resumed bool) (*Outcome, error) {
	s := c.st.Session
	if err := c.Messenger.Create(ctx, s.Coordinator); err != nil {
		return nil, fmt.Errorf("create the coordinator's inbox: %w", err)
	}
	if c.Enroller != nil {
		leave, err := c.Enroller.Enroll(ctx, s.Coordinator)
		if err != nil {
			return nil, fmt.Errorf("register the coordinator %s: %w", s.Coordinator, err)
		}
		defer func() {
			lctx, release := interrupt.Cleanup(ctx)
			defer release()
			leave(lctx)
		}()
	}
	rcv, err := c.Messenger.Listen(ctx, s.Coordinator)
	if err != nil {
		return nil, fmt.Errorf("listen as %s: %w", s.Coordinator, err)
	}
	defer rcv.Close()
	c.rcv = rcv
	ev, err := NewEvidenceChecker(s.Workspace, c.Pages)
	if err != nil {
		c.log.Warn("evidence paths will be recorded unchecked", "op", "workspace", "err", err)
		ev = &EvidenceChecker{pages: c.Pages}
	}
	defer ev.Close()
	c.evidence = ev
	if resumed {
		if err := c.record(ctx, EventResume, ResumeEvent{Coordinator: s.Coordinator, PID: os.Getpid(), ElapsedMs: c.st.ElapsedMs}); err != nil {
			return nil, err
		}
	}
	for {
		if o, done := c.st.Judge(c.elapsed()); done {
			return c.close(ctx, o)
		}
		if err := c.turn(ctx); err != nil {
			return nil, err
		}
	}
}

// pending is the request the coordinator waits on.
type pending struct {
	round     int
	sp        Speaker
	attempt   int
	requestID string
	messageID string
	req       *TurnRequest
	deadline  time.Time // the request's deadline, on the coordinator's clock
}

// turn settles the next slot: a recorded turn or a forfeit.
func (c *Coordinator) turn(ctx context.Context) error {
	round, sp, attempt := c.st.Next()
	p := &pending{round: round, sp: sp, attempt: attempt}
	if attempt > 2 { // both replies were rejected before a crash
		return c.forfeit(ctx, p, ForfeitBadReply, "a second invalid reply")
	}
	if dead, detail := c.dead(ctx, sp.Name); dead {
		if err := c.storageFault(); err != nil {
			return err
		}
		if u := c.diagnose(sp.Name); u != nil {
			return c.forfeitUnavailable(ctx, p, u)
		}
		return c.forfeit(ctx, p, ForfeitDied, detail)
	}
	if err := c.send(ctx, p); err != nil {
		if errors.Is(err, inbox.ErrNotFound) {
			return c.forfeit(ctx, p, ForfeitDied, "the agent has no inbox")
		}
		return err
	}
	for {
		left := c.remaining()
		if left <= 0 {
			return c.blame(ctx, p, ForfeitDeadline, fmt.Sprintf("no reply within the wall clock (%d ms)", c.st.Session.Budget.MaxWallClockMs))
		}
		if c.now().After(p.deadline) {
			// The request's deadline passed with wall clock left: the
			// coordinator did not run for a while (elapsed), and the agent
			// may have given up on the request. It is asked again under
			// the same request id, with a new deadline, as a resume does.
			c.log.Warn("the request's deadline passed while the coordinator did not run; asking again", "agent", sp.Name, "request_id", p.requestID)
			if err := c.send(ctx, p); err != nil {
				return err
			}
		}
		if err := c.checkpoint(ctx); err != nil {
			return err
		}
		wctx, cancel := context.WithTimeout(ctx, min(left, c.PresenceInterval))
		d, err := c.rcv.Receive(wctx)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				return fmt.Errorf("receive as %s: %w", c.st.Session.Coordinator, err)
			}
			if dead, detail := c.dead(ctx, sp.Name); dead {
				if err := c.storageFault(); err != nil {
					return err
				}
				if u := c.diagnose(sp.Name); u != nil {
					return c.forfeitUnavailable(ctx, p, u)
				}
				return c.forfeit(ctx, p, ForfeitDied, detail)
			}
			continue
		}
		settled, err := c.handle(ctx, p, d)
		if err != nil {
			// Not acknowledged: the next holder of the inbox sees it again.
			return err
		}
		actx, release := interrupt.AfterStop(ctx)
		aerr := c.rcv.Ack(actx, d)
		release()
		if aerr != nil {
			c.log.Warn("ack failed; the message will be seen again and ignored", "op", "ack", "msg_id", d.Message.ID, "err", aerr)
		}
		if settled {
			return nil
		}
	}
}

// checkpoint records the active time in a clock event when nothing was
// recorded for the checkpoint interval: what a kill -9 takes off the wall
// clock is then at most that interval.
func (c *Coordinator) checkpoint(ctx context.Context) error {
	every := c.CheckpointInterval
	if every <= 0 {
		every = CheckpointEvery(c.st.Session.Budget)
	}
	if c.elapsed()-c.st.ElapsedMs < every.Milliseconds() {
		return nil
	}
	return c.record(ctx, EventClock, ClockEvent{Reason: ClockCheckpoint})
}

// dead asks Presence whether agent died. An error counts as alive: the
// wall clock still bounds the wait.
func (c *Coordinator) dead(ctx context.Context, agent string) (bool, string) {
	if c.Presence == nil || c.tick().Before(c.grace) {
		return false, ""
	}
	// Bounded by the wall clock, as every wait is (an outage of the
	// registry's server retries for longer).
	pctx, cancel := context.WithTimeout(ctx, max(c.remaining(), time.Millisecond))
	defer cancel()
	ok, err := c.Presence.Alive(pctx, agent)
	if err != nil {
		c.log.Warn("cannot tell whether an agent is alive", "agent", agent, "err", err)
		return false, ""
	}
	if !ok {
		return true, "the agent's process is not running"
	}
	return false, ""
}

// Diagnoser is an optional interface of a Presence: why an agent that is
// not alive could never be reached (its process could not start), or nil
// when it is not known to be unavailable (it died, or was never started
// here).
type Diagnoser interface {
	Unavailable(agent string) *UnavailableError
}

// diagnose asks the Presence, if it can tell, why a dead agent is
// unavailable.
func (c *Coordinator) diagnose(agent string) *UnavailableError {
	if d, ok := c.Presence.(Diagnoser); ok {
		if u := d.Unavailable(agent); u != nil {
			cp := *u
			cp.Agent = agent
			return &cp
		}
	}
	return nil
}

// send records and sends the request for p.
func (c *Coordinator) send(ctx context.Context, p *pending) error {
	s := c.st.Session
	p.requestID = RequestID(s.ID, p.round, p.sp, p.attempt)
	left := c.remaining()
	// p.deadline keeps the monotonic reading (UTC drops it): a step of the
	// wall clock does not move it.
	p.deadline = c.now().Add(left)
	deadline := p.deadline.UTC()
	p.messageID = RequestMessageID(p.requestID, deadline.Format(inbox.TimeLayout))
	tokens := min(s.Budget.MaxTokensPerRound, s.Budget.MaxTokens-c.st.Tokens)
	p.req = &TurnRequest{
		DebateID:   s.ID,
		RequestID:  p.requestID,
		Round:      p.round,
		Role:       p.sp.Role,
		Topic:      s.Topic,
		Layer:      s.Layer,
		Scope:      s.Scope,
		Position:   c.standing(),
		Context:    s.Context,
		Transcript: c.st.Turns(),
		Budget:     TurnBudget{TokensThisTurn: max(tokens, 1), Deadline: deadline.Format(inbox.TimeLayout)},
		Attempt:    p.attempt,
		MaxRounds:  s.Budget.MaxRounds,
	}
	if p.req.Context == nil {
		p.req.Context = []ContextItem{}
	}
	if p.req.Transcript == nil {
		p.req.Transcript = []TurnRecord{}
	}
	if err := c.record(ctx, EventRequest, RequestEvent{
		RequestID: p.requestID, MessageID: p.messageID, Round: p.round, Role: p.sp.Role,
		Agent: p.sp.Name, Attempt: p.attempt, Deadline: p.req.Budget.Deadline,
	}); err != nil {
		return err
	}
	// Each send is bounded by the wall clock, as every wait is: a
	// messenger that does not answer (an outage) retries for longer. A
	// request the wall clock cut short is recorded and not delivered; the
	// wait that follows finds no time left and forfeits the turn.
	hadContext, cut := len(p.req.Context) > 0, false
	m, err := sendFitting(p.req, s.Coordinator, p.sp.Name, inbox.MaxMessageBytes, func(m *inbox.Message) error {
		sctx, cancel := context.WithTimeout(ctx, max(left, time.Millisecond))
		defer cancel()
		err := c.Messenger.Send(sctx, m)
		if inbox.Placed(err) {
			// The request is in the agent's inbox already (its directory's
			// sync failed): the debate goes on as if the send had returned.
			c.log.Warn("the request is in the agent's inbox, but its directory was not synced", "agent", p.sp.Name, "request_id", p.requestID, "err", err)
			err = nil
		}
		cut = err != nil && sctx.Err() != nil && ctx.Err() == nil
		return err
	})
	if cut {
		c.log.Warn("the wall clock ran out while the request was being sent", "agent", p.sp.Name, "request_id", p.requestID, "err", err)
		return nil
	}
	if err != nil {
		return err
	}
	if hadContext && len(p.req.Context) == 0 {
		c.log.Warn("the request leaves out the context: it would exceed the message size limit", "agent", p.sp.Name, "request_id", p.requestID)
	}
	c.log.Debug("request sent", "agent", p.sp.Name, "msg_id", m.ID, "request_id", p.requestID)
	return nil
}

// standing is the defender's latest position.
func (c *Coordinator) standing() string {
	return newTally(c.st.Session, c.st.Slots, 0).Standing()
}

// handle deals with one delivered message while p is pending. It reports
// whether p's slot is settled.
func (c *Coordinator) handle(ctx context.Context, p *pending, d *inbox.Delivery) (bool, error) {
	m := d.Message
	log := c.log.With("msg_id", m.ID, "agent", m.From)
	if m.Kind() == inbox.TypeText {
		return c.handleText(ctx, p, m, log)
	}
	rid := replyRequestID(m)
	switch {
	case m.Kind() != TypeTurn && m.Kind() != TypeTurnUnavailable:
		log.Debug("ignored a message that is not a debate_turn", "type", m.Kind())
		return false, nil
	case m.ReplyTo != p.messageID && rid != p.requestID:
		// A reply to a request already settled or rejected (a duplicate, or
		// one that arrived while a crashed coordinator was down), or a stray.
		log.Debug("ignored a reply that answers no pending request", "reply_to", m.ReplyTo, "request_id", rid)
		return false, nil
	case m.From != p.sp.Name:
		log.Warn("ignored a reply from an agent that was not asked", "expected", p.sp.Name)
		return false, nil
	}
	if m.Kind() == TypeTurnUnavailable {
		if u, err := DecodeUnavailable(m); err == nil {
			// Not worth a second request: the agent already retried what
			// was worth retrying. The first request fails fast.
			u.Agent = p.sp.Name
			log.Warn("the agent is unavailable", "err", u)
			return true, c.forfeitUnavailable(ctx, p, u)
		}
	}
	t, err := DecodeTurn(m, p.req)
	return c.settle(ctx, p, m, t, err)
}

// handleText deals with a plain message while p is pending: from p's agent,
// replying to p's request (replyTo) or holding a turn object that names it,
// it is the turn (DecodeTextTurn) — how an agent that can only send plain
// messages takes part. Any other plain message is logged and left.
func (c *Coordinator) handleText(ctx context.Context, p *pending, m *inbox.Message, log *slog.Logger) (bool, error) {
	if m.From != p.sp.Name {
		log.Info("ignored a plain message from an agent that was not asked", "expected", p.sp.Name)
		return false, nil
	}
	r, found := findTextReply(m)
	if m.ReplyTo != p.messageID && (!found || !r.answers(p.req)) {
		log.Info("ignored a plain message that answers no pending request", "reply_to", m.ReplyTo)
		return false, nil
	}
	if !found {
		_, err := DecodeTextTurn(m, p.req)
		return c.settle(ctx, p, m, nil, err)
	}
	t, err := r.turn(m, p.req)
	return c.settle(ctx, p, m, t, err)
}

// settle records the reply m to p: the turn t, or, when err says it cannot
// be accepted, a rejection followed by a second request (or, on the second
// attempt, a forfeit).
func (c *Coordinator) settle(ctx context.Context, p *pending, m *inbox.Message, t *Turn, err error) (bool, error) {
	if err != nil {
		if err := c.record(ctx, EventRejected, RejectedEvent{
			RequestID: p.requestID, MessageID: m.ID, Round: p.round, Role: p.sp.Role, Agent: p.sp.Name, Reason: err.Error(),
		}); err != nil {
			return false, err
		}
		if p.attempt >= 2 {
			return true, c.forfeit(ctx, p, ForfeitBadReply, err.Error())
		}
		p.attempt++
		if err := c.send(ctx, p); err != nil {
			return false, err
		}
		return false, nil
	}
	// Checking evidence reads files: it is bounded by the wall clock too.
	ectx, cancel := context.WithTimeout(ctx, max(c.remaining(), time.Millisecond))
	evidence := c.evidence.Check(ectx, t.EvidenceRefs)
	cancel()
	if t.Tokens > MaxTurnTokens {
		c.log.Warn("the agent's token count cannot be true of one turn; estimated instead", "agent", p.sp.Name, "msg_id", m.ID, "tokens", t.Tokens, "max", MaxTurnTokens)
	}
	rec := Record(t, p.sp.Name, p.requestID, m.ID, c.st.Session.Budget, evidence)
	return true, c.record(ctx, EventTurn, rec)
}

// blame forfeits p's turn for a missed reply or a dead agent, unless the
// journal's disk is full or failing: then the agent could not have
// answered either, and the debate stops with a *StorageError instead.
func (c *Coordinator) blame(ctx context.Context, p *pending, reason ForfeitReason, detail string) error {
	if err := c.storageFault(); err != nil {
		return err
	}
	return c.forfeit(ctx, p, reason, detail)
}

// storageFault is the journal's disk fault (a *StorageError), nil when its
// disk can take a write or the journal cannot tell (StorageProbe).
func (c *Coordinator) storageFault() error {
	if probe, ok := c.Journal.(StorageProbe); ok {
		return probe.Writable()
	}
	return nil
}

func (c *Coordinator) forfeit(ctx context.Context, p *pending, reason ForfeitReason, detail string) error {
	if p.requestID == "" {
		p.requestID = RequestID(c.st.Session.ID, p.round, p.sp, min(p.attempt, 2))
	}
	return c.record(ctx, EventForfeit, ForfeitEvent{
		RequestID: p.requestID, Round: p.round, Role: p.sp.Role, Agent: p.sp.Name, Reason: reason, Detail: detail,
	})
}

// forfeitUnavailable forfeits p's turn because its agent could not be
// reached, recording why.
func (c *Coordinator) forfeitUnavailable(ctx context.Context, p *pending, u *UnavailableError) error {
	if p.requestID == "" {
		p.requestID = RequestID(c.st.Session.ID, p.round, p.sp, min(p.attempt, 2))
	}
	return c.record(ctx, EventForfeit, ForfeitEvent{
		RequestID: p.requestID, Round: p.round, Role: p.sp.Role, Agent: p.sp.Name,
		Reason: ForfeitUnavailable, Detail: clip.Line(u.Detail, 201), Unavailable: u,
	})
}

// record appends an event to the journal, applies it to the state, and
// reports it.
func (c *Coordinator) record(ctx context.Context, kind EventKind, data any) error {
	e, err := c.Journal.Append(ctx, kind, c.elapsed(), data)
	if err != nil {
		return fmt.Errorf("record the %s event: %w", kind, err)
	}
	if err := c.st.Apply(&e); err != nil {
		return err
	}
	if c.Progress != nil {
		c.Progress(c.progress(e, data))
	}
	return nil
}

func (c *Coordinator) progress(e Event, data any) Progress {
	s := c.st.Session
	p := Progress{
		DebateID: s.ID, Event: e, MaxRounds: s.Budget.MaxRounds,
		Tokens: c.st.Tokens, MaxTokens: s.Budget.MaxTokens,
		ElapsedMs: e.ElapsedMs, MaxWallClockMs: s.Budget.MaxWallClockMs,
	}
	switch v := data.(type) {
	case RequestEvent:
		p.Round, p.Role, p.Agent = v.Round, v.Role, v.Agent
	case TurnRecord:
		p.Round, p.Role, p.Agent = v.Round, v.Role, v.Agent
		p.Detail = v.Position
	case RejectedEvent:
		p.Round, p.Role, p.Agent, p.Detail = v.Round, v.Role, v.Agent, v.Reason
	case ForfeitEvent:
		p.Round, p.Role, p.Agent, p.Detail = v.Round, v.Role, v.Agent, string(v.Reason)
	case ClockEvent:
		// The slot it waited on.
		round, sp, _ := c.st.Next()
		p.Round, p.Role, p.Agent, p.Detail, p.Clock = round, sp.Role, sp.Name, v.String(), &v
	case *Outcome:
		p.Round, p.Outcome, p.Detail = v.Rounds, v, string(v.Rule)
	}
	return p
}

// close records the verdict, files it and seals the journal. Once the
// verdict is being recorded, cancelling ctx no longer interrupts closing.
func (c *Coordinator) close(ctx context.Context, o *Outcome) (*Outcome, error) {
	ctx = context.WithoutCancel(ctx)
	o.Closed = time.Now().UTC().Format(inbox.TimeLayout)
	if err := c.record(ctx, EventVerdict, o); err != nil {
		return nil, err
	}
	c.log.Info("debate closed", "verdict", o.Verdict, "rule", o.Rule)
	return c.file(ctx, c.st.Verdict)
}

// file files a recorded verdict (one that Verdict.Filed says is filed) and
// seals the journal. A filing the journal already sealed (a crash before
// verdict.json) is not repeated.
func (c *Coordinator) file(ctx context.Context, o *Outcome) (*Outcome, error) {
	var record string
	if f := c.st.Filing; f != nil {
		o.Filing, record = f, f.Record
	} else if o.Verdict.Filed() {
		var err error
		if record, err = c.Filer.File(ctx, o); err != nil {
			return nil, fmt.Errorf("file the verdict of %s (parley debate resume files it again): %w", o.DebateID, err)
		}
	}
	o.Record = record
	if err := c.Journal.Seal(ctx, o, record); err != nil && !errors.Is(err, ErrSealed) {
		return nil, fmt.Errorf("seal %s: %w", o.DebateID, err)
	}
	return o, nil
}
