package mcpserver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/suggest"
)

var (
	// ErrInvalidInput means tool arguments that parley refuses: a missing
	// field, an unknown layer or role, a hostile name, an oversized text.
	ErrInvalidInput = errors.New("invalid input")
	// ErrNotJoined means a participant name that did not join a debate
	// through this server (debate_join).
	ErrNotJoined = errors.New("not joined")
	// ErrNoPendingTurn means a debate_submit_turn whose request_id is not
	// the participant's pending turn request.
	ErrNoPendingTurn = errors.New("no pending turn request")
	// ErrAnswered means a second, different answer to a request already
	// answered: a debate turn cannot be changed once sent.
	ErrAnswered = errors.New("request already answered")
	// ErrUnavailable means a tool this server was built without (no debate
	// starter).
	ErrUnavailable = errors.New("not available in this server")
	// ErrClosed means the Server was closed.
	ErrClosed = errors.New("server closed")
)

// inputError is a refusal of a tool's arguments: its message is the
// cause's (as the CLI prints it), and it matches ErrInvalidInput.
type inputError struct{ err error }

func (e inputError) Error() string   { return e.err.Error() }
func (e inputError) Unwrap() []error { return []error{ErrInvalidInput, e.err} }

// invalidf refuses a tool's arguments with a message (wrapping %w causes).
func invalidf(format string, args ...any) error { return inputError{fmt.Errorf(format, args...)} }

// toolError is the service layer's error as a tool's error, the one place
// that words it for MCP clients. The arguments keep app's names, which are
// the tools' own (from, to, type, reply_to, text, as, layer, topic,
// agents, …); a command to run is the command line that runs it on the
// server's root and vault (commandLine), as the CLI words it. A refusal
// of the arguments (missing, invalid, a bad name, not text, too large, a
// file that cannot be used) matches ErrInvalidInput; a self-critique the
// gate cannot decide on says only why (the client sent it); an unknown
// agent says how to find or make one; an interrupted call is its
// context's error; anything else is as it is, the cause kept.
func (s *Server) toolError(err error) error {
	var e *app.Error
	if !errors.As(err, &e) {
		return err
	}
	msg := e.Format(s.inputName)
	switch e.Problem {
	case app.ProblemMissing, app.ProblemInvalid, app.ProblemName, app.ProblemNotText, app.ProblemTooLarge, app.ProblemFile:
		if e.Field == app.FieldCritique {
			return invalidf("%w", e.Err)
		}
		return inputError{worded{msg, e}}
	case app.ProblemNotFound:
		if errors.Is(e, inbox.ErrNotFound) {
			msg = fmt.Sprintf("%s; check the name with: %s; or create its inbox with: %s", msg, s.commandLine("agents", "list"), s.commandLine("agents", "add", e.Agent))
		}
	case app.ProblemInterrupted:
		return e.Err
	}
	return worded{msg, err}
}

// worded is an error in the words a tool gives it, the cause kept.
type worded struct {
	msg string
	err error
}

func (w worded) Error() string { return w.msg }
func (w worded) Unwrap() error { return w.err }

// inputName names an input of the service layer as the tools do: an
// argument by its own name, a command to run ("{parley debate list}") as
// the command line that runs it on the server's root and vault.
func (s *Server) inputName(field string) string {
	if rest, ok := strings.CutPrefix(field, "parley "); ok {
		return s.commandLine(strings.Fields(rest)...)
	}
	return field
}

// commandLine is the command line that runs parley args on the server's
// root and vault (Config.CommandLine), ready to paste.
func (s *Server) commandLine(args ...string) string {
	if s.cfg.CommandLine != nil {
		return s.cfg.CommandLine(args...)
	}
	return suggest.CommandLine(append([]string{"parley"}, args...)...)
}
