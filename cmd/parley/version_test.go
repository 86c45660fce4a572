package main

import (
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

func TestVersionFlagAndCommandAgree(t *testing.T) {
	t.Parallel()
	flag, stderr, code := runT(t, "", "--version")
	if code != cmdutil.ExitOK || stderr != "" {
		t.Fatalf("--version: exit %d, stderr %q", code, stderr)
	}
	cmd, _, code := runT(t, "", "version")
	if code != cmdutil.ExitOK {
		t.Fatalf("version: exit %d", code)
	}
	if flag != cmd {
		t.Fatalf("--version printed %q, version printed %q", flag, cmd)
	}
	if !strings.HasPrefix(flag, "parley ") || strings.Count(flag, "\n") != 1 || !strings.Contains(flag, runtime.Version()) {
		t.Fatalf("--version = %q, want one line: parley <version>, <revision>, <go version>", flag)
	}
	out, _, code := runT(t, "", "--json", "version")
	var v app.Version
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != cmdutil.ExitOK || v.Go != runtime.Version() || v.Version == "" {
		t.Fatalf("--json version = %q (%v), exit %d", out, err, code)
	}
	// A root parley would refuse to use does not stop it saying its version.
	bad := t.TempDir()
	if err := os.Chmod(bad, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--root", bad, "--version"}, {"--root", bad, "version"}} {
		if out, stderr, code := runT(t, "", args...); code != cmdutil.ExitOK || out != flag {
			t.Errorf("%v: exit %d, %q, %q", args, code, out, stderr)
		}
	}
	if _, _, code := runT(t, "", "version", "extra"); code != cmdutil.ExitUsage {
		t.Fatalf("version extra: exit %d, want %d", code, cmdutil.ExitUsage)
	}
}
