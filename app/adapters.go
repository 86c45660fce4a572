package app

import (
	"log/slog"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/config"
)

// Adapters are the agent adapters of this build with every chat provider
// configured from config.json (agent.Configure): the openai section's
// settings for each model (config.ChatSettings; the API key read from the
// environment variable it names), other providers' own defaults, and the
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
	return agent.Configure(agent.AdapterOptions{
		Settings: cfg.ChatSettings, Templates: config.Resolve(a.root, cfg.OpenAI.Templates), Logger: log,
	}), nil
}
