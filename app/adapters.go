package app

import (
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/config"
)

// Adapters are the agent adapters of this build with the openai adapter
// configured from config.json's "openai" section: the endpoint of each
// model, the API key read from the environment variable it names, and the
// prompt templates (the embedded ones, overridden file by file from
// openai.templates, relative to the root), loaded on first use. The
// responders log to log (nil: the App's logger).
func (a *App) Adapters(log *slog.Logger) (agent.Adapters, error) {
	cfg, err := a.Config()
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = a.log
	}
	dir := config.Resolve(a.root, cfg.OpenAI.Templates)
	prompts := sync.OnceValues(func() (*agent.Prompts, error) { return agent.LoadPrompts(dir) })
	return agent.DefaultAdapters().WithOpenAI(func(model string) (agent.OpenAIConfig, error) {
		p, err := prompts()
		if err != nil {
			return agent.OpenAIConfig{}, err
		}
		e := cfg.OpenAI.Endpoint(model)
		key := ""
		if e.APIKeyEnv != "" {
			key = os.Getenv(e.APIKeyEnv)
		}
		return agent.OpenAIConfig{
			BaseURL: e.BaseURL, APIKey: key, APIKeyEnv: e.APIKeyEnv, Temperature: *e.Temperature, MaxTokens: e.MaxTokens,
			RequestTimeout: time.Duration(e.RequestTimeoutMs) * time.Millisecond, MaxRetries: *e.MaxRetries,
			CountTotal: e.CountTokens == config.CountTotal, JSONMode: *e.JSONMode, Prompts: p, Logger: log,
		}, nil
	}), nil
}
