package checkedconfig

import (
	"os"
	"strconv"
	"syscall"

	"github.com/parleyhq/parley/internal/buildstamp"
	"github.com/parleyhq/parley/internal/lean"
)

// Self says what checks a config.json in this process: the binary's Go
// build ID (a hash of its content, unless set by hand with
// -ldflags=-buildid=), its executable file (device, inode, size and
// modification time: another file, or the same one rewritten, is another
// checker, even under a build ID set by hand) and $GODEBUG as getenv reads
// it (which changes what some checks accept: url.Parse's, for one). ok is
// false when any of it cannot be told, or $GODEBUG holds a newline.
func Self(getenv func(string) string) (string, bool) {
	// One open of the executable for both, so that the ID and the file
	// are one file's.
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return "", false
	}
	defer f.Close()
	build, ok := buildstamp.BuildID(f)
	if !ok || lean.ContainsRune(build, '\n') {
		return "", false
	}
	fi, err := f.Stat()
	if err != nil {
		return "", false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	godebug := getenv("GODEBUG")
	if lean.ContainsRune(godebug, '\n') {
		return "", false
	}
	exe := strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(uint64(st.Ino), 10) + ":" +
		strconv.FormatInt(st.Size, 10) + ":" + strconv.FormatInt(st.Mtim.Nano(), 10)
	return "build " + build + "\nexecutable " + exe + "\ngodebug " + godebug, true
}
