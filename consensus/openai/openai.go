// Package openai gives consensus lookup its optional models over an
// OpenAI-compatible endpoint (Ollama, llama.cpp, vLLM serve one):
// embeddings for topic matching (POST /embeddings) and a judge for the
// comparisons the lexical rules cannot decide (POST /chat/completions).
package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/internal/clip"
)

// maxResponseBytes bounds what the endpoint may answer.
const maxResponseBytes = 16 << 20

// DefaultTimeout bounds one request when the caller sets none.
const DefaultTimeout = 10 * time.Second

// ErrEndpoint wraps every failure to get an answer from the endpoint
// (unreachable, an HTTP error, a malformed answer).
var ErrEndpoint = errors.New("model endpoint")

// Client is one model at one endpoint. It is safe for concurrent use.
type Client struct {
	// BaseURL is the API base up to and including /v1.
	BaseURL string
	Model   string
	// APIKey is sent as a bearer token when set.
	APIKey  string
	Timeout time.Duration
	HTTP    *http.Client // default: http.DefaultClient
}

var (
	_ consensus.Embedder = (*Client)(nil)
	_ consensus.Judge    = (*Client)(nil)
)

func (c *Client) post(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := strings.TrimRight(c.BaseURL, "/") + path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrEndpoint, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrEndpoint, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrEndpoint, url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: %s answered %s", ErrEndpoint, url, resp.Status)
	}
	if len(data) > maxResponseBytes {
		return fmt.Errorf("%w: %s: the answer is larger than %d bytes", ErrEndpoint, url, maxResponseBytes)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrEndpoint, url, err)
	}
	return nil
}

// Embed returns one vector per text, in order.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var out struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		} `json:"data"`
	}
	if err := c.post(ctx, "/embeddings", map[string]any{"model": c.Model, "input": texts}, &out); err != nil {
		return nil, err
	}
	vecs := make([][]float32, len(texts))
	for _, d := range out.Data {
		if d.Index < 0 || d.Index >= len(texts) || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("%w: an embedding with index %d for %d texts", ErrEndpoint, d.Index, len(texts))
		}
		vecs[d.Index] = d.Embedding
	}
	for i, v := range vecs {
		if v == nil {
			return nil, fmt.Errorf("%w: no embedding for text %d", ErrEndpoint, i)
		}
	}
	return vecs, nil
}

// judgePrompt asks for one line of JSON.
const judgePrompt = `You compare two positions on the same question of a software project.
The FILED position is a decision already agreed. Decide whether the NEW position says the same rule in other words ("consistent") or changes it: other numbers or units, a negation, another option of a choice, a dropped or added condition or exception ("conflict").
Answer with one line of JSON and nothing else: {"agreement": "consistent" or "conflict", "reason": "<one short sentence>"}`

// Judge asks the chat model whether position agrees with the filed one.
// It returns Agree or Disagree and the model's one-line reason; any other
// answer is an error.
func (c *Client) Judge(ctx context.Context, topic, filed, position string) (consensus.Agreement, string, error) {
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	user := fmt.Sprintf("QUESTION: %s\nFILED: %s\nNEW: %s", clip.OneLine(topic), clip.OneLine(filed), clip.OneLine(position))
	in := map[string]any{
		"model":       c.Model,
		"temperature": 0,
		"messages": []map[string]string{
			{"role": "system", "content": judgePrompt},
			{"role": "user", "content": user},
		},
	}
	if err := c.post(ctx, "/chat/completions", in, &out); err != nil {
		return "", "", err
	}
	if len(out.Choices) == 0 {
		return "", "", fmt.Errorf("%w: no choices in the answer", ErrEndpoint)
	}
	content := strings.TrimSpace(out.Choices[0].Message.Content)
	content = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(content, "```json"), "```"), "```")
	if i, j := strings.IndexByte(content, '{'), strings.LastIndexByte(content, '}'); i >= 0 && j > i {
		content = content[i : j+1]
	}
	var ans struct {
		Agreement string `json:"agreement"`
		Reason    string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(content), &ans); err != nil {
		return "", "", fmt.Errorf("%w: the judge did not answer in JSON: %.120q", ErrEndpoint, content)
	}
	reason := clip.OneLine(ans.Reason)
	if r := []rune(reason); len(r) > 300 {
		reason = string(r[:299]) + "…"
	}
	switch consensus.Agreement(strings.ToLower(strings.TrimSpace(ans.Agreement))) {
	case consensus.Agree:
		return consensus.Agree, reason, nil
	case consensus.Disagree:
		return consensus.Disagree, reason, nil
	}
	return "", "", fmt.Errorf("%w: the judge answered %q, not consistent or conflict", ErrEndpoint, ans.Agreement)
}
