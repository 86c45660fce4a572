package main

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFlagAndCommandAgree(t *testing.T) {
	t.Parallel()
	flag, stderr, code := runT(t, "", "--version")
	if code != exitOK || stderr != "" {
		t.Fatalf("--version: exit %d, stderr %q", code, stderr)
	}
	cmd, _, code := runT(t, "", "version")
	if code != exitOK {
		t.Fatalf("version: exit %d", code)
	}
	if flag != cmd {
		t.Fatalf("--version printed %q, version printed %q", flag, cmd)
	}
	if !strings.HasPrefix(flag, "parley ") || strings.Count(flag, "\n") != 1 || !strings.Contains(flag, runtime.Version()) {
		t.Fatalf("--version = %q, want one line: parley <version>, <revision>, <go version>", flag)
	}
	out, _, code := runT(t, "", "--json", "version")
	var v buildVersion
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != exitOK || v.Go != runtime.Version() || v.Version == "" {
		t.Fatalf("--json version = %q (%v), exit %d", out, err, code)
	}
	// A root parley would refuse to use does not stop it saying its version.
	bad := t.TempDir()
	if err := os.Chmod(bad, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--root", bad, "--version"}, {"--root", bad, "version"}} {
		if out, stderr, code := runT(t, "", args...); code != exitOK || out != flag {
			t.Errorf("%v: exit %d, %q, %q", args, code, out, stderr)
		}
	}
	if _, _, code := runT(t, "", "version", "extra"); code != exitUsage {
		t.Fatalf("version extra: exit %d, want %d", code, exitUsage)
	}
}

// A build with VCS stamping names its revision; one without (CI builds
// with -buildvcs=false, go run, a source tarball) says it has none rather
// than printing an empty or made-up revision.
func TestVersionFromBuildInfo(t *testing.T) {
	t.Parallel()
	stamped := &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-30T16:27:06Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want []string
	}{
		{"stamped", stamped, []string{"parley v1.4.0", "revision 0123456789abcdef0123456789abcdef01234567 (2026-11-30T16:27:06Z)", "with uncommitted changes"}},
		{"no vcs", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, []string{"parley (devel)", "revision unknown (built without VCS information)"}},
		{"no build info", nil, []string{"parley (unknown)", "revision unknown"}},
	} {
		got := versionFrom(tc.bi).String()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not say %q", tc.name, got, w)
			}
		}
	}
	if got := versionFrom(&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}).String(); strings.Contains(got, "uncommitted") {
		t.Errorf("a clean tree is reported as modified: %q", got)
	}
}
