// Package demo is "parley demo": the whole flow on a new root, in seconds.
//
// Stage 1 (the messenger): two agents register, each with its own
// transport and registry handle as two processes would have, and exchange
// questions and answers through their durable inboxes. The agents run as
// goroutines of this process (so the demo needs no binary on disk); the
// multi-process behaviour is what "parley bench messenger" and the inbox
// tests exercise.
//
// Stage 2 (the debate): a scripted critic and proposer debate to a
// verdict through Services.Debate (the application runs them as separate
// "parley agent run" processes); the verdict is filed in the vault and the
// transcript's hash chain verified.
//
// Stage 3 (escalation): a sample mini-verifier telemetry file is escalated
// with scripted agents through Services.Escalate.
//
// The demo prints nothing: it hands each step to its caller as an Event
// and returns a Result, each with its JSON and its text form. The
// application's debate and escalation come in as Services; demo must not
// import cobra, app's front ends or anything under cmd.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/escalation"
)

// ErrDir means the directory given for the demo's root cannot be used.
var ErrDir = errors.New("the demo's directory cannot be used")

// Services are what the demo needs of the application, on the demo's
// root (the caller points its root and vault there).
type Services struct {
	// Debate runs s to its verdict with its agents as separate processes,
	// files it, and returns its outcome.
	Debate func(ctx context.Context, s *debate.DebateSession) (*debate.Outcome, error)
	// Escalate escalates the telemetry file per the root's config.json
	// and returns its decisions with the JSON line of each, in order.
	Escalate func(ctx context.Context, telemetry string) ([]Escalation, error)
	// Logger logs the stage-1 messenger (nil: discard).
	Logger *slog.Logger
}

// Escalation is one decision of the escalation stage, with the line
// "parley escalate" prints for it.
type Escalation struct {
	Decision escalation.Decision
	Line     string
}

// Event kinds, in the order a run gives them.
const (
	EventRoot       = "root"       // Fields: root
	EventRegistered = "registered" // an agent registered
	EventSent       = "sent"       // a question sent
	EventAnswered   = "answered"   // an answer sent back
	EventDebate     = "debate"     // the debate starts
	EventVerdict    = "verdict"    // Outcome is set
	EventVerified   = "verified"   // the transcript's hash chain holds
	EventEscalate   = "escalate"   // the escalation starts
	EventEscalation = "escalation" // Escalation is set, one per record
)

// Event is one step of a run.
type Event struct {
	Kind string
	At   time.Duration  // since the run started
	Data map[string]any // the step's fields, for a JSON line
	Text string         // the step in words, for a terminal line
	// Outcome is the debate's outcome (EventVerdict).
	Outcome *debate.Outcome
	// Escalation is one decided record (EventEscalation).
	Escalation *Escalation
}

// Result is what a run did and where it left it.
type Result struct {
	Root        string
	Elapsed     time.Duration
	Questions   int
	Agents      [2]string // the stage-1 agents: asker, answerer
	Outcome     *debate.Outcome
	Escalations []Escalation
}

// Root is the directory a demo runs in: never one that holds anything, so
// that a demo neither overwrites a file (a config.json, a vault) nor mixes
// with an earlier run. dir itself when it is new or empty; else a new
// demo-* directory inside it, so the same dir can be given again; a new
// temporary directory without dir. A dir that cannot be read is ErrDir.
func Root(dir string) (string, error) {
	if dir == "" {
		return os.MkdirTemp("", "parley-demo-")
	}
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		return dir, nil
	case err != nil:
		return "", fmt.Errorf("%w: %v", ErrDir, err)
	case len(ents) == 0:
		return dir, nil
	}
	return os.MkdirTemp(dir, "demo-")
}

// run carries the state of one demo run.
type run struct {
	root  string
	svc   Services
	start time.Time
	mu    sync.Mutex // serialises events from the agents' goroutines
	on    func(Event) error
	err   error // on's first error
}

// Run runs the demo on root (see Root), handing each step to on as it
// happens (from one goroutine at a time). An error from on stops the run
// and is returned.
func Run(ctx context.Context, root string, svc Services, on func(Event) error) (*Result, error) {
	if svc.Logger == nil {
		svc.Logger = slog.New(slog.DiscardHandler)
	}
	r := &run{root: root, svc: svc, start: time.Now(), on: on}
	if err := r.event(Event{Kind: EventRoot, Data: map[string]any{"root": root}, Text: "messenger root: " + root}); err != nil {
		return nil, err
	}
	asker, err := r.startAgent(ctx, "defender")
	if err != nil {
		return nil, err
	}
	defer asker.stop(ctx)
	answerer, err := r.startAgent(ctx, "attacker")
	if err != nil {
		return nil, err
	}
	defer answerer.stop(ctx)
	if err := r.exchange(ctx, asker, answerer); err != nil {
		return nil, err
	}
	o, err := r.debate(ctx)
	if err != nil {
		return nil, err
	}
	es, err := r.escalate(ctx)
	if err != nil {
		return nil, err
	}
	return &Result{Root: root, Elapsed: time.Since(r.start), Questions: len(questions),
		Agents: [2]string{asker.name, answerer.name}, Outcome: o, Escalations: es}, nil
}

// event hands e to the caller, stamped; after the caller's first error it
// returns that error and hands nothing more.
func (r *run) event(e Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	e.At = time.Since(r.start)
	r.err = r.on(e)
	return r.err
}

// JSON is the event as a JSON object: "event", "t_ms" and its fields; an
// escalation is its decision.
func (e Event) JSON() any {
	if e.Kind == EventEscalation && e.Escalation != nil {
		return struct {
			Event string `json:"event"`
			escalation.Decision
		}{e.Kind, e.Escalation.Decision}
	}
	obj := map[string]any{"event": e.Kind, "t_ms": float64(e.At.Microseconds()) / 1000}
	for k, v := range e.Data {
		obj[k] = v
	}
	return obj
}

// Line is the event as a terminal line: timed, or an escalation's line as
// "parley escalate" prints it.
func (e Event) Line() string {
	if e.Kind == EventEscalation && e.Escalation != nil {
		return e.Escalation.Line
	}
	return fmt.Sprintf("[%8.1f ms] %s", float64(e.At.Microseconds())/1000, e.Text)
}
