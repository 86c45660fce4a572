package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/registry"
)

// parley mcp --http answers a foreign Origin 403 and serves a loopback one,
// one listed with --allow-origin, and none.
func TestMCPHTTPOrigin(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--root", root, "--json", "mcp", "--http", "127.0.0.1:0", "--allow-origin", "https://tools.example.org"}, strings.NewReader(""), pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	var ev struct{ URL string }
	if err := json.Unmarshal([]byte(line), &ev); err != nil {
		t.Fatal(err)
	}
	for origin, want := range map[string]int{
		"http://evil.example": 403, "https://tools.example.org.evil.example": 403,
		"": 200, "http://localhost:3000": 200, "https://tools.example.org": 200,
	} {
		req, _ := http.NewRequest(http.MethodPost, ev.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Origin %q: %d, want %d", origin, res.StatusCode, want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("mcp --http: %v", err)
	}
	for _, args := range [][]string{
		{"mcp", "--allow-origin", "https://x.example"},
		{"mcp", "--http", "127.0.0.1:0", "--allow-origin", "evil.example"},
		{"mcp", "--http", "127.0.0.1:0", "--session-timeout", "0s"},
	} {
		if _, _, code := runT(t, "", append([]string{"--root", root}, args...)...); code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d, want usage", args, code)
		}
	}
}

// parley mcp --http unregisters a participant whose client joined and went
// away without debate_leave, once the registration TTL (config's
// messenger.heartbeatTtlMs) passed without a tool call naming it.
func TestMCPHTTPParticipantLeavesAfterTheTTL(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, root, `{"messenger":{"heartbeatTtlMs":3000}}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--root", root, "--json", "mcp", "--http", "127.0.0.1:0"}, strings.NewReader(""), pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	var ev struct{ URL string }
	json.Unmarshal([]byte(line), &ev)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gone", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ev.URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "debate_join", Arguments: map[string]any{"role": "attacker", "name": "Wanderer"}})
	if err != nil || res.IsError {
		t.Fatalf("debate_join: %v %+v", err, res)
	}
	joined := time.Now()
	if !alive(t, root, "Wanderer") {
		t.Fatal("not registered after debate_join")
	}
	cs.Close() // gone, without debate_leave
	for alive(t, root, "Wanderer") {
		if time.Since(joined) > 60*time.Second {
			t.Fatal("still registered a minute after its client went away (TTL 3 s)")
		}
		time.Sleep(50 * time.Millisecond)
	}
	reg, err := registry.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if _, err := reg.Get(ctx, "Wanderer"); !errors.Is(err, registry.ErrNotRegistered) {
		t.Fatalf("the registration is still there (%v): it must be removed, not just stale", err)
	}
	t.Logf("unregistered %v after joining (TTL 3 s)", time.Since(joined).Round(100*time.Millisecond))
	cancel()
	<-done
}
