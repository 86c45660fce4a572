package main

import (
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/config"
)

// agentAdapters are the adapters of this build with the openai adapter
// configured from config.json's "openai" section: the endpoint of each
// model, the API key read from the environment variable it names, and the
// prompt templates (the embedded ones, overridden file by file from
// openai.templates, relative to the root).
func (a *factory) agentAdapters() (agent.Adapters, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	dir := config.Resolve(a.rootDir(), cfg.OpenAI.Templates)
	var (
		once    sync.Once
		prompts *agent.Prompts
		perr    error
	)
	log := a.logger()
	if !a.verbose {
		// An agent's failed turns are worth a line in its log even
		// without --verbose: the coordinator only sees a rejected reply.
		log = slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return agent.DefaultAdapters().WithOpenAI(func(model string) (agent.OpenAIConfig, error) {
		once.Do(func() { prompts, perr = agent.LoadPrompts(dir) })
		if perr != nil {
			return agent.OpenAIConfig{}, perr
		}
		e := cfg.OpenAI.Endpoint(model)
		key := ""
		if e.APIKeyEnv != "" {
			key = os.Getenv(e.APIKeyEnv)
		}
		return agent.OpenAIConfig{
			BaseURL: e.BaseURL, APIKey: key, APIKeyEnv: e.APIKeyEnv, Temperature: *e.Temperature, MaxTokens: e.MaxTokens,
			RequestTimeout: time.Duration(e.RequestTimeoutMs) * time.Millisecond, MaxRetries: *e.MaxRetries,
			CountTotal: e.CountTokens == config.CountTotal, JSONMode: *e.JSONMode, Prompts: prompts, Logger: log,
		}, nil
	}), nil
}
