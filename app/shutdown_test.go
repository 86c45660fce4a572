package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/natsserver"
)

// A watch stopped while its NATS server is down gives its unregistering
// interrupt.Grace, not the retry window of every other operation
// (nats.retryMs, ten minutes here): it stops, and says that the
// registration stays until its heartbeat is too old.
func TestWatchStopsWithinTheGraceWhenTheNATSServerIsDown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := natsserver.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	root := t.TempDir()
	cfg := `{"transport":"nats","nats":{"url":"` + srv.URL() + `","retryMs":600000}}`
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Root: root})
	if _, err := a.AddAgent(ctx, "Wren"); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warnings []Warning
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- a.Watch(wctx, WatchRequest{As: "Wren", Register: true, Started: func() { close(started) },
			Warn: func(w Warning) { mu.Lock(); warnings = append(warnings, w); mu.Unlock() }},
			func(*inbox.Message) error { return nil })
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("watch ended: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("the watch did not start")
	}
	srv.Stop()
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("watch stopped with %v", err)
		}
	case <-time.After(2 * time.Minute): // a hang guard: the grace is seconds
		t.Fatal("the watch did not stop with its server down: it retries its unregistering for nats.retryMs")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, w := range warnings {
		if w.Code == WarnUnregister && strings.Contains(w.Text, "did not answer within "+interrupt.Grace.String()+" of the stop") &&
			strings.Contains(w.Text, "heartbeat is older than the TTL") {
			return
		}
	}
	t.Fatalf("warnings %+v; want that Wren could not be unregistered within the grace, and what follows", warnings)
}
