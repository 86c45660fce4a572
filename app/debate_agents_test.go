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
