package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/registry"
)

// Transport is what a Runner needs of the messenger. inbox.Transport
// satisfies it.
type Transport interface {
	Create(ctx context.Context, agent string) error
	Listen(ctx context.Context, agent string) (inbox.Receiver, error)
	Send(ctx context.Context, m *inbox.Message) error
}

var _ Transport = inbox.Transport(nil)

// Registry is what a Runner needs of the agent registry: make itself known,
// prove it is alive, and leave. SessionRegistry adapts package registry to it.
type Registry interface {
	Register(ctx context.Context, name string, roles []debate.Role) error
	Heartbeat(ctx context.Context, name string) error
	Unregister(ctx context.Context, name string) error
}

// DefaultHeartbeat is how often a Runner renews its registration.
const DefaultHeartbeat = 5 * time.Second

// DefaultCacheSize is how many replies a Runner remembers by request_id.
const DefaultCacheSize = 1024

// Runner keeps one agent alive: it creates its inbox, registers, heartbeats,
// answers every turn_request in its inbox with its Responder, and answers a
// request_id it already answered with the very same reply message. Requests
// are answered one at a time, in the order they arrive.
type Runner struct {
	Name      string
	Roles     []debate.Role
	Transport Transport
	// Registry is optional: without it the agent is reachable through its
	// inbox but not listed as live.
	Registry  Registry
	Responder Responder
	Logger    *slog.Logger
	// Heartbeat overrides DefaultHeartbeat.
	Heartbeat time.Duration
	// CacheSize overrides DefaultCacheSize.
	CacheSize int
	// BusyWait is how long registering keeps trying while the inbox is
	// held by another receiver (inbox.ErrBusy): an earlier process of
	// this agent on its way out, that could not give the inbox back while
	// the messenger was out of reach and gives it up when its process
	// ends. 0: it fails at once, as a second receiver should.
	BusyWait time.Duration
	// Ready, when set, is called once the agent is registered and
	// listening.
	Ready func()

	// now is the clock that times a failed try against the turn's time
	// left (time.Now when nil); a test's seam.
	now func() time.Time
}

// register registers the agent, trying again for BusyWait while its
// inbox is busy. While it waits, the name is not claimed: registering
// claims the name before it takes the inbox and gives the name back when
// the inbox is held, so a try against a held inbox would show the agent as
// live for a moment, and a debate that waits for the agent to register
// would take it as started and then as dead. With BusyWait, the inbox is
// first seen to be free (inboxFree); only then is the name claimed.
func (r *Runner) register(ctx context.Context, log *slog.Logger) error {
	deadline := time.Now().Add(r.BusyWait)
	for said := false; ; said = true {
		err := r.inboxFree(ctx)
		if err == nil {
			err = r.Registry.Register(ctx, r.Name, r.Roles)
		}
		if err == nil || !errors.Is(err, inbox.ErrBusy) || !time.Now().Before(deadline) {
			return err
		}
		if !said {
			log.Info("another receiver holds the inbox; waiting for it to give it up", "op", "register", "err", err, "for", r.BusyWait)
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// inboxFree, with BusyWait, fails with inbox.ErrBusy while another
// receiver holds the agent's inbox: it takes the inbox and gives it back
// at once, reading nothing. Any other failure is left to Register, which
// reports it in its own words; without BusyWait it does nothing.
func (r *Runner) inboxFree(ctx context.Context) error {
	if r.BusyWait <= 0 {
		return nil
	}
	rcv, err := r.Transport.Listen(ctx, r.Name)
	if err != nil {
		if errors.Is(err, inbox.ErrBusy) {
			return err
		}
		return nil
	}
	_ = rcv.Close()
	return nil
}

// Run serves until ctx is done, then unregisters and returns nil. It
// returns an error when the agent cannot start (invalid name, inbox or
// registry failure) or its inbox fails. Requests whose answer was cut
// short by ctx are left unacknowledged, so the next holder of the inbox
// answers them.
func (r *Runner) Run(ctx context.Context) error {
	log := r.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("agent", r.Name)
	if err := inbox.ValidateName(r.Name); err != nil {
		return err
	}
	if r.Responder == nil || r.Transport == nil {
		return fmt.Errorf("agent %s: a Runner needs a Transport and a Responder", r.Name)
	}
	if err := r.Transport.Create(ctx, r.Name); err != nil {
		return fmt.Errorf("create the inbox of %s: %w", r.Name, err)
	}
	// Register before listening: registering hands the inbox to this
	// session, which it cannot do while a receiver holds it.
	if r.Registry != nil {
		if err := r.register(ctx, log); err != nil {
			return fmt.Errorf("register %s: %w", r.Name, err)
		}
		defer func() {
			uctx, release := interrupt.Cleanup(ctx)
			defer release()
			if err := r.Registry.Unregister(uctx, r.Name); err != nil {
				log.Warn("unregister failed", "op", "unregister", "err", err)
			}
		}()
	}
	rcv, err := r.Transport.Listen(ctx, r.Name)
	if err != nil {
		return fmt.Errorf("listen as %s: %w", r.Name, err)
	}
	defer rcv.Close()
	hbCtx, stopHB := context.WithCancel(ctx)
	hbDone := make(chan struct{})
	go func() {
		defer close(hbDone)
		r.heartbeat(hbCtx, log)
	}()
	defer func() { stopHB(); <-hbDone }()
	if r.Ready != nil {
		r.Ready()
	}
	c := newReplyCache(r.CacheSize)
	for {
		d, err := rcv.Receive(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("receive as %s: %w", r.Name, err)
		}
		if r.serve(ctx, log, d.Message, c) {
			actx, release := interrupt.AfterStop(ctx)
			err := rcv.Ack(actx, d)
			release()
			if err != nil {
				log.Warn("ack failed", "op", "ack", "msg_id", d.Message.ID, "err", err)
			}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

func (r *Runner) heartbeat(ctx context.Context, log *slog.Logger) {
	if r.Registry == nil {
		return
	}
	every := r.Heartbeat
	if every <= 0 {
		every = DefaultHeartbeat
	}
	err := registry.Beat(ctx, every, func(ctx context.Context) error { return r.Registry.Heartbeat(ctx, r.Name) }, log)
	if err != nil {
		log.Warn("heartbeats stopped: the registration is lost", "op", "heartbeat", "err", err)
	}
}

// serve answers one message and reports whether it is done with (to be
// acknowledged).
func (r *Runner) serve(ctx context.Context, log *slog.Logger, m *inbox.Message, c *replyCache) bool {
	log = log.With("msg_id", m.ID)
	if m.Kind() != debate.TypeTurnRequest {
		// Said once, at info: the message is acknowledged (kept in cur/),
		// so it is not delivered again.
		log.Info("a message this agent cannot use: it answers turn_requests only; acknowledged and kept", "from", m.From, "type", m.Kind(), "text", clip.Bytes(m.Text, 200))
		return true
	}
	req, err := debate.DecodeRequest(m)
	if err != nil {
		log.Warn("ignored a turn_request that does not decode", "err", err)
		return true
	}
	log = log.With("debate_id", req.DebateID, "request_id", req.RequestID)
	if reply := c.get(req.RequestID); reply != nil {
		log.Debug("answered a repeated request from the cache")
		return r.send(ctx, log, reply)
	}
	rctx := ctx
	if dl, err := time.Parse(inbox.TimeLayout, req.Budget.Deadline); err == nil {
		var cancel context.CancelFunc
		rctx, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	now := r.now
	if now == nil {
		now = time.Now
	}
	start := now()
	ans, err := r.Responder.Respond(rctx, req)
	if errors.Is(err, ErrWithdrawn) {
		// Neither asked again nor told the coordinator, which is gone: a
		// turn_unavailable waiting in its inbox would end the resumed
		// debate.
		log.Info("the request was withdrawn; acknowledged, not answered", "err", err)
		return true
	}
	var u *debate.UnavailableError
	asked := "no turn, asked twice: "
	if err != nil && ctx.Err() == nil && rctx.Err() == nil && !errors.As(err, &u) {
		// A command that failed, or printed no turn, is asked once more,
		// as the coordinator asks again after a reply it rejects: unless
		// that try took longer than the turn has left, when another could
		// not finish and the coordinator would hear nothing until the
		// deadline, the failure lost.
		took := now().Sub(start)
		if dl, ok := rctx.Deadline(); ok && dl.Sub(now()) < took {
			asked = fmt.Sprintf("no turn (not asked again: it took %v, and the turn has %v left): ", took.Round(time.Second), max(dl.Sub(now()), 0).Round(time.Second))
		} else {
			log.Warn("no answer; asking once more", "err", err)
			ans, err = r.Responder.Respond(rctx, req)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return false // stopping: leave it for the next holder of the inbox
		}
		if rctx.Err() == nil && !errors.As(err, &u) {
			// Failing twice (or once, without time for another try), it
			// is broken, and the coordinator learns why now rather than
			// when the debate's clock runs out.
			u = &debate.UnavailableError{Kind: debate.UnavailableFailed, Err: err,
				Detail: asked + clip.Line(err.Error(), 301),
				Hint:   "run the agent's command by hand on a turn request (its JSON on standard input) to see why"}
			if h := FailureHinter(nil); errors.As(err, &h) {
				u.Hint = h.FailureHint()
			}
		}
		if u != nil {
			// The coordinator learns at once why no turn comes. Not
			// cached: a request sent again may find the endpoint back.
			log.Warn("unavailable; telling the coordinator", "err", err)
			reply, merr := debate.NewUnavailableMessage(r.Name, m, req.RequestID, u)
			if merr != nil {
				log.Warn("cannot build the unavailable reply", "err", merr)
				return true
			}
			return r.send(ctx, log, reply)
		}
		log.Warn("no answer before the turn's deadline", "err", err)
		return true
	}
	reply, err := replyMessage(r.Name, m, req.RequestID, ans)
	if err != nil {
		log.Warn("cannot build the reply", "err", err)
		return true
	}
	c.put(req.RequestID, reply)
	return r.send(ctx, log, reply)
}

// send sends a reply, retrying a failed send a few times; a reply that
// cannot be sent is logged and given up (the coordinator's wall clock
// decides).
func (r *Runner) send(ctx context.Context, log *slog.Logger, reply *inbox.Message) bool {
	// A reply already made is sent even when ctx ends meanwhile, but
	// within interrupt.Grace of the stop.
	sctx, release := interrupt.AfterStop(ctx)
	defer release()
	for try := 1; ; try++ {
		// The same id every time: a coordinator that already has it drops it.
		m := *reply
		err := r.Transport.Send(sctx, &m)
		if err == nil {
			return true
		}
		if inbox.Placed(err) {
			// In the coordinator's inbox already (its directory's sync
			// failed): sent again, it would only be dropped.
			log.Warn("reply in the inbox, but its directory was not synced", "op", "send", "err", err)
			return true
		}
		permanent := errors.Is(err, inbox.ErrNotFound) || errors.Is(err, inbox.ErrInvalidName) || errors.Is(err, inbox.ErrTooLarge)
		if permanent || try == 3 {
			log.Warn("reply not sent", "op", "send", "err", err)
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Duration(try) * 100 * time.Millisecond):
		}
	}
}

func replyMessage(from string, req *inbox.Message, requestID string, ans *Reply) (*inbox.Message, error) {
	if ans == nil || (ans.Turn == nil && len(ans.Raw) == 0) {
		return nil, fmt.Errorf("the responder returned no reply")
	}
	if ans.Turn != nil && len(ans.Raw) == 0 {
		return debate.NewTurnMessage(from, req, requestID, ans.Turn)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(ans.Raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("raw reply is not a JSON object")
	}
	if _, ok := fields["request_id"]; !ok {
		fields["request_id"], _ = json.Marshal(requestID)
	}
	// "text" is a message key: the argument travels as the message's text.
	var text string
	if raw, ok := fields["text"]; !ok || json.Unmarshal(raw, &text) != nil || text == "" {
		text = "A debate_turn reply:\n\n```json\n" + string(ans.Raw) + "\n```\n"
	}
	delete(fields, "text")
	m, err := inbox.NewMessage(from, req.From, debate.TypeTurn, text, fields)
	if err != nil {
		return nil, err
	}
	m.ReplyTo = req.ID
	return m, nil
}

// replyCache remembers the latest replies by request_id, forgetting the
// oldest first. It is used by the Runner's goroutine only.
type replyCache struct {
	m    map[string]*inbox.Message
	ring []string
	next int
}

func newReplyCache(n int) *replyCache {
	if n <= 0 {
		n = DefaultCacheSize
	}
	return &replyCache{m: make(map[string]*inbox.Message, n), ring: make([]string, n)}
}

func (c *replyCache) get(id string) *inbox.Message { return c.m[id] }

func (c *replyCache) put(id string, m *inbox.Message) {
	if _, ok := c.m[id]; ok {
		c.m[id] = m
		return
	}
	if old := c.ring[c.next]; old != "" {
		delete(c.m, old)
	}
	c.ring[c.next] = id
	c.next = (c.next + 1) % len(c.ring)
	c.m[id] = m
}
