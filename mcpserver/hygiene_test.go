package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/registry"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// initialize posts an initialize request with origin (none when "") and
// returns the status and the session id the server gave.
func initialize(t testing.TB, url, origin string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initBody))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return res.StatusCode, res.Header.Get("Mcp-Session-Id")
}

// The HTTP transport validates Origin: absent, loopback or listed is
// served; anything else is 403 before the MCP layer sees it.
func TestHTTPOriginIsChecked(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, func(c *Config) { c.AllowedOrigins = []string{"https://App.Example.com"} })
	hs := httptest.NewServer(e.srv.HTTPHandler())
	defer hs.Close()
	for origin, want := range map[string]int{
		"":                                   200,
		"http://localhost:5173":              200,
		"http://127.0.0.1":                   200,
		"https://[::1]:8443":                 200,
		"https://app.example.com":            200,
		"http://evil.example":                403,
		"null":                               403,
		"http://localhost.evil.example":      403,
		"http://127.0.0.1.nip.io":            403,
		"https://app.example.com.evil.co":    403,
		"http://app.example.com":             403, // another scheme is another origin
		"file://":                            403,
		"http://user@localhost":              403,
		"javascript:alert(1)":                403,
		"http://localhost:5173/path?x=1":     403,
		"HTTP://LOCALHOST:80":                200,
		"https://app.example.com:8443":       403,
		"http://[::ffff:127.0.0.1]":          200,
		"http://0x7f000001":                  403,
		"http://localhost%2eevil.example":    403,
		"http://127.0.0.1:99999999999999999": 403,
	} {
		code, _ := initialize(t, hs.URL, origin)
		if code != want {
			t.Errorf("Origin %q: %d, want %d", origin, code, want)
		}
	}
}

// An allowed origin is given as a browser sends one: http or https, a
// host (with or without a port), no path beyond "/".
func TestValidOrigin(t *testing.T) {
	t.Parallel()
	for o, want := range map[string]bool{
		"https://app.example.com": true, "http://127.0.0.1:8080": true, "https://tools.example.org/": true, "http://[::1]:3000": true,
		"evil.example": false, "ftp://files.example": false, "https://": false, "https://app.example.com/path": false,
		"": false, "://x": false, "javascript:alert(1)": false, "https://app.example.com:port": false,
	} {
		if got := ValidOrigin(o); got != want {
			t.Errorf("ValidOrigin(%q) = %v, want %v", o, got, want)
		}
	}
}

// A participant that joined over HTTP and went away without debate_leave
// leaves once it has made no tool call for ParticipantIdle; one that keeps
// calling debate_next_turn stays.
func TestIdleHTTPParticipantIsUnregistered(t *testing.T) {
	t.Parallel()
	const idle = 3 * time.Second
	e := newEnvWith(t, func(c *Config) { c.ParticipantIdle = idle })
	hs := httptest.NewServer(e.srv.HTTPHandler())
	defer hs.Close()
	ctx := context.Background()
	connect := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "1"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	gone, busy := connect(), connect()
	defer busy.Close()
	// Steady joins and starts calling first, and Drifter is looked at
	// right after its join: Drifter's idle time starts when its join ends,
	// and no slow step (another join) comes between the two.
	ok[JoinOutput](t, busy, "debate_join", map[string]any{"role": "defender", "name": "Steady"})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			busy.CallTool(ctx, &mcp.CallToolParams{Name: "debate_next_turn", Arguments: map[string]any{"name": "Steady", "wait_seconds": 0.3}})
		}
	}()
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}()
	ok[JoinOutput](t, gone, "debate_join", map[string]any{"role": "attacker", "name": "Drifter"})
	if alive, _ := e.reg.Alive(ctx, "Drifter"); !alive {
		t.Fatal("Drifter is not registered after debate_join")
	}
	gone.Close() // no debate_leave
	start := time.Now()
	for {
		_, err := e.reg.Get(ctx, "Drifter")
		if errors.Is(err, registry.ErrNotRegistered) {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("Drifter is still registered %v after its last call (idle limit %v)", time.Since(start), idle)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(2 * idle) // Steady, calling all along, outlives it by far
	close(stop)
	wg.Wait()
	if alive, err := e.reg.Alive(ctx, "Steady"); !alive || err != nil {
		t.Fatalf("a participant that kept calling was dropped: %v", err)
	}
	if msg := fails(t, busy, "debate_next_turn", map[string]any{"name": "Drifter"}); !strings.Contains(msg, "Drifter left: no tool call named it for") {
		t.Fatalf("Drifter still joined: %s", msg)
	}
}

// warnCounter counts the warnings a server logs.
type warnCounter struct {
	mu sync.Mutex
	n  int
	m  []string
}

func (w *warnCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w *warnCounter) Handle(_ context.Context, r slog.Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n++
	w.m = append(w.m, r.Message)
	return nil
}
func (w *warnCounter) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w *warnCounter) WithGroup(string) slog.Handler      { return w }

func sessions(s *Server) int {
	n := 0
	for range s.MCP().Sessions() {
		n++
	}
	return n
}

// HTTP sessions dropped without a DELETE expire after SessionTimeout: the
// server forgets them, and a change of the vault notifies only the live
// session, without a warning for each dead one.
func TestIdleHTTPSessionsExpire(t *testing.T) {
	t.Parallel()
	warns := &warnCounter{}
	e := newEnvWith(t, func(c *Config) { c.SessionTimeout = 2 * time.Second; c.Logger = slog.New(warns) })
	hs := httptest.NewServer(e.srv.HTTPHandler())
	defer hs.Close()
	const dropped = 60
	base := sessions(e.srv) // the in-memory client of the env
	for range dropped {
		if code, id := initialize(t, hs.URL, ""); code != 200 || id == "" {
			t.Fatalf("initialize: %d %q", code, id)
		}
	}
	if n := sessions(e.srv); n <= base {
		t.Fatalf("%d sessions after %d initializes", n, dropped)
	}
	// A live client, which keeps its session alive by using it.
	notified := make(chan struct{}, 16)
	live, err := mcp.NewClient(&mcp.Implementation{Name: "live", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { notified <- struct{}{} },
	}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	// The live client keeps using its session all along.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				live.ListTools(context.Background(), nil)
			}
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	for start := time.Now(); sessions(e.srv) > base+1; time.Sleep(50 * time.Millisecond) {
		if time.Since(start) > 30*time.Second {
			t.Fatalf("%d sessions still open 30 s after they went idle", sessions(e.srv))
		}
	}
	// The vault changes: a record is filed; listing resources brings the
	// server's set up to date, which notifies the sessions.
	e.file(t, "20260101-spec-keys-abcdef", "Idempotency keys", debate.LayerSpec, debate.ConsensusReached, "Use UUIDv7 keys")
	if _, err := live.ListResources(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-notified:
	case <-time.After(30 * time.Second):
		t.Fatal("the live session was not notified in 30 s")
	}
	warns.mu.Lock()
	defer warns.mu.Unlock()
	if warns.n != 0 {
		t.Fatalf("%d warnings: %q", warns.n, warns.m)
	}
}
