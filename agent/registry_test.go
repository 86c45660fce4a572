package agent

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/registry"
)

func openRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg, err := registry.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	return reg
}

// A SessionRegistry registers name, roles and model under its session (the
// one given, or the one the registry made), heartbeats and unregisters
// that session, and leaves a name another live session holds alone.
func TestSessionRegistry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name, session string
	}{
		{"a new session", ""},
		{"a given session", "0190d7c4-6a1b-7c2d-8e3f-4a5b6c7d8e9f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := openRegistry(t)
			sr := &SessionRegistry{Registrar: reg, SessionID: tc.session, Model: "script:turns.json"}
			if err := sr.Register(ctx, "Critic", []debate.Role{debate.RoleAttacker, debate.RoleDefender}); err != nil {
				t.Fatal(err)
			}
			e, err := reg.Get(ctx, "Critic")
			if err != nil {
				t.Fatal(err)
			}
			if sr.SessionID == "" || e.SessionID != sr.SessionID || (tc.session != "" && sr.SessionID != tc.session) {
				t.Errorf("session: kept %q, registered %q, given %q", sr.SessionID, e.SessionID, tc.session)
			}
			if !slices.Equal(e.Roles, []string{"attacker", "defender"}) || e.Model != "script:turns.json" || !e.Alive {
				t.Errorf("registration %+v", e)
			}
			if err := sr.Heartbeat(ctx, "Critic"); err != nil {
				t.Errorf("heartbeat of its own session: %v", err)
			}

			// Its registration removed under it (pruned while the agent
			// was paused, or deleted): the next heartbeat writes it back.
			if err := reg.Unregister(ctx, "Critic", sr.SessionID); err != nil {
				t.Fatal(err)
			}
			if err := sr.Heartbeat(ctx, "Critic"); err != nil {
				t.Errorf("heartbeat after the registration was removed: %v", err)
			}
			if e2, err := reg.Get(ctx, "Critic"); err != nil || !e2.Alive || e2.SessionID != sr.SessionID || e2.Model != "script:turns.json" || e2.StartedAt != e.StartedAt {
				t.Errorf("after the heartbeat: %+v, %v; want its registration back, alive", e2, err)
			}

			// Another session cannot take the live name, nor heartbeat
			// or unregister it.
			other := &SessionRegistry{Registrar: reg, SessionID: "0190d7c4-0000-7000-8000-000000000000", Model: "exec:x"}
			if err := other.Register(ctx, "Critic", []debate.Role{debate.RoleAttacker}); !errors.Is(err, registry.ErrNameTaken) {
				t.Errorf("a second session registering the live name: %v, want ErrNameTaken", err)
			}
			if err := other.Heartbeat(ctx, "Critic"); !errors.Is(err, registry.ErrNotOwner) {
				t.Errorf("another session's heartbeat: %v, want ErrNotOwner", err)
			}
			if err := other.Unregister(ctx, "Critic"); !errors.Is(err, registry.ErrNotOwner) {
				t.Errorf("another session's unregister: %v, want ErrNotOwner", err)
			}

			if err := sr.Unregister(ctx, "Critic"); err != nil {
				t.Fatal(err)
			}
			if _, err := reg.Get(ctx, "Critic"); !errors.Is(err, registry.ErrNotRegistered) {
				t.Errorf("after Unregister: %v, want ErrNotRegistered", err)
			}

			// A name another session took meanwhile is left to it.
			if err := other.Register(ctx, "Critic", []debate.Role{debate.RoleAttacker}); err != nil {
				t.Fatal(err)
			}
			if err := sr.Heartbeat(ctx, "Critic"); !errors.Is(err, registry.ErrNotOwner) {
				t.Errorf("heartbeat after another session took the name: %v, want ErrNotOwner", err)
			}
			if e, err := reg.Get(ctx, "Critic"); err != nil || e.SessionID != other.SessionID {
				t.Errorf("after that heartbeat: %+v, %v; want the other session's registration", e, err)
			}
		})
	}
}
