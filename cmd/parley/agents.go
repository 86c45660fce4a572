package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/textview"
)

// newAgentsCmd is "parley agents list|show|prune|add".
func newAgentsCmd(a *factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "agents",
		Short: "List, show, prune and add agents",
	}, newAgentsListCmd(a), newAgentsShowCmd(a), newAgentsPruneCmd(a), newAgentsAddCmd(a))
}

func newAgentsListCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List live agents (dead registrations are pruned)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			live, err := a.Service().LiveAgents(cmd.Context())
			switch {
			case errors.Is(err, app.ErrNoRoot):
				if !a.JSON {
					a.Printf("no live agents: there is no parley root at %s (%s makes one)\n", a.RootDir(), a.CmdLine("init"))
				}
				return nil
			case err != nil:
				return a.Fail(err, cmdutil.Wording{})
			case a.JSON:
				return cmdutil.EmitEach(a.Factory, live)
			}
			return textview.Agents(a.Stdout, live, a.StdoutTTY(), time.Now(), a.RootDir())
		},
	}
}

func newAgentsShowCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Show one agent: registration, liveness, inbox",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ag, err := a.Service().Agent(cmd.Context(), args[0])
			if err != nil {
				return a.Fail(err, cmdutil.Wording{})
			}
			return a.Show(ag, func(w io.Writer) error { return textview.Agent(w, args[0], ag, time.Now()) })
		},
	}
}

func newAgentsPruneCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "prune",
		Short: "Remove the registrations of dead agents (their inboxes stay)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			pruned, err := a.Service().Prune(cmd.Context())
			if err != nil {
				return a.Fail(err, cmdutil.Wording{})
			}
			if a.JSON {
				return cmdutil.EmitEach(a.Factory, pruned)
			}
			return textview.Pruned(a.Stdout, pruned)
		},
	}
}

func newAgentsAddCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "add NAME",
		Short: "Create the inbox of an agent that will come later",
		Long: "Create inbox/NAME so that messages can be sent to an agent before it runs.\n" +
			"The first session that registers NAME receives them.",
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := a.Service().AddAgent(cmd.Context(), args[0]) // makes the root if it is new
			if err != nil {
				return a.Fail(err, cmdutil.Wording{})
			}
			return a.Show(map[string]any{"agent": args[0], "inbox": dir}, func(w io.Writer) error {
				_, err := fmt.Fprintf(w, "inbox of %s ready at %s\n", args[0], dir)
				return err
			})
		},
	}
}
