package agent

import (
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"
)

// A chat provider is an LLM service reached through a ChatClient, named by
// the kind of its agent specs ("openai" in "openai:MODEL"). Each lives in
// a file of its own that registers it from an init function; the turn loop
// (LLM), the prompts and the reply contract are shared, so a provider is
// its client and its defaults, nothing else.

// ChatSettings configure one model of a chat provider: how its client
// reaches the model and how the loop asks it. Providers ignore what does
// not apply to them.
type ChatSettings struct {
	// BaseURL is where the provider's API is.
	BaseURL string
	// APIKeyEnv names the environment variable that holds the API key
	// ("" or an unset variable: no key).
	APIKeyEnv string
	// Temperature is the sampling temperature.
	Temperature float64
	// MaxTokens caps the completion; 0 asks for the turn's allowance.
	MaxTokens int
	// RequestTimeout caps one request (0: the provider's default).
	RequestTimeout time.Duration
	// MaxRetries is how often the loop retries a transient failure.
	MaxRetries int
	// CountTotal counts prompt + completion tokens, not only the
	// completion's.
	CountTotal bool
	// JSONMode asks the server for a JSON object, where it can.
	JSONMode bool
}

// Provider is one chat provider.
type Provider struct {
	// Defaults are the settings of a model the caller configures nothing
	// for.
	Defaults ChatSettings
	// Client makes the chat client of model (the ARG of "KIND:ARG") with
	// settings s. Errors wrap ErrBadSpec for a model or settings it cannot
	// use.
	Client func(model string, s ChatSettings) (ChatClient, error)
}

var providers struct {
	sync.RWMutex
	m map[string]Provider
}

// RegisterProvider makes kind an agent kind answered by the turn loop over
// p's client. Call it from an init function of the file that holds the
// provider; a kind that is taken (script, exec, or a provider registered
// before), a kind that is not a valid spec prefix, or a nil Client
// panics, as a programming error.
func RegisterProvider(kind string, p Provider) {
	providers.Lock()
	defer providers.Unlock()
	if kind == "" || kind != strings.ToLower(kind) || strings.ContainsAny(kind, " :/\\@") || p.Client == nil {
		panic(fmt.Sprintf("agent.RegisterProvider(%q): a lower-case kind and a Client", kind))
	}
	if _, taken := providers.m[kind]; taken || kind == KindScript || kind == KindExec {
		panic(fmt.Sprintf("agent.RegisterProvider(%q): the kind is taken", kind))
	}
	if providers.m == nil {
		providers.m = map[string]Provider{}
	}
	providers.m[kind] = p
}

// IsProvider reports whether kind is a registered chat provider: an agent
// that runs no local command, only requests to its endpoint.
func IsProvider(kind string) bool {
	providers.RLock()
	defer providers.RUnlock()
	_, ok := providers.m[kind]
	return ok
}

// KnownKind checks that kind is one an agent spec of this build may have:
// script, exec, a registered chat provider's (openai, …), or
// KindRegistered ("@NAME"): the kinds Configure's adapters make. Another
// is ErrBadSpec, naming the kinds to use, so that a spec read from a file
// (config.json) is refused when it is read rather than when a debate
// needs the agent.
func KnownKind(kind string) error {
	if kind == KindRegistered || kind == KindScript || kind == KindExec || IsProvider(kind) {
		return nil
	}
	kinds := []string{KindScript + ":…", KindExec + ":…"}
	for _, k := range ProviderKinds() {
		kinds = append(kinds, k+":…")
	}
	sort.Strings(kinds)
	return fmt.Errorf("%w: unknown kind %q (use %s, or @NAME)", ErrBadSpec, kind, strings.Join(kinds, ", "))
}

// ProviderKinds are the registered chat providers' kinds, sorted.
func ProviderKinds() []string {
	providers.RLock()
	defer providers.RUnlock()
	out := make([]string, 0, len(providers.m))
	for k := range providers.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// AdapterOptions configure the adapters Configure makes.
type AdapterOptions struct {
	// Settings returns the caller's settings of model for the provider
	// kind (config.json's); ok false, or Settings nil, means the
	// provider's Defaults.
	Settings func(kind, model string) (s ChatSettings, ok bool)
	// Templates is a directory of prompt templates that replace the
	// embedded ones file by file ("": none). It is read once, when the
	// first chat agent is made.
	Templates string
	// Logger receives each chat agent's failed turns and retries, with
	// its model; nil discards them.
	Logger *slog.Logger
}

// Configure returns the adapters of this build: script, exec, and every
// registered chat provider, whose agents are the turn loop (LLM) over the
// provider's client with the settings o gives.
func Configure(o AdapterOptions) Adapters {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	prompts := sync.OnceValues(func() (*Prompts, error) { return LoadPrompts(o.Templates) })
	a := Adapters{
		KindScript: func(arg string) (Responder, error) { return LoadScript(arg) },
		KindExec:   func(arg string) (Responder, error) { return &Exec{Command: arg}, nil },
	}
	providers.RLock()
	defer providers.RUnlock()
	for kind, p := range providers.m {
		a[kind] = func(model string) (Responder, error) {
			s, ok := p.Defaults, false
			if o.Settings != nil {
				var got ChatSettings
				if got, ok = o.Settings(kind, model); ok {
					s = got
				}
			}
			pr, err := prompts()
			if err != nil {
				return nil, err
			}
			c, err := p.Client(model, s)
			if err != nil {
				return nil, err
			}
			return NewLLM(c, LLMConfig{Kind: kind, Prompts: pr, MaxRetries: s.MaxRetries, CountTotal: s.CountTotal, Logger: log.With("model", model)})
		}
	}
	return a
}
