package debate

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/parleyhq/parley/vocab"
)

var (
	// ErrUnknownLayer means a layer other than spec, plan or verify
	// (vocab.ErrUnknownLayer: the same value).
	ErrUnknownLayer = vocab.ErrUnknownLayer
	// ErrUnknownRole means a role no RoleSpec defines (vocab.ErrUnknownRole).
	ErrUnknownRole = vocab.ErrUnknownRole
	// ErrUnknownVerdict means a verdict name that is not one of Verdicts
	// (vocab.ErrUnknownVerdict).
	ErrUnknownVerdict = vocab.ErrUnknownVerdict
	// ErrInvalidID means a debate id that does not match the id pattern
	// (vocab.ErrInvalidID).
	ErrInvalidID = vocab.ErrInvalidID
	// ErrInvalidBudget means a budget with a non-positive limit.
	ErrInvalidBudget = errors.New("invalid budget")
	// ErrInvalidSession means a session without exactly one defender and at
	// least one attacker, or with an empty topic.
	ErrInvalidSession = errors.New("invalid session")
	// ErrSealed means a debate's verdict.json was already written.
	ErrSealed = errors.New("debate already sealed")
	// ErrClosed means the debate already has a verdict.
	ErrClosed = errors.New("debate already closed")
	// ErrCorrupt means a journal's events do not describe a debate: they are
	// out of order or name a slot the debate never reached.
	ErrCorrupt = errors.New("journal does not describe a debate")
	// ErrBadReply means a debate_turn reply that cannot be accepted for its
	// request; the coordinator records it as rejected.
	ErrBadReply = errors.New("bad reply")
	// ErrStorage means the coordinator could not write its own files (a
	// full or failing disk): the debate stops without a verdict, and no
	// agent is blamed. It can be resumed once the disk is writable.
	ErrStorage = errors.New("the coordinator cannot write to its disk")
)

// RoleCountError is ErrInvalidSession for a role taken by too few or too
// many participants (its RoleSpec's Min and Max): which role, how many
// took it, and what it allows, so that a front end can say which
// participant to add or remove in its own terms.
type RoleCountError struct {
	Role     Role
	Got      int
	Min, Max int // Max 0: no upper bound
}

func (e *RoleCountError) Error() string { return ErrInvalidSession.Error() + ": " + e.What() }

// What is the error without its "invalid session" prefix: "a debate needs
// exactly one defender, got 0".
func (e *RoleCountError) What() string {
	switch {
	case e.Min == 1 && e.Max == 1:
		return fmt.Sprintf("a debate needs exactly one %s, got %d", e.Role, e.Got)
	case e.Got < e.Min && e.Min == 1:
		return fmt.Sprintf("a debate needs at least one %s", e.Role)
	case e.Got < e.Min:
		return fmt.Sprintf("a debate needs at least %d %ss", e.Min, e.Role)
	default:
		return fmt.Sprintf("a debate takes at most %d of role %s, got %d", e.Max, e.Role, e.Got)
	}
}

// Unwrap makes a RoleCountError ErrInvalidSession.
func (e *RoleCountError) Unwrap() error { return ErrInvalidSession }

// StorageError is ErrStorage for one file: which, and what the disk said
// (ENOSPC, EIO, EDQUOT, EROFS).
type StorageError struct {
	DebateID string
	Path     string
	Err      error
	// NotOpened says that the debate could not be opened at all: nothing
	// of it was kept, so there is nothing to resume.
	NotOpened bool
	// AfterVerdict says that the debate's verdict was recorded before the
	// disk failed (sealing it failed): a resume files and seals it.
	AfterVerdict bool
}

// What is what the failure did, without what to do about it: the file,
// the disk's error, and where it left the debate.
func (e *StorageError) What() string {
	left := "stopped without a verdict and no agent is blamed"
	switch {
	case e.NotOpened:
		left = "was not opened and nothing of it was kept"
	case e.AfterVerdict:
		left = "recorded its verdict but stopped before it was sealed"
	}
	return fmt.Sprintf("the disk holding %s failed (%v): debate %s %s", e.Path, e.Err, e.DebateID, left)
}

func (e *StorageError) Error() string {
	if e.NotOpened {
		return e.What() + "; free space or fix the disk, then start the debate again"
	}
	return e.What() + "; free space or fix the disk, then run parley debate resume " + e.DebateID
}

// Unwrap gives both ErrStorage and the disk's own error.
func (e *StorageError) Unwrap() []error { return []error{ErrStorage, e.Err} }

// IsDiskFault reports whether err is the disk's own failure (out of space
// or quota, an I/O error, a read-only file system), as opposed to a
// mistake of the caller.
func IsDiskFault(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EIO) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EROFS)
}

// StorageProbe is what a Journal may also implement: whether its disk
// can still take a write. A coordinator asks it before blaming an agent
// for a missed reply, since an agent on a full disk cannot answer either.
type StorageProbe interface {
	Writable() error
}
