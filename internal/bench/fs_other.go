//go:build !linux

package bench

// FSType names the file system of dir where the platform tells.
func FSType(dir string) string { return "unknown" }
