package jetstream_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/natsserver"
	"github.com/parleyhq/parley/jetstream"
)

// startServer starts an embedded nats-server with JetStream storing in a
// temporary directory; it stops with the test.
func startServer(t testing.TB) *natsserver.Server {
	t.Helper()
	s, err := natsserver.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			for _, l := range s.Log() {
				if !strings.Contains(l, "[INF]") {
					t.Logf("nats-server: %s", l)
				}
			}
		}
	})
	return s
}

// connect opens a connection to url that closes with the test.
func connect(t testing.TB, url string, mod ...func(*jetstream.Config)) *jetstream.Conn {
	t.Helper()
	cfg := jetstream.Config{URL: url, Name: t.Name()}
	for _, m := range mod {
		m(&cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := jetstream.Connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func ctxT(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
