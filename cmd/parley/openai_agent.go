package main

import (
	"log/slog"

	"github.com/parleyhq/parley/agent"
)

// agentAdapters are the adapters of this build with the openai adapter
// configured from config.json (app.App.Adapters). Without --verbose an
// agent's failed turns still get a line in its log: the coordinator only
// sees a rejected reply.
func (a *factory) agentAdapters() (agent.Adapters, error) {
	log := a.logger()
	if !a.verbose {
		log = slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return a.service().Adapters(log)
}
