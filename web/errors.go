package web

import "errors"

var (
	// errNotPage means a vault path that is not a regular file reached
	// without a symbolic link.
	errNotPage = errors.New("not a page")
)
