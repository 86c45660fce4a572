// Package app is parley's service layer: the typed API under every front
// end. The command line (cmd/parley), the MCP server (mcpserver) and the
// web server (web) open an App and call it; they only translate their
// input into its arguments and its results into their output. Warnings are
// values returned to the caller, never printed here.
//
// app owns: where a root and its vault are, loading config.json, and
// opening the messenger backend the configuration names (see Backend);
// sending with the recipient's liveness (Send, Deliver), receiving and
// watching (Recv, Receive, Watch), agents (LiveAgents, Agent, AddAgent,
// Prune), collection (Collect), Init, debate-id and record prefixes
// (ResolveDebate, ResolveRecord) and the build's Version. A refusal is an
// *Error with a Problem, its message naming each input in braces so that
// every front end names it its own way (a flag, a tool argument).
// It must not import cobra, mcpserver, web or anything under cmd: front
// ends import app, never the other way round.
package app

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/internal/rootdir"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/registry"
)

// Options say where the App works. The zero value is the defaults: the
// root from $PARLEY_ROOT or the nearest .parley (FindRoot), the vault from
// $PARLEY_VAULT or <root>/vault, no logging. A root or vault that starts
// with "~/" is under the user's home directory (config.ExpandHome).
type Options struct {
	// Root is the messenger state directory; "" means $PARLEY_ROOT, or,
	// when that is unset, the .parley of the working directory or of the
	// nearest directory above it that has one (FindRoot), as git finds
	// .git: a command run from a subdirectory uses the root above it
	// rather than making a second one.
	Root string
	// Here makes the default root .parley in the working directory itself,
	// never a parent's: for init, which makes a root where it is run.
	Here bool
	// Vault is the Obsidian-style vault; "" means $PARLEY_VAULT, or
	// <root>/vault when that is unset.
	Vault string
	// Logger receives debug logs; nil discards them.
	Logger *slog.Logger
	// Notify is told what the App is waiting for (a NATS server that does
	// not answer yet), so a front end can say so; nil ignores it.
	Notify func(Notice)
	// Spawn says how parley processes of the App's own (a debate's agents,
	// a detached debate) are started; the zero value runs this executable.
	Spawn Spawn
}

// Notice is something a front end may want to show while a call runs.
type Notice struct {
	// Kind names the notice: NoticeWaiting, NoticeGateBusy.
	Kind string
	// Server is the server waited for (for NoticeWaiting, the NATS URLs
	// of config.json, without their user information).
	Server string
	// Err is the cause (for NoticeWaiting, the last connection error).
	Err error
	// Window is how long the App goes on waiting.
	Window time.Duration
}

// NoticeWaiting: the messenger's server does not answer; the App retries
// for Window before it gives up.
const NoticeWaiting = "waiting"

// App is one root and its vault. It is cheap to make: nothing is read
// until a method needs it (finding the default root is a stat of .parley
// in the working directory and, where there is none, in each directory
// above it).
type App struct {
	root, vault string
	named       [2]string // the Options' Root and Vault as given, for CommandLine
	env         [2]string // $PARLEY_ROOT and $PARLEY_VAULT where they chose the root and vault, for CommandLineElsewhere
	vaultNamed  bool      // the vault was named (Options.Vault, $PARLEY_VAULT), not <root>/vault
	log         *slog.Logger
	notify      func(Notice)
	spawn       Spawn
}

// New makes an App for the root and vault the options name.
func New(o Options) *App {
	a := &App{root: o.Root, vault: o.Vault, named: [2]string{o.Root, o.Vault}, log: o.Logger, notify: o.Notify, spawn: o.Spawn}
	env := os.Getenv("PARLEY_ROOT")
	var fromEnv bool
	a.root, fromEnv = rootdir.Named(o.Root, env, o.Here)
	if fromEnv {
		a.env[0] = env
	}
	if a.vault == "" {
		a.vault = os.Getenv("PARLEY_VAULT")
		a.env[1] = a.vault
	}
	a.vault = rootdir.ExpandHome(a.vault)
	a.vaultNamed = a.vault != ""
	if a.vault == "" {
		a.vault = filepath.Join(a.root, "vault")
	}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	if a.notify == nil {
		a.notify = func(Notice) {}
	}
	return a
}

// DefaultRoot is the root's name in the directory it belongs to.
const DefaultRoot = rootdir.Default

// CommandLine is the command line that runs parley args on this App's
// root and vault, ready to paste: "parley", the --root and --vault its
// Options named as they were given (none for the environment's and the
// defaults, which the same shell finds again), then args, each quoted for
// the shell where it needs it. Every command parley suggests is one.
func (a *App) CommandLine(args ...string) string { return commandLine(a.named, args) }

// CommandLineElsewhere is CommandLine for a shell that does not share
// this process's environment: the shell in which an MCP client's agent
// runs what a tool suggests, where the client set $PARLEY_ROOT or
// $PARLEY_VAULT for the server alone. A root or vault that one of them
// chose is named too, as the variable gave it.
func (a *App) CommandLineElsewhere(args ...string) string {
	named := a.named
	for i := range named {
		if named[i] == "" {
			named[i] = a.env[i]
		}
	}
	return commandLine(named, args)
}

// commandLine is "parley", --root and --vault when named, then args.
func commandLine(named [2]string, args []string) string {
	words := []string{"parley"}
	if named[0] != "" {
		words = append(words, "--root", named[0])
	}
	if named[1] != "" {
		words = append(words, "--vault", named[1])
	}
	return suggest.CommandLine(append(words, args...)...)
}

// Root is the messenger state directory.
func (a *App) Root() string { return a.root }

// Vault is the vault directory.
func (a *App) Vault() string { return a.vault }

// Logger is where the App and what it opens log.
func (a *App) Logger() *slog.Logger { return a.log }

// Config is <root>/config.json (the defaults when it is missing), read
// at each call: a command that writes it (init, demo) reads what it wrote.
// Its "transport" must name a registered backend (see RegisterBackend).
func (a *App) Config() (*config.Config, error) {
	cfg, err := config.Load(a.root)
	if err != nil {
		return nil, err
	}
	if t := cfg.Transport; t != "" && !registered(t) {
		return nil, fmt.Errorf("%s: %w", filepath.Join(a.root, config.FileName), unknownBackend(t))
	}
	return cfg, nil
}

// HaveRoot reports whether the root exists as one: a directory that
// holds any of what a root holds (rootEntries), or an empty one (made for
// it). A directory of other files (a project's, named with --root) is no
// root, and calls that only read make none in it. Anything else at the
// path (a file, a directory that cannot be read) is for what opens it to
// refuse.
func (a *App) HaveRoot() bool { return rootdir.Have(a.root) }

// RegistrationTTL is how long a registration stays live without a
// heartbeat: config's messenger.heartbeatTtlMs, else registry.DefaultTTL.
func (a *App) RegistrationTTL() time.Duration {
	if cfg, err := a.Config(); err == nil && cfg.Messenger.HeartbeatTTL() > 0 {
		return cfg.Messenger.HeartbeatTTL()
	}
	return registry.DefaultTTL
}

// HeartbeatEvery is how often a registration is renewed: a third of the
// TTL, at most every 5s.
func (a *App) HeartbeatEvery() time.Duration { return min(a.RegistrationTTL()/3, 5*time.Second) }
