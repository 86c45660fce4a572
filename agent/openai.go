package agent

import (
	"bytes"
	"context"
	"crypto/tls"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
)

// Defaults of the openai client.
const (
	DefaultOpenAIBaseURL  = "http://127.0.0.1:11434/v1" // Ollama's
	DefaultRequestTimeout = 120 * time.Second
	// MaxResponseBytes bounds an HTTP response body.
	MaxResponseBytes = 4 << 20
	// maxRetryAfter caps what a server's Retry-After may make us wait.
	maxRetryAfter = 60 * time.Second
	// maxRetryAfterRead bounds the wait a Retry-After is read as, so that
	// no header overflows a Duration; it is far above any turn's time.
	maxRetryAfterRead = 365 * 24 * time.Hour
)

// OpenAIConfig says how the openai agent reaches its model: the provider's
// settings (ChatSettings: base URL, key variable, sampling, retries, token
// counting, JSON mode), the model, the key itself, and the client's and
// the turn loop's own parts (HTTPClient, Prompts, Logger). For this
// client, ChatSettings' BaseURL is the API base up to and including /v1
// (it posts to BaseURL + "/chat/completions"; default
// DefaultOpenAIBaseURL), RequestTimeout caps one HTTP request (default
// DefaultRequestTimeout; the turn's deadline bounds it too), MaxRetries
// retries a 408, 409, 429, 5xx or transport error within the turn's
// deadline, and JSONMode asks for response_format {"type": "json_object"}.
type OpenAIConfig struct {
	ChatSettings
	// Model is the model name sent with every request (the ARG of
	// "openai:ARG").
	Model string
	// APIKey, when set, is sent as "Authorization: Bearer APIKey" (read
	// from the variable ChatSettings.APIKeyEnv names, so that a refused
	// key says which one to set).
	APIKey string
	// Prompts are the templates (nil: the embedded ones).
	Prompts *Prompts
	// HTTPClient is the client used (nil: a client without a global
	// timeout; every request is bounded by its context).
	HTTPClient *http.Client
	// Logger receives a warning for each turn that failed and each retry;
	// nil discards them.
	Logger *slog.Logger
}

func init() {
	RegisterProvider(KindOpenAI, Provider{
		Defaults: ChatSettings{BaseURL: DefaultOpenAIBaseURL, RequestTimeout: DefaultRequestTimeout},
		Client: func(model string, s ChatSettings) (ChatClient, error) {
			return NewOpenAIClient(openAIConfig(model, s))
		},
	})
}

// openAIConfig is the configuration of the openai client of model with
// the provider settings s and the key read from s.APIKeyEnv.
func openAIConfig(model string, s ChatSettings) OpenAIConfig {
	cfg := OpenAIConfig{ChatSettings: s, Model: model}
	if s.APIKeyEnv != "" {
		cfg.APIKey = os.Getenv(s.APIKeyEnv)
	}
	return cfg
}

// NewOpenAI returns the openai agent: the turn loop (LLM) over an
// OpenAIClient. It does not contact the server (see Probe).
func NewOpenAI(cfg OpenAIConfig) (*LLM, error) {
	c, err := NewOpenAIClient(cfg)
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return NewLLM(c, LLMConfig{Kind: KindOpenAI, Prompts: cfg.Prompts, MaxRetries: cfg.MaxRetries, CountTotal: cfg.CountTotal, Logger: log.With("model", c.cfg.Model)})
}

// OpenAIClient is the ChatClient of an OpenAI-compatible chat-completions
// endpoint (Ollama, llama.cpp, vLLM, MLX servers, OpenAI): one POST per
// Chat, no retries of its own. It is the one place that knows HTTP: which
// URLs are accepted, which statuses are worth another try, what a refused
// key or a wrong base URL means. It is safe for concurrent use.
type OpenAIClient struct {
	cfg      OpenAIConfig
	endpoint string
	client   *http.Client
	// user is the user and password the base URL named, taken out of it
	// (cfg.BaseURL and endpoint, which messages show, hold none) and sent
	// as basic auth when there is no API key, as net/http would.
	user *url.Userinfo

	// answered is set once the endpoint gave any HTTP answer: until then
	// a refused connection or an unknown host is not retried.
	answered atomic.Bool
}

var (
	_ ChatClient    = (*OpenAIClient)(nil)
	_ ChatDiagnoser = (*OpenAIClient)(nil)
	_ Prober        = (*OpenAIClient)(nil)
)

// NewOpenAIClient checks cfg (a model name; an http or https base URL) and
// returns the client. It does not contact the server (see Probe).
func NewOpenAIClient(cfg OpenAIConfig) (*OpenAIClient, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, fmt.Errorf("%w: openai needs a model name (openai:MODEL)", ErrBadSpec)
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultOpenAIBaseURL
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: openai base URL %q (use e.g. %s)", ErrBadSpec, cfg.BaseURL, DefaultOpenAIBaseURL)
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	// A password in the URL must not reach the messages, transcripts and
	// records that name the endpoint.
	user := u.User
	if user != nil {
		u.User = nil
		cfg.BaseURL = u.String()
	}
	c := &OpenAIClient{cfg: cfg, endpoint: strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions", client: cfg.HTTPClient, user: user}
	if c.client == nil {
		c.client = &http.Client{}
	}
	return c, nil
}

// HTTPError is an error status from the endpoint.
type HTTPError struct {
	URL        string
	StatusCode int
	// Message is the server's error message (its JSON "error", else the
	// start of the body).
	Message string
	// RetryAfter is what the server asked us to wait, if it said.
	RetryAfter time.Duration
}

func (e *HTTPError) Error() string {
	hint := ""
	switch e.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		hint = " (check the API key: openai.apiKeyEnv in config.json names its environment variable)"
	case http.StatusNotFound:
		hint = " (check openai.baseUrl, which ends in /v1, and that the server has this model)"
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	return fmt.Sprintf("%s: HTTP %d: %s%s", e.URL, e.StatusCode, msg, hint)
}

// message is the server's message, else the status text.
func (e *HTTPError) message() string {
	if e.Message != "" {
		return e.Message
	}
	return http.StatusText(e.StatusCode)
}

// Unwrap makes every HTTPError an ErrEndpoint.
func (e *HTTPError) Unwrap() error { return ErrEndpoint }

// retryable reports whether the status is worth another try: 408, 409,
// 429 and 5xx.
func (e *HTTPError) retryable() bool {
	switch e.StatusCode {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return e.StatusCode >= 500
}

// Retry makes the retryable statuses Retryable, after the server's
// Retry-After.
func (e *HTTPError) Retry() (bool, time.Duration) { return e.retryable(), e.RetryAfter }

type chatRequest struct {
	Model          string        `json:"model"`
	Messages       []ChatMessage `json:"messages"`
	Temperature    float64       `json:"temperature"`
	MaxTokens      int           `json:"max_tokens,omitempty"`
	Stream         bool          `json:"stream"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format,omitempty"`
}

// Chat posts one chat completion and returns the reply text and its
// usage. Its errors are an *HTTPError (Retryable for 408, 409, 429 and
// 5xx), an ErrUnreachable transport failure (Retryable, except a refused
// connection or an unknown host while the endpoint has never answered: a
// server that is not running fails fast), an ErrEndpoint for an answer
// that is not a chat completion (Retryable when it is one whose JSON was
// cut short, or an error in a 2xx body), an ErrMalformedReply for a reply cut before any text, or
// ctx's error.
func (c *OpenAIClient) Chat(ctx context.Context, req ChatRequest) (ChatReply, error) {
	body := chatRequest{Model: c.cfg.Model, Messages: req.Messages, Temperature: c.cfg.Temperature, MaxTokens: c.cfg.MaxTokens}
	if body.MaxTokens == 0 {
		body.MaxTokens = max(req.MaxTokens, MinCompletionTokens)
	}
	if c.cfg.JSONMode {
		body.ResponseFormat = &struct {
			Type string `json:"type"`
		}{"json_object"}
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return ChatReply{}, err
	}
	rep, err := c.once(ctx, payload)
	if err != nil {
		return ChatReply{}, err
	}
	rep.MaxTokens = body.MaxTokens
	return rep, nil
}

// once makes one chat-completions request.
func (o *OpenAIClient) once(ctx context.Context, payload []byte) (ChatReply, error) {
	data, err := o.post(ctx, o.endpoint, payload)
	if err != nil {
		return ChatReply{}, err
	}
	rep, err := decodeCompletion(data)
	if errors.Is(err, ErrRefused) {
		return rep, err // the model's words, not the endpoint's
	}
	if err != nil {
		return ChatReply{}, fmt.Errorf("%s: %w", o.endpoint, err)
	}
	return rep, nil
}

// post makes one POST of a JSON payload to endpoint and returns the body of
// a 2xx answer; its errors are those Chat documents.
func (o *OpenAIClient) post(ctx context.Context, endpoint string, payload []byte) ([]byte, error) {
	rctx, cancel := context.WithTimeout(ctx, o.cfg.RequestTimeout)
	defer cancel()
	// The TLS handshake's own error: the client reports a plain-HTTP
	// server as a bare EOF, or only in words.
	var handshake atomic.Pointer[error]
	tctx := httptrace.WithClientTrace(rctx, &httptrace.ClientTrace{
		TLSHandshakeDone: func(_ tls.ConnectionState, err error) {
			if err != nil {
				handshake.Store(&err)
			}
		},
	})
	hreq, err := http.NewRequestWithContext(tctx, http.MethodPost, endpoint, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	o.authorize(hreq)
	resp, err := o.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if rctx.Err() != nil {
			return nil, &unreachableError{err: fmt.Errorf("%s: no answer within the request timeout (%v)", endpoint, o.cfg.RequestTimeout), slow: true}
		}
		if h := handshake.Load(); h != nil {
			// A server that speaks plain HTTP will not learn TLS: once
			// that is plain, another try is no use.
			return nil, &unreachableError{err: err, handshake: *h, final: !o.answered.Load() && plainHTTP(*h)}
		}
		// Nothing ever answered there and nothing listens (a server that
		// is not running, a host that does not exist): not worth a retry.
		return nil, &unreachableError{err: err, final: !o.answered.Load() && refused(err)}
	}
	defer resp.Body.Close()
	o.answered.Store(true)
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if rctx.Err() != nil {
			return nil, &unreachableError{err: fmt.Errorf("%s: the response stalled: it began (HTTP %d) but was not complete within the request timeout (%v)", endpoint, resp.StatusCode, o.cfg.RequestTimeout), slow: true}
		}
		return nil, &unreachableError{err: fmt.Errorf("%s: the connection broke mid-response (HTTP %d): %v", endpoint, resp.StatusCode, err), midReply: true}
	}
	if resp.StatusCode/100 != 2 {
		return nil, &HTTPError{URL: endpoint, StatusCode: resp.StatusCode, Message: errorMessage(data), RetryAfter: retryAfter(resp.Header, time.Now())}
	}
	if len(data) > MaxResponseBytes {
		return nil, fmt.Errorf("%w: %s sent more than %d bytes", ErrEndpoint, endpoint, MaxResponseBytes)
	}
	return data, nil
}

// Embed posts the texts to the endpoint's /embeddings (Ollama, llama.cpp,
// vLLM and OpenAI serve it) with the client's model and returns one vector
// per text, in order. Its errors are those of Chat, and an ErrEndpoint for
// an answer that does not hold exactly one vector per text.
func (o *OpenAIClient) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	payload, err := json.Marshal(struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{o.cfg.Model, texts})
	if err != nil {
		return nil, err
	}
	endpoint := strings.TrimRight(o.cfg.BaseURL, "/") + "/embeddings"
	data, err := o.post(ctx, endpoint, payload)
	if err != nil {
		return nil, err
	}
	var out struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrEndpoint, endpoint, err)
	}
	vecs := make([][]float32, len(texts))
	for _, d := range out.Data {
		if d.Index < 0 || d.Index >= len(texts) || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("%w: %s: an embedding with index %d for %d texts", ErrEndpoint, endpoint, d.Index, len(texts))
		}
		vecs[d.Index] = d.Embedding
	}
	for i, v := range vecs {
		if v == nil {
			return nil, fmt.Errorf("%w: %s: no embedding for text %d", ErrEndpoint, endpoint, i)
		}
	}
	return vecs, nil
}

// decodeCompletion reads a chat-completions response tolerantly: the
// first choice's message content as a string or a list of text parts (or a
// legacy "text"), else its reasoning_content unless the reply was cut at
// max_tokens (a draft, not an answer); usage when present; whether
// it stopped at max_tokens (Truncated). A refusal with no content is
// ErrRefused, the refusal quoted, and so is a reply a content filter
// stopped before any text.
func decodeCompletion(data []byte) (ChatReply, error) {
	var r struct {
		Choices []struct {
			Message struct {
				Content          json.RawMessage `json:"content"`
				Refusal          string          `json:"refusal"`
				ReasoningContent string          `json:"reasoning_content"`
			} `json:"message"`
			Text         string `json:"text"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage json.RawMessage `json:"usage"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		if truncated(data) {
			return ChatReply{}, &truncatedError{n: len(data), tail: strings.ToValidUTF8(string(data[max(0, len(data)-40):]), "")}
		}
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("data:")) {
			return ChatReply{}, fmt.Errorf("%w: the server streamed its answer as server-sent events (it begins %q), although parley asks for \"stream\": false", errStreamed, clip.Bytes(strings.TrimSpace(string(data)), 60))
		}
		return ChatReply{}, fmt.Errorf("%w: the response is not a chat completion: %v (it begins %q)", errNotCompletion, clip.Line(err.Error(), 401), clip.Bytes(strings.TrimSpace(string(data)), 60))
	}
	if len(r.Error) > 0 && !isNull(r.Error) {
		return ChatReply{}, &answeredError{msg: errorMessage(data)}
	}
	if len(r.Choices) == 0 {
		return ChatReply{}, fmt.Errorf("%w: the response has no choices", errNotCompletion)
	}
	c := r.Choices[0]
	text := contentText(c.Message.Content)
	if strings.TrimSpace(text) == "" {
		text = c.Text
	}
	if strings.TrimSpace(text) == "" && strings.TrimSpace(c.Message.Refusal) != "" {
		return ChatReply{Usage: readUsage(r.Usage)}, fmt.Errorf("%w: %q", ErrRefused, clip.Line(c.Message.Refusal, 301))
	}
	if strings.TrimSpace(text) == "" && c.FinishReason == "content_filter" {
		return ChatReply{Usage: readUsage(r.Usage)}, fmt.Errorf("%w: the provider's content filter stopped the reply (finish_reason \"content_filter\")", ErrRefused)
	}
	if strings.TrimSpace(text) == "" && c.FinishReason != "length" {
		// A server that puts a finished answer in reasoning_content.
		text = c.Message.ReasoningContent
	}
	if strings.TrimSpace(text) == "" && c.FinishReason == "length" {
		// Cut while it was still thinking: its reasoning is a draft, not
		// its answer (a draft that says what conceding would look like is
		// no concession).
		why := "it was cut at max_tokens before any text"
		if strings.TrimSpace(c.Message.ReasoningContent) != "" {
			why = "it was cut at max_tokens while still reasoning, before any answer"
		}
		return ChatReply{Usage: readUsage(r.Usage)}, fmt.Errorf("%w: %w: %s (raise openai.maxTokens)", ErrMalformedReply, ErrEmptyReply, why)
	}
	return ChatReply{Content: text, Usage: readUsage(r.Usage), Truncated: c.FinishReason == "length"}, nil
}

// readUsage reads a response's usage tolerantly: a count that is not a
// number (a string, null) or is negative is not reported (0), a fraction
// is cut to a whole number, and a count too large for an int is capped at
// maxUsageTokens, so that an odd usage never costs the reply it came with.
func readUsage(raw json.RawMessage) Usage {
	var r struct {
		Prompt     json.RawMessage `json:"prompt_tokens"`
		Completion json.RawMessage `json:"completion_tokens"`
		Total      json.RawMessage `json:"total_tokens"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return Usage{}
	}
	return Usage{PromptTokens: tokenCount(r.Prompt), CompletionTokens: tokenCount(r.Completion), TotalTokens: tokenCount(r.Total)}
}

// tokenCount reads a token count an agent reports, a server's usage or an
// exec: command's "tokens", tolerantly: a count that is not a number (a
// string, null) or is not above 0 is not reported (0), a fraction (12.0,
// 1e3, 12.5) is cut to a whole number, and a count too large for an int
// is capped at maxUsageTokens.
func tokenCount(raw json.RawMessage) int {
	var f float64
	if json.Unmarshal(raw, &f) != nil || !(f > 0) {
		return 0
	}
	return int(min(f, maxUsageTokens))
}

// contentText reads a message content: a string, or a list of parts whose
// text ones are joined.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 || isNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "" || p.Type == "text" || p.Type == "output_text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// errorMessage reads a server's error body: {"error":{"message":…}},
// {"error":"…"} (Ollama), {"message":…}, else the start of the body.
func errorMessage(data []byte) string {
	var r struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(data, &r) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case len(r.Error) > 0 && json.Unmarshal(r.Error, &s) == nil && s != "":
			return clip.Line(s, 401)
		case len(r.Error) > 0 && json.Unmarshal(r.Error, &obj) == nil && obj.Message != "":
			return clip.Line(obj.Message, 401)
		case r.Message != "":
			return clip.Line(r.Message, 401)
		case r.Detail != "":
			return clip.Line(r.Detail, 401)
		}
	}
	s := strings.ToValidUTF8(string(data[:min(len(data), 200)]), "")
	return clip.Line(s, 401)
}

// retryAfter reads retry-after-ms, or Retry-After in seconds or as an HTTP
// date: the wait the server asks for, as asked (up to maxRetryAfterRead),
// so that the turn loop can tell a wait past the turn's deadline; the
// loop caps what it sleeps at maxRetryAfter. 0 when absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	// secs reads a count of unit, bounded before it becomes a Duration.
	secs := func(v string, unit time.Duration) time.Duration {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(f > 0) {
			return 0
		}
		return time.Duration(min(f*float64(unit), float64(maxRetryAfterRead)))
	}
	var d time.Duration
	if v := h.Get("Retry-After-Ms"); v != "" {
		d = secs(v, time.Millisecond)
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); d == 0 && v != "" {
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			d = secs(v, time.Second)
		} else if t, err := http.ParseTime(v); err == nil {
			d = t.Sub(now)
		}
	}
	if d < 0 {
		return 0
	}
	return min(d, maxRetryAfterRead)
}

// authorize sets the request's credentials: the API key as a bearer
// token, else the base URL's user and password as basic auth.
func (o *OpenAIClient) authorize(req *http.Request) {
	switch {
	case o.cfg.APIKey != "":
		req.Header.Set("Authorization", "Bearer "+o.cfg.APIKey)
	case o.user != nil:
		pw, _ := o.user.Password()
		req.SetBasicAuth(o.user.Username(), pw)
	}
}

// Probe tells whether the endpoint answers at all: a GET of BaseURL/models
// that gets any HTTP response counts as reachable (some servers do not
// serve /models) but 401, the API key refused, which no turn would get
// past; a transport error is ErrUnreachable. A 403 is let through: a key
// restricted to chat may not list models.
func (o *OpenAIClient) Probe(ctx context.Context) error {
	u := strings.TrimRight(o.cfg.BaseURL, "/") + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	o.authorize(req)
	resp, err := o.client.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrUnreachable, u, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode == http.StatusUnauthorized {
		return &HTTPError{URL: u, StatusCode: resp.StatusCode, Message: errorMessage(data)}
	}
	return nil
}

// truncated reports a body that begins a JSON object and ends before
// it is complete: a completion cut short, not some other document.
func truncated(data []byte) bool {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return false
	}
	var v stdjson.RawMessage
	return errors.Is(stdjson.NewDecoder(bytes.NewReader(data)).Decode(&v), io.ErrUnexpectedEOF)
}

// truncatedError is a 2xx answer whose JSON object ends unfinished: the
// server (or a proxy on the way) cut its reply short. It is an ErrEndpoint
// worth another try.
type truncatedError struct {
	n    int    // the bytes received
	tail string // how they end
}

func (e *truncatedError) Error() string { return ErrEndpoint.Error() + ": " + e.what() }

// what says how the response ends.
func (e *truncatedError) what() string {
	return fmt.Sprintf("the response was cut short: its JSON ends unfinished after %d bytes (…%q)", e.n, e.tail)
}

func (e *truncatedError) Unwrap() error { return ErrEndpoint }

// Retry: a reply cut short may come whole the next time.
func (e *truncatedError) Retry() (bool, time.Duration) { return true, 0 }

// answeredError is a 2xx answer whose body is an error rather than a
// completion (a proxy passing on its upstream's failure, a server still
// loading its model): no model reply to re-ask about, and worth a retry
// like a 5xx. It is an ErrEndpoint.
type answeredError struct {
	msg string // the server's message
}

func (e *answeredError) Error() string {
	return ErrEndpoint.Error() + ": the server answered with an error: " + e.msg
}

func (e *answeredError) Unwrap() error { return ErrEndpoint }

// Retry: an error the server answered may be gone the next time.
func (e *answeredError) Retry() (bool, time.Duration) { return true, 0 }

// errNotCompletion is a 2xx answer that is not a chat completion at all
// (an HTML page, some other API): the base URL points elsewhere. It is an
// ErrEndpoint.
var errNotCompletion = fmt.Errorf("%w", ErrEndpoint)

// errStreamed is a 2xx answer of server-sent events ("data: …" lines): a
// server or proxy that streams although the request says "stream":
// false. The base URL is right; the server must be made not to stream. It
// is an ErrEndpoint.
var errStreamed = fmt.Errorf("%w", ErrEndpoint)

// unreachableError is a request that got no HTTP answer (connection
// refused, DNS, a reset, the request timeout): it is ErrUnreachable and
// keeps the transport's error underneath. It is worth a retry unless
// final.
type unreachableError struct {
	err error
	// handshake is the TLS handshake's failure, when that is what failed.
	handshake error
	final     bool
	// slow is a request cut by the request timeout: the server took
	// the connection but did not answer, or finish answering, in time.
	slow bool
	// midReply is a response whose body broke off (a reset): the server
	// answered, then the connection failed.
	midReply bool
}

func (e *unreachableError) Error() string {
	return fmt.Sprintf("%v: %v", ErrUnreachable, e.err)
}

func (e *unreachableError) Unwrap() []error { return []error{ErrUnreachable, e.err} }

// Retry: a transport failure may go away, unless nothing ever answered.
func (e *unreachableError) Retry() (bool, time.Duration) { return !e.final, 0 }

// plainHTTP reports a TLS handshake failure that means the server speaks
// plain HTTP: its first bytes are not a TLS record (an HTTP answer), or it
// closed the connection at the first TLS record it was sent.
func plainHTTP(handshake error) bool {
	var rh tls.RecordHeaderError
	return errors.As(handshake, &rh) || errors.Is(handshake, io.EOF) || errors.Is(handshake, io.ErrUnexpectedEOF) || errors.Is(handshake, syscall.ECONNRESET)
}

// refused reports a transport error that means nothing listens there: a
// refused connection or a host name that does not resolve.
func refused(err error) bool {
	var dns *net.DNSError
	return errors.Is(err, syscall.ECONNREFUSED) || (errors.As(err, &dns) && dns.IsNotFound)
}

// Unavailable classifies err, an error of Turn, as an endpoint that cannot
// be used, with a hint that says what to fix: 401 and 403 (which API key,
// from which variable, and whether it is set), 404 (the base URL and the
// path tried), 5xx and 408/409/429 once the retries ran out, any other
// 4xx (400, 413, 422: the server refuses the request itself, such as one
// past the model's context window), a 2xx carrying an error or a
// completion cut short once the retries ran out, and an endpoint that cannot be reached. Anything else
// (a malformed reply, a cancelled context) is nil.
func (o *OpenAIClient) Unavailable(err error) *debate.UnavailableError {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	base := strings.TrimRight(o.cfg.BaseURL, "/")
	var he *HTTPError
	var te *truncatedError
	var ae *answeredError
	var ue *unreachableError
	switch {
	case errors.As(err, &he) && (he.StatusCode == http.StatusUnauthorized || he.StatusCode == http.StatusForbidden):
		return &debate.UnavailableError{
			Kind: debate.UnavailableAuth, Status: he.StatusCode, URL: he.URL, Err: err,
			Detail: fmt.Sprintf("%s refused the API key (HTTP %d: %s)", he.URL, he.StatusCode, he.message()),
			Hint:   o.keyHint(),
		}
	case errors.As(err, &he) && he.StatusCode == http.StatusNotFound:
		return &debate.UnavailableError{
			Kind: debate.UnavailableNotFound, Status: he.StatusCode, URL: he.URL, Err: err,
			Detail: fmt.Sprintf("HTTP 404 for POST %s (%s)", he.URL, he.message()),
			Hint: fmt.Sprintf("check openai.baseUrl in config.json: it is %s and parley posts to %s/chat/completions, so it usually ends in /v1; and check that the server has the model %q",
				base, base, o.cfg.Model),
		}
	case errors.As(err, &he) && he.retryable():
		u := &debate.UnavailableError{
			Kind: debate.UnavailableServer, Status: he.StatusCode, URL: he.URL, Err: err,
			Detail: fmt.Sprintf("%s kept failing: HTTP %d: %s (after %d retries)", he.URL, he.StatusCode, he.message(), o.cfg.MaxRetries),
			Hint:   "check the model server's own log; openai.maxRetries in config.json sets how often parley retries",
		}
		if g := (*gaveUpError)(nil); errors.As(err, &g) && g.pastDeadline() {
			u.Detail = fmt.Sprintf("%s kept failing: HTTP %d: %s (%s)", he.URL, he.StatusCode, he.message(), g.why())
			u.Hint = "run the debate again later, or with a longer wall clock (--timeout)"
		}
		return u
	case errors.As(err, &he) && he.StatusCode/100 == 4:
		// Any other 4xx refuses the request itself, the same way on every
		// try: the agent cannot take a turn through this endpoint.
		return &debate.UnavailableError{
			Kind: debate.UnavailableFailed, Status: he.StatusCode, URL: he.URL, Err: err,
			Detail: fmt.Sprintf("%s refused the request (HTTP %d: %s)", he.URL, he.StatusCode, he.message()),
			Hint: "the server's message says why: a context-length error means the debate's context and transcript outgrow the model's context window " +
				"(attach less --context, lower --max-rounds, or serve the model with a longer context); a parameter it does not take may be " +
				"openai.jsonMode, openai.temperature or openai.maxTokens in config.json",
		}
	case errors.As(err, &ae):
		return &debate.UnavailableError{
			Kind: debate.UnavailableServer, URL: o.endpoint, Err: err,
			Detail: fmt.Sprintf("%s kept failing: it answered with an error instead of a completion: %s (after %d retries)", o.endpoint, ae.msg, o.cfg.MaxRetries),
			Hint:   "check the model server's own log (is the model loaded?); openai.maxRetries in config.json sets how often parley retries",
		}
	case errors.As(err, &te):
		return &debate.UnavailableError{
			Kind: debate.UnavailableServer, URL: o.endpoint, Err: err,
			Detail: fmt.Sprintf("%s sent a truncated reply: %s (after %d retries)", o.endpoint, te.what(), o.cfg.MaxRetries),
			Hint:   "the server cut its replies short (it crashed or restarted mid-reply, or a proxy limits the size): check the model server's log and run again",
		}
	case errors.Is(err, errStreamed):
		return &debate.UnavailableError{
			Kind: debate.UnavailableFailed, URL: o.endpoint, Err: err,
			Detail: fmt.Sprintf("%s streamed its answer (server-sent events) although parley asks for \"stream\": false", o.endpoint),
			Hint:   "configure the model server, or the proxy in front of it, not to force streaming: parley reads one JSON chat completion",
		}
	case errors.Is(err, errNotCompletion):
		return &debate.UnavailableError{
			Kind: debate.UnavailableNotFound, URL: o.endpoint, Err: err,
			Detail: fmt.Sprintf("%s answered, but not with a chat completion (%s)", o.endpoint, strings.TrimPrefix(err.Error(), ErrEndpoint.Error()+": ")),
			Hint:   fmt.Sprintf("check openai.baseUrl in config.json: it is %s and must be an OpenAI-compatible API (it usually ends in /v1)", base),
		}
	case errors.As(err, &ue) && ue.handshake != nil:
		u := &debate.UnavailableError{
			Kind: debate.UnavailableUnreachable, URL: o.endpoint, Err: err,
			Detail: fmt.Sprintf("cannot reach %s: the TLS handshake failed: %s", o.endpoint, clip.Line(ue.handshake.Error(), 301)),
			Hint:   fmt.Sprintf("check that the server at %s serves HTTPS with a certificate this machine trusts; if it serves plain HTTP, set openai.baseUrl in config.json to %s", base, plainURL(base)),
		}
		if plainHTTP(ue.handshake) {
			u.Detail = fmt.Sprintf("cannot reach %s: the server does not speak TLS (the TLS handshake failed: %s)", o.endpoint, clip.Line(ue.handshake.Error(), 301))
			u.Hint = fmt.Sprintf("the server at %s seems to speak plain HTTP: set openai.baseUrl in config.json to %s (http://, not https://)", base, plainURL(base))
		}
		return u
	case errors.As(err, &ue) && ue.slow:
		// The server is there: no use starting it or moving the base URL.
		return &debate.UnavailableError{
			Kind: debate.UnavailableUnreachable, URL: o.endpoint, Err: err,
			Detail: "no answer in time: " + unreachableCause(err),
			Hint: fmt.Sprintf("the server is slow or stuck (a model still loading, a queue, a reply longer than it can write in time): check the model server's load and log, "+
				"or raise openai.requestTimeoutMs in config.json (now %d)", o.cfg.RequestTimeout.Milliseconds()),
		}
	case errors.As(err, &ue) && ue.midReply:
		return &debate.UnavailableError{
			Kind: debate.UnavailableServer, URL: o.endpoint, Err: err,
			Detail: "the reply broke off: " + unreachableCause(err),
			Hint:   "the server (or a proxy in front of it) closed the connection while it answered: check the model server's log for a crash or restart and run again",
		}
	case errors.As(err, &ue) && !refused(ue.err) && (errors.Is(ue.err, syscall.ECONNRESET) || errors.Is(ue.err, io.EOF) || errors.Is(ue.err, io.ErrUnexpectedEOF)):
		// The server took the connection, then closed it before any
		// answer: it is there (a crash while it worked on the request, a
		// proxy giving up), so no use starting it or moving the base URL.
		return &debate.UnavailableError{
			Kind: debate.UnavailableServer, URL: o.endpoint, Err: err,
			Detail: "the connection closed before any answer: " + unreachableCause(err),
			Hint:   "the server (or a proxy in front of it) took the request and closed the connection without answering: check the model server's log for a crash or restart and run again",
		}
	case errors.Is(err, ErrUnreachable):
		return &debate.UnavailableError{
			Kind: debate.UnavailableUnreachable, URL: o.endpoint, Err: err,
			Detail: fmt.Sprintf("cannot reach %s: %s", o.endpoint, unreachableCause(err)),
			Hint:   fmt.Sprintf("start the model server, or set openai.baseUrl in config.json to where it runs (now %s; a model's own openai.models.MODEL.baseUrl comes first)", base),
		}
	}
	return nil
}

// plainURL is base with http:// for https://.
func plainURL(base string) string {
	if rest, ok := strings.CutPrefix(base, "https://"); ok {
		return "http://" + rest
	}
	return base
}

// keyHint says which API key was refused and what to do about it.
func (o *OpenAIClient) keyHint() string {
	env := o.cfg.APIKeyEnv
	switch {
	case env == "":
		return "no API key is sent: put the name of the environment variable that holds it in openai.apiKeyEnv in config.json"
	case o.cfg.APIKey == "":
		if _, set := os.LookupEnv(env); set {
			return fmt.Sprintf("the API key comes from $%s (openai.apiKeyEnv), which is set but empty: set it to the key", env)
		}
		return fmt.Sprintf("the API key comes from $%s (openai.apiKeyEnv), which is not set: export %s=<key> and run again", env, env)
	}
	return fmt.Sprintf("the API key comes from $%s (openai.apiKeyEnv), which is set: the server does not accept that key", env)
}

// unreachableCause is the transport's failure underneath ErrUnreachable,
// in a few words.
func unreachableCause(err error) string {
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused (nothing listens there)"
	case errors.As(err, &dns) && dns.IsNotFound:
		return fmt.Sprintf("no such host %q", dns.Name)
	}
	s := err.Error()
	s = strings.TrimPrefix(s, ErrUnreachable.Error()+": ")
	return clip.Line(s, 401)
}
