package app

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Version is what parley reports of its build: the module version, the
// VCS revision and its time, whether the tree had uncommitted changes,
// and the Go toolchain. Its JSON form is what "parley --json version"
// prints.
type Version struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	// Cgo says the build linked cgo (CGO_ENABLED=1: a dynamically linked
	// binary, which starts more slowly than a static one).
	Cgo bool `json:"cgo"`
}

// BuildVersion reads the build information the Go toolchain embedded. A
// build without VCS stamping (-buildvcs=false, a tarball, go run) has no
// revision; that is said, not guessed. override, when not empty (a
// version set at link time), replaces the module version.
func BuildVersion(override string) Version {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionFrom(bi, override)
}

// versionFrom reads a Version out of bi (nil: none was embedded).
func versionFrom(bi *debug.BuildInfo, override string) Version {
	v := Version{Version: "(unknown)", Go: runtime.Version()}
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
			case "CGO_ENABLED":
				v.Cgo = s.Value == "1"
			}
		}
	}
	if override != "" {
		v.Version = override
	}
	return v
}

// String is the one line "parley --version" prints.
func (v Version) String() string {
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
