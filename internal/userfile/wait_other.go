//go:build !unix

package userfile

import "os"

// waitWriter has nothing to wait for where there are no named pipes.
func waitWriter(*os.File) error { return nil }
