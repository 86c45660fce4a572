package app

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

// An agent that starts as a new session under a name whose earlier holder
// left mail waiting sets that mail aside, and says so before it is ready,
// as a watch does (WarnMovedAside naming where the mail went); one that
// finds nothing waiting says nothing.
func TestServeAgentSaysMailMovedAside(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := New(Options{Root: t.TempDir()})
	m, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sc, err := agent.ParseScript([]byte(adjustingDefender))
	if err != nil {
		t.Fatal(err)
	}
	// serve runs Bob as a new session until it is ready, stops it, and
	// returns the warnings it gave.
	serve := func() []Warning {
		t.Helper()
		var ws []Warning
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		ready := make(chan []Warning, 1)
		done := make(chan error, 1)
		r := AgentRun{Name: "Bob", Role: debate.RoleDefender, Spec: agent.Spec{Kind: agent.KindScript, Arg: "inline"}, Responder: sc,
			SessionID: inbox.NewID(), Warn: func(w Warning) { ws = append(ws, w) }, Ready: func() { ready <- ws }}
		go func() { done <- a.ServeAgent(rctx, m, r) }()
		select {
		case got := <-ready:
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			return got
		case err := <-done:
			t.Fatalf("ServeAgent: %v", err)
		}
		return nil
	}
	if ws := serve(); len(ws) != 0 {
		t.Fatalf("first start: warnings %+v; want none", ws)
	}
	if _, err := a.Send(ctx, SendRequest{From: "Ana", To: "Bob", Text: "standup moved"}); err != nil {
		t.Fatal(err)
	}
	ws := serve()
	if len(ws) != 1 || ws[0].Code != WarnMovedAside || ws[0].Agent != "Bob" ||
		!strings.Contains(ws[0].Text, "1 unclaimed message(s) of the previous holder of Bob were set aside in ") ||
		!strings.HasSuffix(ws[0].Text, "/"+inbox.AsideDir) {
		t.Fatalf("new session over waiting mail: warnings %+v; want one moved_aside for Bob naming aside/", ws)
	}
}
