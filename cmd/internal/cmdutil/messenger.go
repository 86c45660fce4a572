package cmdutil

import (
	"context"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/internal/interrupt"
)

// OpenMessenger opens (creating if needed) the messenger config.json
// selects, through the service layer, for a command that drives it itself
// (an agent, the MCP server): it uses it and closes it. A server that does
// not answer is waited for with one line saying so; Ctrl-C stops the wait.
func (a *Factory) OpenMessenger() (app.Backend, error) {
	sctx, stop := interrupt.On(context.Background())
	defer stop()
	b, err := a.Service().Messenger(sctx)
	if err != nil {
		return nil, a.Fail(err, Wording{})
	}
	return b, nil
}

// Warn prints the service layer's warnings: one line each on stderr
// (WarnLine), or one JSON object each under --json.
func (a *Factory) Warn(ws ...app.Warning) error {
	for _, w := range ws {
		if !a.JSON {
			a.WarnLine(w)
		} else if err := a.Emit(map[string]any{"warning": w.Code, "agent": w.Agent, "message": w.Text}); err != nil {
			return err
		}
	}
	return nil
}

// WarnLine prints a warning on stderr as one line, its code first
// ("parley: warning: moved_aside: …"), whatever --json says: for a command
// whose standard output carries only its results (recv and watch print
// messages there, and a program reads them).
func (a *Factory) WarnLine(w app.Warning) { a.Warnf("%s: %s", w.Code, w.Text) }
