package mcpserver

import "errors"

var (
	// ErrInvalidInput means tool arguments that parley refuses: a missing
	// field, an unknown layer or role, a hostile name, an oversized text.
	ErrInvalidInput = errors.New("invalid input")
	// ErrNotJoined means a participant name that did not join a debate
	// through this server (debate_join).
	ErrNotJoined = errors.New("not joined")
	// ErrNoPendingTurn means a debate_submit_turn whose request_id is not
	// the participant's pending turn request.
	ErrNoPendingTurn = errors.New("no pending turn request")
	// ErrAnswered means a second, different answer to a request already
	// answered: a debate turn cannot be changed once sent.
	ErrAnswered = errors.New("request already answered")
	// ErrUnavailable means a tool this server was built without (no debate
	// starter).
	ErrUnavailable = errors.New("not available in this server")
	// ErrClosed means the Server was closed.
	ErrClosed = errors.New("server closed")
)
