package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/checkedconfig"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/sendcheck"
	"github.com/parleyhq/parley/registry"
)

// MaxReplyTo bounds the id a message answers.
const MaxReplyTo = sendcheck.MaxReplyTo

// SendRequest is one message to deliver.
type SendRequest struct {
	// From is the sender; it need not be registered.
	From string
	// To is the recipient: an agent with an inbox or a registration.
	To string
	// Text is the message (UTF-8, not blank, at most
	// inbox.MaxMessageBytes once encoded).
	Text string
	// Type is the message type, ^[a-z][a-z0-9_]{0,63}$; "" is
	// inbox.TypeText.
	Type string
	// ReplyTo is the id of the message this one answers (at most
	// MaxReplyTo bytes; no spaces or control characters, not starting
	// with '-').
	ReplyTo string
	// RequireLive refuses (ProblemNotActive) to deliver to an agent that is
	// not running, instead of delivering with a warning.
	RequireLive bool
}

// Warning is something the caller should know about a call that
// succeeded: a value for the front end to show as it shows things.
type Warning struct {
	// Code names the warning: WarnNotActive, WarnMovedAside,
	// WarnRegistrationLost, WarnReregistered, WarnHeartbeatFailed,
	// WarnHeartbeatRenewed, WarnUnregister, WarnNotRemoved,
	// WarnQuarantined, WarnOtherCase.
	Code string
	// Agent is the agent it concerns.
	Agent string
	// Text says it in one line.
	Text string
}

// The warnings' codes.
const (
	// WarnNotActive: the recipient is not running; the message waits in
	// its inbox.
	WarnNotActive = "not_active"
	// WarnMovedAside: registering a name set the previous holder's
	// unclaimed messages aside.
	WarnMovedAside = "moved_aside"
	// WarnRegistrationLost: a watch's registration could not be renewed
	// (another session took the name); the watch goes on reading.
	WarnRegistrationLost = "registration_lost"
	// WarnReregistered: a watch's registration was removed under it
	// (pruned as stale while the watch was paused, or deleted) and the
	// watch registered its name again.
	WarnReregistered = "re_registered"
	// WarnHeartbeatFailed: a watch could not renew its registration (a
	// full disk, a read-only file system, a server out of reach); it
	// retries at every heartbeat, and senders see it stopped once the
	// registration outlives the TTL.
	WarnHeartbeatFailed = "heartbeat_failed"
	// WarnHeartbeatRenewed: a watch renewed its registration after
	// WarnHeartbeatFailed.
	WarnHeartbeatRenewed = "heartbeat_renewed"
	// WarnUnregister: a watch could not remove its registration.
	WarnUnregister = "unregister_failed"
	// WarnNotRemoved: a prune could not remove a dead registration, or a
	// collection an old file; it stays.
	WarnNotRemoved = "not_removed"
	// WarnQuarantined: a receive found a message it could not read and
	// set it aside (bad/, or the dead-letter subject over NATS), or could
	// not set it aside either and skipped it; the messages after it were
	// read.
	WarnQuarantined = "quarantined"
	// WarnOtherCase: an agent was added whose name differs from a known
	// agent's only in case ("bob" beside "Bob"): another agent, with an
	// inbox of its own.
	WarnOtherCase = "other_case"
)

// notifyQuarantine has r tell warn (WarnQuarantined) of each message it
// sets aside as unreadable from now on, or fails to set aside (it stays
// where it is, skipped), when r can tell (inbox.QuarantineNotifier) and
// warn is set.
func notifyQuarantine(r inbox.Receiver, warn func(Warning)) {
	qn, ok := r.(inbox.QuarantineNotifier)
	if !ok || warn == nil {
		return
	}
	qn.NotifyQuarantine(func(q inbox.Quarantine) {
		text := fmt.Sprintf("a message for %s could not be read and was set aside in %s: %s", q.Agent, q.Where, q.Reason)
		if q.Err != nil {
			text = fmt.Sprintf("a message for %s could not be read (%s) nor set aside (%v): it stays at %s, skipped until a later receive sets it aside", q.Agent, q.Reason, q.Err, q.Where)
		}
		warn(Warning{Code: WarnQuarantined, Agent: q.Agent, Text: text})
	})
}

// Sent is a delivered message and what the sender should know about it.
type Sent struct {
	Message  *inbox.Message
	Warnings []Warning
}

// Outbox is what sending needs of a messenger's transport; every
// inbox.Transport is one.
type Outbox interface {
	Send(ctx context.Context, m *inbox.Message) error
	Create(ctx context.Context, agent string) error
	Exists(ctx context.Context, agent string) (bool, error)
}

// Lookup is what sending needs of a registry; every Registry is one.
type Lookup interface {
	Get(ctx context.Context, name string) (*registry.Entry, error)
}

// Addressed refuses a request without its sender or its recipient
// (ProblemMissing): the check a front end can make before it reads the
// text (a wait on standard input for a message that cannot be sent).
func (r SendRequest) Addressed() error {
	if f := sendcheck.Addressed(r.From, r.To); f != nil {
		return fault(f)
	}
	return nil
}

// fault is the *Error of a message sendcheck refused.
func fault(f *sendcheck.Fault) *Error {
	return newError(Problem(f.Problem), f.Field, f.Cause, f.Tmpl, f.Args...)
}

// message checks r and makes its message, encoded once so that one that
// cannot be sent (over the limit once encoded) is refused before anything
// is said about the recipient. A byte order mark before the text (a file
// saved by Notepad, PowerShell's UTF-8 piped in) is no part of it.
func (r SendRequest) message() (*inbox.Message, error) {
	h, f := sendcheck.Message(r.From, r.To, r.Type, r.ReplyTo, r.Text)
	if f != nil {
		return nil, fault(f)
	}
	m := inbox.FromHead(h)
	if _, err := m.Encode(); err != nil {
		return nil, Explain(err)
	}
	return m, nil
}

// Send delivers r through the messenger config.json selects, durably:
// once Send returns, the message survives a crash. An agent with neither
// an inbox nor a registration is ProblemNotFound (and so is every agent
// when there is no root: nothing is created looking for one); an agent
// that is known but not running gets the message with a WarnNotActive
// warning, or, with RequireLive, nothing and ProblemNotActive.
func (a *App) Send(ctx context.Context, r SendRequest) (*Sent, error) {
	m, err := r.message()
	if err != nil {
		return nil, err
	}
	if !a.HaveRoot() {
		return nil, a.noRoot(r.To)
	}
	cfg, err := a.Config()
	if err != nil {
		return nil, err
	}
	b, err := a.openBackend(ctx, BackendName(cfg), cfg)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	a.keepCheckedConfig(cfg)
	return deliver(ctx, b.Transport(), b.Registry(), m, r.RequireLive)
}

// keepCheckedConfig keeps, for the next plain "parley send" in this root,
// the config.json cfg was loaded from, with what a send over the file
// messenger takes of it (internal/checkedconfig): that send then needs
// neither to load it nor to start the rest of parley. It keeps nothing
// for another messenger, a root without config.json, or a binary that
// cannot tell what it is (checkedconfig.Self); a copy that cannot be
// written is only logged (the next send loads config.json itself, as
// this one did).
func (a *App) keepCheckedConfig(cfg *config.Config) {
	if BackendName(cfg) != config.TransportFile || cfg.Source() == nil {
		return
	}
	self, ok := checkedconfig.Self(os.Getenv)
	if !ok {
		return
	}
	ttl := cfg.Messenger.HeartbeatTTL()
	if ttl <= 0 {
		ttl = registry.DefaultTTL
	}
	r, err := os.OpenRoot(a.root)
	if err == nil {
		err = checkedconfig.Keep(r, self, ttl, cfg.Source())
		r.Close()
	}
	if err != nil {
		a.log.Debug("config.json not kept for the next send", "err", err)
	}
}

// Deliver is Send over a messenger the caller holds open (the MCP server
// holds one for as long as it runs).
func Deliver(ctx context.Context, tr Outbox, reg Lookup, r SendRequest) (*Sent, error) {
	m, err := r.message()
	if err != nil {
		return nil, err
	}
	return deliver(ctx, tr, reg, m, r.RequireLive)
}

// deliver checks that m's recipient is known, and whether it runs, then
// sends m: one inbox lookup, one registry read, one durable write.
func deliver(ctx context.Context, tr Outbox, reg Lookup, m *inbox.Message, requireLive bool) (*Sent, error) {
	to := m.To
	has, err := tr.Exists(ctx, to)
	if err != nil {
		return nil, explainLeft(err, leftNotSent)
	}
	e, err := reg.Get(ctx, to)
	registered := err == nil
	// A registration that does not read (torn, hand-edited) makes the
	// name known, and its agent not alive (as the registry judges it).
	var unreadable error
	if errors.Is(err, registry.ErrMalformed) {
		unreadable = err
	}
	if err != nil && !errors.Is(err, registry.ErrNotRegistered) && unreadable == nil {
		return nil, explainLeft(err, leftNotSent)
	}
	if !has && !registered && unreadable == nil {
		return nil, UnknownAgentNear(ctx, tr, reg, to)
	}
	if !has {
		// Registered by a writer that did not make the inbox.
		if err := tr.Create(ctx, to); err != nil {
			return nil, explainLeft(err, leftNotSent)
		}
	}
	sent := &Sent{Message: m}
	if !registered || !e.Alive {
		why := "it is not registered yet"
		switch {
		case unreadable != nil:
			why = fmt.Sprintf("its registration does not read: %v", unreadable)
		case registered:
			why = "its process is gone or its heartbeat is stale"
		case heldBefore(ctx, tr, to):
			why = "it registered before, and its registration is gone"
		}
		if requireLive {
			err := newError(ProblemNotActive, "require_live", ErrNotActive, "not_active: %s is not running (%s); nothing sent (drop {require_live} to leave the message in its inbox)", to, why)
			err.Agent = to
			return nil, err
		}
		sent.Warnings = append(sent.Warnings, Warning{Code: WarnNotActive, Agent: to,
			Text: fmt.Sprintf("%s is not running (%s); the message waits in its inbox", to, why)})
	}
	if err := tr.Send(ctx, m); err != nil {
		return nil, explainLeft(err, leftNotSent)
	}
	return sent, nil
}

// heldBefore reports whether a session held to's inbox and is gone (as
// "agents show" says "stopped"), when the transport can tell (an
// OwnerReader); read only on the way to a not_active warning.
func heldBefore(ctx context.Context, tr Outbox, to string) bool {
	o, ok := tr.(OwnerReader)
	if !ok {
		return false
	}
	owner, err := o.Owner(ctx, to)
	return err == nil && owner != ""
}

// ReceiveOptions say how many messages a receive takes.
type ReceiveOptions struct {
	// Wait is how long to wait for the first message; 0 polls.
	Wait time.Duration
	// Max bounds how many messages are taken; 0 or less takes every
	// waiting one.
	Max int
	// Warn, if set, is told of each message found unreadable and set
	// aside on the way (WarnQuarantined).
	Warn func(Warning)
}

// Receive claims messages of an open inbox: the first is waited for up to
// o.Wait, the rest are polled. Each is given to handle, and acknowledged
// once handle returns nil, so a message that was not handled is delivered
// again. It returns how many were handled; when ctx ends before any was,
// ctx's error. A message set aside as unreadable meanwhile is told to
// o.Warn.
func Receive(ctx context.Context, r inbox.Receiver, o ReceiveOptions, handle func(*inbox.Message) error) (int, error) {
	notifyQuarantine(r, o.Warn)
	n := 0
	for o.Max <= 0 || n < o.Max {
		wctx, cancel := context.WithCancel(ctx)
		if n > 0 || o.Wait <= 0 {
			cancel() // a done context polls
		} else {
			wctx, cancel = context.WithTimeout(ctx, o.Wait)
		}
		d, err := r.Receive(wctx)
		cancel()
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			if ctx.Err() != nil && n == 0 {
				return 0, Explain(ctx.Err())
			}
			break
		}
		if err != nil {
			return n, Explain(err)
		}
		if err := handle(d.Message); err != nil {
			return n, err
		}
		if err := ack(ctx, r, d); err != nil {
			return n, explainLeft(err, leftNotAcked, d.Message.ID)
		}
		n++
	}
	return n, nil
}

// Recv opens the inbox of as and receives from it (see Receive).
func (a *App) Recv(ctx context.Context, as string, o ReceiveOptions, handle func(*inbox.Message) error) (int, error) {
	n := 0
	err := a.listen(ctx, as, nil, func(r inbox.Receiver) (err error) {
		n, err = Receive(ctx, r, o, handle)
		return err
	})
	return n, err
}

// WatchRequest says which inbox to watch and how.
type WatchRequest struct {
	// As is the agent whose inbox to watch.
	As string
	// Register registers As as a live agent while the watch runs (with a
	// heartbeat, removed when it stops), so that senders see it running.
	Register bool
	// Started, if set, is called once the inbox is open, before the first
	// message.
	Started func()
	// Warn, if set, is told what the caller should know along the way
	// (WarnMovedAside, WarnRegistrationLost, WarnReregistered,
	// WarnUnregister, WarnQuarantined).
	Warn func(Warning)
}

// Watch gives every message of w.As's inbox to handle as it arrives,
// acknowledging each once handled, until ctx ends (then it returns nil).
// Messages that waited in the inbox come first.
func (a *App) Watch(ctx context.Context, w WatchRequest, handle func(*inbox.Message) error) error {
	warn := w.Warn
	if warn == nil {
		warn = func(Warning) {}
	}
	var before func(Backend) (func(), error)
	if w.Register {
		before = func(b Backend) (func(), error) { return a.registerWatcher(ctx, b, w.As, warn) }
	}
	return a.listen(ctx, w.As, before, func(r inbox.Receiver) error {
		if w.Started != nil {
			w.Started()
		}
		notifyQuarantine(r, warn)
		for {
			d, err := r.Receive(ctx)
			if ctx.Err() != nil {
				return nil
			}
			if err != nil {
				return Explain(err)
			}
			if err := handle(d.Message); err != nil {
				return err
			}
			if err := ack(ctx, r, d); err != nil {
				return explainLeft(err, leftNotAcked, d.Message.ID)
			}
		}
	})
}

// WatchSession is the session id a watch registers name under. It is the
// same for every watch of name, so that a watch that stops and starts
// again is the same holder: the mail that arrived in between stays in its
// inbox (a different session taking the name sets the previous holder's
// mail aside). A second watch of name in another process while one runs
// is refused by the registry before it writes anything
// (registry.ErrSessionBusy); one in the same process finds the inbox busy,
// and the running watch's registration is put back as it was.
func WatchSession(name string) string { return "parley-watch-" + name }

// registerWatcher registers name for a watch and heartbeats it until the
// returned stop is called, which also unregisters it. A registration
// removed under the watch (pruned while the watch was paused past the TTL,
// or deleted) is restored at the next heartbeat, with a WarnReregistered;
// a name another session took is left to it (WarnRegistrationLost).
func (a *App) registerWatcher(ctx context.Context, b Backend, name string, warn func(Warning)) (stop func(), err error) {
	reg := b.Registry()
	// Registering makes an inbox; a name nobody knows is still not_found,
	// as for recv (a typo must not make an agent).
	has, err := b.Transport().Exists(ctx, name)
	if err != nil {
		return nil, explainLeft(err, leftNotRegistered, name)
	}
	if !has {
		if _, err := reg.Get(ctx, name); errors.Is(err, registry.ErrNotRegistered) {
			return nil, UnknownAgentNear(ctx, b.Transport(), reg, name)
		}
	}
	sid := WatchSession(name)
	res, err := reg.Register(ctx, registry.Registration{Name: name, SessionID: sid, Roles: []string{"watcher"}, Model: "parley watch"})
	if errors.Is(err, registry.ErrSessionBusy) {
		// Another watch of name runs in another process: to the user, as
		// to a second watch in this one, the inbox is busy.
		e := newError(ProblemMessenger, "", fmt.Errorf("%w: %w", inbox.ErrBusy, err), "inbox busy: another watch of %s runs (%v); stop it and try again", name, err)
		e.Agent = name
		return nil, e
	}
	if errors.Is(err, registry.ErrNameTaken) {
		return nil, nameTaken(err, name, "; {no_register} only reads")
	}
	if err != nil {
		return nil, explainLeft(err, leftNotRegistered, name)
	}
	if res.MovedAside > 0 {
		warn(movedAside(b, name, res.MovedAside))
	}
	beatCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		failing := false // since the last beat that renewed it
		beat := func(ctx context.Context) error {
			// Another session's registration in its place is ErrNotOwner
			// (lost); any other failure is retried at the next beat, and
			// said once, since senders will see the watch stopped if it
			// lasts.
			restored, err := registry.Renew(ctx, reg, res.Registration)
			switch {
			case err != nil && ctx.Err() == nil && !errors.Is(err, registry.ErrNotOwner) && !errors.Is(err, registry.ErrNotRegistered):
				if !failing {
					failing = true
					warn(Warning{Code: WarnHeartbeatFailed, Agent: name, Text: fmt.Sprintf("could not renew %s's registration (%v); retrying at every heartbeat: if it keeps failing for the heartbeat TTL (%v), senders see %s as not running (not_active) until it is renewed", name, err, a.RegistrationTTL(), name)})
				}
				return err
			case err == nil && failing:
				failing = false
				warn(Warning{Code: WarnHeartbeatRenewed, Agent: name, Text: fmt.Sprintf("%s's registration is renewed again: senders see it running", name)})
			}
			if err != nil || !restored {
				return err
			}
			warn(Warning{Code: WarnReregistered, Agent: name, Text: fmt.Sprintf("%s's registration was removed (pruned as stale after this watch was paused or the machine slept longer than the heartbeat TTL, or deleted by hand); registered %s again (senders in between were told it was not_active)", name, name)})
			return nil
		}
		if err := registry.Beat(beatCtx, a.HeartbeatEvery(), beat, a.log); err != nil {
			warn(Warning{Code: WarnRegistrationLost, Agent: name, Text: registrationLost(name, err)})
		}
	}()
	return func() {
		cancel()
		<-done
		uctx, release := interrupt.Cleanup(ctx)
		defer release()
		if err := reg.Unregister(uctx, name, sid); err != nil && !errors.Is(err, registry.ErrNotRegistered) && !errors.Is(err, registry.ErrNotOwner) {
			warn(Warning{Code: WarnUnregister, Agent: name, Text: unregisterFailed(uctx, name, err, a.RegistrationTTL())})
		}
	}, nil
}

// unregisterFailed says that a stopping watch could not remove name's
// registration (err, under ctx from interrupt.Cleanup), and what
// follows.
func unregisterFailed(ctx context.Context, name string, err error, ttl time.Duration) string {
	if errors.Is(context.Cause(ctx), interrupt.ErrGraceOver) {
		return fmt.Sprintf("could not unregister %s: the messenger did not answer within %v of the stop (%v); senders see %s as not running once its heartbeat is older than the TTL (%v), and parley agents prune removes it then", name, interrupt.Grace, err, name, ttl)
	}
	return fmt.Sprintf("could not unregister %s: %v", name, err)
}

// ack acknowledges d, handled before ctx ended: a stop that comes during
// the ack gives it interrupt.Grace more, rather than cutting it short (the
// message would be handled twice) or letting it retry for as long as the
// messenger allows.
func ack(ctx context.Context, r inbox.Receiver, d *inbox.Delivery) error {
	actx, cancel := interrupt.AfterStop(ctx)
	defer cancel()
	return r.Ack(actx, d)
}

// registrationLost says why a watch's registration was lost (err, from
// registry.Beat) and what follows: the watch goes on reading, unregistered,
// until it is started again. A name another session took is that
// session's while it runs: senders see it, and a watch started again is
// refused until it stops.
func registrationLost(name string, err error) string {
	why := fmt.Sprintf("%v", err)
	switch {
	case errors.Is(err, registry.ErrNotOwner):
		return fmt.Sprintf("%s is no longer registered to this watch: another session took the name (parley agents show %s says which); still watching its inbox, unregistered: once that session stops, start this watch again to register %s", name, name, name)
	case errors.Is(err, registry.ErrNotRegistered):
		why = "its registration was removed: pruned as stale after this watch was paused or the machine slept longer than the heartbeat TTL, or deleted by hand"
	}
	return fmt.Sprintf("%s is no longer registered (%s); still watching its inbox, unregistered, so senders get not_active: stop this watch and start it again to register %s", name, why, name)
}

// listen checks as, then runs fn with the inbox of as open for receiving;
// the receiver and the messenger are closed after. A name with neither an
// inbox nor a registration is ProblemNotFound; a registered one without an
// inbox (its registration readable or not) gets one. before, when not nil,
// runs first (a watch registers there: a registration takes the inbox's
// lock, so it must come before the receiver does), and the function it
// returns runs last. It never creates a root.
func (a *App) listen(ctx context.Context, as string, before func(Backend) (func(), error), fn func(inbox.Receiver) error) error {
	if as == "" {
		return newError(ProblemMissing, "as", nil, "{as} is required: the agent whose inbox to read")
	}
	if err := ValidName("as", as); err != nil {
		return err
	}
	return a.withMessenger(ctx, as, func(b Backend) error {
		if before != nil {
			after, err := before(b)
			if err != nil {
				return err
			}
			defer after()
		}
		r, err := b.Transport().Listen(ctx, as)
		if errors.Is(err, inbox.ErrNotFound) {
			// A registered agent whose writer made no inbox (or whose
			// inbox was removed) is known: its inbox is made, as a send
			// to it makes it.
			if _, gerr := b.Registry().Get(ctx, as); gerr != nil && !errors.Is(gerr, registry.ErrMalformed) {
				return UnknownAgentNear(ctx, b.Transport(), b.Registry(), as)
			}
			if err := b.Transport().Create(ctx, as); err != nil {
				return Explain(err)
			}
			r, err = b.Transport().Listen(ctx, as)
		}
		if err != nil {
			return Explain(err)
		}
		defer r.Close()
		return fn(r)
	})
}

// movedAside is the WarnMovedAside warning of registering name on b, which
// set n unclaimed messages of the name's previous holder aside.
func movedAside(b Backend, name string, n int) Warning {
	return Warning{Code: WarnMovedAside, Agent: name, Text: fmt.Sprintf("%d unclaimed message(s) of the previous holder of %s were set aside in %s/%s",
		n, name, b.Location(name), inbox.AsideDir)}
}
