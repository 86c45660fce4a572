package transcripts

import (
	"errors"
	"fmt"
)

var (
	// ErrNotFound means no debate has that id.
	ErrNotFound = errors.New("no such debate")
	// ErrExists means a debate with that id already exists.
	ErrExists = errors.New("debate already exists")
	// ErrBusy means another process holds the debate (a coordinator is
	// running it).
	ErrBusy = errors.New("debate is held by another process (a coordinator is running it)")
	// ErrNotSealed means a debate has no verdict.json yet.
	ErrNotSealed = errors.New("debate has no verdict yet")
	// ErrMalformed means bytes that are not a transcript line or state file.
	ErrMalformed = errors.New("malformed transcript data")
	// ErrTampered means a transcript whose hash chain does not verify.
	ErrTampered = errors.New("transcript does not verify")
	// ErrChanging means a debate's files kept being changed while an audit
	// read them (another program rewriting them in place) for longer than
	// ChangeLimit: what they say could not be told.
	ErrChanging = errors.New("its files are being changed by another program")
)

// TamperError names the first bad line of a transcript.
type TamperError struct {
	ID      string
	Line    int
	Problem string
}

func (e *TamperError) Error() string {
	return fmt.Sprintf("transcript of %s: line %d %s", e.ID, e.Line, e.Problem)
}

// Unwrap makes errors.Is(err, ErrTampered) true.
func (e *TamperError) Unwrap() error { return ErrTampered }
