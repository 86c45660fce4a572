package vocab

import (
	"errors"

	"github.com/parleyhq/parley/vocab/wire"
)

var (
	// ErrInvalidName means an agent name does not match the allowlist
	// ^[a-zA-Z0-9_][a-zA-Z0-9_-]*$ or is longer than MaxNameLen.
	ErrInvalidName = wire.ErrInvalidName
	// ErrInvalidID means a debate id that does not match the id pattern.
	ErrInvalidID = errors.New("invalid debate id")
	// ErrUnknownLayer means a layer other than spec, plan or verify.
	ErrUnknownLayer = errors.New("unknown layer")
	// ErrUnknownRole means a role name no debate defines.
	ErrUnknownRole = errors.New("unknown role")
	// ErrUnknownVerdict means a verdict name that is not one of Verdicts.
	ErrUnknownVerdict = errors.New("unknown verdict")
)
