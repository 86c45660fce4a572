package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// When "parley mcp --http" stops (ctx ends), a client's notification
// stream (GET /mcp, which every SDK client opens and which never ends by
// itself) is ended by the server: its response finishes cleanly. The
// shutdown waited for it instead (5 s, the graceful shutdown's limit, on
// every Ctrl-C while a client was connected), then cut the connection.
func TestHTTPShutdownEndsTheStreams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- e.srv.ServeHTTPOn(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/mcp"

	post := func(sid, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %s, session %q", res.Status, sid)
	}
	res = post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	io.Copy(io.Discard, res.Body)
	res.Body.Close()

	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %s", stream.Status)
	}
	ended := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, stream.Body); ended <- err }()

	cancel()
	if err := <-served; err != nil {
		t.Fatalf("ServeHTTPOn: %v", err)
	}
	if err := <-ended; err != nil {
		t.Errorf("the notification stream was cut (%v), not ended by the server", err)
	}
}

// A request body up to MaxFrame, which stdio takes, reaches the tools over
// HTTP too, so that an oversized argument is refused by the tool, saying
// which argument and its limit, as over stdio. The SDK's own limit (4 MiB)
// answered it "413 request body exceeds 4194304 bytes", which names
// neither.
func TestHTTPTakesTheBodiesStdioTakes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.srv.ServeHTTPOn(ctx, ln) }()
	defer func() { cancel(); <-served }()

	c := mcp.NewClient(&mcp.Implementation{Name: "big", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, size := range []int{5 << 20, MaxFrame - 4096} {
		query := strings.Repeat("retry budget ", size/13)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "consensus_search", Arguments: map[string]any{"query": query}})
		if err != nil {
			t.Fatalf("a %d-byte query: %v; want the tool's refusal", len(query), err)
		}
		if msg := text(res); !res.IsError || !strings.Contains(msg, "query is too long") {
			t.Errorf("a %d-byte query: %q", len(query), msg)
		}
	}
}

// A call the client cancels (notifications/cancelled) before it is
// answered gets no response over HTTP, as over stdio and as the MCP
// specification asks: its POST's event stream ends without one. The SDK
// answered it ({"pending":false} for a debate_next_turn cut short), and a
// client that forgot the id takes an answer to an unknown id for a broken
// session. The session goes on.
func TestHTTPCancelledCallIsNotAnswered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.srv.ServeHTTPOn(ctx, ln) }()
	defer func() { cancel(); <-served }()
	url := "http://" + ln.Addr().String() + "/mcp"

	post := func(sid, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	read := func(res *http.Response) string {
		t.Helper()
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("%s: %v", res.Request.URL, err)
		}
		return string(b)
	}
	res := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	read(res)
	sid := res.Header.Get("Mcp-Session-Id")
	read(post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if got := read(post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"debate_join","arguments":{"role":"defender","name":"Waiter"}}}`)); !strings.Contains(got, `"name":"Waiter"`) {
		t.Fatalf("debate_join: %s", got)
	}
	p, err := e.srv.participant("Waiter")
	if err != nil {
		t.Fatal(err)
	}

	// The response's headers come with its first event: the call is
	// posted in the background.
	answer := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"debate_next_turn","arguments":{"name":"Waiter","wait_seconds":30}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			answer <- err.Error()
			return
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		answer <- fmt.Sprint(string(b), err)
	}()
	for p.inCall.Load() == 0 { // the call is in its handler
		runtime.Gosched()
	}
	if res := post(sid, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"the user pressed Esc"}}`); res.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/cancelled: %s", res.Status)
	}
	if got := <-answer; strings.Contains(got, `"id":7`) {
		t.Errorf("the cancelled call was answered: %s", got)
	}
	if got := read(post(sid, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"debate_next_turn","arguments":{"name":"Waiter"}}}`)); !strings.Contains(got, `"id":8`) || !strings.Contains(got, `"pending":false`) {
		t.Errorf("the next call: %s", got)
	}
}

// Stopping "parley mcp --http" answers the calls in flight before it
// closes their sessions: a debate_next_turn that waits is told that the
// server is stopping and what to do, a recv that waits is answered too.
// The sessions were closed while those answers were being written, and
// most often the client got an event stream with no answer at all.
func TestHTTPShutdownAnswersTheCallsInFlight(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- e.srv.ServeHTTPOn(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/mcp"
	post := func(sid, body string) string {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err.Error()
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if sid == "" {
			return res.Header.Get("Mcp-Session-Id")
		}
		return fmt.Sprint(string(b), err)
	}
	sid := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"debate_join","arguments":{"role":"defender","name":"Waiter"}}}`); !strings.Contains(got, `"name":"Waiter"`) {
		t.Fatalf("debate_join: %s", got)
	}
	p, err := e.srv.participant("Waiter")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.tr.Create(ctx, "Reader"); err != nil {
		t.Fatal(err)
	}
	next, recv := make(chan string, 1), make(chan string, 1)
	go func() {
		next <- post(sid, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"debate_next_turn","arguments":{"name":"Waiter","wait_seconds":30}}}`)
	}()
	go func() {
		recv <- post(sid, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"recv","arguments":{"as":"Reader","wait_seconds":30}}}`)
	}()
	for { // both calls are in flight
		e.srv.cancels.mu.Lock()
		n := len(e.srv.cancels.calls)
		e.srv.cancels.mu.Unlock()
		if n == 2 && p.inCall.Load() > 0 {
			break
		}
		select {
		case got := <-recv:
			t.Fatalf("recv answered before the shutdown: %s", got)
		case got := <-next:
			t.Fatalf("debate_next_turn answered before the shutdown: %s", got)
		default:
		}
		runtime.Gosched()
	}
	cancel()
	if got := <-next; !strings.Contains(got, `"id":7`) || !strings.Contains(got, "Waiter left: the MCP server is stopping") {
		t.Errorf("debate_next_turn in flight at shutdown: %q", got)
	}
	if got := <-recv; !strings.Contains(got, `"id":8`) {
		t.Errorf("recv in flight at shutdown: %q", got)
	}
	if err := <-served; err != nil {
		t.Errorf("ServeHTTPOn: %v", err)
	}
}
