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
	// ErrMalformedReply means a model's reply that holds no usable
	// debate_turn JSON object.
	ErrMalformedReply = errors.New("malformed model reply")
	// ErrEmptyReply means a model's reply with no text at all (an empty
	// content). It is also an ErrMalformedReply; a model that sends one
	// even when asked again has failed, not argued (see LLM.Respond).
	ErrEmptyReply = errors.New("the reply is empty")
	// ErrRefused means a model that declined to answer (the API's
	// refusal, with no content): no reply to re-ask about; its agent has
	// failed, not argued (see LLM.Respond).
	ErrRefused = errors.New("refused to answer")
	// ErrEndpoint means a model endpoint that answered with an error (for
	// the openai client an error status, see *HTTPError) or with something
	// other than a chat completion.
	ErrEndpoint = errors.New("model endpoint error")
	// ErrUnreachable means a model endpoint that could not be reached or
	// did not answer in time. A ChatClient's error that wraps it and is not
	// Retryable ends the turn as unavailable.
	ErrUnreachable = errors.New("model endpoint unreachable")
	// ErrBadTemplate means a prompt template that does not parse or execute,
	// or an override file with an unknown name.
	ErrBadTemplate = errors.New("invalid prompt template")
	// ErrWithdrawn means a request that no longer wants an answer: its
	// debate is no longer run by a coordinator (a Responder that waits on
	// someone else, as an MCP participant, finds it out). The Runner
	// acknowledges the request and sends nothing, and goes on to the next
	// one; a coordinator that resumes the debate asks again under the same
	// request id.
	ErrWithdrawn = errors.New("the request was withdrawn")
)

// ErrParentGone means the process that started this one has already ended
// (WatchParent).
var ErrParentGone = errors.New("the parent process has ended")
