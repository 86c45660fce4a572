package escalation

import "errors"

var (
	// ErrMalformed means a telemetry line that is not a usable record.
	ErrMalformed = errors.New("malformed telemetry record")
	// ErrUnavailable means the debate's agents could not be reached; a
	// Debater returns it (wrapped) when the debate could not run.
	ErrUnavailable = errors.New("agents unavailable")
	// ErrBusy means another process is escalating into the same root.
	ErrBusy = errors.New("another parley escalate holds the ledger")
	// ErrNoAgents means a record needs a debate and no defender and
	// attacker are configured.
	ErrNoAgents = errors.New("no escalation agents configured")
	// ErrConflict means the debate id derived from a record names a debate
	// of another record.
	ErrConflict = errors.New("debate id in use by another record")
	// ErrDebateGone means the debate id derived from a record names no
	// debate, but the vault holds the record one of that id filed (its
	// debates/ directory was removed): a new debate must take another id.
	ErrDebateGone = errors.New("the debate of this id is gone and its record is filed")
	// ErrChanged means a record whose key was decided from a record that
	// said another verdict or priority: it is not decided again
	// (*ChangedError says what changed).
	ErrChanged = errors.New("the record changed since it was decided")
)
