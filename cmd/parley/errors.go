package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
)

// cliError is an error whose message already says what to do.
type cliError struct {
	msg string
	err error
}

func (e *cliError) Error() string { return e.msg }
func (e *cliError) Unwrap() error { return e.err }

// wording is what a command adds to fail's translation of the service
// layer's errors. The zero value fits most commands.
type wording struct {
	// noRoot comes before "there is no parley root at …" ("nothing to
	// collect: ").
	noRoot string
	// name names the inputs (nil: a.inputName), for a command that names
	// one its own way (send's text may be standard input).
	name func(field string) string
	// help is the command whose --help explains a missing input and the
	// budget ("parley debate run"); "": none is suggested.
	help string
}

// fail is the service layer's error in the command line's words, and the
// one place that chooses its exit code from the error's app.Problem:
//
//   - missing or invalid input: a usage error (exit 2), with w.help
//     suggested for a missing input or a bad budget;
//   - interrupted: exit 130; a debate that cannot be continued
//     (tampered): blocked, exit 3;
//   - any other (a file that cannot be used, no such agent, debate or
//     record, an ambiguous prefix, a bad name, the messenger's trouble):
//     exit 1, an unknown agent with the commands that list and make
//     agents;
//   - no root at all: the command that makes one (after w.noRoot).
//
// Inputs are named as this command line names them (a.inputName). An
// error that is not an *app.Error is returned as it is.
func (a *factory) fail(err error, w wording) error {
	if errors.Is(err, app.ErrNoRoot) {
		return a.noRootError(w.noRoot)
	}
	var e *app.Error
	if !errors.As(err, &e) {
		return err
	}
	name := w.name
	if name == nil {
		name = a.inputName
	}
	msg := e.Format(name)
	switch e.Problem {
	case app.ProblemMissing, app.ProblemInvalid:
		if w.help != "" && (e.Problem == app.ProblemMissing || e.Field == app.FieldBudget) {
			msg += " (see " + w.help + " --help)"
		}
		return usageError{errors.New(msg)}
	case app.ProblemInterrupted:
		return &cliError{msg: msg, err: errInterrupted}
	case app.ProblemTampered:
		return blockedError{msg: msg}
	case app.ProblemNotFound:
		if errors.Is(e, inbox.ErrNotFound) {
			msg = fmt.Sprintf("%s; check the name with: %s; or create its inbox with: %s", msg, a.cmdLine("agents", "list"), a.cmdLine("agents", "add", e.Agent))
		}
	}
	return &cliError{msg: msg, err: err}
}

// inputName names an input of the service layer as the command line does:
// its flag ("reply_to" is --reply-to; a debate's agents, one --agent
// each), a command to run ("parley debate list", with this run's --root
// and --vault), or the argument of the agents commands ("agent").
func (a *factory) inputName(field string) string {
	switch {
	case field == "agent":
		return field
	case field == app.FieldAgent:
		return "--agent"
	case strings.HasPrefix(field, "parley "):
		return a.cmdLine(strings.Fields(field)[1:]...)
	}
	return "--" + strings.ReplaceAll(field, "_", "-")
}

// appNames keeps the service layer's names of the inputs, for a command
// whose flags another command names differently (the gate's mode is
// --mode in "parley gate", --gate-mode in "parley debate run").
func appNames(field string) string { return field }
