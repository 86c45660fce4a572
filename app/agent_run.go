package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/registry"
)

// AgentLog is the log of an agent process: the App's logger when it logs
// everything (--verbose), else the records at min and above written to w
// (a message the agent cannot use is worth a line there, or in the log
// file of an agent a debate started).
func (a *App) AgentLog(w io.Writer, min slog.Level) *slog.Logger {
	if a.log.Enabled(context.Background(), slog.LevelDebug) {
		return a.log
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: min}))
}

// ErrAgentSpec is the error of an agent given no way to answer, or more
// than one (AgentSpec).
var ErrAgentSpec = errors.New("give exactly one way to answer")

// AgentSpec is the spec (KIND:ARG) of an agent given as exactly one of
// exec (a command run per turn), script (a JSON script), openAI (a model
// of the OpenAI-compatible endpoint) or spec itself; else ErrAgentSpec.
func AgentSpec(exec, script, openAI, spec string) (string, error) {
	given := 0
	for _, s := range []string{exec, script, openAI, spec} {
		if s != "" {
			given++
		}
	}
	switch {
	case given != 1:
		return "", ErrAgentSpec
	case exec != "":
		return agent.KindExec + ":" + exec, nil
	case script != "":
		return agent.KindScript + ":" + script, nil
	case openAI != "":
		return agent.KindOpenAI + ":" + openAI, nil
	}
	return spec, nil
}

// ParentPID is the process an agent stops with: none (0) unless
// exitWithParent, then pid, or this process's parent when pid is not
// positive.
func ParentPID(exitWithParent bool, pid int) int {
	switch {
	case !exitWithParent:
		return 0
	case pid <= 0:
		return os.Getppid()
	}
	return pid
}

// AgentResponder is how an agent of the given spec (KIND:ARG) answers its
// turns, with this build's adapters configured from config.json (Adapters)
// logging to log. A spec that does not parse, or names no adapter of this
// build, is an error wrapping agent.ErrBadSpec or agent.ErrUnavailable.
func (a *App) AgentResponder(spec string, log *slog.Logger) (agent.Spec, agent.Responder, error) {
	sp, err := agent.ParseSpec(spec)
	if err != nil {
		return agent.Spec{}, nil, err
	}
	ads, err := a.Adapters(log)
	if err != nil {
		return agent.Spec{}, nil, err
	}
	resp, err := ads.New(sp)
	return sp, resp, err
}

// AgentRun is one agent process: who it is, how it answers, and what ends
// it besides its context.
type AgentRun struct {
	Name      string
	Role      debate.Role
	Spec      agent.Spec // registered as the agent's model
	Responder agent.Responder
	// SessionID is its registry session ("": a new one).
	SessionID string
	// Parent, when not 0, is the pid of the process that started it: the
	// agent stops once its parent is no longer that process.
	Parent int
	Logger *slog.Logger
	// Ready, when set, is called once the agent is registered and
	// listening.
	Ready func()
	// Warn, if set, is told what the caller should know, before Ready: a
	// registration as a new session that set the name's waiting mail
	// aside (WarnMovedAside), as a watch says it.
	Warn func(Warning)
}

// AgentRoot refuses, before anything is opened or made, to serve agent in
// a parley root that does not exist (an error wrapping ErrNoRoot, as
// recv and watch say it): an agent run under a mistyped --root or
// PARLEY_ROOT would make a root of its own and listen where no debate and
// no sender looks.
func (a *App) AgentRoot(agent string) error {
	if !a.HaveRoot() {
		return a.noRoot(agent)
	}
	return nil
}

// agentBusyWait is how long an agent a debate started waits for its inbox
// while another receiver holds it: the earlier process of its name gets
// twice the grace of a stop, well within the debate's registerWait.
const agentBusyWait = 2 * interrupt.Grace

// ServeAgent registers r on backend b, heartbeats at HeartbeatEvery and
// answers every turn request in its inbox until ctx ends (it then
// unregisters and returns nil) or its parent ends. A parent already gone
// is an error wrapping agent.ErrParentGone, and nothing is served; a name
// held by another live agent is an *Error of ProblemTaken wrapping
// registry.ErrNameTaken; the messenger's
// own errors are explained (Explain).
func (a *App) ServeAgent(ctx context.Context, b Backend, r AgentRun) error {
	if r.Parent != 0 {
		var (
			stop func()
			err  error
		)
		if ctx, stop, err = agent.WatchParent(ctx, r.Parent); err != nil {
			return err
		}
		defer stop()
	}
	reg := &agent.SessionRegistry{Registrar: b.Registry(), SessionID: r.SessionID, Model: r.Spec.String()}
	ready := func() {
		if n := reg.MovedAside(); n > 0 && r.Warn != nil {
			r.Warn(movedAside(b, r.Name, n))
		}
		if r.Ready != nil {
			r.Ready()
		}
	}
	run := &agent.Runner{
		Name: r.Name, Roles: []debate.Role{r.Role}, Transport: b.Transport(), Registry: reg, Responder: r.Responder,
		Logger: r.Logger, Heartbeat: a.HeartbeatEvery(), Ready: ready,
	}
	if r.Parent != 0 {
		// Started by a debate, which retired the agent's earlier process
		// by its registration: one that unregistered but has not ended
		// yet may still hold the inbox (see retire).
		run.BusyWait = agentBusyWait
	}
	err := run.Run(ctx)
	if errors.Is(err, registry.ErrNameTaken) {
		return nameTaken(err, r.Name, "")
	}
	return Explain(err)
}
