package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/termsafe"
)

// Error is an error whose message already says what to do.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Wording is what a command adds to Fail's translation of the service
// layer's errors. The zero value fits most commands.
type Wording struct {
	// NoRoot comes before "there is no parley root at …" ("nothing to
	// collect: ").
	NoRoot string
	// Name names the inputs (nil: a.InputName), for a command that names
	// one its own way (send's text may be standard input).
	Name func(field string) string
	// Help is the command whose --help explains a missing input and the
	// budget ("parley debate run"); "": none is suggested.
	Help string
}

// Fail is the service layer's error in the command line's words, and the
// one place that chooses its exit code from the error's app.Problem:
//
//   - missing or invalid input: a usage error (exit 2), with w.help
//     suggested for a missing input or a bad budget;
//   - interrupted: exit 130, or 128 plus the number of the signal that
//     stopped it (ExitCode); a debate that cannot be continued
//     (tampered): blocked, exit 3;
//   - any other (a file that cannot be used, no such agent, debate or
//     record, an ambiguous prefix, a bad name, the messenger's trouble):
//     exit 1, an unknown agent with the commands that list and make
//     agents;
//   - no root at all: the command that makes one (after w.noRoot).
//
// Inputs are named as this command line names them (a.InputName). An
// error that is not an *app.Error is returned as it is.
func (a *Factory) Fail(err error, w Wording) error {
	if errors.Is(err, app.ErrNoRoot) {
		return a.NoRootError(w.NoRoot)
	}
	var e *app.Error
	if !errors.As(err, &e) {
		return err
	}
	name := w.Name
	if name == nil {
		name = a.InputName
	}
	msg := e.Format(name)
	switch e.Problem {
	case app.ProblemMissing, app.ProblemInvalid:
		if w.Help != "" && (e.Problem == app.ProblemMissing || e.Field == app.FieldBudget) {
			msg += " (see " + w.Help + " --help)"
		}
		return UsageError{errors.New(msg)}
	case app.ProblemInterrupted:
		return &Error{Msg: msg, Err: ErrInterrupted}
	case app.ProblemTampered:
		return BlockedError{Msg: msg}
	case app.ProblemNotFound:
		if errors.Is(e, inbox.ErrNotFound) {
			msg = fmt.Sprintf("%s; check the name with: %s; or create its inbox with: %s", msg, a.CmdLine("agents", "list"), a.CmdLine("agents", "add", e.Agent))
		}
	}
	return &Error{Msg: msg, Err: err}
}

// InputName names an input of the service layer as the command line does:
// its flag ("reply_to" is --reply-to; a debate's agents, one --agent
// each), a command to run ("parley debate list", with this run's --root
// and --vault), or the argument of the agents commands ("agent").
func (a *Factory) InputName(field string) string {
	switch {
	case field == "agent":
		return field
	case field == app.FieldAgent:
		return "--agent"
	case strings.HasPrefix(field, "parley "):
		return a.CmdLine(strings.Fields(field)[1:]...)
	}
	return "--" + strings.ReplaceAll(field, "_", "-")
}

// UnavailableExit is the result of a debate that ended UNAVAILABLE: exit 3,
// with nothing more on stderr (the verdict named the agent and the cause).
type UnavailableExit struct{}

func (UnavailableExit) Error() string { return "" }

// Exit codes, the same for every command (the README's table).
const (
	ExitOK      = 0
	ExitError   = 1
	ExitUsage   = 2
	ExitBlocked = 3 // a consensus conflict, a verdict other than CONSENSUS_REACHED, gate --exit-code choosing debate
	// ExitUnavailable: a debate ended UNAVAILABLE, an agent or its model
	// endpoint could not be reached (a configuration mistake, nothing filed).
	// Like every verdict but CONSENSUS_REACHED it needs escalation; the
	// output, not the code, names the agent and the cause.
	ExitUnavailable = ExitBlocked
)

// ExitInterrupted is the exit code of a command ended by Ctrl-C (SIGINT)
// while it waited: 128 + the signal's number, as shells report it. One
// that SIGTERM or a hang-up ended exits 143 or 129 (ExitCode), and one
// whose context ended without a signal exits as Ctrl-C's.
const ExitInterrupted = 130

// UsageError is a mistake on the command line: exit 2.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Usagef is a UsageError with a formatted message.
func Usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }

// BlockedError means the command worked and its answer is "blocked or needs
// escalation": exit 3. Its message may be empty when the output said it all.
type BlockedError struct{ Msg string }

func (e BlockedError) Error() string { return e.Msg }

// ExitCode prints err as one line on stderr and maps it to an exit code.
func ExitCode(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var unavail UnavailableExit
	if errors.As(err, &unavail) {
		return ExitUnavailable // the output named the agent and the cause
	}
	var be BlockedError
	if errors.As(err, &be) {
		if be.Msg != "" {
			fmt.Fprintf(stderr, "parley: %s\n", termsafe.Clean(be.Msg, ""))
		}
		return ExitBlocked
	}
	fmt.Fprintf(stderr, "parley: %s\n", termsafe.ErrorLine(err))
	if errors.Is(err, ErrInterrupted) {
		var sig *interrupt.SignalError
		if errors.As(err, &sig) { // marked by Execute
			return sig.ExitCode()
		}
		return ExitInterrupted
	}
	var ue UsageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return ExitUsage
	}
	return ExitError
}

// isCobraUsage recognises cobra's own usage errors, which it does not type.
func isCobraUsage(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown command") || strings.HasPrefix(s, "unknown flag") ||
		strings.HasPrefix(s, "unknown shorthand flag") || strings.HasPrefix(s, "requires at least") ||
		strings.HasPrefix(s, "required flag")
}
