package agent

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/parleyhq/parley/inbox"
)

// The adapter kinds of SPEC §8, and the prefix of an already registered agent.
const (
	KindScript = "script"
	KindExec   = "exec"
	KindOpenAI = "openai"
	// KindRegistered is the kind of "@NAME": an agent that is already
	// running, reached through its inbox; it has no adapter.
	KindRegistered = "@"
)

// knownKinds are the kinds parley documents, whether or not this build has
// an adapter for each.
var knownKinds = []string{KindScript, KindExec, KindOpenAI}

// Spec says how a participant answers: Kind and Arg as written "kind:arg",
// or KindRegistered and the agent's name for "@NAME".
type Spec struct {
	Kind string
	Arg  string
}

func (s Spec) String() string {
	if s.Kind == KindRegistered {
		return "@" + s.Arg
	}
	return s.Kind + ":" + s.Arg
}

// ParseSpec reads "script:FILE", "exec:COMMAND", "openai:MODEL" (or any
// other kind:arg an Adapters may know) or "@NAME", whose name must be a
// valid agent name. Errors wrap ErrBadSpec or inbox.ErrInvalidName.
func ParseSpec(s string) (Spec, error) {
	if name, ok := strings.CutPrefix(s, "@"); ok {
		if err := inbox.ValidateName(name); err != nil {
			return Spec{}, fmt.Errorf("%w %q: %w", ErrBadSpec, s, err)
		}
		return Spec{Kind: KindRegistered, Arg: name}, nil
	}
	kind, arg, ok := strings.Cut(s, ":")
	kind = strings.ToLower(strings.TrimSpace(kind))
	if !ok || kind == "" || strings.TrimSpace(arg) == "" || strings.ContainsAny(kind, " /\\") {
		return Spec{}, fmt.Errorf("%w %q (use script:FILE, exec:COMMAND, openai:MODEL or @NAME)", ErrBadSpec, s)
	}
	return Spec{Kind: kind, Arg: arg}, nil
}

// Factory makes a Responder from the argument of a spec (the part after
// "kind:").
type Factory func(arg string) (Responder, error)

// Adapters maps adapter kinds to their factories.
type Adapters map[string]Factory

// DefaultAdapters returns the adapters this build provides: script, exec,
// and every registered chat provider with its defaults (for openai,
// DefaultOpenAIBaseURL and no API key). Configure makes them with the
// caller's settings.
func DefaultAdapters() Adapters { return Configure(AdapterOptions{}) }

// WithOpenAI returns a copy of a whose openai adapter is made from the
// configuration settings gives for a model.
func (a Adapters) WithOpenAI(settings func(model string) (OpenAIConfig, error)) Adapters {
	out := Adapters{}
	for k, f := range a {
		out[k] = f
	}
	out[KindOpenAI] = func(arg string) (Responder, error) {
		cfg, err := settings(arg)
		if err != nil {
			return nil, err
		}
		cfg.Model = arg
		return NewOpenAI(cfg)
	}
	return out
}

// Prober is a Responder that can tell, before a debate, whether what it
// answers with is reachable (a chat provider's server).
type Prober interface {
	Probe(ctx context.Context) error
}

// New makes the Responder for spec. A kind parley documents but this build
// lacks fails with ErrUnavailable; an unknown kind with ErrBadSpec; "@NAME"
// has no responder (ErrBadSpec).
func (a Adapters) New(spec Spec) (Responder, error) {
	if spec.Kind == KindRegistered {
		return nil, fmt.Errorf("%w: %s is a running agent, not an adapter", ErrBadSpec, spec)
	}
	if f, ok := a[spec.Kind]; ok {
		return f(spec.Arg)
	}
	for _, k := range knownKinds {
		if k == spec.Kind {
			return nil, fmt.Errorf("%s agents are %w", spec.Kind, ErrUnavailable)
		}
	}
	return nil, fmt.Errorf("%w: unknown kind %q (use %s, or @NAME)", ErrBadSpec, spec.Kind, strings.Join(a.kinds(), ", "))
}

// Has reports whether the adapter for kind is available.
func (a Adapters) Has(kind string) bool {
	_, ok := a[kind]
	return ok
}

func (a Adapters) kinds() []string {
	var out []string
	for k := range a {
		out = append(out, k+":…")
	}
	sort.Strings(out)
	return out
}
