package agent

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/openaitest"
	"github.com/parleyhq/parley/debate"
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
		{"401, variable unset", OpenAIConfig{APIKeyEnv: "PARLEY_TEST_NEVER_SET"}, status(401, "bad key"), debate.UnavailableAuth,
			[]string{"HTTP 401: bad key", "$PARLEY_TEST_NEVER_SET", "not set"}},
		{"401, variable set", OpenAIConfig{APIKeyEnv: "PARLEY_TEST_SET_KEY", APIKey: "sk-wrong"}, status(401, "bad key"), debate.UnavailableAuth,
			[]string{"$PARLEY_TEST_SET_KEY", "which is set", "does not accept"}},
		{"403, no variable configured", OpenAIConfig{}, status(403, "forbidden"), debate.UnavailableAuth,
			[]string{"HTTP 403", "openai.apiKeyEnv"}},
		{"404", OpenAIConfig{Model: "llama-9000"}, status(404, "model not found"), debate.UnavailableNotFound,
			[]string{"HTTP 404", "/v1/chat/completions", "openai.baseUrl", `"llama-9000"`}},
		{"503 after retries", OpenAIConfig{MaxRetries: 2}, status(503, "warming up"), debate.UnavailableServer,
			[]string{"HTTP 503: warming up", "after 2 retries"}},
		{"429 after retries", OpenAIConfig{MaxRetries: 1}, status(429, "slow down"), debate.UnavailableServer,
			[]string{"HTTP 429"}},
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
	o, err := NewOpenAI(OpenAIConfig{BaseURL: "http://" + addr + "/v1", Model: "m", MaxRetries: 6})
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
