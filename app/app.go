// Package app is parley's service layer: the typed API under every front
// end. The command line (cmd/parley), the MCP server (mcpserver) and the
// web server (web) open an App and call it; they only translate their
// input into its arguments and its results into their output. Warnings are
// values returned to the caller, never printed here.
//
// app owns: where a root and its vault are, loading config.json, and
// opening the messenger backend the configuration names (see Backend).
// It must not import cobra, mcpserver, web or anything under cmd: front
// ends import app, never the other way round.
package app

import (
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/parleyhq/parley/config"
)

// Options say where the App works. The zero value is the defaults: the
// root from $PARLEY_ROOT or .parley, the vault from $PARLEY_VAULT or
// <root>/vault, no logging.
type Options struct {
	// Root is the messenger state directory; "" means $PARLEY_ROOT, or
	// .parley when that is unset.
	Root string
	// Vault is the Obsidian-style vault; "" means $PARLEY_VAULT, or
	// <root>/vault when that is unset.
	Vault string
	// Logger receives debug logs; nil discards them.
	Logger *slog.Logger
	// Notify is told what the App is waiting for (a NATS server that does
	// not answer yet), so a front end can say so; nil ignores it.
	Notify func(Notice)
}

// Notice is something a front end may want to show while a call runs.
type Notice struct {
	// Kind names the notice: NoticeWaiting.
	Kind string
	// Err is the cause (for NoticeWaiting, the last connection error).
	Err error
	// Window is how long the App goes on waiting.
	Window time.Duration
}

// NoticeWaiting: the messenger's server does not answer; the App retries
// for Window before it gives up.
const NoticeWaiting = "waiting"

// App is one root and its vault. It is cheap to make: nothing is read
// until a method needs it.
type App struct {
	root, vault string
	log         *slog.Logger
	notify      func(Notice)
}

// New makes an App for the root and vault the options name.
func New(o Options) *App {
	a := &App{root: o.Root, vault: o.Vault, log: o.Logger, notify: o.Notify}
	if a.root == "" {
		a.root = os.Getenv("PARLEY_ROOT")
	}
	if a.root == "" {
		a.root = ".parley"
	}
	if a.vault == "" {
		a.vault = os.Getenv("PARLEY_VAULT")
	}
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

// Root is the messenger state directory.
func (a *App) Root() string { return a.root }

// Vault is the vault directory.
func (a *App) Vault() string { return a.vault }

// Logger is where the App and what it opens log.
func (a *App) Logger() *slog.Logger { return a.log }

// Config is <root>/config.json (the defaults when it is missing), read
// at each call: a command that writes it (init, demo) reads what it wrote.
func (a *App) Config() (*config.Config, error) { return config.Load(a.root) }
