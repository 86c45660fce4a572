// Package buildstamp says what parley is: the module version, the VCS
// revision and its time, and the Go toolchain, as the Go toolchain
// recorded them in the binary ("parley --version").
//
// It is the one place that decides which recorded values count and how
// the version is worded, for the command (app.BuildVersion, which reads
// the record through runtime/debug) and for the fast path (Read, which
// reads it from the executable's own file, since runtime/debug needs fmt
// and strings and so waits for most of the program's initialisation:
// see internal/lean). Nothing it imports needs reflect or strings.
package buildstamp

import (
	"runtime"
	"strconv"

	"github.com/parleyhq/parley/internal/jsonlite"
	"github.com/parleyhq/parley/internal/lean"
)

// Override, when set at link time, replaces the module version the build
// recorded:
//
//	go build -ldflags "-X github.com/parleyhq/parley/internal/buildstamp.Override=v1.2.3" ./cmd/parley
var Override string

// Unknown is the version of a build that recorded none.
const Unknown = "(unknown)"

// Info is what parley reports of its build. Its JSON form is what
// "parley --json version" prints.
type Info struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	// Cgo says the build linked cgo (CGO_ENABLED=1: a dynamically linked
	// binary, which starts more slowly than a static one).
	Cgo bool `json:"cgo"`
}

// New is the Info of a build with no record yet: an unknown version, this
// binary's Go toolchain.
func New() Info { return Info{Version: Unknown, Go: runtime.Version()} }

// SetVersion takes v as the version (the main module's, or Override),
// unless it is empty.
func (i *Info) SetVersion(v string) {
	if v != "" {
		i.Version = v
	}
}

// Set takes one recorded build setting; those that say nothing of the
// version are ignored. A later setting of a key replaces an earlier one.
func (i *Info) Set(key, value string) {
	switch key {
	case "vcs.revision":
		i.Revision = value
	case "vcs.time":
		i.Time = value
	case "vcs.modified":
		i.Modified = value == "true"
	case "CGO_ENABLED":
		i.Cgo = value == "1"
	}
}

// String is the one line "parley --version" prints (without its newline).
func (i Info) String() string {
	rev := "revision unknown (built without VCS information)"
	if i.Revision != "" {
		rev = "revision " + i.Revision
		if i.Time != "" {
			rev += " (" + i.Time + ")"
		}
		if i.Modified {
			rev += ", with uncommitted changes"
		}
	}
	return "parley " + i.Version + ", " + rev + ", " + i.Go
}

// AppendJSON appends i's JSON form, byte for byte what the command's JSON
// encoder writes for it.
func (i Info) AppendJSON(b []byte) []byte {
	b = append(b, `{"version":`...)
	b = jsonlite.AppendString(b, i.Version)
	if i.Revision != "" {
		b = append(b, `,"revision":`...)
		b = jsonlite.AppendString(b, i.Revision)
	}
	if i.Time != "" {
		b = append(b, `,"time":`...)
		b = jsonlite.AppendString(b, i.Time)
	}
	if i.Modified {
		b = append(b, `,"modified":true`...)
	}
	b = append(b, `,"go":`...)
	b = jsonlite.AppendString(b, i.Go)
	b = append(b, `,"cgo":`...)
	b = strconv.AppendBool(b, i.Cgo)
	return append(b, '}')
}

// FromRecord is the Info of the build record modinfo, the string the
// linker stores (runtime/debug.ReadBuildInfo reads the same): ok is false
// when ReadBuildInfo would not read it (too short, or a line it refuses),
// so that a caller that must say what the command says leaves it to the
// command. Override is not applied.
func FromRecord(modinfo string) (i Info, ok bool) {
	if len(modinfo) < 32 {
		return Info{}, false
	}
	version, settings, ok := parse(modinfo[16 : len(modinfo)-16])
	if !ok {
		return Info{}, false
	}
	i = New()
	i.SetVersion(version)
	for k := 0; k+1 < len(settings); k += 2 {
		i.Set(settings[k], settings[k+1])
	}
	return i, true
}

// parse reads the build record's text as runtime/debug.ParseBuildInfo
// does, refusing what it refuses: the main module's version and the build
// settings as key, value pairs.
func parse(data string) (version string, settings []string, ok bool) {
	replaceable := false // a mod or dep line since the last replacement
	for len(data) > 0 {
		line, rest, found := lean.Cut(data, "\n")
		if !found {
			break
		}
		data = rest
		switch {
		case lean.HasPrefix(line, "path\t"):
		case lean.HasPrefix(line, "mod\t"):
			cols := columns(line[len("mod\t"):])
			if len(cols) != 2 && len(cols) != 3 {
				return "", nil, false
			}
			version, replaceable = cols[1], true
		case lean.HasPrefix(line, "dep\t"):
			if n := len(columns(line[len("dep\t"):])); n != 2 && n != 3 {
				return "", nil, false
			}
			replaceable = true
		case lean.HasPrefix(line, "=>\t"):
			// A replacement follows the module it replaces, once.
			if len(columns(line[len("=>\t"):])) != 3 || !replaceable {
				return "", nil, false
			}
			replaceable = false
		case lean.HasPrefix(line, "build\t"):
			key, value, ok := setting(line[len("build\t"):])
			if !ok {
				return "", nil, false
			}
			settings = append(settings, key, value)
		}
	}
	return version, settings, true
}

// columns splits a line's tab-separated columns.
func columns(s string) []string {
	var cols []string
	for {
		col, rest, found := lean.Cut(s, "\t")
		cols = append(cols, col)
		if !found {
			return cols
		}
		s = rest
	}
}

// setting reads a build line's key=value, either side quoted when it
// holds what would be misread unquoted, as runtime/debug does.
func setting(kv string) (key, value string, ok bool) {
	if kv == "" || kv[0] == '=' {
		return "", "", false
	}
	var raw string
	if kv[0] == '`' || kv[0] == '"' {
		q, err := strconv.QuotedPrefix(kv)
		if err != nil || len(kv) == len(q) || kv[len(q)] != '=' {
			return "", "", false
		}
		key, _ = strconv.Unquote(q)
		raw = kv[len(q)+1:]
	} else {
		key, raw, ok = lean.Cut(kv, "=")
		if !ok || key == "" || lean.IndexFunc(key, mustQuoteKey) >= 0 {
			return "", "", false
		}
	}
	switch {
	case raw == "":
	case raw[0] == '`' || raw[0] == '"':
		v, err := strconv.Unquote(raw)
		if err != nil {
			return "", "", false
		}
		value = v
	case lean.IndexFunc(raw, mustQuoteValue) >= 0:
		return "", "", false
	default:
		value = raw
	}
	return key, value, true
}

// mustQuoteValue reports whether a build setting's value holding r is
// written quoted; a key is also quoted when it holds '='.
func mustQuoteValue(r rune) bool {
	return r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '"' || r == '`'
}

func mustQuoteKey(r rune) bool { return r == '=' || mustQuoteValue(r) }
