package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/agentscmd"
	"github.com/parleyhq/parley/cmd/internal/benchcmd"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/cmd/internal/consensuscmd"
	"github.com/parleyhq/parley/cmd/internal/debatecmd"
	"github.com/parleyhq/parley/cmd/internal/gatecmd"
	"github.com/parleyhq/parley/cmd/internal/transcriptscmd"
	"github.com/parleyhq/parley/internal/argv"
	"github.com/parleyhq/parley/internal/bench"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/suggest"
)

// factory is what every subcommand of this package shares: the command
// line's cmdutil.Factory, and the helpers of the commands kept here.
type factory struct{ *cmdutil.Factory }

// run is the whole command line: main calls it, and so do the tests.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f, flush := cmdutil.New(stdin, stdout, stderr)
	defer flush()
	a := &factory{f}
	var showVersion bool
	root := &cobra.Command{
		Use:   "parley",
		Short: "Multi-agent debate and consensus coordinator",
		Long: "parley runs budgeted debates between verifier agents over a file messenger,\n" +
			"gates which questions deserve a debate, and files every verdict as a\n" +
			"Markdown consensus record in an Obsidian-style vault.",
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				return printVersion(a)
			}
			return cmd.Help()
		},
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Annotations[cmdutil.LazyInterrupt] == "" {
				interrupt.Arm(ctx)
			}
			a.Here = cmd.Annotations[cmdutil.RootHere] != ""
			if showVersion || readsNoRoot(cmd) {
				return nil // the version, the help and the completion scripts read no root
			}
			return a.TrustRoot()
		},
	}
	cmdutil.WaitsLazily(root) // its help and its --version never wait
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(a.Stdout)
	root.SetErr(a.Stderr)
	root.SetContext(ctx)
	pf := root.PersistentFlags()
	pf.StringVar(&a.RootFlag, "root", "", "messenger state directory (env PARLEY_ROOT, default the nearest .parley, as git finds .git)")
	pf.StringVar(&a.VaultFlag, "vault", "", "Obsidian-style vault directory (env PARLEY_VAULT, default <root>/vault)")
	pf.BoolVar(&a.JSON, "json", false, "print JSON Lines, one object per result")
	pf.BoolVarP(&a.Verbose, "verbose", "v", false, "log what happens to stderr")
	root.Flags().BoolVar(&showVersion, "version", false, "print the version and the revision parley was built from")
	subs, all := commandsFor(a, args)
	root.AddCommand(subs...)
	// Only a command line that names no subcommand can reach completion.
	root.CompletionOptions.DisableDefaultCmd = !all
	cmdutil.Polish(root, examples()) // the examples, unknown commands and flag errors of every command
	return cmdutil.Execute(ctx, root)
}

// readsNoRoot reports whether cmd is cobra's help command or one of its
// completion script commands ("parley completion bash"), which print
// what the command tree holds and read no root, so that a root parley
// refuses does not keep a user from its help.
func readsNoRoot(cmd *cobra.Command) bool {
	for c := cmd; c.HasParent(); c = c.Parent() {
		if c.Parent() == cmd.Root() && (c.Name() == "help" || c.Name() == "completion") {
			return true
		}
	}
	return false
}

// subcommand is one subcommand's constructor, under the name it is typed as.
type subcommand struct {
	name string
	make func(*factory) *cobra.Command
}

// subcommands lists the subcommands: a constructor of this package (one
// per file), or the NewCmd of a command package (cmd/internal/*cmd).
var subcommands = []subcommand{
	{"init", newInitCmd},
	{"demo", newDemoCmd},
	{"agents", func(a *factory) *cobra.Command { return agentscmd.NewCmd(a.Factory) }},
	{"send", func(a *factory) *cobra.Command { return newSendCmd(a, nil) }},
	{"recv", func(a *factory) *cobra.Command { return newRecvCmd(a, nil) }},
	{"watch", func(a *factory) *cobra.Command { return newWatchCmd(a, nil) }},
	{"gc", newGCCmd},
	{"bench", func(a *factory) *cobra.Command { return benchcmd.NewCmd(a.Factory) }},
	{"gate", func(a *factory) *cobra.Command { return gatecmd.NewCmd(a.Factory, nil) }},
	{"consensus", func(a *factory) *cobra.Command { return consensuscmd.NewCmd(a.Factory) }},
	{"vault", newVaultCmd},
	{bench.SenderCommand, func(a *factory) *cobra.Command { return benchcmd.NewCmdSender(a.Factory, nil) }},
	{"transcripts", func(a *factory) *cobra.Command { return transcriptscmd.NewCmd(a.Factory) }},
	{"debate", func(a *factory) *cobra.Command { return debatecmd.NewCmd(a.Factory) }},
	{"agent", func(a *factory) *cobra.Command { return agentscmd.NewAgentCmd(a.Factory) }},
	{"mcp", newMCPCmd},
	{"serve", newServeCmd},
	{"escalate", newEscalateCmd},
	{"config", newConfigCmd},
	{"version", newVersionCmd},
}

// commands makes every subcommand.
func commands(a *factory) []*cobra.Command {
	cmds := make([]*cobra.Command, len(subcommands))
	for i, s := range subcommands {
		cmds[i] = s.make(a)
	}
	return cmds
}

// commandsFor makes what the command line args can run: only the
// subcommand it names, when it names one after nothing but global flags
// (a send builds one command, not the tree of forty; with the commands
// named close to it: see near), and every
// subcommand otherwise (help, completion, a mistyped name to suggest
// the right one for). It reports whether it made them all.
func commandsFor(a *factory, args []string) ([]*cobra.Command, bool) {
	if globals.Only(args, "--version") { // parley --version, global flags aside
		return nil, false
	}
	if name := globals.Command(args); name != "" {
		for _, s := range subcommands {
			if s.name == name {
				return append([]*cobra.Command{s.make(a)}, near(a, name)...), false
			}
		}
	}
	return commands(a), true
}

// near makes the other subcommands whose name is close to name ("agents"
// for "agent", and the other way round), so that a subcommand typed under
// the wrong one of them is suggested under the right one.
func near(a *factory, name string) []*cobra.Command {
	var out []*cobra.Command
	for _, s := range subcommands {
		if s.name != name && suggest.Near(name, s.name) {
			out = append(out, s.make(a))
		}
	}
	return out
}

// globals are the root's persistent flags as a command line gives them
// before a subcommand's name.
var globals = argv.Globals{Valued: []string{"--root", "--vault"}, Switches: []string{"--json", "--verbose", "-v"}}
