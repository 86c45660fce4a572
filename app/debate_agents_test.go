package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/registry"
)

// beatCounter is a registrar that counts the coordinator's heartbeats.
type beatCounter struct {
	Registry
	beats chan struct{}
}

func (b *beatCounter) Register(ctx context.Context, reg registry.Registration) (*registry.Registered, error) {
	return &registry.Registered{}, nil
}

func (b *beatCounter) Heartbeat(ctx context.Context, name, sessionID string) error {
	select {
	case b.beats <- struct{}{}:
	default:
	}
	return nil
}

func (b *beatCounter) Unregister(ctx context.Context, name, sessionID string) error { return nil }

// The coordinator renews its registration as often as the agents do (a
// third of the configured liveness TTL), not every 5 s whatever the TTL: a
// short TTL would otherwise show it dead, and pruned, mid-debate.
func TestCoordinatorHeartbeatFollowsTheTTL(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	os.MkdirAll(root, 0o700)
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"messenger":{"heartbeatTtlMs":1000}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Root: root})
	bc := &beatCounter{beats: make(chan struct{}, 8)}
	leave, err := a.enroller(bc, "20260101-spec-x-abcdef").Enroll(context.Background(), "Coordinator-abcdef")
	if err != nil {
		t.Fatal(err)
	}
	defer leave(context.Background())
	for i := 0; i < 2; i++ {
		select {
		case <-bc.beats:
		case <-time.After(4 * time.Second):
			t.Fatalf("%d heartbeat(s) in 4 s with a 1 s TTL", i)
		}
	}
}

// A coordinator whose registration was removed under it (pruned as dead
// while the machine slept past the TTL, or deleted by hand) registers
// again at its next heartbeat, as agents and watches do: it stays in
// agents list for as long as its debate runs.
func TestCoordinatorRegistersAgainAfterItsRegistrationWasRemoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "root")
	os.MkdirAll(root, 0o700)
	if err := os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"messenger":{"heartbeatTtlMs":1000}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Root: root})
	if _, err := a.Init(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := a.OpenBackend(ctx, "file")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const name = "Coordinator-abcdef"
	leave, err := a.enroller(b.Registry(), "20260101-spec-x-abcdef").Enroll(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer leave(ctx)
	if err := os.Remove(filepath.Join(root, "registry", name+".json")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		reg, err := b.Registry().Get(ctx, name)
		if err == nil {
			if reg.SessionID != SessionID("20260101-spec-x-abcdef", name) {
				t.Fatalf("registered again under session %s", reg.SessionID)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still unregistered 10 s after its registration was removed: %v", name, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
