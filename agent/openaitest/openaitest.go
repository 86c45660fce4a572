// Package openaitest is an in-process fake of an OpenAI-compatible
// chat-completions endpoint, for tests of the openai adapter and of whole
// debates served by it. It listens on the loopback interface only.
package openaitest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

// Message is one chat message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is a chat-completions request as the fake received it.
type Request struct {
	Model          string    `json:"model"`
	Messages       []Message `json:"messages"`
	Temperature    float64   `json:"temperature"`
	MaxTokens      int       `json:"max_tokens"`
	Stream         bool      `json:"stream"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	// Authorization is the request's Authorization header.
	Authorization string `json:"-"`
	// N is the request's number, from 1, counted over the server's life.
	N int `json:"-"`
}

var turnRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`round (\d+) of \d+: you are the (defender|attacker)`)
})

// Turn reads the round and role the request's turn prompt (the first user
// message) asks for; 0 and "" when it names none.
func (r *Request) Turn() (round int, role string) {
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		if sm := turnRE().FindStringSubmatch(m.Content); sm != nil {
			n, _ := strconv.Atoi(sm[1])
			return n, sm[2]
		}
		break
	}
	return 0, ""
}

// Reasked reports whether the request re-asks after a reply that could not
// be used (it holds an assistant message).
func (r *Request) Reasked() bool {
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			return true
		}
	}
	return false
}

// Response is what the fake answers to one request.
type Response struct {
	// Status is the HTTP status (default 200).
	Status int
	// Header is added to the response.
	Header http.Header
	// Body, when set, is sent as it is; otherwise a chat completion whose
	// message content is Content, with Usage.
	Body    string
	Content string
	Usage   *Usage
	// Delay holds the answer back (the request's context still ends it).
	Delay time.Duration
	// Hangup closes the connection without an answer.
	Hangup bool
}

// Usage is a response's token usage.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Reply is a 200 completion with content and the usage given.
func Reply(content string, prompt, completion int) Response {
	return Response{Content: content, Usage: &Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}}
}

// Status is an error answer with an OpenAI-style error body.
func Status(code int, message string) Response {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": "fake"}})
	return Response{Status: code, Body: string(b)}
}

// Server is the fake endpoint. Respond decides each answer; it is called
// from the server's goroutines, one request at a time.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	respond  func(r *Request) Response
	requests []Request
}

// New starts a fake whose answers come from respond, and stops it when the
// test ends.
func New(t testing.TB, respond func(r *Request) Response) *Server {
	t.Helper()
	s := &Server{respond: respond}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the base URL to configure, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close stops the server: later requests find nothing listening.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the chat requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	if hr.Method == http.MethodGet && strings.HasSuffix(hr.URL.Path, "/v1/models") {
		fmt.Fprint(w, `{"object":"list","data":[{"id":"fake","object":"model"}]}`)
		return
	}
	if hr.Method != http.MethodPost || hr.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	data, err := io.ReadAll(io.LimitReader(hr.Body, 8<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var r Request
	if err := json.Unmarshal(data, &r); err != nil {
		http.Error(w, `{"error":{"message":"bad JSON"}}`, http.StatusBadRequest)
		return
	}
	r.Authorization = hr.Header.Get("Authorization")
	s.mu.Lock()
	r.N = len(s.requests) + 1
	s.requests = append(s.requests, r)
	resp := s.respond(&r)
	s.mu.Unlock()
	if resp.Delay > 0 {
		select {
		case <-time.After(resp.Delay):
		case <-hr.Context().Done():
			return
		}
	}
	if resp.Hangup {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if resp.Status == 0 {
		resp.Status = http.StatusOK
	}
	body := resp.Body
	if body == "" {
		b, _ := json.Marshal(map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", r.N), "object": "chat.completion", "model": r.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": resp.Content}}},
			"usage": resp.Usage,
		})
		body = string(b)
	}
	w.WriteHeader(resp.Status)
	_, _ = io.WriteString(w, body)
}
