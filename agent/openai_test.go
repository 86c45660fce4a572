package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/openaitest"
	"github.com/parleyhq/parley/debate"
)

// newFake starts a fake endpoint and an adapter pointed at it whose
// backoff waits are recorded instead of slept.
func newFake(t *testing.T, cfg OpenAIConfig, respond func(r *openaitest.Request) openaitest.Response) (*LLM, *openaitest.Server, *[]time.Duration) {
	t.Helper()
	srv := openaitest.New(t, respond)
	cfg.BaseURL = srv.URL()
	if cfg.Model == "" {
		cfg.Model = "fake-8b"
	}
	o, err := NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	slept := &[]time.Duration{}
	o.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*slept = append(*slept, d)
		mu.Unlock()
		return ctx.Err()
	}
	o.jitter = func() float64 { return 0.5 }
	return o, srv, slept
}

const goodTurn = `{"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","evidence_refs":["api/keys.go:10-20"],"confidence_change":-1,"text":"UUIDv7 embeds a timestamp."}`

func TestOpenAINormalReply(t *testing.T) {
	t.Parallel()
	o, srv, _ := newFake(t, OpenAIConfig{ChatSettings: ChatSettings{Temperature: 0.3}, APIKey: "sk-test"}, func(r *openaitest.Request) openaitest.Response {
		return openaitest.Reply(goodTurn, 900, 57)
	})
	req := request(1, 1)
	tu, err := o.Turn(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if tu.Position != "Keys leak the creation time" || tu.CounterTo != "Use UUIDv7 keys" || tu.ConfidenceChange != -1 ||
		tu.Text != "UUIDv7 embeds a timestamp." || len(tu.EvidenceRefs) != 1 || tu.Tokens != 57 ||
		tu.DebateID != req.DebateID || tu.Round != 1 || tu.Role != debate.RoleAttacker {
		t.Fatalf("turn %+v", tu)
	}
	rs := srv.Requests()
	if len(rs) != 1 {
		t.Fatalf("%d requests", len(rs))
	}
	r := rs[0]
	if r.Model != "fake-8b" || r.Authorization != "Bearer sk-test" || r.Temperature != 0.3 || r.MaxTokens != 2000 || r.Stream || r.ResponseFormat != nil {
		t.Errorf("request %+v", r)
	}
	if len(r.Messages) != 2 || r.Messages[0].Role != "system" || r.Messages[1].Role != "user" {
		t.Fatalf("messages %+v", r.Messages)
	}
	if !strings.Contains(r.Messages[0].Content, "specification critic") {
		t.Errorf("the system prompt is not the attacker × spec template:\n%s", r.Messages[0].Content)
	}
	if round, role := r.Turn(); round != 1 || role != "attacker" || !strings.Contains(r.Messages[1].Content, "Use UUIDv7 keys") {
		t.Errorf("turn prompt (round %d, %s):\n%s", round, role, r.Messages[1].Content)
	}
	// Respond wraps the turn as a reply.
	rep, err := o.Respond(context.Background(), req)
	if err != nil || rep.Turn == nil || rep.Turn.Position != tu.Position {
		t.Fatalf("Respond: %+v %v", rep, err)
	}
}

func TestOpenAIProseAroundTheJSON(t *testing.T) {
	t.Parallel()
	for name, content := range map[string]string{
		"fenced":           "Sure! Here is my turn.\n\n```json\n" + goodTurn + "\n```\n\nLet me know if you need more.",
		"bare in prose":    "My answer: " + goodTurn + " — that is all.",
		"thinking first":   "<think>Should I concede? {\"position\":\"no\"} Not yet.</think>\n" + goodTurn,
		"fence without id": "```\n" + goodTurn + "\n```",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o, _, _ := newFake(t, OpenAIConfig{}, func(r *openaitest.Request) openaitest.Response { return openaitest.Reply(content, 10, 20) })
			tu, err := o.Turn(context.Background(), request(1, 1))
			if err != nil || tu.Position != "Keys leak the creation time" || tu.Text != "UUIDv7 embeds a timestamp." {
				t.Fatalf("%+v %v", tu, err)
			}
		})
	}
	// Without a text field, the prose around the object is the argument.
	o, _, _ := newFake(t, OpenAIConfig{}, func(r *openaitest.Request) openaitest.Response {
		return openaitest.Reply("The timestamp is visible to anyone.\n{\"position\":\"Keys leak the creation time\"}", 10, 20)
	})
	tu, err := o.Turn(context.Background(), request(1, 1))
	if err != nil || tu.Text != "The timestamp is visible to anyone." || tu.CounterTo != "Use UUIDv7 keys" || tu.ConfidenceChange != -1 {
		t.Fatalf("defaults of a terse attacker: %+v %v", tu, err)
	}
}

// A reply the server cut at max_tokens (finish_reason "length") before
// its JSON object ended is said to be cut, to the model in the re-ask
// (so that it answers shorter) and in the failure the coordinator
// records, not as a reply that holds no JSON object.
func TestOpenAIReplyCutAtMaxTokensIsSaidToBeCut(t *testing.T) {
	t.Parallel()
	cut := openaitest.Response{Body: `{"choices":[{"message":{"role":"assistant","content":"{\"position\":\"Keys leak the creation time\",\"text\":\"First, UUIDv7 embeds"},"finish_reason":"length"}],"usage":{"completion_tokens":2000}}`}
	o, srv, _ := newFake(t, OpenAIConfig{}, func(r *openaitest.Request) openaitest.Response {
		if r.N == 1 {
			return cut
		}
		return openaitest.Reply(goodTurn, 10, 30)
	})
	if tu, err := o.Turn(context.Background(), request(1, 1)); err != nil || tu.Position != "Keys leak the creation time" {
		t.Fatalf("%+v %v", tu, err)
	}
	rs := srv.Requests()
	if len(rs) != 2 || !strings.Contains(rs[1].Messages[3].Content, "cut at the 2000-token limit") || !strings.Contains(rs[1].Messages[3].Content, "shorter") {
		t.Fatalf("the re-ask does not say the reply was cut: %+v", rs[len(rs)-1].Messages)
	}
	o, _, _ = newFake(t, OpenAIConfig{}, func(*openaitest.Request) openaitest.Response { return cut })
	rep, err := o.Respond(context.Background(), request(1, 1))
	if err != nil || rep.Turn == nil || rep.Turn.Position != "" || !strings.Contains(rep.Turn.Text, "cut at the 2000-token limit") {
		t.Fatalf("Respond: %+v %v", rep, err)
	}
}

func TestOpenAIMalformedIsReaskedOnceThenFails(t *testing.T) {
	t.Parallel()
	o, srv, _ := newFake(t, OpenAIConfig{}, func(r *openaitest.Request) openaitest.Response {
		return openaitest.Reply("I think the keys are fine, honestly.", 10, 7)
	})
	req := request(1, 1)
	_, err := o.Turn(context.Background(), req)
	if !errors.Is(err, ErrMalformedReply) || !strings.Contains(err.Error(), "after one re-ask") {
		t.Fatalf("err = %v", err)
	}
	rs := srv.Requests()
	if len(rs) != 2 {
		t.Fatalf("%d requests, want the first and one re-ask", len(rs))
	}
	if rs[0].Reasked() || !rs[1].Reasked() || len(rs[1].Messages) != 4 ||
		rs[1].Messages[2].Content != "I think the keys are fine, honestly." || !strings.Contains(rs[1].Messages[3].Content, "could not be used") {
		t.Fatalf("re-ask %+v", rs[1].Messages)
	}
	// Respond answers with a reply the coordinator rejects (no position,
	// objecting): never a concession.
	rep, err := o.Respond(context.Background(), req)
	if err != nil || rep.Turn == nil || rep.Turn.Position != "" || rep.Turn.Concedes() || !strings.Contains(rep.Turn.Text, "No turn from the openai agent: ") {
		t.Fatalf("Respond: %+v %v", rep.Turn, err)
	}

	// Malformed, then good: the turn counts the tokens of both requests.
	o, srv, _ = newFake(t, OpenAIConfig{}, func(r *openaitest.Request) openaitest.Response {
		if r.N == 1 {
			return openaitest.Reply(`{"position": "unterminated`, 10, 7)
		}
		return openaitest.Reply(goodTurn, 30, 40)
	})
	tu, err := o.Turn(context.Background(), req)
	if err != nil || tu.Tokens != 47 || len(srv.Requests()) != 2 {
		t.Fatalf("re-ask that succeeds: %+v %v (%d requests)", tu, err, len(srv.Requests()))
	}
}

func TestOpenAIRetriesHonourRetryAfter(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		header http.Header
		status int
		want   time.Duration
	}{
		"429 Retry-After seconds": {http.Header{"Retry-After": {"2"}}, 429, 2 * time.Second},
		"429 retry-after-ms":      {http.Header{"Retry-After-Ms": {"150"}}, 429, 150 * time.Millisecond},
		"503 no header: backoff":  {nil, 503, backoffBase/2 + backoffBase/4}, // jitter 0.5 of the upper half
		"429 capped":              {http.Header{"Retry-After": {"3600"}}, 429, maxRetryAfter},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o, srv, slept := newFake(t, OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 3}}, func(r *openaitest.Request) openaitest.Response {
				if r.N == 1 {
					resp := openaitest.Status(tc.status, "slow down")
					resp.Header = tc.header
					return resp
				}
				return openaitest.Reply(goodTurn, 10, 20)
			})
			tu, err := o.Turn(context.Background(), request(1, 1))
			if err != nil || tu.Position == "" {
				t.Fatalf("%+v %v", tu, err)
			}
			if len(srv.Requests()) != 2 || len(*slept) != 1 || (*slept)[0] != tc.want {
				t.Fatalf("%d requests, waits %v, want one wait of %v", len(srv.Requests()), *slept, tc.want)
			}
		})
	}
	// An HTTP date is read as the time until it.
	if d := retryAfter(http.Header{"Retry-After": {time.Unix(1000, 0).UTC().Format(http.TimeFormat)}}, time.Unix(990, 0)); d != 10*time.Second {
		t.Errorf("Retry-After as a date: %v", d)
	}
}

func TestOpenAIBackoffGrowsAndGivesUp(t *testing.T) {
	t.Parallel()
	o, srv, slept := newFake(t, OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 4}}, func(r *openaitest.Request) openaitest.Response {
		return openaitest.Status(500, "boom")
	})
	_, err := o.Turn(context.Background(), request(1, 1))
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 500 || !errors.Is(err, ErrEndpoint) || !strings.Contains(err.Error(), "gave up after 4 retries") || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v", err)
	}
	if len(srv.Requests()) != 5 {
		t.Fatalf("%d requests, want 1 + 4 retries", len(srv.Requests()))
	}
	want := []time.Duration{375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond, 3 * time.Second}
	for i, d := range *slept {
		if d != want[i] {
			t.Fatalf("waits %v, want %v (exponential, jitter 0.5)", *slept, want)
		}
	}
}

// expiring is a context whose deadline passes when expire is called, not
// on a clock: a test can let a fixed number of things happen before it.
type expiring struct {
	context.Context
	once sync.Once
	done chan struct{}
}

func newExpiring() *expiring {
	return &expiring{Context: context.Background(), done: make(chan struct{})}
}

func (e *expiring) expire()               { e.once.Do(func() { close(e.done) }) }
func (e *expiring) Done() <-chan struct{} { return e.done }
func (e *expiring) Err() error {
	select {
	case <-e.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// A server that answers 500 until the turn's deadline: the adapter retries
// with real waits and stops at the deadline with the server's error. The
// deadline passes when the third request arrives, so the test does not
// depend on how fast a loaded machine makes the first two.
func TestOpenAI500UntilTheDeadline(t *testing.T) {
	t.Parallel()
	ctx := newExpiring()
	srv := openaitest.New(t, func(r *openaitest.Request) openaitest.Response {
		if r.N >= 3 {
			ctx.expire()
		}
		return openaitest.Status(500, "overloaded")
	})
	o, err := NewOpenAI(OpenAIConfig{ChatSettings: ChatSettings{BaseURL: srv.URL(), MaxRetries: 20}, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Turn(ctx, request(1, 1))
	if err == nil || !strings.Contains(err.Error(), "HTTP 500") || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3: retried until the deadline, not after it", n)
	}
	// Respond sends nothing once the request's own deadline is gone.
	rep, err := o.Respond(ctx, request(1, 1))
	if err == nil || rep != nil {
		t.Fatalf("Respond after the deadline: %+v %v", rep, err)
	}
}

func TestOpenAINonRetryableAndTransportErrors(t *testing.T) {
	t.Parallel()
	o, srv, slept := newFake(t, OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 3}}, func(r *openaitest.Request) openaitest.Response {
		return openaitest.Response{Status: 404, Body: `{"error":"model \"fake-8b\" not found, try pulling it first"}`}
	})
	_, err := o.Turn(context.Background(), request(1, 1))
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 404 || len(srv.Requests()) != 1 || len(*slept) != 0 ||
		!strings.Contains(err.Error(), "not found, try pulling it first") || !strings.Contains(err.Error(), "check openai.baseUrl") {
		t.Fatalf("404: %v (%d requests)", err, len(srv.Requests()))
	}
	o, _, _ = newFake(t, OpenAIConfig{}, func(r *openaitest.Request) openaitest.Response { return openaitest.Status(401, "invalid api key") })
	if _, err := o.Turn(context.Background(), request(1, 1)); !strings.Contains(err.Error(), "check the API key") {
		t.Fatalf("401: %v", err)
	}
	// A dropped connection, then an answer.
	o, srv, slept = newFake(t, OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 2}}, func(r *openaitest.Request) openaitest.Response {
		if r.N == 1 {
			return openaitest.Response{Hangup: true}
		}
		return openaitest.Reply(goodTurn, 1, 2)
	})
	if tu, err := o.Turn(context.Background(), request(1, 1)); err != nil || tu.Position == "" || len(*slept) != 1 {
		t.Fatalf("hangup then success: %v, waits %v", err, *slept)
	}
	// Nothing listening: unreachable, retried, and Probe says so too.
	srv.Close()
	_, err = o.Turn(context.Background(), request(1, 1))
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "gave up after 2 retries") {
		t.Fatalf("closed server: %v", err)
	}
	if err := o.Probe(context.Background()); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Probe of a closed server: %v", err)
	}
}

func TestOpenAIRequestTimeout(t *testing.T) {
	t.Parallel()
	// The timeout is long enough for the fake's instant second answer even
	// on a loaded machine; the first answer's delay is far beyond it.
	o, srv, _ := newFake(t, OpenAIConfig{ChatSettings: ChatSettings{RequestTimeout: time.Second, MaxRetries: 1}}, func(r *openaitest.Request) openaitest.Response {
		if r.N == 1 {
			return openaitest.Response{Delay: time.Minute}
		}
		return openaitest.Reply(goodTurn, 1, 2)
	})
	if tu, err := o.Turn(context.Background(), request(1, 1)); err != nil || tu.Position == "" || len(srv.Requests()) != 2 {
		t.Fatalf("a slow first answer is abandoned and retried: %v", err)
	}
}

func TestOpenAIUsageAndContentForms(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		cfg    OpenAIConfig
		resp   openaitest.Response
		tokens int
	}{
		"completion tokens": {OpenAIConfig{}, openaitest.Reply(goodTurn, 1000, 80), 80},
		"total tokens":      {OpenAIConfig{ChatSettings: ChatSettings{CountTotal: true}}, openaitest.Reply(goodTurn, 1000, 80), 1080},
		"no usage":          {OpenAIConfig{}, openaitest.Response{Content: goodTurn}, 0},
		"usage as strings": {OpenAIConfig{}, openaitest.Response{Body: `{"choices":[{"message":{"content":` +
			quote(goodTurn) + `}}],"usage":{"prompt_tokens":"5","completion_tokens":"6"}}`}, 0},
		"fractional usage": {OpenAIConfig{ChatSettings: ChatSettings{CountTotal: true}}, openaitest.Response{Body: `{"choices":[{"message":{"content":` +
			quote(goodTurn) + `}}],"usage":{"prompt_tokens":10.5,"completion_tokens":20.0,"total_tokens":null}}`}, 30},
		// A count no reply could have is no count: the coordinator
		// estimates (implausibleUsage).
		"usage past an int": {OpenAIConfig{}, openaitest.Response{Body: `{"choices":[{"message":{"content":` +
			quote(goodTurn) + `}}],"usage":{"completion_tokens":1e30}}`}, 0},
		"10^15 completion tokens": {OpenAIConfig{}, openaitest.Response{Body: `{"choices":[{"message":{"content":` +
			quote(goodTurn) + `}}],"usage":{"prompt_tokens":900,"completion_tokens":1000000000000000,"total_tokens":1000000000000900}}`}, 0},
		"far above max_tokens and the reply":      {OpenAIConfig{}, openaitest.Reply(goodTurn, 900, 5000), 0},
		"10^15 prompt tokens, counting the total": {OpenAIConfig{ChatSettings: ChatSettings{CountTotal: true}}, openaitest.Reply(goodTurn, 1e15, 50), 0},
		// Hidden reasoning may cost more than the text shows, within the
		// max_tokens the client sent (its own cap, not the turn's).
		"reasoning within the client's max_tokens": {OpenAIConfig{ChatSettings: ChatSettings{MaxTokens: 8000}}, openaitest.Reply(goodTurn, 900, 5000), 5000},
		"twice max_tokens, a reply that holds it":  {OpenAIConfig{ChatSettings: ChatSettings{MaxTokens: 300}}, openaitest.Reply(goodTurn+strings.Repeat(" ", 2000), 900, 5000), 5000},
		"usage not an object": {OpenAIConfig{}, openaitest.Response{Body: `{"choices":[{"message":{"content":` +
			quote(goodTurn) + `}}],"usage":"n/a"}`}, 0},
		"content parts": {OpenAIConfig{}, openaitest.Response{Body: `{"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":` +
			quote(goodTurn) + `}]}}],"usage":{"prompt_tokens":5,"completion_tokens":6,"total_tokens":11}}`}, 6},
		"reasoning content": {OpenAIConfig{}, openaitest.Response{Body: `{"choices":[{"message":{"content":null,"reasoning_content":` +
			quote(goodTurn) + `}}]}`}, 0},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o, _, _ := newFake(t, tc.cfg, func(r *openaitest.Request) openaitest.Response { return tc.resp })
			tu, err := o.Turn(context.Background(), request(1, 1))
			if err != nil || tu.Tokens != tc.tokens || tu.Position != "Keys leak the creation time" {
				t.Fatalf("%+v %v, want %d tokens", tu, err, tc.tokens)
			}
		})
	}
	// JSON mode and a fixed max_tokens reach the request.
	o, srv, _ := newFake(t, OpenAIConfig{ChatSettings: ChatSettings{JSONMode: true, MaxTokens: 700}}, func(r *openaitest.Request) openaitest.Response { return openaitest.Reply(goodTurn, 1, 1) })
	if _, err := o.Turn(context.Background(), request(1, 1)); err != nil {
		t.Fatal(err)
	}
	if r := srv.Requests()[0]; r.ResponseFormat == nil || r.ResponseFormat.Type != "json_object" || r.MaxTokens != 700 {
		t.Fatalf("request %+v", r)
	}
	// A response that is not a completion is an endpoint error.
	o, _, _ = newFake(t, OpenAIConfig{}, func(r *openaitest.Request) openaitest.Response {
		return openaitest.Response{Body: `<html>proxy</html>`}
	})
	if _, err := o.Turn(context.Background(), request(1, 1)); !errors.Is(err, ErrEndpoint) {
		t.Fatalf("html: %v", err)
	}
}

func quote(s string) string {
	b := strings.Builder{}
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func TestParseModelReply(t *testing.T) {
	t.Parallel()
	def := request(2, 1)
	def.Role = debate.RoleDefender
	att := request(2, 1)
	for name, tc := range map[string]struct {
		req     *debate.TurnRequest
		in      string
		want    debate.Turn
		problem string
	}{
		"defender holds": {def, `{"position":"Use UUIDv7 keys","counter_to":"Keys leak the creation time","confidence_change":0,"text":"t"}`,
			debate.Turn{Position: "Use UUIDv7 keys", CounterTo: "Keys leak the creation time", Text: "t"}, ""},
		"claim alias":                  {def, `{"claim":"Use UUIDv7 keys"}`, debate.Turn{Position: "Use UUIDv7 keys"}, ""},
		"claim when position is null":  {def, `{"position":null,"claim":"Use UUIDv7 keys"}`, debate.Turn{Position: "Use UUIDv7 keys"}, ""},
		"claim when position is empty": {def, `{"position":"","claim":"Use UUIDv7 keys"}`, debate.Turn{Position: "Use UUIDv7 keys"}, ""},
		"reasoning before the answer is not the answer": {att, `<think>{"position":"draft"}</think>{"position":"p","counter_to":"c","confidence_change":-1}`,
			debate.Turn{Position: "p", CounterTo: "c", ConfidenceChange: -1}, ""},
		"a reply cut inside its reasoning has no answer": {att, `<think>I could say {"position":"draft","counter_to":"c","confidence_change":-1} but`, debate.Turn{}, "empty"},
		"explicit concede": {att, `{"position":"","counter_to":"","confidence_change":0,"text":"fine"}`, debate.Turn{Text: "fine"}, ""},
		// A quoted example of the contract beside the answer: which one is
		// meant cannot be told, so the model is asked again; the first
		// object is not taken (a quoted concession read as conceding).
		"a quoted concession before the objection": {att, "The contract says that to concede I would send {\"position\": \"\", \"counter_to\": \"\", \"confidence_change\": 0}. I do not concede. My turn:\n" +
			`{"position": "Bursts across a Redis failover are not handled", "counter_to": "Use UUIDv7 keys", "confidence_change": -1}`, debate.Turn{}, "more than one JSON object"},
		"an example format before the answer": {att, `Example format: {"position":"example","counter_to":"x","confidence_change":-1} My answer: {"position":"p","counter_to":"c","confidence_change":-1}`,
			debate.Turn{}, "more than one JSON object"},
		"a fenced answer beside a quoted example": {att, "Not {\"position\":\"\",\"counter_to\":\"\",\"confidence_change\":0} but:\n```json\n{\"position\":\"p\",\"counter_to\":\"c\",\"confidence_change\":-1}\n```",
			debate.Turn{}, "more than one JSON object"},
		"the same answer twice is one answer": {att, "```json\n{\"position\":\"p\",\"counter_to\":\"c\",\"confidence_change\":-1}\n```\nAgain: {\"position\": \"p\", \"confidence_change\": -1, \"counter_to\": \"c\"}",
			debate.Turn{Position: "p", CounterTo: "c", ConfidenceChange: -1, Text: "Again: {\"position\": \"p\", \"confidence_change\": -1, \"counter_to\": \"c\"}"}, ""},
		"an object inside the answer is the answer's": {att, `{"position":"p","counter_to":"c","confidence_change":-1,"text":"see {\"position\":\"q\"}"}`,
			debate.Turn{Position: "p", CounterTo: "c", ConfidenceChange: -1, Text: `see {"position":"q"}`}, ""},
		"string confidence": {att, `{"position":"p","counter_to":"c","confidence_change":"+1"}`, debate.Turn{Position: "p", CounterTo: "c", ConfidenceChange: 1}, ""},
		"float confidence":  {att, `{"position":"p","counter_to":"c","confidence_change":-1.0}`, debate.Turn{Position: "p", CounterTo: "c", ConfidenceChange: -1}, ""},
		"one ref string":    {att, `{"position":"p","evidence_refs":"a.go:3"}`, debate.Turn{Position: "p", CounterTo: "Use UUIDv7 keys", ConfidenceChange: -1, EvidenceRefs: []string{"a.go:3"}}, ""},
		"ids are the request's": {att, `{"debate_id":"other","round":9,"role":"defender","position":"p","counter_to":"c","confidence_change":-1}`,
			debate.Turn{Position: "p", CounterTo: "c", ConfidenceChange: -1}, ""},
		"a sloppy empty reply is not a concession": {att, `{"position":""}`, debate.Turn{}, "position\" is empty"},
		"concession needs confidence 0":            {att, `{"position":"","counter_to":""}`, debate.Turn{}, "position\" is empty"},
		"defender without position":                {def, `{"counter_to":"x"}`, debate.Turn{}, "defender must state"},
		"confidence out of range":                  {att, `{"position":"p","confidence_change":2}`, debate.Turn{}, "must be -1, 0 or 1"},
		"confidence half":                          {att, `{"position":"p","confidence_change":0.5}`, debate.Turn{}, "must be -1, 0 or 1"},
		"position not a string":                    {att, `{"position":["a"]}`, debate.Turn{}, "must be a string"},
		"refs of numbers":                          {att, `{"position":"p","evidence_refs":[1,2]}`, debate.Turn{}, "list of strings"},
		"no object":                                {att, `I concede.`, debate.Turn{}, "no JSON object"},
		"object without turn keys":                 {att, `{"answer":"yes"}`, debate.Turn{}, "no JSON object"},
		"empty":                                    {att, "  ", debate.Turn{}, "empty"},
		"too long":                                 {att, `{"position":"` + strings.Repeat("x", debate.MaxPositionLen+1) + `"}`, debate.Turn{}, "longer than"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseModelReply(tc.in, tc.req)
			if tc.problem != "" {
				if !errors.Is(err, ErrMalformedReply) || !strings.Contains(err.Error(), tc.problem) {
					t.Fatalf("err = %v, want %q", err, tc.problem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want.EvidenceRefs == nil {
				tc.want.EvidenceRefs = []string{}
			}
			tc.want.DebateID, tc.want.Round, tc.want.Role = tc.req.DebateID, tc.req.Round, tc.req.Role
			if got.Position != tc.want.Position || got.CounterTo != tc.want.CounterTo || got.ConfidenceChange != tc.want.ConfidenceChange ||
				got.Text != tc.want.Text || strings.Join(got.EvidenceRefs, "|") != strings.Join(tc.want.EvidenceRefs, "|") ||
				got.DebateID != tc.want.DebateID || got.Round != tc.want.Round || got.Role != tc.want.Role {
				t.Fatalf("got %+v\nwant %+v", *got, tc.want)
			}
		})
	}
}

func TestPromptOverrides(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("attacker-spec.tmpl", "Attack {{.Topic}} in round {{.Round}}.")
	p, err := LoadPrompts(dir)
	if err != nil {
		t.Fatal(err)
	}
	sys, user, err := p.Turn(request(2, 1))
	if err != nil || sys != "Attack Keys in round 2." || !strings.Contains(user, "Reply with exactly one JSON object") {
		t.Fatalf("system %q, err %v", sys, err)
	}
	def := request(1, 1)
	def.Role = debate.RoleDefender
	if sys, _, _ := p.Turn(def); !strings.Contains(sys, "proposer of a specification") {
		t.Fatalf("the defender keeps the embedded template: %q", sys)
	}
	for name, body := range map[string]string{
		"attacker-spce.tmpl": "misspelt",
		"turn.tmpl":          "{{.NoSuchField}}",
		"reask.tmpl":         "{{if}}",
	} {
		bad := t.TempDir()
		if err := os.WriteFile(filepath.Join(bad, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadPrompts(bad); !errors.Is(err, ErrBadTemplate) {
			t.Errorf("%s: err = %v, want ErrBadTemplate", name, err)
		}
	}
	if _, err := LoadPrompts(filepath.Join(dir, "missing")); !errors.Is(err, ErrBadTemplate) {
		t.Errorf("a missing directory: %v", err)
	}
}

func BenchmarkParseModelReply(b *testing.B) {
	content := "Here is my turn.\n```json\n" + goodTurn + "\n```\nThanks."
	req := request(1, 1)
	for b.Loop() {
		if _, err := ParseModelReply(content, req); err != nil {
			b.Fatal(err)
		}
	}
}

// The openai client alone, as the turn loop sees it: one request per Chat,
// and each failure says whether it is worth another try (and after how
// long) through Retryable, never through its text.
func TestOpenAIClientTellsTheLoopWhatToRetry(t *testing.T) {
	t.Parallel()
	answers := map[string]openaitest.Response{
		"ok":   openaitest.Reply("fine", 11, 22),
		"503":  {Status: 503, Body: `{"error":{"message":"warming up"}}`, Header: http.Header{"Retry-After": {"7"}}},
		"429":  openaitest.Status(429, "slow down"),
		"400":  openaitest.Status(400, "bad request"),
		"401":  openaitest.Status(401, "bad key"),
		"html": {Body: "<html>hello</html>"},
	}
	var mu sync.Mutex
	next := "ok"
	srv := openaitest.New(t, func(*openaitest.Request) openaitest.Response { mu.Lock(); defer mu.Unlock(); return answers[next] })
	c, err := NewOpenAIClient(OpenAIConfig{ChatSettings: ChatSettings{BaseURL: srv.URL(), MaxTokens: 0}, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		answer string
		again  bool
		after  time.Duration
		isErr  error
	}{
		{"503", true, 7 * time.Second, ErrEndpoint},
		{"429", true, 0, ErrEndpoint},
		{"400", false, 0, ErrEndpoint},
		{"401", false, 0, ErrEndpoint},
		{"html", false, 0, ErrEndpoint},
	} {
		mu.Lock()
		next = tc.answer
		mu.Unlock()
		_, err := c.Chat(context.Background(), ChatRequest{Messages: []ChatMessage{{Role: ChatUser, Content: "hi"}}, MaxTokens: 10})
		again, after := retry(err)
		if !errors.Is(err, tc.isErr) || again != tc.again || after != tc.after {
			t.Errorf("%s: %v: retry %v after %v, want %v after %v", tc.answer, err, again, after, tc.again, tc.after)
		}
	}
	mu.Lock()
	next = "ok"
	mu.Unlock()
	rep, err := c.Chat(context.Background(), ChatRequest{Messages: []ChatMessage{{Role: ChatUser, Content: "hi"}}, MaxTokens: 10})
	if err != nil || rep.Content != "fine" || rep.Usage.CompletionTokens != 22 {
		t.Fatalf("%+v %v", rep, err)
	}
	rs := srv.Requests()
	if len(rs) != 6 || rs[5].MaxTokens != MinCompletionTokens {
		t.Fatalf("%d requests, the last %+v", len(rs), rs[len(rs)-1])
	}
	// The endpoint has answered: a refused connection now is worth a
	// retry (a server restarting), where on first contact it is not.
	srv.Close()
	_, err = c.Chat(context.Background(), ChatRequest{MaxTokens: 10})
	if again, _ := retry(err); !errors.Is(err, ErrUnreachable) || !again {
		t.Fatalf("after an answer: %v, retry %v", err, again)
	}
	fresh, _ := NewOpenAIClient(OpenAIConfig{ChatSettings: ChatSettings{BaseURL: srv.URL()}, Model: "m"})
	_, err = fresh.Chat(context.Background(), ChatRequest{MaxTokens: 10})
	if again, _ := retry(err); !errors.Is(err, ErrUnreachable) || again {
		t.Fatalf("first contact: %v, retry %v", err, again)
	}
}

// A reply the provider's content filter stopped (finish_reason
// "content_filter", no content: Azure OpenAI) is a refusal, said as one,
// not a server that sent no text.
func TestOpenAIContentFilterIsARefusal(t *testing.T) {
	t.Parallel()
	_, err := decodeCompletion([]byte(`{"choices":[{"message":{"role":"assistant","content":null},"finish_reason":"content_filter"}]}`))
	if !errors.Is(err, ErrRefused) || errors.Is(err, ErrEmptyReply) || !strings.Contains(err.Error(), "content filter") {
		t.Fatalf("err = %v, want ErrRefused naming the content filter", err)
	}
	// Text it let through is the reply.
	rep, err := decodeCompletion([]byte(`{"choices":[{"message":{"content":"{\"position\":\"p\"}"},"finish_reason":"content_filter"}]}`))
	if err != nil || rep.Content != `{"position":"p"}` {
		t.Fatalf("%+v %v", rep, err)
	}
}

// A reasoning model cut at max_tokens while still thinking (content
// empty, finish_reason "length", a draft in reasoning_content) has given
// no answer: the draft ("if I had no objection I would reply {…concede…}.
// But … I must object") is not read as its turn. A finished reply whose
// server put it in reasoning_content still is.
func TestOpenAIReasoningCutAtMaxTokensIsNoAnswer(t *testing.T) {
	t.Parallel()
	draft := `The user wants one JSON object. If I had no objection I would reply {\"position\": \"\", \"counter_to\": \"\", \"confidence_change\": 0}. But the spec says nothing about bursts across a Redis failover, so I must object. Let me draft`
	_, err := decodeCompletion([]byte(`{"choices":[{"message":{"content":"","reasoning_content":"` + draft + `"},"finish_reason":"length"}],"usage":{"completion_tokens":2000}}`))
	if !errors.Is(err, ErrEmptyReply) || !strings.Contains(err.Error(), "while still reasoning") {
		t.Fatalf("err = %v, want an empty reply cut while reasoning", err)
	}
	rep, err := decodeCompletion([]byte(`{"choices":[{"message":{"content":null,"reasoning_content":"{\"position\":\"p\"}"},"finish_reason":"stop"}]}`))
	if err != nil || rep.Content != `{"position":"p"}` {
		t.Fatalf("a finished answer in reasoning_content: %+v %v", rep, err)
	}
}

// Probe finds a refused API key before a debate does: a 401 from /models
// was taken for an endpoint that answers, and every escalated debate
// started only to end unavailable. A key that may not list models (403)
// can still chat, and a server without /models (404) still answers.
func TestOpenAIProbeRefusedKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status int
		auth   bool
	}{{401, true}, {403, false}, {404, false}} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(c.status)
			fmt.Fprint(w, `{"error":{"message":"no such key sk-x"}}`)
		}))
		o, err := NewOpenAIClient(OpenAIConfig{ChatSettings: ChatSettings{BaseURL: srv.URL + "/v1"}, Model: "m", APIKey: "sk-x"})
		if err != nil {
			t.Fatal(err)
		}
		err = o.Probe(context.Background())
		srv.Close()
		if !c.auth {
			if err != nil {
				t.Errorf("Probe answered %d: %v; want reachable", c.status, err)
			}
			continue
		}
		if u := o.Unavailable(err); u == nil || u.Kind != debate.UnavailableAuth || !strings.Contains(u.Detail, "no such key") {
			t.Errorf("Probe answered %d: %v, %+v; want the key refused", c.status, err, u)
		}
	}
}
