package agent

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net"
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
	"github.com/parleyhq/parley/inbox"
)

// Respond turns an endpoint that cannot be used into a
// *debate.UnavailableError whose hint says what to fix; a malformed reply
// stays a reply the coordinator rejects.
func TestOpenAIUnavailableCauses(t *testing.T) {
	t.Setenv("PARLEY_TEST_SET_KEY", "sk-wrong")
	status := func(code int, msg string) func(*openaitest.Request) openaitest.Response {
		return func(*openaitest.Request) openaitest.Response { return openaitest.Status(code, msg) }
	}
	for _, c := range []struct {
		name    string
		cfg     OpenAIConfig
		respond func(*openaitest.Request) openaitest.Response
		kind    debate.UnavailableKind
		want    []string
	}{
		{"401, variable unset", OpenAIConfig{ChatSettings: ChatSettings{APIKeyEnv: "PARLEY_TEST_NEVER_SET"}}, status(401, "bad key"), debate.UnavailableAuth,
			[]string{"HTTP 401: bad key", "$PARLEY_TEST_NEVER_SET", "not set"}},
		{"401, variable set", OpenAIConfig{ChatSettings: ChatSettings{APIKeyEnv: "PARLEY_TEST_SET_KEY"}, APIKey: "sk-wrong"}, status(401, "bad key"), debate.UnavailableAuth,
			[]string{"$PARLEY_TEST_SET_KEY", "which is set", "does not accept"}},
		{"403, no variable configured", OpenAIConfig{}, status(403, "forbidden"), debate.UnavailableAuth,
			[]string{"HTTP 403", "openai.apiKeyEnv"}},
		{"404", OpenAIConfig{Model: "llama-9000"}, status(404, "model not found"), debate.UnavailableNotFound,
			[]string{"HTTP 404", "/v1/chat/completions", "openai.baseUrl", `"llama-9000"`}},
		{"503 after retries", OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 2}}, status(503, "warming up"), debate.UnavailableServer,
			[]string{"HTTP 503: warming up", "after 2 retries"}},
		{"429 after retries", OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 1}}, status(429, "slow down"), debate.UnavailableServer,
			[]string{"HTTP 429"}},
		// A request the server refuses (the debate outgrew the model's
		// context, a parameter it does not take) fails the same way every
		// time: the endpoint cannot be used, which is no rejected reply
		// that leaves the debate to run on and be filed.
		{"400 context length", OpenAIConfig{}, status(400, "This model's maximum context length is 4096 tokens. However, your messages resulted in 9000 tokens."), debate.UnavailableFailed,
			[]string{"refused the request", "HTTP 400: This model's maximum context length is 4096 tokens", "context window", "--context"}},
		{"422 a parameter it does not take", OpenAIConfig{}, status(422, "response_format is not supported"), debate.UnavailableFailed,
			[]string{"HTTP 422: response_format is not supported", "openai.jsonMode"}},
		// A 2xx whose body is an error (a proxy, a server loading its
		// model) holds no reply to re-ask about: retried like a 5xx, then
		// the endpoint kept failing.
		{"a 200 carrying an error", OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 1}}, func(*openaitest.Request) openaitest.Response {
			return openaitest.Response{Body: `{"error":{"message":"model not loaded","code":500}}`}
		}, debate.UnavailableServer, []string{"answered with an error", "model not loaded", "after 1 retries", "model server's own log"}},
		// A server (or proxy) that streams although parley asks for
		// stream: false is not a wrong base URL: it is said to stream.
		{"a stream of server-sent events", OpenAIConfig{}, func(*openaitest.Request) openaitest.Response {
			return openaitest.Response{Body: "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"}
		}, debate.UnavailableFailed, []string{"streamed its answer", "server-sent events", `"stream": false`, "not to force streaming"}},
		{"a web page, not an API", OpenAIConfig{}, func(*openaitest.Request) openaitest.Response {
			return openaitest.Response{Body: "<!DOCTYPE html><html><body>Welcome to nginx!</body></html>"}
		}, debate.UnavailableNotFound, []string{"not with a chat completion", "<!DOCTYPE html>", "openai.baseUrl"}},
		// A completion cut short is not a wrong base URL: it is retried,
		// then said to be a truncated reply.
		{"a completion cut short", OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 1}}, func(*openaitest.Request) openaitest.Response {
			return openaitest.Response{Body: `{"choices":[{"message":{"content":"hi"`}
		}, debate.UnavailableServer, []string{"sent a truncated reply", "cut short", `"hi\"`, "after 1 retries", "model server's log"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, srv, _ := newFake(t, c.cfg, c.respond)
			rep, err := o.Respond(context.Background(), request(1, 1))
			var u *debate.UnavailableError
			if rep != nil || !errors.As(err, &u) || u.Kind != c.kind {
				t.Fatalf("Respond: %+v %v", rep, err)
			}
			if !errors.Is(err, ErrEndpoint) {
				t.Errorf("the HTTP error underneath is lost: %v", err)
			}
			line := u.Detail + "; " + u.Hint
			if c.kind != debate.UnavailableNotFound && strings.Contains(line, "openai.baseUrl") {
				t.Errorf("%q blames the base URL", line)
			}
			for _, w := range c.want {
				if !strings.Contains(line, w) {
					t.Errorf("%q lacks %q", line, w)
				}
			}
			if n, want := len(srv.Requests()), 1+c.cfg.MaxRetries; c.kind == debate.UnavailableServer && n != want {
				t.Errorf("%d requests, want %d", n, want)
			}
		})
	}
	t.Run("429 asking for a wait past the turn's deadline", func(t *testing.T) {
		o, srv, _ := newFake(t, OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 6}}, func(*openaitest.Request) openaitest.Response {
			return openaitest.Response{Status: 429, Body: `{"error":{"message":"quota exceeded"}}`, Header: http.Header{"Retry-After": {"3600"}}}
		})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		rep, err := o.Respond(ctx, request(1, 1))
		var u *debate.UnavailableError
		if rep != nil || !errors.As(err, &u) || u.Kind != debate.UnavailableServer ||
			!strings.Contains(u.Detail, "HTTP 429: quota exceeded (after 0 retries: the server asks to wait 1h0m0s") || !strings.Contains(u.Hint, "--timeout") {
			t.Fatalf("Respond: %+v %v", rep, err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	// The wait asked for is weighed before it is capped: a turn with more
	// than a minute left (a debate's default wall clock is two) does not
	// sleep a minute first for a server that asks for an hour, or a year.
	for header, want := range map[string]string{"3600": "asks to wait 1h0m0s", "1e30": "asks to wait 8760h0m0s"} {
		t.Run("429 asking for "+header+" s with minutes left", func(t *testing.T) {
			o, srv, slept := newFake(t, OpenAIConfig{ChatSettings: ChatSettings{MaxRetries: 6}}, func(*openaitest.Request) openaitest.Response {
				return openaitest.Response{Status: 429, Body: `{"error":{"message":"quota exceeded"}}`, Header: http.Header{"Retry-After": {header}}}
			})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			rep, err := o.Respond(ctx, request(1, 1))
			var u *debate.UnavailableError
			if rep != nil || !errors.As(err, &u) || u.Kind != debate.UnavailableServer || !strings.Contains(u.Detail, want) {
				t.Fatalf("Respond: %+v %v; want unavailable, %q", rep, err, want)
			}
			if n := len(srv.Requests()); n != 1 || len(*slept) != 0 {
				t.Errorf("%d requests, waits %v; want 1 request and no wait", n, *slept)
			}
		})
	}
	t.Run("malformed is still a rejected reply", func(t *testing.T) {
		o, _, _ := newFake(t, OpenAIConfig{}, func(*openaitest.Request) openaitest.Response { return openaitest.Reply("I refuse to use JSON.", 1, 1) })
		rep, err := o.Respond(context.Background(), request(1, 1))
		if err != nil || rep == nil || rep.Turn == nil || rep.Turn.Position != "" {
			t.Fatalf("%+v %v", rep, err)
		}
	})
}

// A refused connection to an endpoint that never answered fails at once:
// no retries, no waiting for the turn's deadline.
func TestOpenAIRefusedOnFirstContactFailsFast(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	o, err := NewOpenAI(OpenAIConfig{ChatSettings: ChatSettings{BaseURL: "http://" + addr + "/v1", MaxRetries: 6}, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	slept := 0
	o.sleep = func(ctx context.Context, _ time.Duration) error { slept++; return nil }
	_, err = o.Respond(context.Background(), request(1, 1))
	var u *debate.UnavailableError
	if !errors.As(err, &u) || u.Kind != debate.UnavailableUnreachable || !strings.Contains(u.Detail, "connection refused") || slept != 0 {
		t.Fatalf("%v (slept %d times)", err, slept)
	}
}

// A command that cannot start is unavailable; one that fails is not.
func TestExecCannotStart(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]bool{
		"/nonexistent/debater --json": true,
		"./not-executable-here":       true,
		"exit 3":                      false,
	} {
		_, err := (&Exec{Command: cmd, Dir: t.TempDir()}).Respond(context.Background(), request(1, 1))
		var u *debate.UnavailableError
		if got := errors.As(err, &u) && u.Kind == debate.UnavailableNoStart; got != want || err == nil {
			t.Errorf("%q: unavailable %v (%v), want %v", cmd, got, err, want)
		}
	}
}

// countingHandler counts the records logged at each level with a message
// that contains want.
type countingHandler struct {
	mu   sync.Mutex
	want string
	n    map[slog.Level]int
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if strings.Contains(r.Message, h.want) {
		h.n[r.Level]++
	}
	return nil
}
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }

// A plain message a registered agent cannot use (a pi agent chatting to
// it) is logged once at info and acknowledged: it is in cur/, kept, and
// not delivered again.
func TestRunnerKeepsAMessageItCannotUse(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	ctx, stop := context.WithCancel(context.Background())
	h := &countingHandler{want: "cannot use", n: map[slog.Level]int{}}
	ready := make(chan struct{})
	done := make(chan error, 1)
	r := &Runner{Name: "Critic", Transport: tr, Logger: slog.New(h), Ready: func() { close(ready) },
		Responder: ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*Reply, error) { return nil, errors.New("unused") })}
	go func() { done <- r.Run(ctx) }()
	<-ready
	m := &inbox.Message{ID: inbox.NewID(), From: "PiAgent", To: "Critic", Text: "hey, are you there?", Timestamp: inbox.Now()}
	if err := tr.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	cur := filepath.Join(root, inbox.InboxDir, "Critic", inbox.CurDir)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		ents, _ := os.ReadDir(cur)
		if len(ents) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the message is not in cur/: %v", ents)
		}
	}
	time.Sleep(100 * time.Millisecond) // room for a second log line, if any
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n[slog.LevelInfo] != 1 || len(h.n) != 1 {
		t.Fatalf("logged %v, want once at info", h.n)
	}
}

// An https:// base URL in front of a server that speaks plain HTTP is not
// a server that is down: the hint says to use http://, and no retry is
// spent on it. A server that answers the TLS hello in HTTP, and one that
// just hangs up on it, are both recognised.
func TestOpenAIHTTPSAgainstPlainHTTP(t *testing.T) {
	t.Parallel()
	hangup, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hangup.Close() })
	go func() {
		for {
			c, err := hangup.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 1024)
			_, _ = c.Read(buf)
			c.Close()
		}
	}()
	plain := openaitest.New(t, func(*openaitest.Request) openaitest.Response { return openaitest.Reply(goodTurn, 1, 1) })
	for name, host := range map[string]string{
		"answers in HTTP": strings.TrimPrefix(strings.TrimSuffix(plain.URL(), "/v1"), "http://"),
		"hangs up":        hangup.Addr().String(),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o, err := NewOpenAI(OpenAIConfig{ChatSettings: ChatSettings{BaseURL: "https://" + host + "/v1", MaxRetries: 3}, Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			o.sleep = func(context.Context, time.Duration) error { t.Error("retried"); return nil }
			_, err = o.Respond(context.Background(), request(1, 1))
			var u *debate.UnavailableError
			if !errors.As(err, &u) || u.Kind != debate.UnavailableUnreachable {
				t.Fatalf("Respond: %v", err)
			}
			line := u.Detail + "; " + u.Hint
			for _, w := range []string{"does not speak TLS", "plain HTTP", "http://" + host + "/v1"} {
				if !strings.Contains(line, w) {
					t.Errorf("%q lacks %q", line, w)
				}
			}
			if strings.Contains(line, "start the model server") {
				t.Errorf("%q says the server is not running", line)
			}
		})
	}
}

// A password in openai.baseUrl (a gateway behind basic auth) is sent, as
// basic auth, but never written where a failure is told: the unavailable
// detail and hint travel into the transcript, verdict.json, the agent's
// log and, for a debate that is filed, the vault.
func TestOpenAIBaseURLPasswordIsNotShown(t *testing.T) {
	t.Parallel()
	srv := openaitest.New(t, func(*openaitest.Request) openaitest.Response { return openaitest.Status(503, "warming up") })
	withUser := strings.Replace(srv.URL(), "http://", "http://gateway:s3cret-pw@", 1)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://gateway:s3cret-pw@" + l.Addr().String() + "/v1"
	l.Close()
	for _, base := range []string{withUser, closed} {
		o, err := NewOpenAI(OpenAIConfig{ChatSettings: ChatSettings{BaseURL: base, MaxRetries: 0}, Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		o.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
		_, err = o.Respond(context.Background(), request(1, 1))
		var u *debate.UnavailableError
		if !errors.As(err, &u) {
			t.Fatalf("%s: %v, want unavailable", base, err)
		}
		if told := err.Error() + u.Detail + u.Hint + u.URL; strings.Contains(told, "s3cret-pw") {
			t.Errorf("the password is shown: %s", told)
		}
	}
	rs := srv.Requests()
	if len(rs) != 1 || rs[0].Authorization != "Basic "+base64.StdEncoding.EncodeToString([]byte("gateway:s3cret-pw")) {
		t.Fatalf("requests %+v: want one, with the URL's user and password as basic auth", rs)
	}
}

// A server that took the request but did not answer in time, or began to
// answer and then stalled or broke off, is running where the base URL
// says: its agent is unavailable with what happened and what to change
// (the request timeout, the server's load), not told to start the server
// or to move the base URL.
func TestOpenAISlowOrBrokenReplyIsNotAServerToStart(t *testing.T) {
	t.Parallel()
	// stop ends the handlers that wait, when the test is done with them.
	stop := make(chan struct{})
	defer close(stop)
	wait := func(r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}
	for _, c := range []struct {
		name  string
		serve http.HandlerFunc
		want  []string
	}{
		{"no answer in time", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			wait(r)
		}, []string{"no answer in time", "no answer within the request timeout (200ms)", "openai.requestTimeoutMs", "(now 200)"}},
		{"a reply that stalls", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"choices":[{"message":{"content":"{\"position\": \"Keys`))
			w.(http.Flusher).Flush()
			_, _ = io.Copy(io.Discard, r.Body)
			wait(r)
		}, []string{"no answer in time", "the response stalled", "HTTP 200", "openai.requestTimeoutMs"}},
		{"a reply that breaks off", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "4000")
			_, _ = w.Write([]byte(`{"choices":[{"message":{"content":"{\"position\": \"Keys`))
			w.(http.Flusher).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		}, []string{"the reply broke off", "mid-response (HTTP 200)", "model server's log"}},
		// The server took the request and closed the connection before
		// any answer (it crashed while working on it): it is there.
		{"a connection closed before any answer", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
		}, []string{"the connection closed before any answer", "model server's log"}},
		{"a connection reset before any answer", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0) // RST, not FIN
				}
				conn.Close()
			}
		}, []string{"the connection closed before any answer", "model server's log"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.serve)
			defer srv.Close()
			o, err := NewOpenAI(OpenAIConfig{ChatSettings: ChatSettings{BaseURL: srv.URL + "/v1", RequestTimeout: 200 * time.Millisecond}, Model: "fake-8b"})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := o.Respond(context.Background(), request(1, 1))
			var u *debate.UnavailableError
			if rep != nil || !errors.As(err, &u) {
				t.Fatalf("Respond: %+v %v; want the agent unavailable", rep, err)
			}
			line := u.Detail + "; " + u.Hint
			for _, w := range c.want {
				if !strings.Contains(line, w) {
					t.Errorf("%q lacks %q", line, w)
				}
			}
			for _, wrong := range []string{"start the model server", "openai.baseUrl"} {
				if strings.Contains(line, wrong) {
					t.Errorf("%q says %q of a server that answered", line, wrong)
				}
			}
		})
	}
}
