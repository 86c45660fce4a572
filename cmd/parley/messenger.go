package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/interrupt"
)

// openMessenger opens (creating if needed) the messenger config.json
// selects, through the service layer, for a command that drives it itself
// (an agent, the MCP server): it uses it and closes it. A server that does
// not answer is waited for with one line saying so; Ctrl-C stops the wait.
func (a *factory) openMessenger() (app.Backend, error) {
	sctx, stop := interrupt.On(context.Background())
	defer stop()
	b, err := a.service().Messenger(sctx)
	if err != nil {
		return nil, a.fail(err, "", nil)
	}
	return b, nil
}

// cliError is an error whose message already says what to do.
type cliError struct {
	msg string
	err error
}

func (e *cliError) Error() string { return e.msg }
func (e *cliError) Unwrap() error { return e.err }

// validName checks a name from the command line; the error says
// invalid_name and what a name may be.
func validName(flag, name string) error {
	if err := inbox.ValidateName(name); err != nil {
		return &cliError{msg: fmt.Sprintf("%s: %v", flag, err), err: err}
	}
	return nil
}

// messengerError turns the messenger's errors into one line that says what
// to do.
func messengerError(err error) error {
	if errors.Is(err, context.Canceled) && !app.IsProblem(err, app.ProblemMessenger) {
		return &cliError{msg: "interrupted", err: errInterrupted}
	}
	var e *app.Error
	if errors.As(app.Explain(err), &e) {
		return &cliError{msg: e.Format(flagName), err: err}
	}
	return err
}

// flagName names an input of the service layer as the command line does:
// its flag ("reply_to" is --reply-to), the command to run, or the argument.
func (a *factory) flagName(field string) string {
	switch field {
	case "init":
		return a.cmdLine("init")
	case "agent":
		return field
	}
	return flagName(field)
}

func flagName(field string) string { return "--" + strings.ReplaceAll(field, "_", "-") }

// fail is the service layer's error in the command line's words: inputs
// named by their flags, a mistake in them a usage error (exit 2), an
// unknown agent with the commands that list and make agents, no root with
// the command that makes one (noRoot, e.g. "nothing to collect: ", comes
// first). name names the inputs (nil: a.flagName).
func (a *factory) fail(err error, noRoot string, name func(field string) string) error {
	if name == nil {
		name = a.flagName
	}
	var e *app.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, app.ErrNoRoot):
		return a.noRootError(noRoot)
	case !errors.As(err, &e):
		return messengerError(err)
	case e.Problem == app.ProblemMissing || e.Problem == app.ProblemInvalid:
		return usageError{errors.New(e.Format(name))}
	case e.Problem == app.ProblemInterrupted:
		return &cliError{msg: "interrupted", err: errInterrupted}
	case e.Problem == app.ProblemNotFound && errors.Is(e, inbox.ErrNotFound):
		return &cliError{msg: fmt.Sprintf("%s; check the name with: %s; or create its inbox with: %s", e.Format(name), a.cmdLine("agents", "list"), a.cmdLine("agents", "add", e.Agent)), err: err}
	}
	return &cliError{msg: e.Format(name), err: err}
}

// warn prints the service layer's warnings: one line each on stderr, or
// one JSON object each under --json.
func (a *factory) warn(ws ...app.Warning) error {
	for _, w := range ws {
		if !a.json {
			a.warnf("%s: %s", w.Code, w.Text)
		} else if err := a.emit(map[string]any{"warning": w.Code, "agent": w.Agent, "message": w.Text}); err != nil {
			return err
		}
	}
	return nil
}
