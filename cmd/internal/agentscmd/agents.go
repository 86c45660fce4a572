// Package agentscmd is "parley agents" (list, show, prune and add the
// agents of a root) and "parley agent run" (keep one debate agent alive).
//
// Each command is an options struct, a constructor NewCmdX(f, runF) and a
// run function, as in GitHub's gh (see cmdutil.Runner). It owns these
// commands' flags and output; registrations, liveness and serving turns
// are the service layer's (app, over packages registry and agent). It
// imports no other command package.
package agentscmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/textview"
)

// NewCmd is "parley agents list|show|prune|add".
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "agents",
		Short: "List, show, prune and add agents",
	}, NewCmdList(f, nil), NewCmdShow(f, nil), NewCmdPrune(f, nil), NewCmdAdd(f, nil))
}

// RootOptions are what a command that takes nothing but the root (agents
// list, agents prune) was asked for.
type RootOptions struct{ f *cmdutil.Factory }

// NameOptions are what a command on one agent (agents show, agents add)
// was asked for.
type NameOptions struct {
	f    *cmdutil.Factory
	Name string // the agent's name as typed
}

// nameCmd is cmd taking one agent's name as its argument.
func nameCmd(f *cmdutil.Factory, cmd *cobra.Command, runF func(*NameOptions) error, run func(context.Context, *NameOptions) error) *cobra.Command {
	return cmdutil.OneArg(cmd, &NameOptions{f: f}, func(o *NameOptions, name string) { o.Name = name }, runF, run)
}

// NewCmdList is "parley agents list": the live agents (dead registrations
// are pruned).
func NewCmdList(f *cmdutil.Factory, runF func(*RootOptions) error) *cobra.Command {
	opts := &RootOptions{f: f}
	run := cmdutil.Runner(opts, runF, func(ctx context.Context, opts *RootOptions) error {
		list, err := f.Service().LiveAgents(ctx)
		switch {
		case errors.Is(err, app.ErrNoRoot):
			return f.NoRootNote("no live agents: ")
		case err != nil:
			return f.Fail(err, cmdutil.Wording{})
		case f.JSON:
			return cmdutil.EmitEach(f, list.Live)
		}
		return textview.Agents(f.Stdout, list.Live, f.StdoutTTY(), time.Now(), list.Registry)
	})
	return &cobra.Command{
		Use:   "list",
		Short: "List live agents (dead registrations are pruned)",
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(cmd) },
	}
}

// NewCmdShow is "parley agents show NAME".
func NewCmdShow(f *cmdutil.Factory, runF func(*NameOptions) error) *cobra.Command {
	return nameCmd(f, &cobra.Command{
		Use:   "show NAME",
		Short: "Show one agent: registration, liveness, inbox",
	}, runF, func(ctx context.Context, opts *NameOptions) error {
		ag, err := f.Service().Agent(ctx, opts.Name)
		if err != nil {
			return f.Fail(err, cmdutil.Wording{})
		}
		return f.Show(ag, func(w io.Writer) error { return textview.Agent(w, opts.Name, ag, time.Now()) })
	})
}

// NewCmdPrune is "parley agents prune": the registrations of dead agents
// removed (their inboxes stay).
func NewCmdPrune(f *cmdutil.Factory, runF func(*RootOptions) error) *cobra.Command {
	opts := &RootOptions{f: f}
	run := cmdutil.Runner(opts, runF, func(ctx context.Context, opts *RootOptions) error {
		pruned, warnings, err := f.Service().Prune(ctx)
		if err != nil {
			return f.Fail(err, cmdutil.Wording{})
		}
		if err := f.Warn(warnings...); err != nil {
			return err
		}
		if f.JSON {
			return cmdutil.EmitEach(f, pruned)
		}
		return textview.Pruned(f.Stdout, pruned)
	})
	return &cobra.Command{
		Use:   "prune",
		Short: "Remove the registrations of dead agents (their inboxes stay)",
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(cmd) },
	}
}

// NewCmdAdd is "parley agents add NAME": the inbox of an agent that will
// come later.
func NewCmdAdd(f *cmdutil.Factory, runF func(*NameOptions) error) *cobra.Command {
	return nameCmd(f, &cobra.Command{
		Use:   "add NAME",
		Short: "Create the inbox of an agent that will come later",
		Long: "Create inbox/NAME so that messages can be sent to an agent before it runs.\n" +
			"The first session that registers NAME receives them.",
	}, runF, func(ctx context.Context, opts *NameOptions) error {
		added, err := f.Service().AddAgent(ctx, opts.Name) // makes the root if it is new
		if err != nil {
			return f.Fail(err, cmdutil.Wording{})
		}
		if err := f.Warn(added.Warnings...); err != nil {
			return err
		}
		return f.Show(map[string]any{"agent": opts.Name, "inbox": added.Inbox}, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "inbox of %s ready at %s\n", opts.Name, added.Inbox)
			return err
		})
	})
}
