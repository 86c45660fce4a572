// Package openai gives consensus lookup its optional models over an
// OpenAI-compatible endpoint (Ollama, llama.cpp, vLLM serve one):
// embeddings for topic matching (POST /embeddings) and a judge for the
// comparisons the lexical rules cannot decide (POST /chat/completions).
package openai

import (
	"context"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/internal/clip"
)

// Client is one model at one endpoint, over parley's one OpenAI-compatible
// client (agent.OpenAIClient: its URL checks, timeouts, bounds and error
// kinds). It is safe for concurrent use.
type Client struct {
	c *agent.OpenAIClient
}

var (
	_ consensus.Embedder = (*Client)(nil)
	_ consensus.Judge    = (*Client)(nil)
)

// New returns the client of cfg's model at cfg's endpoint (cfg.Model and an
// http or https cfg.BaseURL up to and including /v1). It does not contact
// the server. The judge samples at temperature 0 whatever cfg says.
func New(cfg agent.OpenAIConfig) (*Client, error) {
	cfg.Temperature = 0
	cfg.JSONMode = false
	c, err := agent.NewOpenAIClient(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{c: c}, nil
}

// Embed returns one vector per text, in order.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return c.c.Embed(ctx, texts)
}

// judgePrompt asks for one line of JSON.
const judgePrompt = `You compare two positions on the same question of a software project.
The FILED position is a decision already agreed. Decide whether the NEW position says the same rule in other words ("consistent") or changes it: other numbers or units, a negation, another option of a choice, a dropped or added condition or exception ("conflict").
Answer with one line of JSON and nothing else: {"agreement": "consistent" or "conflict", "reason": "<one short sentence>"}`

// Judge asks the chat model whether position agrees with the filed one.
// It returns Agree or Disagree and the model's one-line reason; any other
// answer is an error.
func (c *Client) Judge(ctx context.Context, topic, filed, position string) (consensus.Agreement, string, error) {
	user := fmt.Sprintf("QUESTION: %s\nFILED: %s\nNEW: %s", clip.OneLine(topic), clip.OneLine(filed), clip.OneLine(position))
	reply, err := c.c.Chat(ctx, agent.ChatRequest{Messages: []agent.ChatMessage{
		{Role: "system", Content: judgePrompt},
		{Role: "user", Content: user},
	}})
	if err != nil {
		return "", "", err
	}
	content := strings.TrimSpace(reply.Content)
	content = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(content, "```json"), "```"), "```")
	if i, j := strings.IndexByte(content, '{'), strings.LastIndexByte(content, '}'); i >= 0 && j > i {
		content = content[i : j+1]
	}
	var ans struct {
		Agreement string `json:"agreement"`
		Reason    string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(content), &ans); err != nil {
		return "", "", fmt.Errorf("%w: the judge did not answer in JSON: %.120q", agent.ErrEndpoint, content)
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
	return "", "", fmt.Errorf("%w: the judge answered %q, not consistent or conflict", agent.ErrEndpoint, ans.Agreement)
}
