package app

import (
	"runtime/debug"

	"github.com/parleyhq/parley/internal/buildstamp"
)

// Version is what parley reports of its build: the module version, the
// VCS revision and its time, whether the tree had uncommitted changes,
// and the Go toolchain. Its JSON form is what "parley --json version"
// prints; String is the line "parley --version" prints.
type Version = buildstamp.Info

// BuildVersion reads the build information the Go toolchain embedded. A
// build without VCS stamping (-buildvcs=false, a tarball, go run) has no
// revision; that is said, not guessed. A version set at link time
// (buildstamp.Override) replaces the module version.
func BuildVersion() Version {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionFrom(bi, buildstamp.Override)
}

// versionFrom reads a Version out of bi (nil: none was embedded), with
// override (when not empty) as its version.
func versionFrom(bi *debug.BuildInfo, override string) Version {
	v := buildstamp.New()
	if bi != nil {
		v.SetVersion(bi.Main.Version)
		for _, s := range bi.Settings {
			v.Set(s.Key, s.Value)
		}
	}
	v.SetVersion(override)
	return v
}
