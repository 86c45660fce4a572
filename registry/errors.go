package registry

import (
	"errors"
	"fmt"
)

var (
	// ErrNotRegistered means no registration has that name.
	ErrNotRegistered = errors.New("not registered")
	// ErrNameTaken means a live agent of another session holds the name.
	ErrNameTaken = errors.New("name taken by a live agent")
	// ErrSessionBusy means the name is held, alive, by the same session in
	// another process: a second copy of one agent (a second "parley watch"
	// of a name). It is a kind of ErrNameTaken.
	ErrSessionBusy error = sessionBusy{}
	// ErrNotOwner means the registration belongs to another session: the
	// caller's name was taken over (its heartbeat had gone stale).
	ErrNotOwner = errors.New("registration belongs to another session")
	// ErrMalformed means bytes do not decode to a valid registration.
	ErrMalformed = errors.New("malformed registration")
	// ErrUnsafePath means a symbolic link or other non-directory stands in
	// place of the registry directory, or a directory in place of a
	// registration file.
	ErrUnsafePath = errors.New("unsafe path")
)

// PathError records a failed operation on one registration file.
type PathError struct {
	Op   string // register, read, heartbeat, unregister, prune, list
	Name string
	Path string
	Err  error
}

func (e *PathError) Error() string {
	return fmt.Sprintf("%s %s (%s): %v", e.Op, e.Name, e.Path, e.Err)
}

func (e *PathError) Unwrap() error { return e.Err }

// PruneError is Prune's report of the dead registrations it could not
// remove (or read): it went on past each and removed the others. Errs
// holds one error per registration, a *PathError naming it.
type PruneError struct {
	Errs []error
}

func (e *PruneError) Error() string {
	if len(e.Errs) == 1 {
		return "prune: " + e.Errs[0].Error()
	}
	return fmt.Sprintf("prune: %d dead registrations could not be removed, the first: %v", len(e.Errs), e.Errs[0])
}

func (e *PruneError) Unwrap() []error { return e.Errs }

// sessionBusy is ErrSessionBusy: a kind of ErrNameTaken, made without
// package-level work (no fmt at start-up).
type sessionBusy struct{}

func (sessionBusy) Error() string {
	return ErrNameTaken.Error() + ", the same session in another process"
}
func (sessionBusy) Unwrap() error { return ErrNameTaken }
