package consensus

import (
	"errors"
	"fmt"
)

var (
	// ErrIncompleteOutcome means an Outcome that cannot be filed: no
	// Session, an invalid debate id, or an unknown verdict or layer.
	ErrIncompleteOutcome = errors.New("incomplete outcome")
	// ErrNotRecord means a page of the consensus folder that is not a valid
	// consensus record (broken frontmatter, a missing or unknown layer,
	// verdict or status, no topic). Lookup skips it with a warning.
	ErrNotRecord = errors.New("not a consensus record")
	// ErrNoRecord means no record has the name or debate id asked for.
	ErrNoRecord = errors.New("no such consensus record")
	// ErrEmptyQuestion means a check without a topic or a position.
	ErrEmptyQuestion = errors.New("empty topic or position")
	// ErrNotClosed means a debate has no verdict yet, so there is nothing
	// to file.
	ErrNotClosed = errors.New("debate not closed")
	// ErrNoSeal means a record whose debate is not under the parley root,
	// so its seal cannot be checked (a vault shared between roots, or
	// records filed by a program): Check answers on the record alone and
	// says so.
	ErrNoSeal = errors.New("the record's debate is not here to check its seal against")
	// ErrNotFiled means an outcome whose verdict is never filed
	// (UNAVAILABLE: not a debate outcome).
	ErrNotFiled = errors.New("verdict not filed as a consensus record")
	// ErrSealedRecordGone means filing again a sealed debate (one whose
	// outcome's Filing names the record it wrote) whose record is no
	// longer a record of the records folder (removed, moved away, or its
	// frontmatter broken): a record written again would not match the seal
	// and would supersede the records filed after it, so nothing is
	// written; the sealed file must be put back.
	ErrSealedRecordGone = errors.New("sealed record gone")
)

// RecordError records a failure on one record file.
type RecordError struct {
	Op   string // read, parse, file, supersede, index
	Path string // slash path relative to the vault
	Err  error
}

func (e *RecordError) Error() string { return fmt.Sprintf("%s %s: %v", e.Op, e.Path, e.Err) }
func (e *RecordError) Unwrap() error { return e.Err }
