package app

import (
	"context"
	"errors"
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
// SIGTERM) and a symbolic link out of the root (which was followed and
// read) are removed by "gate learn --reset" (the link, not its target).
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
			if removed, _, err := a.ResetGate(context.Background()); !removed || err != nil {
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

// A directory in the model's place, empty or not, is refused with advice
// that agrees with what reset does: reset never removes a directory (it
// may be the user's), so neither the gate's error nor reset's recommends
// reset; both say to move or remove it by hand, and the directory and
// what it holds stay.
func TestResetGateLeavesADirectoryAlone(t *testing.T) {
	t.Parallel()
	for name, holds := range map[string]string{"empty": "", "holding a file": "notes.txt"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := newApp(t)
			path := filepath.Join(a.Root(), gating.ModelName)
			if err := os.MkdirAll(path, 0o700); err != nil {
				t.Fatal(err)
			}
			if holds != "" {
				if err := os.WriteFile(filepath.Join(path, holds), []byte("mine"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			_, err := a.RootGate()
			if !errors.Is(err, ErrModelIsDirectory) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "--reset") {
				t.Errorf("gate: %v, want ErrModelIsDirectory naming %s and not recommending --reset", err, path)
			}
			removed, _, err := a.ResetGate(context.Background())
			if removed || !errors.Is(err, ErrModelIsDirectory) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "remove it yourself") {
				t.Errorf("reset: removed %v, %v; want ErrModelIsDirectory naming %s", removed, err, path)
			}
			if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
				t.Fatalf("reset removed the directory: %v", err)
			}
			if holds != "" {
				if b, err := os.ReadFile(filepath.Join(path, holds)); err != nil || string(b) != "mine" {
					t.Errorf("reset touched the directory's file: %q %v", b, err)
				}
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

// A gate folder (<root>/gate) that is a symbolic link out of the root is
// not followed: "gate learn --reset" removed the model.json it led to (a
// file outside the root), and said the embedded model decides again
// while every gate decision still failed, advising the same reset. Now
// every use of the folder says the link is the problem and nothing it
// leads to is read, written or removed; a link inside the root is still
// followed.
func TestAGateFolderLinkedOutOfTheRootIsNotFollowed(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	model := filepath.Join(outside, "model.json")
	labels := filepath.Join(outside, "labels.jsonl")
	if err := os.WriteFile(model, gating.EmbeddedModel(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(labels, []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newApp(t)
	if err := os.MkdirAll(a.Root(), 0o700); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(a.Root(), gating.LabelDir)
	if err := os.Symlink(outside, folder); err != nil {
		t.Fatal(err)
	}
	says := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrGateOutsideRoot) || !strings.HasPrefix(err.Error(), folder+" ") || strings.Contains(err.Error(), "--reset") {
			t.Errorf("%s: %v; want ErrGateOutsideRoot naming %s", what, err, folder)
		}
	}
	_, err := a.RootGate()
	says("gate", err)
	removed, _, err := a.ResetGate(context.Background())
	says("reset", err)
	if removed {
		t.Error("reset says it removed a model")
	}
	_, _, err = a.GateLabels()
	says("labels", err)
	_, err = a.AddLabels(strings.NewReader(`{"layer":"verify","text":"Fixed; TestUpload passes on CI.","label":"skip"}`+"\n"), "mine.jsonl")
	says("label", err)
	_, err = a.Learn(context.Background(), 2, true)
	says("learn", err)
	if b, err := os.ReadFile(model); err != nil || string(b) != string(gating.EmbeddedModel()) {
		t.Errorf("the model the link leads to: %v", err)
	}
	if b, err := os.ReadFile(labels); err != nil || string(b) != "mine\n" {
		t.Errorf("the labels the link leads to: %q %v", b, err)
	}

	// A link to a folder inside the root is the root's own.
	inside := filepath.Join(a.Root(), "gate-folder")
	if err := os.Mkdir(inside, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(inside, "model.json"), gating.EmbeddedModel(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(folder); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("gate-folder", folder); err != nil {
		t.Fatal(err)
	}
	if g, err := a.RootGate(); err != nil || g.Name() != gating.ModelFileName(gating.EmbeddedModel()) {
		t.Fatalf("a link inside the root: %v, %v", g, err)
	}
	if removed, _, err := a.ResetGate(context.Background()); !removed || err != nil {
		t.Fatalf("reset through a link inside the root: %v %v", removed, err)
	}
	if _, err := os.Stat(model); err != nil {
		t.Errorf("reset inside the root removed the model outside: %v", err)
	}
}
