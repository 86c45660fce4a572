package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
)

// scriptedClient is an in-memory ChatClient: it answers each request with
// the next of its steps and remembers what it was sent.
type scriptedClient struct {
	mu    sync.Mutex
	steps []func(ChatRequest) (ChatReply, error)
	got   []ChatRequest
}

func (c *scriptedClient) Chat(ctx context.Context, req ChatRequest) (ChatReply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, req)
	if len(c.steps) == 0 {
		return ChatReply{}, errors.New("no more scripted replies")
	}
	step := c.steps[0]
	if len(c.steps) > 1 {
		c.steps = c.steps[1:]
	}
	return step(req)
}

func says(content string, completion int) func(ChatRequest) (ChatReply, error) {
	return func(ChatRequest) (ChatReply, error) {
		return ChatReply{Content: content, Usage: Usage{PromptTokens: 500, CompletionTokens: completion}}, nil
	}
}

func fails(err error) func(ChatRequest) (ChatReply, error) {
	return func(ChatRequest) (ChatReply, error) { return ChatReply{}, err }
}

// flaky is a transient failure; after is what the server asked to wait.
type flaky struct{ after time.Duration }

func (f flaky) Error() string                { return "flaky" }
func (f flaky) Retry() (bool, time.Duration) { return true, f.after }

// diagnosed is a client that classifies its own errors.
type diagnosed struct {
	*scriptedClient
	u *debate.UnavailableError
}

func (d diagnosed) Unavailable(err error) *debate.UnavailableError { return d.u }

func newLoop(t *testing.T, c ChatClient, conf LLMConfig) (*LLM, *[]time.Duration) {
	t.Helper()
	l, err := NewLLM(c, conf)
	if err != nil {
		t.Fatal(err)
	}
	slept := &[]time.Duration{}
	l.sleep = func(ctx context.Context, d time.Duration) error { *slept = append(*slept, d); return ctx.Err() }
	l.jitter = func() float64 { return 0 }
	return l, slept
}

const heldTurn = `{"position":"Sessions expire after 30 minutes idle","counter_to":"Use UUIDv7 keys","confidence_change":-1,"text":"An idle session is a stolen one."}`

// The loop over any client: a transient failure waits (the server's wait,
// else the backoff) and is retried; prose without the contract is shown
// back with what was wrong and re-asked once; the tokens are the
// completions of every request that produced a reply.
func TestLLMRetriesRepairsAndCounts(t *testing.T) {
	t.Parallel()
	c := &scriptedClient{steps: []func(ChatRequest) (ChatReply, error){
		fails(flaky{}), fails(fmt.Errorf("wrapped: %w", flaky{after: 3 * time.Second})), fails(flaky{after: 10 * time.Hour}),
		says("I would rather talk than fill in JSON.", 25), says(heldTurn, 70),
	}}
	l, slept := newLoop(t, c, LLMConfig{Kind: "test", MaxRetries: 3})
	req := request(1, 1)
	req.Budget.TokensThisTurn = 10
	tu, err := l.Turn(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if tu.Position != "Sessions expire after 30 minutes idle" || tu.Tokens != 25+70 || tu.DebateID != req.DebateID || tu.Round != 1 {
		t.Fatalf("turn %+v", tu)
	}
	// The backoff (jitter 0), the server's wait, and a wait capped at a minute.
	if want := []time.Duration{backoffBase / 2, 3 * time.Second, time.Minute}; fmt.Sprint(*slept) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v", *slept, want)
	}
	if len(c.got) != 5 {
		t.Fatalf("%d requests, want 5", len(c.got))
	}
	first, reask := c.got[3], c.got[4]
	if first.MaxTokens != MinCompletionTokens || len(first.Messages) != 2 || first.Messages[0].Role != ChatSystem ||
		!strings.Contains(first.Messages[1].Content, "Use UUIDv7 keys") {
		t.Errorf("first request %+v", first)
	}
	if len(reask.Messages) != 4 || reask.Messages[2].Role != ChatAssistant || !strings.Contains(reask.Messages[2].Content, "fill in JSON") ||
		!strings.Contains(reask.Messages[3].Content, "no JSON object") {
		t.Errorf("re-ask %+v", reask.Messages)
	}
	// Prompt and completion with CountTotal.
	c = &scriptedClient{steps: []func(ChatRequest) (ChatReply, error){says(heldTurn, 70)}}
	l, _ = newLoop(t, c, LLMConfig{CountTotal: true})
	if tu, err := l.Turn(context.Background(), request(1, 1)); err != nil || tu.Tokens != 570 {
		t.Fatalf("%+v %v", tu, err)
	}
}

// What ends a turn, and how Respond answers it.
func TestLLMFailures(t *testing.T) {
	t.Parallel()
	down := &debate.UnavailableError{Kind: debate.UnavailableAuth, Detail: "the key was refused"}
	own := &debate.UnavailableError{Kind: debate.UnavailableNotFound, Detail: "no such model"}
	for _, c := range []struct {
		name   string
		client func(*scriptedClient) ChatClient
		steps  []func(ChatRequest) (ChatReply, error)
		// kind is the unavailability Respond reports ("": a rejected
		// reply); asks is how many requests were made.
		kind debate.UnavailableKind
		asks int
	}{
		{"malformed twice", nil, []func(ChatRequest) (ChatReply, error){says("no", 1), says("still no", 1)}, "", 2},
		{"a refused request is not retried", nil, []func(ChatRequest) (ChatReply, error){fails(errors.New("400 bad request"))}, "", 1},
		{"the client says it is unavailable", nil, []func(ChatRequest) (ChatReply, error){fails(fmt.Errorf("auth: %w", down))}, debate.UnavailableAuth, 1},
		{"unreachable, not retried", nil, []func(ChatRequest) (ChatReply, error){fails(fmt.Errorf("%w: nobody home", ErrUnreachable))}, debate.UnavailableUnreachable, 1},
		{"transient past the retries", nil, []func(ChatRequest) (ChatReply, error){fails(flaky{})}, debate.UnavailableServer, 3},
		{"the client's diagnosis comes first", func(s *scriptedClient) ChatClient { return diagnosed{s, own} },
			[]func(ChatRequest) (ChatReply, error){fails(flaky{})}, debate.UnavailableNotFound, 3},
		{"a client that diagnoses nothing", func(s *scriptedClient) ChatClient { return diagnosed{s, nil} },
			[]func(ChatRequest) (ChatReply, error){fails(flaky{})}, "", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := &scriptedClient{steps: c.steps}
			var client ChatClient = s
			if c.client != nil {
				client = c.client(s)
			}
			l, _ := newLoop(t, client, LLMConfig{Kind: "test", MaxRetries: 2})
			rep, err := l.Respond(context.Background(), request(1, 1))
			if len(s.got) != c.asks {
				t.Errorf("%d requests, want %d", len(s.got), c.asks)
			}
			if c.kind == "" {
				if err != nil || rep == nil || rep.Turn == nil || rep.Turn.Position != "" || rep.Turn.ConfidenceChange != -1 || rep.Turn.Concedes() ||
					!strings.HasPrefix(rep.Turn.Text, "No turn from the test agent: ") {
					t.Fatalf("%+v %v, want a reply the coordinator rejects", rep, err)
				}
				return
			}
			var u *debate.UnavailableError
			if rep != nil || !errors.As(err, &u) || u.Kind != c.kind || u.Detail == "" {
				t.Fatalf("%+v %v, want unavailable %s", rep, err, c.kind)
			}
		})
	}
}

// A server that asks for a longer wait than the turn has left makes the
// endpoint unavailable at once, instead of waiting out the debate's clock.
func TestLLMWaitPastTheDeadlineGivesUp(t *testing.T) {
	t.Parallel()
	s := &scriptedClient{steps: []func(ChatRequest) (ChatReply, error){fails(flaky{after: time.Minute})}}
	l, slept := newLoop(t, s, LLMConfig{Kind: "test", MaxRetries: 6})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := l.Respond(ctx, request(1, 1))
	var u *debate.UnavailableError
	if rep != nil || !errors.As(err, &u) || u.Kind != debate.UnavailableServer || !strings.Contains(u.Detail, "asks to wait 1m0s") {
		t.Fatalf("%+v %v, want unavailable: the server asks to wait", rep, err)
	}
	if len(s.got) != 1 || len(*slept) != 0 {
		t.Fatalf("%d requests, waits %v: want one request and no wait", len(s.got), *slept)
	}
}

// A turn whose context ends sends nothing, however the client fails.
func TestLLMStopsWithItsContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	c := &scriptedClient{steps: []func(ChatRequest) (ChatReply, error){func(ChatRequest) (ChatReply, error) {
		cancel()
		return ChatReply{}, flaky{}
	}}}
	l, slept := newLoop(t, c, LLMConfig{MaxRetries: 5})
	rep, err := l.Respond(ctx, request(1, 1))
	if rep != nil || !errors.Is(err, context.Canceled) || len(*slept) != 0 || len(c.got) != 1 {
		t.Fatalf("%+v %v (slept %v, %d requests)", rep, err, *slept, len(c.got))
	}
}

// Providers register by kind; Configure makes each one's agent with the
// caller's settings, else the provider's defaults.
func TestConfigureUsesTheRegisteredProviders(t *testing.T) {
	t.Parallel()
	if !IsProvider(KindOpenAI) || IsProvider(KindScript) || IsProvider("carrier-pigeon") {
		t.Fatalf("providers %v", ProviderKinds())
	}
	var asked []string
	a := Configure(AdapterOptions{Settings: func(kind, model string) (ChatSettings, bool) {
		asked = append(asked, kind+":"+model)
		return ChatSettings{BaseURL: "http://127.0.0.1:9/v1", MaxRetries: 4, CountTotal: true}, kind == KindOpenAI
	}})
	r, err := a.New(Spec{KindOpenAI, "qwen"})
	if err != nil {
		t.Fatal(err)
	}
	l := r.(*LLM)
	oc := l.Client().(*OpenAIClient)
	if oc.endpoint != "http://127.0.0.1:9/v1/chat/completions" || oc.cfg.Model != "qwen" || l.conf.MaxRetries != 4 || !l.conf.CountTotal ||
		l.conf.Kind != KindOpenAI || fmt.Sprint(asked) != "[openai:qwen]" {
		t.Fatalf("client %+v loop %+v asked %v", oc.cfg, l.conf, asked)
	}
	// A bad base URL from the settings is the provider's error.
	a = Configure(AdapterOptions{Settings: func(string, string) (ChatSettings, bool) { return ChatSettings{BaseURL: "ftp://x"}, true }})
	if _, err := a.New(Spec{KindOpenAI, "qwen"}); !errors.Is(err, ErrBadSpec) {
		t.Fatalf("ftp base URL: %v", err)
	}
	for _, kind := range []string{KindScript, KindOpenAI, "Upper", "a:b", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RegisterProvider(%q) did not panic", kind)
				}
			}()
			RegisterProvider(kind, Provider{Client: func(string, ChatSettings) (ChatClient, error) { return nil, nil }})
		}()
	}
}

// WatchParent ends its context only when the parent changes; a parent
// that is already gone is ErrParentGone.
func TestWatchParent(t *testing.T) {
	t.Parallel()
	ctx, stop, err := WatchParent(context.Background(), os.Getppid())
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * parentPoll)
	if ctx.Err() != nil {
		t.Fatal("the context ended while the parent lives")
	}
	stop()
	if ctx.Err() == nil {
		t.Fatal("stop left the context running")
	}
	if _, _, err := WatchParent(context.Background(), os.Getppid()+1_000_000); !errors.Is(err, ErrParentGone) {
		t.Fatalf("another parent: %v", err)
	}
}

// Whatever usage a server reports, a turn's tokens are not negative (a
// negative count is no count: the coordinator estimates) and do not wrap;
// a count no reply could have is no count either.
func TestLLMHostileUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		usage []Usage
		total bool
		want  int
	}{
		{"negative completion", []Usage{{CompletionTokens: -500}}, false, 0},
		{"negative prompt, total", []Usage{{PromptTokens: -1000, CompletionTokens: 40, TotalTokens: -960}}, true, 40},
		{"huge over a re-ask", []Usage{{CompletionTokens: 1<<62 + 1}, {CompletionTokens: 1 << 62}}, false, 0},
		{"huge total", []Usage{{PromptTokens: 1 << 62, CompletionTokens: 1 << 62, TotalTokens: -1}}, true, 0},
		{"huge, then a true count", []Usage{{CompletionTokens: 1 << 62}, {CompletionTokens: 70}}, false, 70},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var steps []func(ChatRequest) (ChatReply, error)
			for i, u := range c.usage {
				content := heldTurn
				if i < len(c.usage)-1 {
					content = "prose first"
				}
				steps = append(steps, func(ChatRequest) (ChatReply, error) { return ChatReply{Content: content, Usage: u}, nil })
			}
			l, _ := newLoop(t, &scriptedClient{steps: steps}, LLMConfig{CountTotal: c.total})
			tu, err := l.Turn(context.Background(), request(1, 1))
			if err != nil || tu.Tokens != c.want {
				t.Fatalf("%+v %v, want %d tokens", tu, err, c.want)
			}
		})
	}
}

// However many retries are allowed, the backoff stays at its cap.
func TestLLMBackoffDoesNotOverflow(t *testing.T) {
	t.Parallel()
	l, slept := newLoop(t, &scriptedClient{steps: []func(ChatRequest) (ChatReply, error){fails(flaky{})}}, LLMConfig{MaxRetries: 80})
	if _, err := l.Turn(context.Background(), request(1, 1)); err == nil {
		t.Fatal("no error")
	}
	if len(*slept) != 80 {
		t.Fatalf("%d waits", len(*slept))
	}
	for i, d := range *slept {
		if d < backoffBase/2 || d > backoffCap {
			t.Fatalf("wait %d is %v", i, d)
		}
	}
}

// A template of the templates directory that loads (it renders the
// sample request) but fails on a real turn is a configuration mistake,
// not a malformed reply: the agent is unavailable, saying which template
// and what to fix, rather than forfeiting every turn of a debate that is
// then filed.
func TestLLMTemplateFailingMidDebateIsUnavailable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tmpl := "round {{.Round}}{{if gt .Round 1}}: {{(index .Transcript 50).Position}}{{end}}"
	if err := os.WriteFile(filepath.Join(dir, "turn.tmpl"), []byte(tmpl), 0o600); err != nil {
		t.Fatal(err)
	}
	prompts, err := LoadPrompts(dir)
	if err != nil {
		t.Fatalf("the template renders the sample request, yet: %v", err)
	}
	s := &scriptedClient{steps: []func(ChatRequest) (ChatReply, error){says(heldTurn, 30)}}
	l, _ := newLoop(t, s, LLMConfig{Kind: "test", Prompts: prompts})
	if rep, err := l.Respond(context.Background(), request(1, 1)); err != nil || rep.Turn == nil || rep.Turn.Position == "" {
		t.Fatalf("round 1: %+v %v", rep, err)
	}
	rep, err := l.Respond(context.Background(), request(2, 1))
	var u *debate.UnavailableError
	if rep != nil || !errors.As(err, &u) || u.Kind != debate.UnavailableFailed ||
		!strings.Contains(u.Detail, "turn.tmpl") || !strings.Contains(u.Hint, "openai.templates") {
		t.Fatalf("round 2: %+v %v; want unavailable naming the template and openai.templates", rep, err)
	}
	if len(s.got) != 1 {
		t.Errorf("%d requests: the model was asked without a prompt", len(s.got))
	}
}

// An endpoint that keeps failing (429, 5xx) until the turn's deadline is
// reported as what it is: once the next retry would come after the
// deadline, the loop gives up at once with the last error, and the agent
// is unavailable, rather than sleeping the turn out so that the debate
// ends TIMEOUT as if the agent were silent, the cause unsaid. No wait it
// asks for passes the deadline.
func TestLLMGivesUpWhenTheNextRetryWouldPassTheDeadline(t *testing.T) {
	t.Parallel()
	c := &scriptedClient{steps: []func(ChatRequest) (ChatReply, error){fails(fmt.Errorf("HTTP 429: %w", flaky{}))}}
	l, slept := newLoop(t, c, LLMConfig{Kind: "test", MaxRetries: 20})
	l.jitter = func() float64 { return 1 }
	const turn = 5 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), turn)
	defer cancel()
	rep, err := l.Respond(ctx, request(1, 1))
	var u *debate.UnavailableError
	if !errors.As(err, &u) || u.Kind != debate.UnavailableServer || !strings.Contains(u.Detail, "after the turn's deadline") {
		t.Fatalf("reply %+v, err %v; want the agent unavailable (server_error) saying the next retry would pass the deadline", rep, err)
	}
	// (The waits are not slept here: each is weighed against the turn.)
	for _, d := range *slept {
		if d > turn {
			t.Errorf("waits %v over %d requests: one passes the turn's %v", *slept, len(c.got), turn)
		}
	}
}
