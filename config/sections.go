package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/rootdir"
)

// Escalation configures "parley escalate" (SPEC §9): the agents that argue
// a DRIFT verdict, where evidence is checked, and the gate's mode.
//
// Relative paths (a script:FILE spec, the workspace) are relative to the
// directory that holds config.json, the parley root, so that a long-running
// "escalate --follow" does not depend on its working directory.
type Escalation struct {
	// Defender argues that the task's claims hold; Attacker argues the
	// verifier's reasons. Each is an agent spec as for "debate run
	// --agent": script:FILE, exec:COMMAND, openai:MODEL or @NAME.
	Defender string `json:"defender"`
	Attacker string `json:"attacker"`
	// Workspace is the directory evidence paths are checked under
	// (default: the working directory of "parley escalate").
	Workspace string `json:"workspace"`
	// GateMode is the gate's mode: "model" (default) or "rules".
	GateMode string `json:"gateMode"`
}

// DefaultGateMode is the gate's mode when the config names none.
const DefaultGateMode = "model"

func (e *Escalation) validate() error {
	if (e.Defender == "") != (e.Attacker == "") {
		return fmt.Errorf("defender and attacker: give both agent specs, or neither")
	}
	running := map[string]bool{}
	for _, f := range []struct{ name, spec string }{{"defender", e.Defender}, {"attacker", e.Attacker}} {
		if f.spec == "" {
			continue
		}
		sp, err := agent.ParseSpec(f.spec)
		if err == nil {
			// A kind no adapter makes would otherwise be found only when a
			// record needs a debate, and be decided "hold: unavailable".
			err = agent.KnownKind(sp.Kind)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", f.name, err)
		}
		if sp.Kind == agent.KindRegistered {
			// One running agent cannot take both sides: found only when
			// a record needs a debate, it stopped the run there.
			if running[sp.Arg] {
				return fmt.Errorf("defender and attacker: both are the running agent @%s, which joined in one role; name two agents", sp.Arg)
			}
			running[sp.Arg] = true
		}
	}
	if e.GateMode != "" {
		if _, err := gating.ParseMode(e.GateMode); err != nil {
			return fmt.Errorf("gateMode: %v", err)
		}
	}
	return nil
}

// OpenAI configures the openai agent adapter: any OpenAI-compatible
// chat-completions endpoint (Ollama, llama.cpp, vLLM, MLX servers). Models
// overrides the endpoint settings for one model name, so that the defender
// and the attacker can be served by different servers.
type OpenAI struct {
	OpenAIEndpoint
	// Templates is a directory of prompt templates that replace the
	// embedded ones, file by file (relative to the root).
	Templates string                    `json:"templates"`
	Models    map[string]OpenAIEndpoint `json:"models,omitempty"`
}

// OpenAIEndpoint is how one model is reached. Zero values mean "the
// default" (or, in OpenAI.Models, "as the openai section says").
type OpenAIEndpoint struct {
	// BaseURL is the API base, up to and including /v1
	// (default DefaultOpenAIBaseURL, Ollama's).
	BaseURL string `json:"baseUrl"`
	// APIKeyEnv names the environment variable that holds the API key;
	// empty (the default) or an unset variable sends no key.
	APIKeyEnv string `json:"apiKeyEnv"`
	// Temperature is the sampling temperature (default 0.2).
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens caps the completion (default 0: the turn's token allowance).
	MaxTokens int `json:"maxTokens"`
	// RequestTimeoutMs caps one HTTP request (default 120000); the turn's
	// deadline always bounds it too.
	RequestTimeoutMs int `json:"requestTimeoutMs"`
	// MaxRetries is how often a request is retried on 429, 5xx and
	// transport errors (default 6), within the turn's deadline.
	MaxRetries *int `json:"maxRetries,omitempty"`
	// CountTokens is what a turn reports as its tokens: "completion"
	// (default: what the model wrote, comparable to parley's estimate of
	// a scripted turn) or "total" (prompt + completion).
	CountTokens string `json:"countTokens"`
	// JSONMode asks the server for response_format json_object.
	JSONMode *bool `json:"jsonMode,omitempty"`
}

// Defaults of the openai section.
const (
	DefaultOpenAIBaseURL    = "http://127.0.0.1:11434/v1"
	DefaultTemperature      = 0.2
	DefaultRequestTimeoutMs = 120000
	DefaultMaxRetries       = 6
	CountCompletion         = "completion"
	CountTotal              = "total"
)

var envNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

func (o *OpenAI) validate() error {
	if err := o.OpenAIEndpoint.validate(); err != nil {
		return err
	}
	for name, m := range o.Models {
		if strings.TrimSpace(name) == "" {
			return fmt.Errorf("models: an empty model name")
		}
		if err := m.validate(); err != nil {
			return fmt.Errorf("models.%s.%v", name, err)
		}
	}
	return nil
}

func (e *OpenAIEndpoint) validate() error {
	if e.BaseURL != "" {
		u, err := url.Parse(e.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("baseUrl %q: use an http:// or https:// URL such as %s", e.BaseURL, DefaultOpenAIBaseURL)
		}
	}
	if e.APIKeyEnv != "" && !envNameRE().MatchString(e.APIKeyEnv) {
		return fmt.Errorf("apiKeyEnv %q: the name of an environment variable, such as OPENAI_API_KEY", e.APIKeyEnv)
	}
	if e.Temperature != nil && !(*e.Temperature >= 0 && *e.Temperature <= 2) {
		return fmt.Errorf("temperature %v: use 0 to 2", *e.Temperature)
	}
	if e.MaxTokens < 0 {
		return fmt.Errorf("maxTokens %d must not be negative", e.MaxTokens)
	}
	if e.MaxRetries != nil && (*e.MaxRetries < 0 || *e.MaxRetries > 20) {
		return fmt.Errorf("maxRetries %d: use 0 to 20", *e.MaxRetries)
	}
	if e.CountTokens != "" && e.CountTokens != CountCompletion && e.CountTokens != CountTotal {
		return fmt.Errorf("countTokens %q: use %q or %q", e.CountTokens, CountCompletion, CountTotal)
	}
	return nil
}

// Endpoint returns the settings for model: the model's own entry over the
// section's, over the defaults. Every field of the result is set.
func (o *OpenAI) Endpoint(model string) OpenAIEndpoint {
	e := OpenAIEndpoint{
		BaseURL: DefaultOpenAIBaseURL, Temperature: ptr(DefaultTemperature),
		RequestTimeoutMs: DefaultRequestTimeoutMs, MaxRetries: ptr(DefaultMaxRetries),
		CountTokens: CountCompletion, JSONMode: ptr(false),
	}
	over := func(m OpenAIEndpoint) {
		if m.BaseURL != "" {
			e.BaseURL = m.BaseURL
		}
		if m.APIKeyEnv != "" {
			e.APIKeyEnv = m.APIKeyEnv
		}
		if m.Temperature != nil {
			e.Temperature = ptr(*m.Temperature)
		}
		if m.MaxTokens != 0 {
			e.MaxTokens = m.MaxTokens
		}
		if m.RequestTimeoutMs != 0 {
			e.RequestTimeoutMs = m.RequestTimeoutMs
		}
		if m.MaxRetries != nil {
			e.MaxRetries = ptr(*m.MaxRetries)
		}
		if m.CountTokens != "" {
			e.CountTokens = m.CountTokens
		}
		if m.JSONMode != nil {
			e.JSONMode = ptr(*m.JSONMode)
		}
	}
	over(o.OpenAIEndpoint)
	if m, ok := o.Models[model]; ok {
		over(m)
	}
	return e
}

// ChatSettings are the settings of model for the chat provider kind, for
// agent.Configure: the openai section's Endpoint for "openai" (ok); other
// providers have no section here (ok false: their own defaults).
func (c *Config) ChatSettings(kind, model string) (agent.ChatSettings, bool) {
	if kind != agent.KindOpenAI {
		return agent.ChatSettings{}, false
	}
	e := c.OpenAI.Endpoint(model)
	return agent.ChatSettings{
		BaseURL: e.BaseURL, APIKeyEnv: e.APIKeyEnv, Temperature: *e.Temperature, MaxTokens: e.MaxTokens,
		RequestTimeout: e.RequestTimeout(), MaxRetries: *e.MaxRetries,
		CountTotal: e.CountTokens == CountTotal, JSONMode: *e.JSONMode,
	}, true
}

// Resolve makes path, a relative path of config.json, relative to root;
// a path that starts with "~/" is under the user's home (ExpandHome);
// absolute paths and "" are returned as they are.
func Resolve(root, path string) string {
	path = ExpandHome(path)
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(root, path)
}

// ExpandHome is path with a leading "~" or "~/" made the user's home
// directory, as a shell would: config.json, an environment variable set
// by a service manager and an MCP client's arguments reach parley with no
// shell to expand it, and the "~" taken as it is names a directory called
// "~" under the working directory. "~user" forms, and every path when the
// home directory is not known, are returned as they are.
func ExpandHome(path string) string { return rootdir.ExpandHome(path) }

// Effective returns the configuration in force: every section with its
// defaults filled in, so that it reads as a complete config.json (it parses
// back to the same settings). The escalation workspace stays empty when it
// is the working directory.
func (c *Config) Effective() *Config {
	e := &Config{
		Debate:     Debate{Budgets: map[debate.Layer]debate.BudgetOverride{}},
		Messenger:  c.Messenger,
		Escalation: c.Escalation,
		OpenAI:     OpenAI{OpenAIEndpoint: c.OpenAI.Endpoint(""), Templates: c.OpenAI.Templates},
		// Off unless set: no default to fill in, but what is set is shown.
		Consensus: c.Consensus,
		Seal:      c.Seal,
	}
	for _, l := range debate.Layers {
		b := c.Budget(l)
		e.Debate.Budgets[l] = debate.BudgetOverride{
			MaxRounds: ptr(b.MaxRounds), MaxTokens: ptr(b.MaxTokens), MaxTokensPerRound: ptr(b.MaxTokensPerRound),
			MaxWallClockMs: ptr(b.MaxWallClockMs), ConvergenceRounds: ptr(b.ConvergenceRounds),
		}
	}
	if e.Messenger.ReconcileMs == 0 {
		e.Messenger.ReconcileMs = DefaultReconcileMs
	}
	if e.Messenger.HeartbeatTTLMs == 0 {
		e.Messenger.HeartbeatTTLMs = DefaultHeartbeatTTLMs
	}
	if e.Escalation.GateMode == "" {
		e.Escalation.GateMode = DefaultGateMode
	}
	e.Transport, e.NATS = c.Transport, c.NATS
	if e.Transport == "" {
		e.Transport = TransportFile
	}
	if e.NATS.URL == "" {
		e.NATS.URL = DefaultNATSURL
	}
	if e.NATS.Replicas == 0 {
		e.NATS.Replicas = DefaultNATSReplicas
	}
	if e.NATS.RetryMs == 0 {
		e.NATS.RetryMs = DefaultNATSRetryMs
	}
	if len(c.OpenAI.Models) > 0 {
		e.OpenAI.Models = map[string]OpenAIEndpoint{}
		for name := range c.OpenAI.Models {
			e.OpenAI.Models[name] = c.OpenAI.Endpoint(name)
		}
	}
	return e
}

func ptr[T any](v T) *T { return &v }

// Consensus configures the optional models of consensus lookup. Both are
// off by default: lookup is lexical and needs no model.
type Consensus struct {
	// Embeddings ("openai:MODEL") matches topics by the cosine of their
	// embeddings from the endpoint's /embeddings, beside the lexical match;
	// the endpoint is the openai section's for MODEL.
	Embeddings string `json:"embeddings,omitempty"`
	// Judge ("openai:MODEL") asks a chat model to decide consistent or
	// conflict when the lexical comparison cannot tell (unclear).
	Judge string `json:"judge,omitempty"`
}

// ModelOf returns MODEL of an "openai:MODEL" setting ("" when unset).
func ModelOf(spec string) string {
	m, _ := strings.CutPrefix(spec, "openai:")
	return strings.TrimSpace(m)
}

func (c *Consensus) validate() error {
	for name, v := range map[string]string{"embeddings": c.Embeddings, "judge": c.Judge} {
		if v == "" {
			continue
		}
		if !strings.HasPrefix(v, "openai:") || ModelOf(v) == "" {
			return fmt.Errorf("%s %q: use \"openai:MODEL\" (the model served by the openai section's endpoint)", name, v)
		}
	}
	return nil
}
