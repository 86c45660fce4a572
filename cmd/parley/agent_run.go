package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/registry"
)

// newAgentCmd is "parley agent run".
func newAgentCmd(a *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "agent",
		Short: "Keep a debate agent alive",
		Args:  exactArgs(0),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newAgentRunCmd(a))
	return cmd
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
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validName("--name", name); err != nil {
				return err
			}
			r, err := debate.ParseRole(role)
			if err != nil {
				return usagef("--role: %v", err)
			}
			given := 0
			for _, s := range []string{execCmd, script, openaiModel, spec} {
				if s != "" {
					given++
				}
			}
			if given != 1 {
				return usagef("give exactly one of --exec CMD, --script FILE, --openai MODEL or --spec KIND:ARG")
			}
			switch {
			case execCmd != "":
				spec = agent.KindExec + ":" + execCmd
			case script != "":
				spec = agent.KindScript + ":" + script
			case openaiModel != "":
				spec = agent.KindOpenAI + ":" + openaiModel
			}
			sp, err := agent.ParseSpec(spec)
			if err != nil {
				return usagef("%v", err)
			}
			ads, err := a.agentAdapters()
			if err != nil {
				return err
			}
			resp, err := ads.New(sp)
			if err != nil {
				if errors.Is(err, agent.ErrBadSpec) || errors.Is(err, agent.ErrUnavailable) {
					return usagef("%v", err)
				}
				return err
			}
			parent := 0
			if exitWithParent {
				parent = parentPID
				if parent <= 0 {
					parent = os.Getppid()
				}
			}
			return a.runAgent(cmd.Context(), name, r, sp, resp, sessionID, parent)
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

// runAgent serves as name until ctx ends (SIGINT, SIGTERM) or, when parent
// is not 0, until this process's parent is no longer that process (it
// died, and this one was handed to another).
func (a *factory) runAgent(ctx context.Context, name string, role debate.Role, sp agent.Spec, resp agent.Responder, sessionID string, parent int) error {
	m, err := a.openMessenger()
	if err != nil {
		return err
	}
	defer m.Close()
	// SIGINT and SIGTERM end the agent cleanly (it unregisters), also when
	// the caller did not arrange for it (a test binary standing in for parley).
	ctx, stopSignals := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	if parent != 0 {
		var stop func()
		if ctx, stop, err = agent.WatchParent(ctx, parent); err != nil {
			// The parent died before this process looked: nothing to serve.
			a.warnf("the process that started this agent (pid %d) has ended; %s does not start", parent, name)
			return nil
		}
		defer stop()
	}
	reg := &agent.SessionRegistry{Registrar: m.reg, SessionID: sessionID, Model: sp.String()}
	r := &agent.Runner{
		Name: name, Roles: []debate.Role{role}, Transport: m.tr, Registry: reg, Responder: resp,
		Logger: a.agentLogger(), Heartbeat: a.heartbeatEvery(),
		Ready: func() {
			if a.json {
				_ = a.emit(map[string]any{"event": "ready", "agent": name, "role": role, "spec": sp.String(), "pid": os.Getpid()})
			} else {
				a.printf("agent %s (%s, %s) is listening; stop it with Ctrl-C\n", name, role, sp)
			}
		},
	}
	if err := r.Run(ctx); err != nil {
		if errors.Is(err, registry.ErrNameTaken) {
			return fmt.Errorf("%w: another live agent is called %s (see parley agents list)", err, name)
		}
		return messengerError(err)
	}
	return nil
}

// agentLogger is the log of a running agent: --verbose's, else info and
// above on stderr (a message the agent cannot use is worth a line there,
// or in the log file of an agent a debate started).
func (a *factory) agentLogger() *slog.Logger {
	if a.verbose {
		return a.logger()
	}
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}
