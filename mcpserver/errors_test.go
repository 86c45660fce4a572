package mcpserver

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
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
		{"unknown agent", app.UnknownAgent("Rook"), false, `not_found: no agent "Rook" (no inbox, no registration); check the name with: parley agents list; or create its inbox with: parley agents add Rook`, inbox.ErrNotFound},
		{"interrupted", app.Explain(context.Canceled), false, context.Canceled.Error(), context.Canceled},
		{"not the service layer's", disk, false, "disk on fire", disk},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := (&Server{}).toolError(tc.err)
			if err == nil || err.Error() != tc.msg || errors.Is(err, ErrInvalidInput) != tc.invalid {
				t.Fatalf("%v (invalid input %v); want %q (invalid input %v)", err, errors.Is(err, ErrInvalidInput), tc.msg, tc.invalid)
			}
			if tc.cause != nil && !errors.Is(err, tc.cause) {
				t.Errorf("%v: the cause %v is lost", err, tc.cause)
			}
		})
	}
	if (&Server{}).toolError(nil) != nil {
		t.Error("nil became an error")
	}
}

// recv of an inbox another receiver holds (a "parley watch", a running
// agent) says what to do, as "parley recv" does; the tool gave the bare
// "inbox busy" of the messenger (app.Explain words the messenger's
// errors for every front end).
func TestRecvOfABusyInboxSaysWhatToDo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if err := e.tr.Create(ctx, "Bob"); err != nil {
		t.Fatal(err)
	}
	r, err := e.tr.Listen(ctx, "Bob")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, busy := e.tr.Listen(ctx, "Bob")
	if !errors.Is(busy, inbox.ErrBusy) {
		t.Fatalf("a second listener: %v, want inbox.ErrBusy", busy)
	}
	want := app.Explain(busy).Error() // "parley recv"'s words
	if msg := fails(t, e.client, "recv", RecvInput{As: "Bob"}); msg != want || !strings.Contains(msg, "stop the other receiver") {
		t.Errorf("recv of a busy inbox: %q, want %q", msg, want)
	}
	if err := e.srv.toolError(busy); !errors.Is(err, inbox.ErrBusy) || errors.Is(err, ErrInvalidInput) {
		t.Errorf("toolError(%v) = %v: the cause is lost, or it reads as the caller's mistake", busy, err)
	}
}
