package bench

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// floorSource is the floor program (floor/main.go): standard library only.
//
//go:embed floor/main.go
var floorSource []byte

// ErrNoToolchain means the floor program cannot be built: no Go toolchain
// on PATH. Pass a floor binary built from internal/bench/floor instead.
var ErrNoToolchain = errors.New("no Go toolchain (go) on PATH to build the floor program")

// BuildFloor builds the floor program into dir and returns its path. The
// floor is a separate, minimal binary on purpose: re-executing parley in a
// "minimal mode" would still pay parley's own start-up (its runtime, its
// packages' initialisation, the page faults of a large binary), which is
// the very cost the comparison is there to show.
func BuildFloor(ctx context.Context, dir string) (string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", ErrNoToolchain
	}
	src := filepath.Join(dir, "floor-src")
	if err := os.MkdirAll(src, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), floorSource, 0o600); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module floor\n\ngo 1.22\n"), 0o600); err != nil {
		return "", err
	}
	out := filepath.Join(dir, "floor")
	cmd := exec.CommandContext(ctx, goBin, "build", "-trimpath", "-o", out, ".")
	cmd.Dir = src
	// Nothing to download: the program imports the standard library only.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-buildvcs=false", "GOPROXY=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the floor program: %v: %s", err, b)
	}
	return out, nil
}
