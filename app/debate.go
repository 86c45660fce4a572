package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent"
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
	// Context are files handed to every turn (each at most MaxContextBytes).
	Context []string
	// Workspace is the directory evidence paths are checked under; ""
	// means the working directory.
	Workspace string
	// Budget overrides the layer's budget of config.json.
	Budget debate.BudgetOverride
}

// Fields of a DebateRequest, as InputError names them.
const (
	FieldLayer     = "layer"
	FieldTopic     = "topic"
	FieldAgent     = "agent"
	FieldContext   = "context"
	FieldWorkspace = "workspace"
	FieldBudget    = "budget"
)

// ErrRequired: a DebateRequest without a layer, a topic or an agent.
var ErrRequired = errors.New("layer, topic and agent are required")

// InputError is a DebateRequest that cannot be run: what is wrong with
// which field. A front end words it with its own name for the field
// (Format); the session as a whole has Field "".
type InputError struct {
	Field string
	// Value is the entry at fault of a repeated field (an agent).
	Value string
	Err   error
	// File says the field names a file that cannot be read, is not what it
	// should be, or is missing: not a mistake of the request's form.
	File bool
}

func (e *InputError) Error() string { return e.Format(func(f string) string { return f }) }
func (e *InputError) Unwrap() error { return e.Err }

// Format is the error's one line with name(field) for each field's name.
func (e *InputError) Format(name func(field string) string) string {
	switch {
	case errors.Is(e.Err, ErrRequired):
		return fmt.Sprintf("%s, %s and %s are required", name(FieldLayer), name(FieldTopic), name(FieldAgent))
	case e.Field == "":
		return e.Err.Error()
	case e.Value != "":
		return fmt.Sprintf("%s %q: %v", name(e.Field), e.Value, e.Err)
	}
	return fmt.Sprintf("%s: %v", name(e.Field), e.Err)
}

// NewSession builds and validates the session r describes, with the budget
// of config.json for its layer under r's overrides. It touches the disk
// only to read the context files and the scripts (so that a bad one fails
// now rather than in the middle of the debate) and to check the workspace.
// Its errors about r are *InputError.
func (a *App) NewSession(r DebateRequest) (*debate.DebateSession, error) {
	if r.Layer == "" || strings.TrimSpace(r.Topic) == "" || len(r.Agents) == 0 {
		return nil, &InputError{Err: ErrRequired}
	}
	l, err := debate.ParseLayer(r.Layer)
	if err != nil {
		return nil, &InputError{Field: FieldLayer, Err: err}
	}
	cfg, err := a.Config()
	if err != nil {
		return nil, err
	}
	b := cfg.Budget(l).Apply(r.Budget)
	if err := b.Validate(); err != nil {
		return nil, &InputError{Field: FieldBudget, Err: err}
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
	for _, path := range r.Context {
		text, err := readContext(path)
		if err != nil {
			return nil, &InputError{Field: FieldContext, Err: err, File: true}
		}
		s.Context = append(s.Context, debate.ContextItem{Kind: "file", Ref: path, Text: text})
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
		return nil, &InputError{Field: FieldWorkspace, Err: fmt.Errorf("%s is not a directory", ws), File: true}
	}
	s.Workspace = abs
	if err := s.Validate(); err != nil {
		return nil, &InputError{Err: err}
	}
	return s, nil
}

// participant is the participant arg (ROLE=SPEC) names; count numbers the
// agents the debate starts itself, per role.
func participant(id, arg string, count map[debate.Role]int) (debate.Participant, error) {
	bad := func(err error, file bool) (debate.Participant, error) {
		return debate.Participant{}, &InputError{Field: FieldAgent, Value: arg, Err: err, File: file}
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
		abs, err := filepath.Abs(sp.Arg)
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

func readContext(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxContextBytes+1))
	if err != nil {
		return "", err
	}
	if len(b) > MaxContextBytes {
		return "", fmt.Errorf("%s is larger than %d bytes", path, MaxContextBytes)
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
