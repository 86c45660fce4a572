package main

import (
	"log/slog"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/config"
)

// agentAdapters are the adapters of this build with every chat provider
// (openai) configured from config.json: its section's settings for each
// model, and the prompt templates of openai.templates (relative to the
// root). An agent's failed turns go to stderr even without --verbose: the
// coordinator only sees a rejected reply.
func (a *factory) agentAdapters() (agent.Adapters, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	log := a.logger()
	if !a.verbose {
		log = slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return agent.Configure(agent.AdapterOptions{
		Settings: cfg.ChatSettings, Templates: config.Resolve(a.rootDir(), cfg.OpenAI.Templates), Logger: log,
	}), nil
}
