package app

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/registrytest"
)

// Prune returns what it removed as the value every front end prints:
// "agents prune --json" writes each as it is, {"pruned": NAME}.
func TestPruneReturnsThePrunedAgents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := newApp(t)
	b, err := a.Messenger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dead := registrytest.DeadPID(t)
	for _, r := range []registry.Registration{{Name: "Wren"}, {Name: "Heron", PID: dead}} {
		if _, err := b.Registry().Register(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	b.Close()
	pruned, err := a.Prune(ctx)
	if err != nil || len(pruned) != 1 || pruned[0].Agent != "Heron" {
		t.Fatalf("Prune: %+v %v; want Heron, whose process is gone", pruned, err)
	}
	if line, _ := json.Marshal(pruned[0]); string(line) != `{"pruned":"Heron"}` {
		t.Errorf("JSON line %s", line)
	}
	if again, err := a.Prune(ctx); err != nil || len(again) != 0 {
		t.Errorf("a second Prune: %+v %v", again, err)
	}
	if _, err := newApp(t).Prune(ctx); !IsProblem(err, ProblemNotFound) {
		t.Errorf("Prune without a root: %v, want not_found (and no root made)", err)
	}
}
