package mcpserver

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/inbox"
)

// toolError words every error of the service layer for a client: the
// arguments by the tools' names, a refusal of them as ErrInvalidInput
// (whatever the Problem: missing, invalid, a file), the cause kept.
func TestToolErrorByProblem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := app.New(app.Options{Root: filepath.Join(dir, "root")})
	refused := func(r app.DebateRequest) error {
		_, err := a.NewSession(context.Background(), r)
		return err
	}
	agents := []string{"attacker=@Rook", "defender=@Bishop"}
	gone := filepath.Join(dir, "brief.md")
	disk := errors.New("disk on fire")
	for _, tc := range []struct {
		name    string
		err     error
		invalid bool
		msg     string
		cause   error
	}{
		{"missing", refused(app.DebateRequest{Layer: "plan", Agents: agents}), true, "missing topic", app.ErrRequired},
		{"invalid entry", refused(app.DebateRequest{Layer: "plan", Topic: "Queue depth", Agents: []string{"attacker=@Rook", "bishop"}}), true, `agents "bishop": use ROLE=SPEC, e.g. attacker=script:critic.json`, nil},
		{"a file", refused(app.DebateRequest{Layer: "plan", Topic: "Queue depth", Agents: agents, Context: []string{gone}}), true, "context: open " + gone + ": no such file or directory", nil},
		// The client sent the self-critique: the refusal says only why.
		{"a critique", app.CritiqueError("mcp", gating.ErrNoCritique), true, gating.ErrNoCritique.Error(), gating.ErrNoCritique},
		{"unknown agent", app.UnknownAgent("Rook"), false, `not_found: no agent "Rook" (no inbox, no registration); check the name with 'parley agents list', or create its inbox with 'parley agents add Rook'`, inbox.ErrNotFound},
		{"interrupted", app.Explain(context.Canceled), false, context.Canceled.Error(), context.Canceled},
		{"not the service layer's", disk, false, "disk on fire", disk},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := toolError(tc.err)
			if err == nil || err.Error() != tc.msg || errors.Is(err, ErrInvalidInput) != tc.invalid {
				t.Fatalf("%v (invalid input %v); want %q (invalid input %v)", err, errors.Is(err, ErrInvalidInput), tc.msg, tc.invalid)
			}
			if tc.cause != nil && !errors.Is(err, tc.cause) {
				t.Errorf("%v: the cause %v is lost", err, tc.cause)
			}
		})
	}
	if toolError(nil) != nil {
		t.Error("nil became an error")
	}
}
