package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/internal/argv"
	"github.com/parleyhq/parley/internal/bench"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/termsafe"
)

// Exit codes, the same for every command (the README's table).
const (
	exitOK      = 0
	exitError   = 1
	exitUsage   = 2
	exitBlocked = 3 // a consensus conflict, a verdict other than CONSENSUS_REACHED, gate --exit-code choosing debate
	// exitUnavailable: a debate ended UNAVAILABLE, an agent or its model
	// endpoint could not be reached (a configuration mistake, nothing filed).
	// Like every verdict but CONSENSUS_REACHED it needs escalation; the
	// output, not the code, names the agent and the cause.
	exitUnavailable = exitBlocked
)

// factory is what every subcommand shares: the global flags and the streams.
type factory struct {
	rootFlag, vaultFlag string
	json                bool
	verbose             bool

	stdin          io.Reader
	stdout, stderr io.Writer
	// tty is stdout itself when it is a terminal (stdout then filters
	// what it prints through termsafe), for parley's own control
	// sequences; nil otherwise.
	tty io.Writer

	svc    *app.App // see service
	svcFor svcFlags // the flags svc was made for
}

// run is the whole command line: main calls it, and so do the tests.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	a := &factory{stdin: stdin, stdout: stdout, stderr: stderr}
	var showVersion bool
	// On a terminal, nothing parley prints (agents' text, records, pages,
	// JSON) may drive it: every byte goes through termsafe.
	if termsafe.IsTerminal(stdout) {
		w := termsafe.NewWriter(stdout)
		defer w.Flush()
		a.stdout, a.tty = w, stdout
	}
	if termsafe.IsTerminal(stderr) {
		w := termsafe.NewWriter(stderr)
		defer w.Flush()
		a.stderr = w
	}
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
			if cmd.Annotations[lazyInterrupt] == "" {
				interrupt.Arm(ctx)
			}
			if showVersion {
				return nil // the version reads no root
			}
			return a.trustRoot()
		},
	}
	waitsLazily(root) // its help and its --version never wait
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetContext(ctx)
	pf := root.PersistentFlags()
	pf.StringVar(&a.rootFlag, "root", "", "messenger state directory (env PARLEY_ROOT, default .parley)")
	pf.StringVar(&a.vaultFlag, "vault", "", "Obsidian-style vault directory (env PARLEY_VAULT, default <root>/vault)")
	pf.BoolVar(&a.json, "json", false, "print JSON Lines, one object per result")
	pf.BoolVarP(&a.verbose, "verbose", "v", false, "log what happens to stderr")
	root.Flags().BoolVar(&showVersion, "version", false, "print the version and the revision parley was built from")
	subs, all := commandsFor(a, args)
	root.AddCommand(subs...)
	// Only a command line that names no subcommand can reach completion.
	root.CompletionOptions.DisableDefaultCmd = !all
	polish(root) // the examples, unknown commands and flag errors of every command
	return root.ExecuteContext(ctx)
}

// subcommand is one subcommand's constructor, under the name it is typed as.
type subcommand struct {
	name string
	make func(*factory) *cobra.Command
}

// subcommands lists the subcommands, one constructor per file.
var subcommands = []subcommand{
	{"init", newInitCmd},
	{"demo", newDemoCmd},
	{"agents", newAgentsCmd},
	{"send", func(a *factory) *cobra.Command { return newSendCmd(a, nil) }},
	{"recv", func(a *factory) *cobra.Command { return newRecvCmd(a, nil) }},
	{"watch", func(a *factory) *cobra.Command { return newWatchCmd(a, nil) }},
	{"gc", newGCCmd},
	{"bench", newBenchCmd},
	{"gate", newGateCmd},
	{"consensus", newConsensusCmd},
	{"vault", newVaultCmd},
	{bench.SenderCommand, newBenchSenderCmd},
	{"transcripts", newTranscriptsCmd},
	{"debate", newDebateCmd},
	{"agent", newAgentCmd},
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
// (a send builds one command, not the tree of forty), and every
// subcommand otherwise (help, completion, a mistyped name to suggest
// the right one for). It reports whether it made them all.
func commandsFor(a *factory, args []string) ([]*cobra.Command, bool) {
	if globals.Only(args, "--version") { // parley --version, global flags aside
		return nil, false
	}
	if name := globals.Command(args); name != "" {
		for _, s := range subcommands {
			if s.name == name {
				return []*cobra.Command{s.make(a)}, false
			}
		}
	}
	return commands(a), true
}

// globals are the root's persistent flags as a command line gives them
// before a subcommand's name.
var globals = argv.Globals{Valued: []string{"--root", "--vault"}, Switches: []string{"--json", "--verbose", "-v"}}

// rootDir is the messenger state directory: --root, $PARLEY_ROOT, or .parley.
func (a *factory) rootDir() string { return a.service().Root() }

// vaultDir is the vault: --vault, $PARLEY_VAULT, or <root>/vault.
func (a *factory) vaultDir() string { return a.service().Vault() }

// config loads <root>/config.json (defaults when it is missing).
func (a *factory) config() (*config.Config, error) { return a.service().Config() }

// svcFlags are the global flags an App is made from.
type svcFlags struct {
	root, vault string
	verbose     bool
}

// service is the service layer for --root, --vault and --verbose, made on
// first use (after the flags are parsed) and shared by the command's
// calls; made again if the flags changed (the demo moves to its own root).
func (a *factory) service() *app.App {
	if f := (svcFlags{a.rootFlag, a.vaultFlag, a.verbose}); a.svc == nil || a.svcFor != f {
		a.svcFor = f
		a.svc = app.New(app.Options{
			Root: a.rootFlag, Vault: a.vaultFlag, Logger: a.logger(), Spawn: a.spawn(),
			Notify: func(n app.Notice) {
				if n.Kind == app.NoticeWaiting {
					a.warnf("the NATS server does not answer (%v); retrying for up to %v (Ctrl-C to stop)", n.Err, n.Window)
				}
			},
		})
	}
	return a.svc
}

// logger logs to stderr under --verbose and nowhere otherwise.
func (a *factory) logger() *slog.Logger {
	if !a.verbose {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// emit prints one JSON line under --json.
func (a *factory) emit(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = a.stdout.Write(b)
	return err
}

// printf prints human output (not under --json).
func (a *factory) printf(format string, args ...any) {
	fmt.Fprintf(a.stdout, format, args...)
}

// warnf prints a one-line warning to stderr.
func (a *factory) warnf(format string, args ...any) {
	fmt.Fprintf(a.stderr, "parley: warning: "+format+"\n", args...)
}

// usageError is a mistake on the command line: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// blockedError means the command worked and its answer is "blocked or needs
// escalation": exit 3. Its message may be empty when the output said it all.
type blockedError struct{ msg string }

func (e blockedError) Error() string { return e.msg }

// exactArgs is cobra.ExactArgs whose failure is a usage error.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return argCountError(cmd, "", n, len(args))
		}
		return nil
	}
}

// maxArgs is cobra.MaximumNArgs whose failure is a usage error.
func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return argCountError(cmd, "at most ", n, len(args))
		}
		return nil
	}
}

// exitCode prints err as one line on stderr and maps it to an exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var unavail unavailableExit
	if errors.As(err, &unavail) {
		return exitUnavailable // the output named the agent and the cause
	}
	var be blockedError
	if errors.As(err, &be) {
		if be.msg != "" {
			fmt.Fprintf(stderr, "parley: %s\n", termsafe.Clean(be.msg, ""))
		}
		return exitBlocked
	}
	// An error can quote what it refused (a name, a line of a file): it
	// never drives the terminal.
	msg := termsafe.Clean(strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", " "), "")
	fmt.Fprintf(stderr, "parley: %s\n", msg)
	if errors.Is(err, errInterrupted) {
		return exitInterrupted
	}
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return exitUsage
	}
	return exitError
}

// isCobraUsage recognises cobra's own usage errors, which it does not type.
func isCobraUsage(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown command") || strings.HasPrefix(s, "unknown flag") ||
		strings.HasPrefix(s, "unknown shorthand flag") || strings.Contains(s, "requires at least") ||
		strings.HasPrefix(s, "required flag")
}
