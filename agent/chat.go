package agent

import (
	"context"
	"time"

	"github.com/parleyhq/parley/debate"
)

// ChatClient is one LLM provider's chat endpoint as the turn loop (LLM)
// uses it: one request, one reply. The loop does the rest — prompting,
// reading and repairing the reply, retrying, counting tokens — so a
// provider is only this. Chat must return when ctx is done and be safe for
// concurrent use.
//
// Chat's errors tell the loop what to do with them:
//   - one that is (or wraps) a Retryable whose Retry reports true is tried
//     again, after the wait it asks for or else a growing backoff, up to
//     the loop's MaxRetries;
//   - one that is (or wraps) a *debate.UnavailableError means the endpoint
//     cannot be used: the debate ends UNAVAILABLE at once;
//   - one that wraps ErrRefused (the model declined to answer) is the
//     agent failing: its Runner asks once more, then reports it
//     unavailable with the refusal;
//   - anything else (a reply cut short, a refused request) ends the turn,
//     and the loop answers with a reply the coordinator rejects.
//
// A client that implements ChatDiagnoser may classify its own errors as
// an unavailable endpoint after the retries; without one, the loop counts
// an ErrUnreachable, and a retryable error that outlived the retries, as
// unavailable.
type ChatClient interface {
	Chat(ctx context.Context, req ChatRequest) (ChatReply, error)
}

// The roles of chat messages.
const (
	ChatSystem    = "system"
	ChatUser      = "user"
	ChatAssistant = "assistant"
)

// ChatMessage is one message of a conversation with a model.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatRequest is one request of the turn loop: the conversation so far
// (the system prompt, the turn prompt, and after a malformed reply that
// reply and the re-ask) and the completion's token allowance.
type ChatRequest struct {
	Messages []ChatMessage
	// MaxTokens is the turn's token allowance, at least
	// MinCompletionTokens; a client configured with its own cap uses that.
	MaxTokens int
}

// ChatReply is what the model wrote, and the usage its server reported
// (zero when it reported none: the coordinator then estimates).
type ChatReply struct {
	Content string
	Usage   Usage
	// MaxTokens is the completion limit the client actually sent, when it
	// differs from the request's (its own cap); 0 means the request's.
	// The loop judges the usage against it (see plausibleUsage).
	MaxTokens int
	// Truncated reports a reply the model stopped at the completion limit
	// (the OpenAI API's finish_reason "length"): one that does not parse
	// is said to be cut, not malformed.
	Truncated bool
}

// Usage is the token usage a response reports.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Retryable is implemented by a ChatClient's errors that may go away on
// another try (a 429, a 5xx, a dropped connection). after is how long the
// server asked to wait; 0 leaves the wait to the loop's backoff.
type Retryable interface {
	Retry() (again bool, after time.Duration)
}

// ChatDiagnoser is a ChatClient that says, of an error its Chat returned
// (after the loop's retries), whether it means the endpoint cannot be used,
// with a hint that names what to fix in the client's own terms
// (configuration keys, URLs). nil means it does not.
type ChatDiagnoser interface {
	Unavailable(err error) *debate.UnavailableError
}
