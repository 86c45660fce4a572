package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/registry"
)

// newAgentCmd is "parley agent run".
func newAgentCmd(a *factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "agent",
		Short: "Keep a debate agent alive",
	}, newAgentRunCmd(a))
}

func newAgentRunCmd(a *factory) *cobra.Command {
	var name, role, execCmd, script, openaiModel, spec, sessionID string
	var exitWithParent bool
	var parentPID int
	cmd := &cobra.Command{
		Use:   "run --name N --role R (--exec CMD | --script FILE | --openai MODEL | --spec KIND:ARG)",
		Short: "Register an agent and answer its turn requests until interrupted",
		Long: "Registers NAME, heartbeats, answers every turn_request in its inbox, and\n" +
			"unregisters on SIGINT or SIGTERM. --exec runs CMD per turn (the request as\n" +
			"JSON on stdin; a debate_turn JSON object or plain text on stdout); --script\n" +
			"answers from a JSON script (see docs/debates.md).",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := app.ValidName("name", name); err != nil {
				return a.Fail(err, cmdutil.Wording{})
			}
			r, err := debate.ParseRole(role)
			if err != nil {
				return cmdutil.Usagef("--role: %v", err)
			}
			spec, err := app.AgentSpec(execCmd, script, openaiModel, spec)
			if err != nil {
				return cmdutil.Usagef("give exactly one of --exec CMD, --script FILE, --openai MODEL or --spec KIND:ARG")
			}
			sp, resp, err := a.Service().AgentResponder(spec, a.Service().AgentLog(a.Stderr, slog.LevelWarn))
			if errors.Is(err, agent.ErrBadSpec) || errors.Is(err, agent.ErrUnavailable) {
				return cmdutil.Usagef("%v", err)
			} else if err != nil {
				return err
			}
			return a.runAgent(cmd.Context(), app.AgentRun{Name: name, Role: r, Spec: sp, Responder: resp, SessionID: sessionID,
				Parent: app.ParentPID(exitWithParent, parentPID)})
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "name", "", "the agent's name (letters, digits, '_' and '-')")
	f.StringVar(&role, "role", "", "defender or attacker")
	f.StringVar(&execCmd, "exec", "", "command run per turn with sh -c")
	f.StringVar(&script, "script", "", "JSON script of turns")
	f.StringVar(&openaiModel, "openai", "", "model served by the OpenAI-compatible endpoint of config.json (openai.baseUrl)")
	f.StringVar(&spec, "spec", "", "any agent spec, e.g. script:FILE, openai:MODEL or another chat provider's KIND:MODEL")
	f.StringVar(&sessionID, "session-id", "", "registry session id (default: a new one)")
	f.BoolVar(&exitWithParent, "exit-with-parent", false, "stop when the process that started this one ends")
	f.IntVar(&parentPID, "parent-pid", 0, "with --exit-with-parent: the pid of that process (default: the parent found at start)")
	_ = f.MarkHidden("session-id")
	_ = f.MarkHidden("exit-with-parent")
	_ = f.MarkHidden("parent-pid")
	return cmd
}

// runAgent serves as r.Name until interrupted (SIGINT, SIGTERM) or, when
// r.Parent is not 0, until this process's parent is no longer that
// process (it died, and this one was handed to another).
func (a *factory) runAgent(ctx context.Context, r app.AgentRun) error {
	m, err := a.OpenMessenger()
	if err != nil {
		return err
	}
	defer m.Close()
	// SIGINT and SIGTERM end the agent cleanly (it unregisters), also when
	// the caller did not arrange for it (a test binary standing in for parley).
	ctx, stop := interrupt.On(ctx)
	defer stop()
	r.Logger = a.Service().AgentLog(a.Stderr, slog.LevelInfo)
	r.Ready = func() {
		if a.JSON {
			_ = a.Emit(map[string]any{"event": "ready", "agent": r.Name, "role": r.Role, "spec": r.Spec.String(), "pid": os.Getpid()})
		} else {
			_ = textview.AgentReady(a.Stdout, r.Name, r.Role, r.Spec.String())
		}
	}
	switch err := a.Service().ServeAgent(ctx, m, r); {
	case errors.Is(err, agent.ErrParentGone):
		// The parent died before this process looked: nothing to serve.
		a.Warnf("the process that started this agent (pid %d) has ended; %s does not start", r.Parent, r.Name)
		return nil
	case errors.Is(err, registry.ErrNameTaken):
		return fmt.Errorf("%w: another live agent is called %s (see parley agents list)", err, r.Name)
	case err != nil:
		return a.Fail(err, cmdutil.Wording{})
	}
	return nil
}
