// Package cmdutil is what every parley command shares, as GitHub's gh
// keeps it in its cmdutil and iostreams: the Factory (the global flags,
// the streams and whether they are a terminal, the service layer made on
// first use), printing (human text, or JSON Lines under --json),
// the exit codes and the errors that choose them, and the habits applied
// to the whole command tree (examples in the help, "did you mean" for
// commands and flags, usage errors for wrong argument counts).
//
// It owns how a command talks to the user, not what a command does: that
// is the service layer's (package app). It must not import a command
// package, or any package that does work behind the service layer's back.
package cmdutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/internal/userfile"
)

// Factory is what every subcommand shares: the global flags and the streams.
type Factory struct {
	RootFlag, VaultFlag string
	JSON                bool
	Verbose             bool
	// Here makes the default root .parley in the working directory, not
	// the nearest one above it (app.Options.Here): init's, see RootHere.
	Here bool

	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// TTY is stdout itself when it is a terminal (stdout then filters
	// what it prints through termsafe), for parley's own control
	// sequences; nil otherwise.
	TTY io.Writer

	svc    *app.App // see service
	svcFor svcFlags // the flags svc was made for
}

// New is the Factory of one command line over its streams. On a
// terminal nothing parley prints (agents' text, records, pages, JSON) may
// drive it: every byte goes through termsafe. The caller calls flush when
// the command is done.
func New(stdin io.Reader, stdout, stderr io.Writer) (a *Factory, flush func()) {
	a = &Factory{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	var flushes []func() error
	if termsafe.IsTerminal(stdout) {
		w := termsafe.NewWriter(stdout)
		flushes = append(flushes, w.Flush)
		a.Stdout, a.TTY = w, stdout
	}
	if termsafe.IsTerminal(stderr) {
		w := termsafe.NewWriter(stderr)
		flushes = append(flushes, w.Flush)
		a.Stderr = w
	}
	return a, func() {
		for i := len(flushes) - 1; i >= 0; i-- { // stderr's, then stdout's
			_ = flushes[i]()
		}
	}
}

// RootDir is the messenger state directory: --root, $PARLEY_ROOT, or the
// nearest .parley (rootdir.Find).
func (a *Factory) RootDir() string { return a.Service().Root() }

// VaultDir is the vault: --vault, $PARLEY_VAULT, or <root>/vault.
func (a *Factory) VaultDir() string { return a.Service().Vault() }

// Config loads <root>/config.json (defaults when it is missing).
func (a *Factory) Config() (*config.Config, error) { return a.Service().Config() }

// svcFlags are the global flags an App is made from.
type svcFlags struct {
	root, vault   string
	verbose, here bool
}

// Service is the service layer for --root, --vault and --verbose, made on
// first use (after the flags are parsed) and shared by the command's
// calls; made again if the flags changed (the demo moves to its own root).
func (a *Factory) Service() *app.App {
	if f := (svcFlags{a.RootFlag, a.VaultFlag, a.Verbose, a.Here}); a.svc == nil || a.svcFor != f {
		a.svcFor = f
		a.svc = app.New(app.Options{
			Root: a.RootFlag, Vault: a.VaultFlag, Here: a.Here, Logger: a.Logger(), Spawn: a.spawn(),
			Notify: func(n app.Notice) {
				switch n.Kind {
				case app.NoticeWaiting:
					a.Warnf("the NATS server %s does not answer (%v); retrying for up to %v (Ctrl-C to stop)", n.Server, n.Err, n.Window)
				case app.NoticeGateBusy:
					a.Warnf("another 'parley gate learn' is at work on this root: waiting for it to finish (Ctrl-C to stop)")
				}
			},
		})
	}
	return a.svc
}

// Logger logs to stderr under --verbose and nowhere otherwise.
func (a *Factory) Logger() *slog.Logger {
	if !a.Verbose {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(a.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Emit prints one JSON line under --json.
func (a *Factory) Emit(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = a.Stdout.Write(b)
	return err
}

// Printf prints human output (not under --json).
func (a *Factory) Printf(format string, args ...any) {
	fmt.Fprintf(a.Stdout, format, args...)
}

// Warnf prints a one-line warning to stderr.
func (a *Factory) Warnf(format string, args ...any) {
	fmt.Fprintf(a.Stderr, "parley: warning: "+format+"\n", args...)
}

// TrustRoot refuses, before any command runs, a root that someone else
// could have written, and a default vault that is a symbolic link out of
// the root (app.TrustRoot): a vault elsewhere is used only when --vault or
// PARLEY_VAULT names it.
func (a *Factory) TrustRoot() error { return a.Service().TrustRoot(a.VaultFlag != "") }

// View prints v: one JSON line under --json, else the text view of it.
func View[T any](a *Factory, v T, text func(io.Writer, T) error) error {
	return a.Show(v, func(w io.Writer) error { return text(w, v) })
}

// EmitEach prints one JSON line per value (--json).
func EmitEach[T any](a *Factory, vs []T) error {
	for _, v := range vs {
		if err := a.Emit(v); err != nil {
			return err
		}
	}
	return nil
}

// OpenConsensus opens the consensus store (app.ReadConsensus) for a
// command that only reads records (list, show, search, check, lint): with
// no root, no vault where --vault or PARLEY_VAULT names one, or a default
// vault gone after a debate filed its record there, it says so and how to
// make one (an error wrapping app.ErrNoVault), and makes none.
func (a *Factory) OpenConsensus() (*app.Consensus, error) {
	if !a.HaveRoot() {
		return nil, a.NoRootError("no consensus records: ")
	}
	c, err := a.Service().ReadConsensus()
	if errors.Is(err, app.ErrNoVault) {
		return nil, &Error{Msg: fmt.Sprintf("no consensus records: %v (%s makes one)", err, a.CmdLine("init")), Err: err}
	}
	return c, err
}

// WarnSkipped names the record files the store skipped, once each, on stderr.
func (a *Factory) WarnSkipped(c *app.Consensus) {
	for _, w := range c.Skipped() {
		a.Warnf("%s", textview.Warning(w))
	}
}

// Show prints v as a JSON line under --json, else its text view.
func (a *Factory) Show(v any, text func(w io.Writer) error) error {
	if a.JSON {
		return a.Emit(v)
	}
	return text(a.Stdout)
}

// LoadGate is the gate for a mode and a model file (app.LoadGate); modeFlag
// is the flag that gave the mode ("--mode"; debate run's is "--gate-mode").
func (a *Factory) LoadGate(ctx context.Context, mode, modelFile, modeFlag string) (*gating.Gate, error) {
	g, err := a.Service().LoadGate(ctx, mode, modelFile)
	return g, a.Fail(err, Wording{Name: func(field string) string {
		if field == "mode" {
			return modeFlag
		}
		return a.InputName(field)
	}})
}

// ReadCritique parses a self-critique (app.ReadCritique) from a file, or
// from standard input for "-"; what names the input in the error of a
// file that cannot be opened ("gate", "--gate").
func (a *Factory) ReadCritique(ctx context.Context, what, source string) (gating.SelfCritique, error) {
	if source == "-" {
		b, err := a.ReadStdin(ctx, "the self-critique", gating.MaxInputBytes)
		if err != nil {
			return gating.SelfCritique{}, err
		}
		return app.ReadCritique(bytes.NewReader(b), SourceName(source))
	}
	f, err := userfile.Open(ctx, source)
	if err != nil {
		return gating.SelfCritique{}, FileError(what, err)
	}
	defer f.Close()
	return app.ReadCritique(f, source)
}
