package cmdutil

// Debate ids and record names as the user types them: whole, or a unique
// prefix (app.ResolveDebate, app.ResolveRecord). An unknown or ambiguous
// one is "not found" (exit 1), like every other name that names nothing.

import (
	"fmt"
	"io/fs"

	"github.com/parleyhq/parley/internal/termsafe"
)

// NotFoundf is the error of a name that names nothing: exit 1.
func NotFoundf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...), Err: fs.ErrNotExist}
}

// ResolveDebateID turns the ID argument of a command into the id of one
// debate under the root. With no root, or no such debate, it says so and
// how to go on.
func (a *Factory) ResolveDebateID(arg string) (string, error) {
	id, err := a.Service().ResolveDebate(arg)
	return id, a.Fail(err, Wording{NoRoot: fmt.Sprintf("no debate %s: ", termsafe.Clean(arg, ""))})
}
