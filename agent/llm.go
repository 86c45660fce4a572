package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/sleep"
)

// Bounds of the turn loop.
const (
	// MinCompletionTokens is the least max_tokens a request asks for, so
	// that a tiny turn allowance still leaves room for the JSON object.
	MinCompletionTokens = 256
	backoffBase         = 500 * time.Millisecond
	backoffCap          = 8 * time.Second
	// maxEchoBytes bounds the malformed reply shown back to the model.
	maxEchoBytes = 8 << 10
	// maxUsageTokens bounds a usage count a server reports, and a turn's
	// sum of them.
	maxUsageTokens = 1 << 30
)

// LLMConfig says how the turn loop asks a model.
type LLMConfig struct {
	// Kind names the provider in the text of a failed turn ("openai").
	Kind string
	// Prompts are the templates (nil: the embedded ones).
	Prompts *Prompts
	// MaxRetries is how often a request is retried after an error its
	// client calls Retryable, within the turn's deadline.
	MaxRetries int
	// CountTotal reports prompt + completion tokens as the turn's tokens;
	// by default only the completion's (what the model wrote).
	CountTotal bool
	// Logger receives a warning for each turn that failed and a line for
	// each retry and re-ask; nil discards them.
	Logger *slog.Logger
}

// LLM is the provider-neutral turn loop: a Responder that answers a
// turn_request by chatting with a model through a ChatClient. It renders
// the prompts, asks, reads the reply (ParseModelReply), re-asks once after
// a malformed one, retries transient failures with backoff, sums the
// tokens, and turns an endpoint that cannot be used into a
// *debate.UnavailableError. It is safe for concurrent use.
type LLM struct {
	client ChatClient
	conf   LLMConfig
	log    *slog.Logger

	// Seams for tests: how a backoff delay is waited, and the jitter.
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func() float64
}

var (
	_ Responder = (*LLM)(nil)
	_ Prober    = (*LLM)(nil)
)

// NewLLM returns the turn loop over client.
func NewLLM(client ChatClient, conf LLMConfig) (*LLM, error) {
	if client == nil {
		return nil, fmt.Errorf("%w: no chat client", ErrBadSpec)
	}
	if conf.MaxRetries < 0 {
		conf.MaxRetries = 0
	}
	if conf.Kind == "" {
		conf.Kind = "LLM"
	}
	if conf.Prompts == nil {
		var err error
		if conf.Prompts, err = LoadPrompts(""); err != nil {
			return nil, err
		}
	}
	l := &LLM{client: client, conf: conf, log: conf.Logger, sleep: sleep.For, jitter: rand.Float64}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	return l, nil
}

// Client is the chat client the loop asks.
func (l *LLM) Client() ChatClient { return l.client }

// Respond answers req. An endpoint that cannot be used (see ChatClient) is
// a *debate.UnavailableError, which a Runner sends to the coordinator as a
// turn_unavailable reply. A model that sends no text at all (ErrEmptyReply,
// still after one re-ask) has failed rather than argued: Respond returns
// that error, with a hint (FailureHint), and a Runner asks once more and
// then reports the agent unavailable (kind failed), as it does for a
// command that fails twice; so does a model that refuses (ErrRefused),
// with the refusal shown and no re-ask. A prompt template that cannot be
// rendered for req (ErrBadTemplate) is a *debate.UnavailableError too. Any other turn that cannot be had (the model's
// reply is malformed after one re-ask) is answered with a reply the
// coordinator rejects — no position, objecting — whose text says why, so
// that the coordinator asks once more and then forfeits the turn instead
// of waiting for its deadline; the reason is logged. When ctx ends first,
// Respond returns ctx's error and sends nothing.
func (l *LLM) Respond(ctx context.Context, req *debate.TurnRequest) (*Reply, error) {
	t, err := l.Turn(ctx, req)
	if err == nil {
		return &Reply{Turn: t}, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	if u := l.Unavailable(err); u != nil {
		l.log.Warn("the endpoint cannot be used", "request_id", req.RequestID, "err", err)
		return nil, u
	}
	if errors.Is(err, ErrBadTemplate) {
		// A configuration mistake, the same on every try: no turn can be
		// had, which is no reply to reject and forfeit round after round.
		l.log.Warn("a prompt template cannot be rendered", "request_id", req.RequestID, "err", err)
		return nil, &debate.UnavailableError{Kind: debate.UnavailableFailed, Err: err,
			Detail: "the " + l.conf.Kind + " agent cannot render its prompt for this turn: " + clip.Line(err.Error(), 401),
			Hint:   "fix the template in the openai.templates directory of config.json, or remove it from there to use the embedded one"}
	}
	if errors.Is(err, ErrRefused) {
		l.log.Warn("the model refused to answer", "request_id", req.RequestID, "err", err)
		return nil, &failedError{err: fmt.Errorf("the %s model %w", l.conf.Kind, err),
			hint: "the model declined the debate's request: use another model, or reword the topic or the context"}
	}
	if errors.Is(err, ErrEmptyReply) {
		l.log.Warn("the model sent no text", "request_id", req.RequestID, "err", err)
		return nil, &failedError{err: fmt.Errorf("the %s model sent no text: %w", l.conf.Kind, err),
			hint: "check the model server's log and that the model is loaded and answers chat completions with text; " +
				"a model that spends its tokens on reasoning may need a larger max_tokens"}
	}
	l.log.Warn("the turn failed; answering with a reply the coordinator rejects", "request_id", req.RequestID, "err", err)
	return &Reply{Turn: &debate.Turn{
		DebateID: req.DebateID, Round: req.Round, Role: req.Role, EvidenceRefs: []string{},
		ConfidenceChange: -1, Text: "No turn from the " + l.conf.Kind + " agent: " + strings.TrimPrefix(err.Error(), ErrMalformedReply.Error()+": "),
	}}, nil
}

// Turn asks the model for req's turn: the prompts rendered from the
// templates, one request (retried while its error is Retryable), the reply
// parsed by ParseModelReply, and a malformed reply re-asked once. The
// turn's tokens are the usage of every request it took (completion tokens,
// or total with CountTotal); 0 when the server reports no usage, or a
// usage that cannot be true (implausibleUsage, logged), so that the
// coordinator estimates. Errors wrap ErrMalformedReply, the client's
// error, or ctx's error.
func (l *LLM) Turn(ctx context.Context, req *debate.TurnRequest) (*debate.Turn, error) {
	system, user, err := l.conf.Prompts.Turn(req)
	if err != nil {
		return nil, err
	}
	msgs := []ChatMessage{{Role: ChatSystem, Content: system}, {Role: ChatUser, Content: user}}
	tokens := 0
	for ask := 1; ; ask++ {
		creq := ChatRequest{Messages: msgs, MaxTokens: max(req.Budget.TokensThisTurn, MinCompletionTokens)}
		rep, err := l.chat(ctx, creq)
		if err != nil {
			return nil, err
		}
		if why := implausibleUsage(creq, rep); why != "" {
			l.log.Warn("the server's token usage cannot be true of its reply; taken as not reported (the coordinator estimates)",
				"request_id", req.RequestID, "completion_tokens", rep.Usage.CompletionTokens, "prompt_tokens", rep.Usage.PromptTokens, "why", why)
			rep.Usage = Usage{}
		}
		tokens = min(tokens+l.tokens(rep.Usage), maxUsageTokens)
		t, perr := ParseModelReply(rep.Content, req)
		if perr == nil {
			t.Tokens = tokens
			return t, nil
		}
		if rep.Truncated && !errors.Is(perr, ErrEmptyReply) {
			// Cut at the limit, the reply is not malformed but too long:
			// the model is told so, to answer shorter.
			limit := rep.MaxTokens
			if limit <= 0 {
				limit = creq.MaxTokens
			}
			perr = fmt.Errorf("%w: the reply was cut at the %d-token limit before its JSON object was complete; answer again, shorter (a shorter \"text\")", ErrMalformedReply, limit)
		}
		if ask == 2 {
			return nil, fmt.Errorf("%w (after one re-ask)", perr)
		}
		problem := strings.TrimPrefix(perr.Error(), ErrMalformedReply.Error()+": ")
		l.log.Info("re-asking after a reply that could not be used", "request_id", req.RequestID, "problem", problem)
		again, err := l.conf.Prompts.Reask(req, problem)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, ChatMessage{Role: ChatAssistant, Content: clip.Bytes(rep.Content, maxEchoBytes)}, ChatMessage{Role: ChatUser, Content: again})
	}
}

// Slack of implausibleUsage: a model also writes a few special tokens, and
// a chat template wraps the prompt in some of its own.
const (
	completionSlack = 64
	promptSlack     = 1024
)

// implausibleUsage says why the usage a server reported with rep cannot be
// true of the request and its reply, or "" when it can. A completion count
// is impossible when it is far above both the max_tokens the request sent
// (more than twice it, plus completionSlack) and what the reply's text can
// hold (every tokenizer in use spends at least one byte a token: more than
// 4 tokens a byte, plus completionSlack). Either bound alone would wrong an
// honest server: one that ignores max_tokens writes a long reply, and a
// reasoning model's hidden tokens do not show in the text. A prompt count
// is impossible above 4 tokens a byte of the messages plus promptSlack,
// and a total above the two bounds summed. This is the one judgement of a
// server's usage; the turn then counts none of it (the coordinator
// estimates, as for a server that reports no usage).
func implausibleUsage(req ChatRequest, rep ChatReply) string {
	u := rep.Usage
	sent := rep.MaxTokens
	if sent <= 0 {
		sent = req.MaxTokens
	}
	maxCompletion := 4*len(rep.Content) + completionSlack
	if sent > 0 {
		maxCompletion = max(maxCompletion, 2*sent+completionSlack)
	}
	promptBytes := 0
	for _, m := range req.Messages {
		promptBytes += len(m.Content)
	}
	maxPrompt := 4*promptBytes + promptSlack
	switch {
	case u.CompletionTokens > maxCompletion:
		return fmt.Sprintf("%d completion tokens for a %d-byte reply to a request for at most %d", u.CompletionTokens, len(rep.Content), sent)
	case u.PromptTokens > maxPrompt:
		return fmt.Sprintf("%d prompt tokens for %d bytes of messages", u.PromptTokens, promptBytes)
	case u.TotalTokens > maxPrompt+maxCompletion:
		return fmt.Sprintf("%d total tokens for %d bytes of messages and a %d-byte reply", u.TotalTokens, promptBytes, len(rep.Content))
	}
	return ""
}

// tokens is what a reply's usage counts for: its completion tokens, or
// with CountTotal prompt + completion (or the reported total, if larger).
// A count a server reports below 0 is taken as not reported, and each is
// capped at maxUsageTokens, so that no server can make a turn's tokens
// negative or wrap them around.
func (l *LLM) tokens(u Usage) int {
	count := func(n int) int { return min(max(n, 0), maxUsageTokens) }
	if l.conf.CountTotal {
		return max(count(u.TotalTokens), count(u.PromptTokens)+count(u.CompletionTokens))
	}
	return count(u.CompletionTokens)
}

// chat makes one request of the client, retrying while its error is
// Retryable: after the wait the error asks for (at most a minute), else
// d/2 + jitter·d/2 with d = min(8 s, 0.5 s·2^try). A wait, asked for by
// the server or the backoff's, that would pass the turn's deadline gives
// up at once with the last error: the endpoint is failing, which is the
// agent's failure to report, not a turn the debate's clock ran out on.
func (l *LLM) chat(ctx context.Context, req ChatRequest) (ChatReply, error) {
	var last error
	for try := 0; ; try++ {
		rep, err := l.client.Chat(ctx, req)
		if err == nil {
			return rep, nil
		}
		if ctx.Err() != nil {
			return ChatReply{}, fmt.Errorf("%w (last error: %v)", ctx.Err(), orNil(last, err))
		}
		again, wait := retry(err)
		if !again {
			return ChatReply{}, err
		}
		last = err
		if try >= l.conf.MaxRetries {
			return ChatReply{}, &gaveUpError{err: err, retries: try}
		}
		// A server that asks for a longer wait than the turn has left
		// cannot answer in time: the endpoint cannot be used now, which is
		// the agent's failure, not a debate that ran out of time.
		if dl, ok := ctx.Deadline(); ok && wait > 0 && time.Until(dl) < wait {
			return ChatReply{}, &gaveUpError{err: err, retries: try, wait: wait, left: time.Until(dl)}
		}
		delay := min(wait, maxRetryAfter)
		if delay <= 0 {
			d := min(backoffCap, backoffBase<<min(try, 10)) // no shift that overflows
			delay = d/2 + time.Duration(l.jitter()*float64(d/2))
		}
		// Slept through, the turn's deadline would pass with the cause
		// unsaid, and the debate end TIMEOUT as if the agent were silent.
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < delay {
			return ChatReply{}, &gaveUpError{err: err, retries: try, next: delay, left: time.Until(dl)}
		}
		l.log.Info("retrying", "try", try+1, "delay", delay, "err", err)
		if err := l.sleep(ctx, delay); err != nil {
			return ChatReply{}, fmt.Errorf("%w (last error: %v)", err, last)
		}
	}
}

// failedError is a turn a responder could not produce because the agent
// itself failed (a model that sends no text), with a hint that says what
// to check. A Runner that gets it twice reports the agent unavailable
// with that hint.
type failedError struct {
	err  error
	hint string
}

func (e *failedError) Error() string       { return e.err.Error() }
func (e *failedError) Unwrap() error       { return e.err }
func (e *failedError) FailureHint() string { return e.hint }

// retry reads a client's error as the loop's rule: retried when it is (or
// wraps) a Retryable that says so.
func retry(err error) (bool, time.Duration) {
	var r Retryable
	if errors.As(err, &r) {
		return r.Retry()
	}
	return false, 0
}

func orNil(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// gaveUpError is a retryable error that outlived the retries, or whose
// server asked for a wait (wait), or whose next backoff (next), longer
// than the turn had left (left).
type gaveUpError struct {
	err              error
	retries          int
	wait, next, left time.Duration
}

// pastDeadline reports a loop that gave up because the next try would
// come after the turn's deadline, not because the retries ran out.
func (e *gaveUpError) pastDeadline() bool { return e.wait > 0 || e.next > 0 }

func (e *gaveUpError) Error() string {
	return fmt.Sprintf("%v (gave up %s)", e.err, e.why())
}

// why says when the loop gave up.
func (e *gaveUpError) why() string {
	switch {
	case e.wait > 0:
		return fmt.Sprintf("after %d retries: the server asks to wait %v, more than the %v the turn has left",
			e.retries, e.wait, e.left.Round(time.Second))
	case e.next > 0:
		return fmt.Sprintf("after %d retries: the next would come in %v, after the turn's deadline (%v left)",
			e.retries, e.next.Round(time.Millisecond), max(e.left, 0).Round(time.Millisecond))
	}
	return fmt.Sprintf("after %d retries", e.retries)
}

func (e *gaveUpError) Unwrap() error { return e.err }

// Unavailable classifies err, an error of Turn, as an endpoint that cannot
// be used: a *debate.UnavailableError the client returned; else what the
// client's ChatDiagnoser says; else an ErrUnreachable, or a retryable
// error that outlived the retries. Anything else (a malformed reply, a
// cancelled context, a refused request) is nil.
func (l *LLM) Unavailable(err error) *debate.UnavailableError {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	var u *debate.UnavailableError
	if errors.As(err, &u) {
		return u
	}
	if d, ok := l.client.(ChatDiagnoser); ok {
		return d.Unavailable(err)
	}
	var g *gaveUpError
	switch {
	case errors.Is(err, ErrUnreachable):
		return &debate.UnavailableError{Kind: debate.UnavailableUnreachable, Err: err,
			Detail: "cannot reach the " + l.conf.Kind + " endpoint: " + clip.Line(err.Error(), 401),
			Hint:   "start the model server, or check where the configuration says it runs"}
	case errors.As(err, &g):
		return &debate.UnavailableError{Kind: debate.UnavailableServer, Err: err,
			Detail: "the " + l.conf.Kind + " endpoint kept failing: " + clip.Line(err.Error(), 401),
			Hint:   "check the model server's own log"}
	}
	return nil
}

// Probe asks the client whether its endpoint answers at all, when it can
// tell (Prober); nil otherwise.
func (l *LLM) Probe(ctx context.Context) error {
	if p, ok := l.client.(Prober); ok {
		return p.Probe(ctx)
	}
	return nil
}
