package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
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
		if _, _, code := runT(t, "", append([]string{"--root", root}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d, want usage", args, code)
		}
	}
}
