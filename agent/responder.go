package agent

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// Responder answers one turn request. It must return when ctx is done
// (ctx carries the request's deadline). Implementations are used by one
// Runner goroutine at a time.
type Responder interface {
	Respond(ctx context.Context, req *debate.TurnRequest) (*Reply, error)
}

// Reply is a responder's answer: a turn, or raw fields sent as they are
// (a command's JSON output, a script's deliberately wrong reply), for the
// coordinator to decode and, if need be, reject.
type Reply struct {
	Turn *debate.Turn
	// Raw, when set, is a JSON object sent as the reply's fields instead
	// of Turn.
	Raw json.RawMessage
}

// ResponderFunc adapts a function to Responder.
type ResponderFunc func(ctx context.Context, req *debate.TurnRequest) (*Reply, error)

// Respond calls f.
func (f ResponderFunc) Respond(ctx context.Context, req *debate.TurnRequest) (*Reply, error) {
	return f(ctx, req)
}

// FailureHinter is a Respond error that says what to check when the agent
// keeps failing that way: a Runner that is answered with it twice puts
// FailureHint in the turn_unavailable reply instead of its own hint (which
// speaks of running a command by hand).
type FailureHinter interface {
	error
	FailureHint() string
}
