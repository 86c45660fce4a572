package registry_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/registrytest"
)

// The file registry passes the registry conformance suite.
func TestConformance(t *testing.T) {
	t.Parallel()
	registrytest.Run(t, newFileEnv)
}

func newFileEnv(t testing.TB) *registrytest.Env {
	root := t.TempDir()
	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	const ttl = 30 * time.Second
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	var names atomic.Pointer[func() string]
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	var rngMu sync.Mutex
	random := func() string { rngMu.Lock(); defer rngMu.Unlock(); return registry.MemorableName(rng) }
	names.Store(&random)
	return &registrytest.Env{
		Open: func(t testing.TB) registrytest.Registry {
			r, err := registry.Open(root, tr, registry.WithTTL(ttl))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			registry.SetClock(r, now)
			registry.SetNames(r, func() string { return (*names.Load())() })
			return r
		},
		TTL:     ttl,
		Advance: func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() },
		Names:   func(next func() string) { names.Store(&next) },
		Raw: func(t testing.TB, name string) []byte {
			b, err := os.ReadFile(filepath.Join(root, registry.Dir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			return b
		},
		PutRaw: func(t testing.TB, name string, data []byte) {
			if err := os.WriteFile(filepath.Join(root, registry.Dir, name+".json"), data, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		Mail: tr,
		Waiting: func(t testing.TB, agent string) int {
			n, _, _, err := tr.Count(context.Background(), agent)
			if err != nil {
				t.Fatal(err)
			}
			return n
		},
		Aside: func(t testing.TB, agent, session string) int {
			m, err := filepath.Glob(filepath.Join(root, inbox.InboxDir, agent, inbox.AsideDir, session, "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			return len(m)
		},
	}
}
