package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
)

// fakeBackend is a backend registered by a test alone: the file messenger
// under another name, to show that a backend is chosen by its name.
type fakeBackend struct {
	Backend
	closed *bool
}

func (f fakeBackend) Close() { *f.closed = true; f.Backend.Close() }

func TestBackendChosenByName(t *testing.T) {
	closed := false
	RegisterBackend("test-fake", func(ctx context.Context, a *App, cfg *config.Config) (Backend, error) {
		b, err := openFiles(ctx, a, cfg)
		if err != nil {
			return nil, err
		}
		return fakeBackend{Backend: b, closed: &closed}, nil
	})
	if !slices.Contains(Backends(), "test-fake") || !slices.Contains(Backends(), config.TransportFile) || !slices.Contains(Backends(), config.TransportNATS) {
		t.Fatalf("Backends() = %v", Backends())
	}
	a := New(Options{Root: t.TempDir()})
	b, err := a.OpenBackend(context.Background(), "test-fake")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.Location("bob"), filepath.Join(a.Root(), inbox.InboxDir, "bob"); got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	b.Close()
	if !closed {
		t.Error("Close did not reach the registered backend")
	}
	if _, err := a.OpenBackend(context.Background(), "no-such"); err == nil {
		t.Error("an unknown backend opened")
	}
}

func TestDefaultsFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PARLEY_ROOT", dir)
	t.Setenv("PARLEY_VAULT", "")
	a := New(Options{})
	if a.Root() != dir || a.Vault() != filepath.Join(dir, "vault") {
		t.Errorf("root %q vault %q", a.Root(), a.Vault())
	}
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err == nil {
		t.Fatal("config.json exists before anything made it")
	}
	cfg, err := a.Config()
	if err != nil || BackendName(cfg) != config.TransportFile {
		t.Fatalf("config %v, backend %q", err, BackendName(cfg))
	}
}
