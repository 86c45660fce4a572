package debate

import "errors"

var (
	// ErrUnknownLayer means a layer other than spec, plan or verify.
	ErrUnknownLayer = errors.New("unknown layer")
	// ErrUnknownRole means a role other than defender or attacker.
	ErrUnknownRole = errors.New("unknown role")
	// ErrUnknownVerdict means a verdict name that SPEC §5.4 does not define.
	ErrUnknownVerdict = errors.New("unknown verdict")
	// ErrInvalidID means a debate id that does not match the id pattern.
	ErrInvalidID = errors.New("invalid debate id")
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
)
