package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/gating"
)

// Something planted at <root>/gate/model.json that is not the root's own
// regular file is refused at once with how to remove it: a named pipe
// (which blocked every gate decision in open(2) for good, deaf to
// SIGTERM), a symbolic link out of the root (which was followed and read)
// and a directory. "gate learn --reset" then removes it.
func TestRootGateRefusesWhatIsPlantedInTheModelsPlace(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "model.json")
	if err := os.WriteFile(outside, gating.EmbeddedModel(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		plant func(path string) error
	}{
		{"named pipe", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"symbolic link out of the root", func(p string) error { return os.Symlink(outside, p) }},
		{"directory", func(p string) error { return os.Mkdir(p, 0o700) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newApp(t)
			path := filepath.Join(a.Root(), gating.ModelName)
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := tc.plant(path); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := a.RootGate(); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "gate learn --reset") {
					t.Fatalf("err = %v, want an error naming %s and how to remove it", err, path)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("RootGate blocked on it")
			}
			if removed, _, err := a.ResetGate(); !removed || err != nil {
				t.Fatalf("reset: %v %v", removed, err)
			}
			if g, err := a.RootGate(); err != nil || g.Name() != gating.EmbeddedName {
				t.Fatalf("after reset: %v, %v", g, err)
			}
			if _, err := os.Stat(outside); err != nil {
				t.Errorf("reset removed the link's target: %v", err)
			}
		})
	}
}

// A model installed by learn is still read.
func TestRootGateReadsTheInstalledModel(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	path := filepath.Join(a.Root(), gating.ModelName)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, gating.EmbeddedModel(), 0o600); err != nil {
		t.Fatal(err)
	}
	g, err := a.RootGate()
	if err != nil || g.Name() != gating.ModelFileName(gating.EmbeddedModel()) {
		t.Fatalf("RootGate = %v, %v", g, err)
	}
}
