// Package drop puts one message into an agent's inbox: the message's wire
// form, its name, its sender's mark and the durable write. It is the
// send half of inbox's file messenger, which calls it for every send,
// and it imports nothing that reflects (not fmt, not a JSON library), so
// that the plainest "parley send" can send through it before the rest of
// parley is initialised (internal/quicksend).
package drop

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/regfile"
)

// InboxDir is the directory of the inboxes under the root: inbox/<Name>/.
const InboxDir = "inbox"

// Errors of a send; inbox's of the same names are these.
var (
	// ErrNotFound means the agent has neither an inbox nor a registration.
	ErrNotFound = errors.New("not_found")
	// ErrTooLarge means an encoded message exceeds the size limit.
	ErrTooLarge = errors.New("message too large")
	// ErrMalformed means bytes do not decode to a valid message.
	ErrMalformed = errors.New("malformed message")
	// ErrUnsafePath means a symbolic link, file or special file stands where
	// parley expects one of its own directories; parley never follows it.
	ErrUnsafePath = errors.New("unsafe path")
)

// unsafePath is an error wrapping ErrUnsafePath that says what stands
// where: fmt.Errorf("%w: %s", ErrUnsafePath, what).
func unsafePath(what string) error { return &detailError{ErrUnsafePath, what} }

// detailError is err with a detail after it.
type detailError struct {
	err    error
	detail string
}

func (e *detailError) Error() string { return e.err.Error() + ": " + e.detail }
func (e *detailError) Unwrap() error { return e.err }

// DeliveryError describes a failed operation on one agent's inbox.
type DeliveryError struct {
	Op    string // send, claim, ack, quarantine, listen
	Agent string
	Path  string // may be empty
	Err   error
}

func (e *DeliveryError) Error() string {
	s := e.Op + " " + e.Agent
	if e.Path != "" {
		s += " (" + e.Path + ")"
	}
	s += ": " + durable.ErrorString(e.Err)
	if e.placed() {
		s += "; the message is in the inbox nonetheless (a crash before its directory is synced could undo that): do not send it again"
	}
	return s
}

// placed reports whether e is a send whose message was in place when it
// failed (durable.PathError.Placed).
func (e *DeliveryError) placed() bool {
	var pe *durable.PathError
	return e.Op == "send" && errors.As(e.Err, &pe) && pe.Placed
}

// Placed reports whether err is a send that failed once its message was in
// the inbox (the directory's sync, the last step): a receiver may have it
// already, so it is delivered, and sending it again would only be a copy.
func Placed(err error) bool {
	var de *DeliveryError
	return errors.As(err, &de) && de.placed()
}

func (e *DeliveryError) Unwrap() error { return e.Err }

// CheckDir reports whether dir (relative to r) is a real directory:
// ErrNotFound when nothing is there, ErrUnsafePath for anything else in
// its place (a symbolic link, a file), never followed.
func CheckDir(r *os.Root, dir string) error {
	fi, err := r.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return unsafePath(dir + " is " + regfile.Kind(fi.Mode()) + ", not a directory")
	}
	return nil
}

// InboxPath is the inbox of agent, relative to the root.
func InboxPath(agent string) string { return InboxDir + "/" + agent }

// Put delivers data, the wire form of a message from "from", to the inbox
// of agent "to" under the root r, as <ms13>-<seq6>-<rand4>.json, stamped
// at now (or above the sender's mark). It returns once the file and its
// directory entry are on disk. custom, when not nil, is the file system
// every write goes through (tests inject faults there), rooted at r's
// directory. Every error is a *DeliveryError; on error nothing a reader
// would pick up is left behind (a staging file that could not be removed
// starts with a dot and is pruned by gc), but for an error that is
// Placed: the directory's sync failed once the message was in the inbox.
//
// The (ms13, seq6) stamp orders one sender's messages in that inbox, also
// across processes and when the wall clock steps back: it is above the
// stamp the sender last left there (see Stamp). Put opens the inbox
// directory once and does every step relative to it: no directory scan,
// no lock, one fsync of the message and one of the directory.
func Put(r *os.Root, custom durable.FS, to, from string, data []byte, now time.Time) error {
	dir := InboxPath(to)
	if err := CheckDir(r, dir); err != nil {
		return &DeliveryError{Op: "send", Agent: to, Path: dir, Err: err}
	}
	d, err := r.OpenRoot(dir)
	if err != nil {
		return &DeliveryError{Op: "send", Agent: to, Path: dir, Err: err}
	}
	defer d.Close()
	fsys := durable.Root(d)
	if custom != nil {
		fsys = durable.Prefix(custom, dir)
	}
	ms, seq, err := Stamp(d, from, now)
	if err != nil {
		return &DeliveryError{Op: "send", Agent: to, Path: dir + "/" + SenderMark(from), Err: err}
	}
	for attempt := 1; ; attempt++ {
		name := FormatFileName(ms, seq, Rand4())
		err := durable.CreateFile(fsys, name, data, 0o600)
		if err == nil {
			return nil
		}
		if !durable.IsExist(err) || attempt == maxNameAttempts {
			return &DeliveryError{Op: "send", Agent: to, Path: dir + "/" + name, Err: err}
		}
	}
}

// maxNameAttempts bounds the retries of a delivery whose file name was
// taken (a collision of the 16-bit random tail within one millisecond and
// sequence number, which needs two processes).
const maxNameAttempts = 16
