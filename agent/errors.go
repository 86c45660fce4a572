package agent

import "errors"

var (
	// ErrBadSpec means an agent spec that is not KIND:ARG or @NAME.
	ErrBadSpec = errors.New("invalid agent spec")
	// ErrUnavailable means an adapter kind parley knows but this build
	// does not provide yet.
	ErrUnavailable = errors.New("not available yet")
	// ErrBadScript means a script file that does not decode or makes no sense.
	ErrBadScript = errors.New("invalid script")
	// ErrBadOutput means a command's output that is neither a turn nor text.
	ErrBadOutput = errors.New("invalid command output")
)
