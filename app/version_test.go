package app

import (
	"runtime/debug"
	"strings"
	"testing"
)

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
		got := versionFrom(tc.bi, "").String()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q does not say %q", tc.name, got, w)
			}
		}
	}
	if got := versionFrom(&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, "").String(); strings.Contains(got, "uncommitted") {
		t.Errorf("a clean tree is reported as modified: %q", got)
	}
}

// A version set at link time replaces the module's.
func TestVersionSetAtLinkTime(t *testing.T) {
	t.Parallel()
	if got := versionFrom(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v2.0.0-rc1").Version; got != "v2.0.0-rc1" {
		t.Errorf("version %q", got)
	}
}

// The version says whether the build linked cgo (a dynamically linked
// binary starts more slowly): "parley bench cli" reads it to say so.
func TestVersionSaysCgo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		settings []debug.BuildSetting
		want     bool
	}{
		{[]debug.BuildSetting{{Key: "CGO_ENABLED", Value: "1"}}, true},
		{[]debug.BuildSetting{{Key: "CGO_ENABLED", Value: "0"}}, false},
		{nil, false},
	} {
		if got := versionFrom(&debug.BuildInfo{Settings: tc.settings}, "").Cgo; got != tc.want {
			t.Errorf("%v: cgo %v, want %v", tc.settings, got, tc.want)
		}
	}
}
