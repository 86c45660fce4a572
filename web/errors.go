package web

import "errors"

var (
	// ErrRemote means an address that is not a loopback address, which
	// Listen refuses unless remote access was allowed.
	ErrRemote = errors.New("not a loopback address")
	// errNotPage means a vault path that is not a regular file reached
	// without a symbolic link.
	errNotPage = errors.New("not a page")
)
