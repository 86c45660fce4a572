//go:build linux

package bench

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// FSType names the file system of dir, so that a tmpfs figure (where fsync
// costs nothing) is not mistaken for a disk's.
func FSType(dir string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return "unknown"
	}
	switch uint64(st.Type) {
	case 0xEF53:
		return "ext4"
	case 0x58465342:
		return "xfs"
	case 0x9123683E:
		return "btrfs"
	case 0x01021994:
		return "tmpfs (fsync is free: figures are not a disk's)"
	case 0x794C7630:
		return "overlayfs"
	case 0x2FC12FC1:
		return "zfs"
	}
	return fmt.Sprintf("0x%x", st.Type)
}
