package natsserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"

	"github.com/parleyhq/parley/internal/natsserver"
)

// A restarted server listens at the same URL and still holds what its
// JetStream stored before the stop.
func TestRestartKeepsURLAndStore(t *testing.T) {
	t.Parallel()
	s, err := natsserver.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	url := s.URL()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js := connect(t, url)
	if _, err := js.CreateStream(ctx, njs.StreamConfig{Name: "S", Subjects: []string{"s"}, Storage: njs.FileStorage}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "s", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	if err := s.Restart(); err == nil {
		t.Fatal("Restart of a running server did not fail")
	}
	s.Stop()
	s.Stop() // idempotent
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if s.URL() != url {
		t.Fatalf("URL changed across a restart: %s, then %s", url, s.URL())
	}
	st, err := connect(t, url).Stream(ctx, "S")
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.GetMsg(ctx, 1)
	if err != nil || string(m.Data) != "kept" {
		t.Fatalf("after the restart: %v, %v", m, err)
	}
}

func connect(t *testing.T, url string) njs.JetStream {
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
	return js
}
