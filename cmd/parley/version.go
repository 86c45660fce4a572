package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version, when set at link time (-ldflags "-X main.version=v1.2.3"),
// overrides the module version the build recorded.
var version string

// buildVersion is what "parley version" reports: the module version, the
// VCS revision and its time, whether the tree had uncommitted changes, and
// the Go toolchain.
type buildVersion struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// readVersion reads the build information the Go toolchain embedded. A
// build without VCS stamping (-buildvcs=false, a tarball, go run) has no
// revision; that is said, not guessed.
func readVersion() buildVersion {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionFrom(bi)
}

// versionFrom reads a buildVersion out of bi (nil: none was embedded).
func versionFrom(bi *debug.BuildInfo) buildVersion {
	v := buildVersion{Version: "(unknown)", Go: runtime.Version()}
	if bi != nil {
		if bi.Main.Version != "" {
			v.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		v.Version = version
	}
	return v
}

// String is the one line "parley --version" prints.
func (v buildVersion) String() string {
	rev := "revision unknown (built without VCS information)"
	if v.Revision != "" {
		rev = "revision " + v.Revision
		if v.Time != "" {
			rev += " (" + v.Time + ")"
		}
		if v.Modified {
			rev += ", with uncommitted changes"
		}
	}
	return fmt.Sprintf("parley %s, %s, %s", v.Version, rev, v.Go)
}

// printVersion prints the version as one line, or one JSON object under --json.
func printVersion(a *factory) error {
	v := readVersion()
	if a.json {
		return a.emit(v)
	}
	a.printf("%s\n", v)
	return nil
}

// newVersionCmd is "parley version", the same as "parley --version".
func newVersionCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print parley's version and the revision it was built from",
		Long: "Print the module version, the VCS revision and time it was built from (when the\n" +
			"build recorded them), and the Go version. The same as parley --version.",
		Example: "  parley version\n  parley --version\n  parley --json version",
		Args:    exactArgs(0),
		// The version reads no root: no check of one that may not be trusted.
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE:              func(*cobra.Command, []string) error { return printVersion(a) },
	}
}
