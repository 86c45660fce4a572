package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/internal/textview"
)

// newAgentsCmd is "parley agents list|show|prune|add".
func newAgentsCmd(a *factory) *cobra.Command {
	return group(&cobra.Command{
		Use:   "agents",
		Short: "List, show, prune and add agents",
	}, newAgentsListCmd(a), newAgentsShowCmd(a), newAgentsPruneCmd(a), newAgentsAddCmd(a))
}

func newAgentsListCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List live agents (dead registrations are pruned)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			live, err := a.service().LiveAgents(cmd.Context())
			switch {
			case errors.Is(err, app.ErrNoRoot):
				if !a.json {
					a.printf("no live agents: there is no parley root at %s (%s makes one)\n", a.rootDir(), a.cmdLine("init"))
				}
				return nil
			case err != nil:
				return a.fail(err, wording{})
			case a.json:
				return emitEach(a, live)
			}
			return textview.Agents(a.stdout, live, a.stdoutTTY(), time.Now(), a.rootDir())
		},
	}
}

func newAgentsShowCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Show one agent: registration, liveness, inbox",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ag, err := a.service().Agent(cmd.Context(), args[0])
			if err != nil {
				return a.fail(err, wording{})
			}
			return a.show(ag, func(w io.Writer) error { return textview.Agent(w, args[0], ag, time.Now()) })
		},
	}
}

func newAgentsPruneCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "prune",
		Short: "Remove the registrations of dead agents (their inboxes stay)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			pruned, err := a.service().Prune(cmd.Context())
			if err != nil {
				return a.fail(err, wording{})
			}
			if a.json {
				return emitEach(a, pruned)
			}
			return textview.Pruned(a.stdout, pruned)
		},
	}
}

func newAgentsAddCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "add NAME",
		Short: "Create the inbox of an agent that will come later",
		Long: "Create inbox/NAME so that messages can be sent to an agent before it runs.\n" +
			"The first session that registers NAME receives them.",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := a.service().AddAgent(cmd.Context(), args[0]) // makes the root if it is new
			if err != nil {
				return a.fail(err, wording{})
			}
			return a.show(map[string]any{"agent": args[0], "inbox": dir}, func(w io.Writer) error {
				_, err := fmt.Fprintf(w, "inbox of %s ready at %s\n", args[0], dir)
				return err
			})
		},
	}
}
