package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"syscall"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

// Problem says what kind of refusal an *Error is, so that a front end can
// choose its exit code or its protocol's error without reading the text.
type Problem string

// The problems app reports. Missing and Invalid are mistakes in the form
// of a request (a command line's usage error); File is an input that
// names a file, or content read from one, that cannot be used; the others
// are about the world the request meets (no such agent, a busy inbox).
const (
	// ProblemMissing: a required input is empty.
	ProblemMissing Problem = "missing"
	// ProblemInvalid: an input is not of the form parley accepts (a
	// message type, an id too long, a blank text, an unknown layer, a
	// budget out of range).
	ProblemInvalid Problem = "invalid"
	// ProblemFile: a file an input names is missing, cannot be read or is
	// not what it should be (not a regular file, not a directory), or what
	// was read from it is malformed (a script, a self-critique, labels).
	ProblemFile Problem = "file"
	// ProblemName: an agent name is not valid (invalid_name).
	ProblemName Problem = "invalid_name"
	// ProblemNotText: a text that is not UTF-8.
	ProblemNotText Problem = "not_text"
	// ProblemTooLarge: a message over inbox.MaxMessageBytes.
	ProblemTooLarge Problem = "too_large"
	// ProblemNotFound: no such agent, debate or record.
	ProblemNotFound Problem = "not_found"
	// ProblemAmbiguous: a prefix that several names start with.
	ProblemAmbiguous Problem = "ambiguous"
	// ProblemNotActive: the recipient is not running and the caller asked
	// for a live one.
	ProblemNotActive Problem = "not_active"
	// ProblemTaken: another live agent holds the name.
	ProblemTaken Problem = "name_taken"
	// ProblemWrongRole: a running agent is named in a debate role it did
	// not join.
	ProblemWrongRole Problem = "wrong_role"
	// ProblemMessenger: the messenger refused or failed; the message says
	// what to do.
	ProblemMessenger Problem = "messenger"
	// ProblemInterrupted: the caller's context ended while app waited.
	ProblemInterrupted Problem = "interrupted"
	// ProblemState: a file parley keeps under the root (the learnt gate
	// model) cannot be used; the message names it and how to fix it.
	ProblemState Problem = "state"
)

// Sentinel causes, for errors.Is.
var (
	// ErrNoRoot is the cause of a not_found when there is no root at all
	// (nothing was created looking for it).
	ErrNoRoot = errors.New("there is no parley root")
	// ErrNotActive is the cause of a not_active refusal.
	ErrNotActive = errors.New("not_active")
	// ErrNoVault: a vault named for the App (Options.Vault or
	// $PARLEY_VAULT) does not exist, or the default one is gone although
	// a debate under the root filed its record there, and the call only
	// reads (nothing was created looking for it).
	ErrNoVault = errors.New("there is no vault")
	// ErrModelIsDirectory: a directory stands where the root's learnt
	// gate model (<root>/gate/model.json) belongs. parley never removes a
	// directory, not even an empty one (gate learn --reset refuses it):
	// its owner moves it away or removes it.
	ErrModelIsDirectory = errors.New("is a directory, not a learnt model: move it away or remove it yourself (parley removes no directory)")
	// ErrGateOutsideRoot: the gate's folder (<root>/gate, which holds the
	// labels and the learnt model) is a symbolic link out of the root.
	// parley follows no link out of the root: it neither reads, writes
	// nor removes anything through it (gate learn --reset included); its
	// owner removes the link.
	ErrGateOutsideRoot = errors.New("is a symbolic link out of the root, which parley does not follow: remove the link (what it leads to stays)")
)

// Error is every refusal of an input, and the failures a front end words
// itself: a Problem, the input Field it concerns (as app names inputs,
// which are the MCP tools' argument names: "from", "to", "type",
// "reply_to", "text", "as", "require_live", "layer", "topic", "agents",
// "budget", "context", "since", …), and a message that names every input
// in braces so that each front end names it its own way (a CLI flag, an
// MCP argument, a command to run: "{parley debate list}"): see Format.
// A front end chooses how to report it (an exit code, a protocol error)
// by its Problem; the message is the same everywhere but for the names.
type Error struct {
	Problem Problem
	// Field is the first input the error concerns; "" when none (or the
	// request as a whole).
	Field string
	// Value is the entry at fault of an input given several times (one
	// of a debate's agents), or the value refused, when the message
	// quotes it.
	Value string
	// Agent is the agent it concerns, if any.
	Agent string
	// Err is the cause.
	Err error

	tmpl string // a fmt format in which "{field}" names an input
	args []any
}

func newError(p Problem, field string, cause error, tmpl string, args ...any) *Error {
	return &Error{Problem: p, Field: field, Err: cause, tmpl: tmpl, args: args}
}

// refuse is the refusal of input field (an app name; "" for the request
// as a whole) because of cause: "{field}: cause".
func refuse(p Problem, field string, cause error) *Error {
	if field == "" {
		return newError(p, "", cause, "%v", cause)
	}
	return newError(p, field, cause, "{"+field+"}: %v", cause)
}

// refuseValue is the refusal of value, one entry of input field (or the
// value it was given), because of cause: "{field} "value": cause".
func refuseValue(p Problem, field, value string, cause error) *Error {
	e := newError(p, field, cause, "{"+field+"} %q: %v", value, cause)
	e.Value = value
	return e
}

// Error is the message with app's names of the inputs.
func (e *Error) Error() string { return e.Format(nil) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Format is the message with each input named by name (nil: app's
// names). Only the template's own braces name inputs: the values quoted
// in the message (a name, a type) are never read as one.
func (e *Error) Format(name func(field string) string) string {
	var b strings.Builder
	rest := e.tmpl
	for {
		before, after, ok := strings.Cut(rest, "{")
		b.WriteString(before)
		if !ok {
			break
		}
		field, tail, _ := strings.Cut(after, "}")
		if name != nil {
			field = name(field)
		}
		b.WriteString(strings.ReplaceAll(field, "%", "%%"))
		rest = tail
	}
	if len(e.args) == 0 {
		return strings.ReplaceAll(b.String(), "%%", "%")
	}
	return fmt.Sprintf(b.String(), e.args...)
}

// IsProblem reports whether err is an *Error of problem p.
func IsProblem(err error, p Problem) bool {
	var e *Error
	return errors.As(err, &e) && e.Problem == p
}

// Explain turns what the messenger returns into an error whose message
// says what to do (an *Error of ProblemMessenger, ProblemTooLarge or
// ProblemInterrupted wrapping err); it returns other errors, and *Errors,
// as they are. A permission or disk-full error says what to check, but
// not what the failed call left behind, which only its caller knows: a
// caller that knows says it through explainLeft.
func Explain(err error) error { return explainLeft(err, "") }

// What the messenger calls that can fail half-way leave behind, as
// explainLeft says it (templates: an agent's name or a message's id
// follows).
const (
	// leftNotSent: a send failed before its message was durable.
	leftNotSent = "nothing was delivered"
	// leftNotAcked: a received message was handed over (printed,
	// returned) but is still in the inbox.
	leftNotAcked = "message %s was received but not acknowledged, so it will be delivered again"
	// leftNotRegistered: a watch stopped before it registered or read.
	leftNotRegistered = "%s was not registered and nothing was read ({no_register} only reads)"
)

// explainLeft is Explain for a caller that knows what its failed call
// left behind: left (a leftXxx template, with args) is said before the fix
// of a permission or disk-full error, whose cause alone cannot tell it.
func explainLeft(err error, left string, args ...any) error {
	var ae *Error
	hint := ""
	p := ProblemMessenger
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ae):
		return err
	case inbox.Placed(err):
		// Its message says what was left (the message, in the inbox),
		// whatever failed: not left's "nothing was delivered".
		return err
	case errors.Is(err, inbox.ErrBusy):
		hint = "%v; stop the other receiver (a 'parley watch', a waiting 'parley recv' or a running agent) and try again"
	case errors.Is(err, inbox.ErrUnsafePath), errors.Is(err, registry.ErrUnsafePath):
		return unsafePathError(err)
	case errors.Is(err, inbox.ErrTooLarge):
		p, hint = ProblemTooLarge, "%v; send a shorter text or put the content in a file and send its path"
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return resourceError(err, left, args, "free disk space and try again")
	case errors.Is(err, syscall.EROFS):
		// No permission would let it write: the file system is mounted
		// read-only.
		return resourceError(err, left, args, "the messenger root is on a read-only file system: remount it read-write, or use a root elsewhere (--root)")
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return resourceError(err, left, args, "check the permissions of the messenger root")
	case errors.Is(err, jetstream.ErrAuth):
		hint = "%v (the credentials file is set by \"nats\".\"credentials\" in config.json, relative to --root)"
	case errors.Is(err, jetstream.ErrUnavailable):
		hint = "%v; check \"nats\".\"url\" in config.json and that nats-server runs with JetStream (-js)"
	case errors.Is(err, jetstream.ErrIncompatible):
		hint = "%v; see docs/messenger.md, \"The JetStream transport\""
	case errors.Is(err, jetstream.ErrLockLost):
		hint = "%v; another receiver took the inbox while the NATS server was out of reach: stop one of them"
	case errors.Is(err, context.Canceled):
		return newError(ProblemInterrupted, "", err, "interrupted")
	default:
		return err
	}
	return newError(p, "", err, hint, err)
}

// resourceError is a permission or disk-full error: "err; left: fix", or
// "err; fix" when the caller did not say what was left.
func resourceError(err error, left string, args []any, fix string) *Error {
	if left == "" {
		return newError(ProblemMessenger, "", err, "%v; "+fix, err)
	}
	return newError(ProblemMessenger, "", err, "%v; "+left+": "+fix, append([]any{err}, args...)...)
}

// unsafePathError is the error of something parley did not make standing
// where it keeps its own: a file or a link (the cause says which), that
// parley leaves alone. In an agent's inbox's place, once it is moved away,
// "parley agents add" makes the inbox again (parley init does not make
// inboxes); in place of the registry, inbox/, cur/, bad/ or a sender's
// mark, the next command makes parley's own again.
func unsafePathError(err error) *Error {
	var de *inbox.DeliveryError
	// The agent is a valid name, so that it can stand in the template.
	if errors.As(err, &de) && de.Path == inbox.InboxDir+"/"+de.Agent && inbox.ValidateName(de.Agent) == nil {
		e := newError(ProblemMessenger, "", err, "%v; parley leaves it alone: move it away, then run {parley agents add "+de.Agent+"} to make the inbox again", err)
		e.Agent = de.Agent
		return e
	}
	return newError(ProblemMessenger, "", err, "%v; parley leaves it alone: move it away and try again (parley makes its own in its place)", err)
}

// nameTaken is the error of registering name while another live agent
// holds it: err (registry.ErrNameTaken's, which names the holder) and what
// to do, then more (a template tail, "" for none).
func nameTaken(err error, name, more string) *Error {
	e := newError(ProblemTaken, "register", err, "%v: stop that agent or choose another name (see {parley agents list}"+more+")", err)
	e.Agent = name
	return e
}

// UnknownAgent is the error of an agent with neither an inbox nor a
// registration. Front ends add how to list or create agents.
func UnknownAgent(name string) *Error {
	e := newError(ProblemNotFound, "", inbox.ErrNotFound, "not_found: no agent %q (no inbox, no registration)", name)
	e.Agent = name
	return e
}

// UnknownAgentNear is UnknownAgent with the known names that name is
// probably a slip for ("did you mean 'Bob'?": another case, a letter off),
// from the inboxes of tr and the registrations of reg where they can list
// them. It runs only on the way to the error: a send that finds its agent
// pays nothing for it.
func UnknownAgentNear(ctx context.Context, tr, reg any, name string) *Error {
	e := UnknownAgent(name)
	var near []string
	for _, n := range knownAgents(ctx, tr, reg) {
		if n != name && suggest.Near(name, n) && len(near) < 3 {
			near = append(near, n)
		}
	}
	if len(near) > 0 {
		e.tmpl = strings.TrimSuffix(e.tmpl, ")") + "; did you mean %s?)"
		e.args = append(e.args, suggest.OrList(near))
	}
	return e
}

// knownAgents are the names of the inboxes of tr and the registrations of
// reg, where they can list them, sorted, each once. A listing that fails
// leaves its names out: this is for hints, never a judgement.
func knownAgents(ctx context.Context, tr, reg any) []string {
	var known []string
	if l, ok := tr.(interface {
		Agents(context.Context) ([]string, error)
	}); ok {
		names, _ := l.Agents(ctx)
		known = append(known, names...)
	}
	if l, ok := reg.(interface {
		Names(context.Context) ([]string, error)
	}); ok {
		names, _ := l.Names(ctx)
		known = append(known, names...)
	}
	slices.Sort(known)
	return slices.Compact(known)
}

// noRoot is the not_found of a call that looked for a root and found none.
func (a *App) noRoot(agent string) *Error {
	e := newError(ProblemNotFound, "", fmt.Errorf("%w: %w", ErrNoRoot, fs.ErrNotExist), "there is no parley root at %s", a.root)
	e.Agent = agent
	return e
}

// ValidName refuses an agent name that is not valid with an *Error of
// ProblemName naming the input field ("{field}: invalid_name: …"): the
// one check of a name every front end makes, worded by each.
func ValidName(field, name string) error {
	if err := inbox.ValidateName(name); err != nil {
		return newError(ProblemName, field, err, "{"+field+"}: %v", err)
	}
	return nil
}
