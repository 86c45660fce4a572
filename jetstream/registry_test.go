package jetstream_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/registrytest"
)

var _ debate.Presence = (*jetstream.Registry)(nil)

// The JetStream registry passes the registry conformance suite, each
// subtest against its own embedded server; every handle has its own
// connection, as separate processes would.
func TestRegistryConformance(t *testing.T) {
	t.Parallel()
	registrytest.Run(t, newEnv)
}

func newEnv(t testing.TB) *registrytest.Env {
	srv := startServer(t)
	const ttl = 30 * time.Second
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	var names atomic.Pointer[func() string]
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	var rngMu sync.Mutex
	random := func() string { rngMu.Lock(); defer rngMu.Unlock(); return registry.MemorableName(rng) }
	names.Store(&random)
	first := connect(t, srv.URL())
	kv := bucket(t, srv.URL(), jetstream.RegistryBucket)
	return &registrytest.Env{
		Open: func(t testing.TB) registrytest.Registry {
			c := connect(t, srv.URL())
			r := jetstream.NewRegistry(c, c.Transport(), jetstream.WithTTL(ttl))
			jetstream.SetClock(r, now)
			jetstream.SetNames(r, func() string { return (*names.Load())() })
			return r
		},
		TTL:     ttl,
		Advance: func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() },
		Names:   func(next func() string) { names.Store(&next) },
		Raw: func(t testing.TB, name string) []byte {
			e, err := kv.Get(ctxT(t), name)
			if err != nil {
				t.Fatal(err)
			}
			return e.Value()
		},
		PutRaw: func(t testing.TB, name string, data []byte) {
			if _, err := kv.Put(ctxT(t), name, data); err != nil {
				t.Fatal(err)
			}
		},
		Mail: first.Transport(),
		Waiting: func(t testing.TB, agent string) int {
			n, _, _, err := first.Transport().Count(ctxT(t), agent)
			if err != nil {
				t.Fatal(err)
			}
			return n
		},
		Aside: func(t testing.TB, agent, session string) int {
			n, err := first.Transport().AsideCount(ctxT(t), agent, session)
			if err != nil {
				t.Fatal(err)
			}
			return n
		},
	}
}

// bucket opens one of parley's buckets with a plain client, as an operator
// or a foreign writer would.
func bucket(t testing.TB, url, name string) njs.KeyValue {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := njs.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}
