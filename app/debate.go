package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

// MaxContextBytes bounds one context file of a debate.
const MaxContextBytes = 256 << 10

// DebateRequest is a debate as a front end describes it: what "parley
// debate run" takes as flags and the MCP tool debate_start as fields.
type DebateRequest struct {
	Layer, Topic string
	// Agents are ROLE=SPEC, one per participant in speaking order; SPEC is
	// script:FILE, exec:COMMAND, openai:MODEL or @NAME.
	Agents []string
	// Position is the defender's opening position ("" means the topic).
	Position, Scope string
	// Context are files handed to every turn (each at most MaxContextBytes);
	// StdinContext ("-") is Stdin, which may be named once.
	Context []string
	// Stdin is what a context of "-" reads: the front end's standard input
	// (which ends a wait when the command is interrupted). Nil refuses "-".
	Stdin io.Reader
	// Workspace is the directory evidence paths are checked under; ""
	// means the working directory.
	Workspace string
	// Budget overrides the layer's budget of config.json.
	Budget debate.BudgetOverride
}

// Fields of a DebateRequest, as an *Error names them (FieldAgent is the
// list of agents, whose entry at fault is the Error's Value).
const (
	FieldLayer     = "layer"
	FieldTopic     = "topic"
	FieldAgent     = "agents"
	FieldContext   = "context"
	FieldWorkspace = "workspace"
	FieldBudget    = "budget"
)

// ErrRequired: a DebateRequest without a layer, a topic or an agent.
var ErrRequired = errors.New("layer, topic and agent are required")

// NewSession builds and validates the session r describes, with the budget
// of config.json for its layer under r's overrides. It touches the disk
// only to read the context files and the scripts (so that a bad one fails
// now rather than in the middle of the debate) and to check the workspace.
// Its refusals of r are *Error: ProblemMissing (ErrRequired),
// ProblemInvalid (a field a front end must correct), ProblemFile (a
// context file, a script or the workspace that cannot be used).
func (a *App) NewSession(ctx context.Context, r DebateRequest) (*debate.DebateSession, error) {
	if missing := missingInputs(r); missing != "" {
		return nil, newError(ProblemMissing, "", ErrRequired, "missing "+missing)
	}
	l, err := debate.ParseLayer(r.Layer)
	if err != nil {
		return nil, refuse(ProblemInvalid, FieldLayer, err)
	}
	cfg, err := a.Config()
	if err != nil {
		return nil, err
	}
	b := cfg.Budget(l).Apply(r.Budget)
	if err := b.Validate(); err != nil {
		return nil, refuse(ProblemInvalid, FieldBudget, err)
	}
	id := debate.NewID(time.Now(), l, r.Topic)
	s := &debate.DebateSession{
		ID: id, Topic: strings.TrimSpace(r.Topic), Layer: l, Scope: r.Scope, Position: r.Position,
		Budget: b, Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
	}
	count := map[debate.Role]int{}
	for _, arg := range r.Agents {
		p, err := participant(id, arg, count)
		if err != nil {
			return nil, err
		}
		s.Participants = append(s.Participants, p)
	}
	ws := r.Workspace
	if ws == "" {
		ws = "."
	}
	abs, err := filepath.Abs(ws)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, refuse(ProblemFile, FieldWorkspace, fmt.Errorf("%s is not a directory", ws))
	}
	s.Workspace = abs
	stdinRead := false
	for _, path := range r.Context {
		if path == StdinContext && stdinRead {
			return nil, refuse(ProblemInvalid, FieldContext, fmt.Errorf("%q is named twice: standard input is read once", path))
		}
		item, err := contextItem(ctx, path, abs, r.Stdin)
		if err != nil {
			return nil, refuse(ProblemFile, FieldContext, err)
		}
		stdinRead = stdinRead || path == StdinContext
		s.Context = append(s.Context, item)
	}
	if err := s.Validate(); err != nil {
		var rc *debate.RoleCountError
		if errors.As(err, &rc) {
			return nil, roleRefusal(rc)
		}
		return nil, refuse(ProblemInvalid, "", err)
	}
	if err := s.CheckContext(); err != nil {
		return nil, refuse(ProblemFile, FieldContext, err)
	}
	return s, nil
}

// roleRefusal is a session's role taken too few or too many times, with
// what to change in the request's agents (as the front end names them:
// "--agent defender=SPEC").
func roleRefusal(rc *debate.RoleCountError) *Error {
	const field = "{" + FieldAgent + "}"
	if rc.Got < rc.Min {
		return newError(ProblemInvalid, FieldAgent, rc, field+": %s; add one with "+field+" %s=SPEC", rc.What(), rc.Role)
	}
	if rc.Max == 1 {
		return newError(ProblemInvalid, FieldAgent, rc, field+": %s; give "+field+" %s=SPEC once", rc.What(), rc.Role)
	}
	return newError(ProblemInvalid, FieldAgent, rc, field+": %s; give "+field+" %s=SPEC at most %d times", rc.What(), rc.Role, rc.Max)
}

// missingInputs names the required inputs r lacks, "{layer} and {topic}"
// ("" when it has them all): a refusal names what to add, not every input
// that is required.
func missingInputs(r DebateRequest) string {
	var missing []string
	if r.Layer == "" {
		missing = append(missing, "{"+FieldLayer+"}")
	}
	if strings.TrimSpace(r.Topic) == "" {
		missing = append(missing, "{"+FieldTopic+"}")
	}
	if len(r.Agents) == 0 {
		missing = append(missing, "{"+FieldAgent+"}")
	}
	return andList(missing)
}

// andList is "a", "a and b", "a, b and c".
func andList(items []string) string {
	if n := len(items); n > 1 {
		return strings.Join(items[:n-1], ", ") + " and " + items[n-1]
	}
	return strings.Join(items, "")
}

// participant is the participant arg (ROLE=SPEC) names; count numbers the
// agents the debate starts itself, per role.
func participant(id, arg string, count map[debate.Role]int) (debate.Participant, error) {
	bad := func(err error, file bool) (debate.Participant, error) {
		p := ProblemInvalid
		if file {
			p = ProblemFile
		}
		return debate.Participant{}, refuseValue(p, FieldAgent, arg, err)
	}
	roleS, specS, ok := strings.Cut(arg, "=")
	if !ok {
		return bad(errors.New("use ROLE=SPEC, e.g. attacker=script:critic.json"), false)
	}
	role, err := debate.ParseRole(roleS)
	if err != nil {
		return bad(err, false)
	}
	sp, err := agent.ParseSpec(specS)
	if err != nil {
		return bad(err, false)
	}
	name := sp.Arg
	switch ads := agent.DefaultAdapters(); {
	case sp.Kind == agent.KindRegistered:
	case !ads.Has(sp.Kind):
		if _, err := ads.New(sp); err != nil {
			return bad(err, false)
		}
	default:
		count[role]++
		name = ParticipantName(id, role, count[role])
	}
	if sp.Kind == agent.KindScript {
		// The agent process may run elsewhere: give it an absolute path.
		// A "~/" in the word is the home (zsh leaves it in
		// attacker=script:~/critic.json, as it is in config.json).
		abs, err := filepath.Abs(config.ExpandHome(sp.Arg))
		if err != nil {
			return debate.Participant{}, err
		}
		if _, err := agent.LoadScript(abs); err != nil {
			return bad(err, true)
		}
		sp.Arg = abs
	}
	return debate.Participant{Name: name, Role: role, Agent: sp.String()}, nil
}

// contextRef is the name a context file is handed to the agents under:
// its path relative to the workspace (slash-separated) when it lies in
// it, so that an agent citing the document by that name cites a path the
// evidence check finds there; as given otherwise (a file outside the
// workspace, /dev/stdin).
func contextRef(path, workspace string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(workspace, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return path
	}
	return filepath.ToSlash(rel)
}

// StdinContext is the context name that reads the front end's standard
// input (DebateRequest.Stdin): a proposal piped in, such as
// git show main:docs/spec.md | parley debate run --context - ….
const StdinContext = "-"

// ErrNoStdin: a context of "-" where there is no standard input to read
// (an MCP call).
var ErrNoStdin = errors.New("there is no standard input to read")

// ErrEmptyContext: a context file, or standard input, with nothing in it
// but white space.
var ErrEmptyContext = errors.New("is empty (nothing but white space)")

// contextItem reads the context path names: a file, handed to the agents
// under its name in the workspace (contextRef), or, for StdinContext,
// stdin, handed as the text of "standard input" (nil: refused).
func contextItem(ctx context.Context, path, workspace string, stdin io.Reader) (debate.ContextItem, error) {
	if path != StdinContext {
		b, err := readInput(ctx, path, MaxContextBytes)
		if err != nil {
			return debate.ContextItem{}, err
		}
		text, err := contextText(b, path)
		return debate.ContextItem{Kind: "file", Ref: contextRef(path, workspace), Text: text}, err
	}
	const name = "standard input"
	if stdin == nil {
		return debate.ContextItem{}, fmt.Errorf("%q: %w here; name a file", path, ErrNoStdin)
	}
	b, err := io.ReadAll(io.LimitReader(stdin, MaxContextBytes+1))
	switch {
	case err != nil:
		return debate.ContextItem{}, fmt.Errorf("%s: %w", name, err)
	case len(b) > MaxContextBytes:
		return debate.ContextItem{}, fmt.Errorf("%s is larger than %d bytes", name, MaxContextBytes)
	}
	text, err := contextText(b, name)
	return debate.ContextItem{Kind: "text", Ref: name, Text: text}, err
}

// contextText is a context's bytes as text: UTF-8 (a byte order mark at
// its start is dropped). Bytes that are not text (a PDF, a Word document,
// a UTF-16 file, a binary) are refused, name saying where they came from:
// they would reach the agents as replacement characters, and they would
// debate a proposal they could not read. So is a context with no text (a
// pipe whose writer failed, a file truncated by a redirection): the
// agents would find nothing to object to, and a proposal nobody read
// would be filed as agreed.
func contextText(b []byte, name string) (string, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if !isText(string(b)) {
		return "", fmt.Errorf("%s is not UTF-8 text; hand the debate the proposal as Markdown or plain text", name)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return "", fmt.Errorf("%s %w; hand the debate the proposal itself", name, ErrEmptyContext)
	}
	return string(b), nil
}

// ParticipantName is the name a debate gives an agent it starts itself:
// the role (and place, for attackers) and the debate id's suffix, so that
// it reads well in a list of agents and stays the same on resume.
func ParticipantName(id string, role debate.Role, n int) string {
	suffix := id[strings.LastIndexByte(id, '-')+1:]
	if role == debate.RoleDefender {
		if n > 1 {
			return fmt.Sprintf("Defender%d-%s", n, suffix)
		}
		return "Defender-" + suffix
	}
	return fmt.Sprintf("Attacker%d-%s", n, suffix)
}
