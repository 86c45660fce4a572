package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/debate"
)

// AppStarter is debate_start over the service layer: the session is built
// and checked by app.NewSession (its errors name the tool's fields), the
// running agents (@NAME) it names must be alive and have joined in the
// roles it names them in (app.CheckAgents), and the debate runs in a
// detached process (app.StartDebate), reaped by this one. Untrusted
// clients (MCP over HTTP without --trusted) may name neither agents that
// run commands or read files (only @NAME and openai:), nor context files,
// nor a workspace.
func AppStarter(a *app.App, untrusted bool) DebateStarter {
	return &appStarter{a: a, untrusted: untrusted}
}

type appStarter struct {
	a         *app.App
	untrusted bool
}

func (st *appStarter) StartDebate(ctx context.Context, in StartInput) (StartOutput, error) {
	var out StartOutput
	if st.untrusted {
		if len(in.Context) > 0 || in.Workspace != "" {
			return out, errors.New("context files and a workspace are refused over HTTP unless parley mcp runs with --trusted")
		}
		for _, arg := range in.Agents {
			_, spec, _ := strings.Cut(arg, "=")
			if kind, ok := untrustedAgent(spec); !ok {
				return out, fmt.Errorf("agents %q: %s: agents are refused over HTTP unless parley mcp runs with --trusted (use @NAME agents that joined with debate_join)", arg, kind)
			}
		}
	}
	req := app.DebateRequest{
		Layer: in.Layer, Topic: in.Topic, Agents: in.Agents, Position: in.Position, Scope: in.Scope,
		Context: in.Context, Workspace: in.Workspace,
		Budget: debate.BudgetOverride{MaxRounds: in.MaxRounds, MaxTokens: in.MaxTokens, MaxTokensPerRound: in.MaxTokensPerRound, ConvergenceRounds: in.ConvergenceRounds},
	}
	if in.Timeout != "" {
		d, err := time.ParseDuration(in.Timeout)
		if err != nil {
			return out, fmt.Errorf("timeout %q: want a duration such as 90s or 2m", in.Timeout)
		}
		ms := d.Milliseconds()
		req.Budget.MaxWallClockMs = &ms
	}
	s, err := st.a.NewSession(ctx, req)
	var be *debate.BudgetError
	if errors.As(err, &be) {
		if arg := budgetArg(be.Limit, req.Budget); arg != "" {
			return out, budgetRefusal(arg, in.Timeout, be)
		}
	}
	if err != nil {
		return out, err // the service layer's, which debate_start words
	}
	var (
		nr *app.NotRunningError
		re *app.RoleError
	)
	switch err := st.a.CheckAgents(ctx, s); {
	case errors.As(err, &nr):
		return out, fmt.Errorf("agent %s is not running: join it first with debate_join (or start it with %s …)", nr.Agent, st.a.CommandLine("agent", "run", "--name", nr.Agent))
	case errors.As(err, &re):
		return out, invalidf("%v: name it %s=@%s in agents, or an agent that joined as %s (debate_join with role %s)", err, re.Joined[0], re.Agent, re.Asked, re.Asked)
	case err != nil:
		return out, err
	}
	pid, err := st.a.StartDebate(ctx, s)
	if err != nil {
		return out, err
	}
	return StartOutput{DebateID: s.ID, PID: pid}, nil
}

// budgetArg is debate_start's argument that set the budget limit called
// limit in config.json, "" when the limit was not given (the layer's
// default from config.json is wrong, not the call).
func budgetArg(limit string, o debate.BudgetOverride) string {
	if !o.Sets(limit) {
		return ""
	}
	return map[string]string{
		"maxRounds": "max_rounds", "maxTokens": "max_tokens", "maxTokensPerRound": "max_tokens_per_round",
		"maxWallClockMs": "timeout", "convergenceRounds": "convergence_rounds",
	}[limit]
}

// budgetRefusal words a budget limit out of bounds in the terms of the
// argument that set it (timeout as given, a duration).
func budgetRefusal(arg, timeout string, be *debate.BudgetError) error {
	switch {
	case arg == "timeout" && be.Value > 0:
		return invalidf("timeout %q: at most %v, a week", timeout, debate.MaxWallClock)
	case arg == "timeout":
		return invalidf("timeout %q: at least 1ms", timeout)
	case be.Value > 0:
		return invalidf("%s %d: at most %d", arg, be.Value, be.Max)
	}
	return invalidf("%s %d: must be positive", arg, be.Value)
}

// untrustedAgent reports whether an untrusted client (MCP over HTTP
// without --trusted) may have the agent spec run: a running agent (@NAME)
// or a chat provider (openai:), which run no command and read no file of
// the server's. kind is the spec's kind. A spec that does not parse is
// left to the validation that words it.
func untrustedAgent(spec string) (kind string, ok bool) {
	sp, err := agent.ParseSpec(spec)
	if err != nil {
		return "", true
	}
	return sp.Kind, sp.Kind == agent.KindRegistered || agent.IsProvider(sp.Kind)
}

// DebateResumer continues an interrupted debate in the background for
// debate_resume, as "parley debate resume" would in the foreground; a
// DebateStarter that is one (AppStarter) enables the tool.
type DebateResumer interface {
	ResumeDebate(ctx context.Context, id string) (StartOutput, error)
}

var _ DebateResumer = (*appStarter)(nil)

// ResumeDebate continues the interrupted debate id in a detached process
// (app.ResumeDebateDetached). Untrusted clients may resume only a debate
// whose agents they could have started (untrustedAgent): resuming one
// would run its commands.
func (st *appStarter) ResumeDebate(ctx context.Context, id string) (StartOutput, error) {
	var out StartOutput
	if st.untrusted {
		store, err := st.a.OpenDebates()
		if err != nil {
			return out, err
		}
		sess, err := store.Session(id)
		store.Close()
		if err != nil {
			return out, err
		}
		for _, p := range sess.Participants {
			if kind, ok := untrustedAgent(p.Agent); !ok {
				return out, fmt.Errorf("debate %s has the %s agent %s (%s): it is resumed over HTTP only if parley mcp runs with --trusted; on the server's machine: %s",
					id, kind, p.Name, p.Role, st.a.CommandLineElsewhere("debate", "resume", id))
			}
		}
	}
	pid, err := st.a.ResumeDebateDetached(ctx, id)
	if err != nil {
		return out, err
	}
	return StartOutput{DebateID: id, PID: pid}, nil
}
