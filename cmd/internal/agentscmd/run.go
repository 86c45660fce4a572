package agentscmd

import (
	"context"
	"errors"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/textview"
)

// NewAgentCmd is "parley agent run".
func NewAgentCmd(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "agent",
		Short: "Keep a debate agent alive",
	}, NewCmdRun(f, nil))
}

// RunOptions are what "parley agent run" was asked for.
type RunOptions struct {
	f *cmdutil.Factory
	// Name and Role are the agent's, checked.
	Name string
	Role debate.Role
	// Spec is how it answers: one of --exec, --script, --openai, --spec.
	Spec string
	// SessionID is its registry session ("": a new one); Parent the
	// process whose end ends it (0: none).
	SessionID string
	Parent    int
}

// NewCmdRun is "parley agent run": register NAME and answer its turn
// requests until interrupted.
func NewCmdRun(f *cmdutil.Factory, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{f: f}
	run := cmdutil.Runner(opts, runF, agentRun)
	var role, execCmd, script, openaiModel, spec string
	var exitWithParent bool
	var parentPID int
	cmd := &cobra.Command{
		Use:   "run --name N --role R (--exec CMD | --script FILE | --openai MODEL | --spec KIND:ARG)",
		Short: "Register an agent and answer its turn requests until interrupted",
		Long: "Registers NAME, heartbeats, answers every turn_request in its inbox, and\n" +
			"unregisters on SIGINT (Ctrl-C), SIGTERM or SIGHUP (its terminal closed; not\n" +
			"under nohup, which ignores it; nor SIGINT in a job a script runs with &,\n" +
			"which ignores that). --exec runs CMD per turn (the request as JSON\n" +
			"on stdin; a debate_turn JSON object or plain text on stdout); --script\n" +
			"answers from a JSON script (see docs/debates.md).",
		RunE: func(cmd *cobra.Command, _ []string) error {
			// A flag left out is a mistake on the command line, not a bad
			// value: say which flag, as recv does for --as.
			if opts.Name == "" {
				return cmdutil.Usagef("agent run needs --name NAME (see parley agent run --help)")
			}
			if role == "" {
				return cmdutil.Usagef("--role is required: the side the agent takes (see parley agent run --help)")
			}
			if err := app.ValidName("name", opts.Name); err != nil {
				return f.Fail(err, cmdutil.Wording{})
			}
			r, err := debate.ParseRole(role)
			if err != nil {
				return cmdutil.Usagef("--role: %v", err)
			}
			s, err := app.AgentSpec(execCmd, script, openaiModel, spec)
			if err != nil {
				return cmdutil.Usagef("give exactly one of --exec CMD, --script FILE, --openai MODEL or --spec KIND:ARG")
			}
			opts.Role, opts.Spec, opts.Parent = r, s, app.ParentPID(exitWithParent, parentPID)
			return run(cmd)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Name, "name", "", "the agent's name (letters, digits, '_' and '-')")
	fl.StringVar(&role, "role", "", "defender or attacker")
	fl.StringVar(&execCmd, "exec", "", "command run per turn with sh -c")
	fl.StringVar(&script, "script", "", "JSON script of turns")
	fl.StringVar(&openaiModel, "openai", "", "model served by the OpenAI-compatible endpoint of config.json (openai.baseUrl)")
	fl.StringVar(&spec, "spec", "", "any agent spec, e.g. script:FILE, openai:MODEL or another chat provider's KIND:MODEL")
	fl.StringVar(&opts.SessionID, "session-id", "", "registry session id (default: a new one)")
	fl.BoolVar(&exitWithParent, "exit-with-parent", false, "stop when the process that started this one ends")
	fl.IntVar(&parentPID, "parent-pid", 0, "with --exit-with-parent: the pid of that process (default: the parent found at start)")
	_ = fl.MarkHidden("session-id")
	_ = fl.MarkHidden("exit-with-parent")
	_ = fl.MarkHidden("parent-pid")
	return cmd
}

// agentRun serves as opts.Name until interrupted (SIGINT, SIGTERM) or,
// when opts.Parent is not 0, until this process's parent is no longer that
// process (it died, and this one was handed to another).
func agentRun(ctx context.Context, opts *RunOptions) error {
	f := opts.f
	sp, resp, err := f.Service().AgentResponder(opts.Spec, f.Service().AgentLog(f.Stderr, slog.LevelWarn))
	if errors.Is(err, agent.ErrBadSpec) || errors.Is(err, agent.ErrUnavailable) {
		return cmdutil.Usagef("%v", err)
	} else if err != nil {
		return err
	}
	r := app.AgentRun{Name: opts.Name, Role: opts.Role, Spec: sp, Responder: resp, SessionID: opts.SessionID, Parent: opts.Parent}
	if err := f.Service().AgentRoot(r.Name); err != nil {
		return f.Fail(err, cmdutil.Wording{})
	}
	m, err := f.OpenMessenger()
	if err != nil {
		return err
	}
	defer m.Close()
	// SIGINT and SIGTERM end the agent cleanly (it unregisters), also when
	// the caller did not arrange for it (a test binary standing in for parley).
	ctx, stop := interrupt.On(ctx)
	defer stop()
	r.Logger = f.Service().AgentLog(f.Stderr, slog.LevelInfo)
	r.Warn = func(w app.Warning) { _ = f.Warn(w) }
	r.Ready = func() {
		if f.JSON {
			_ = f.Emit(map[string]any{"event": "ready", "agent": r.Name, "role": r.Role, "spec": r.Spec.String(), "pid": os.Getpid()})
		} else {
			_ = textview.AgentReady(f.Stdout, r.Name, r.Role, r.Spec.String(), interrupt.HowToStop())
		}
	}
	switch err := f.Service().ServeAgent(ctx, m, r); {
	case errors.Is(err, agent.ErrParentGone):
		// The parent died before this process looked: nothing to serve.
		f.Warnf("the process that started this agent (pid %d) has ended; %s does not start", r.Parent, r.Name)
		return nil
	case err != nil:
		return f.Fail(err, cmdutil.Wording{})
	}
	return nil
}
