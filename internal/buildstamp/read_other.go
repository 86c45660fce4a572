//go:build !linux

package buildstamp

// Read is the Info of this binary, read without runtime/debug: ok is
// always false here, where the fast path does not read the executable
// (the command answers, through runtime/debug).
func Read() (Info, bool) { return Info{}, false }
