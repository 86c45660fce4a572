package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// config.json's "transport" is any registered backend's name; another
// name is refused when the configuration is read, as config.json's other
// mistakes are, naming the file and the names to use.
func TestConfigTransportIsARegisteredName(t *testing.T) {
	RegisterBackend("test-echo", func(ctx context.Context, a *App, cfg *config.Config) (Backend, error) { return openFiles(ctx, a, cfg) })
	root := t.TempDir()
	a := New(Options{Root: root})
	for transport, ok := range map[string]bool{"test-echo": true, "file": true, "nats": true, "redis": false, "File": false, "file ": false, "../file": false} {
		if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(`{"transport":`+strconv.Quote(transport)+`}`), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := a.Config()
		if ok != (err == nil) {
			t.Errorf("transport %q: %v", transport, err)
			continue
		}
		if ok {
			if BackendName(cfg) != transport {
				t.Errorf("transport %q selects %q", transport, BackendName(cfg))
			}
			continue
		}
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), filepath.Join(root, config.FileName)) || !strings.Contains(err.Error(), `use "file", "nats"`) {
			t.Errorf("transport %q: %v; want config.ErrInvalid naming the file and the backends", transport, err)
		}
		if _, err := a.Messenger(context.Background()); !errors.Is(err, config.ErrInvalid) {
			t.Errorf("transport %q: the messenger opened: %v", transport, err)
		}
	}
	os.Remove(filepath.Join(root, config.FileName))
	b, err := a.OpenBackend(context.Background(), "test-echo")
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
}
