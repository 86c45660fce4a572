package mcpserver

import (
	"context"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/inbox"
)

// maxRecv bounds how many messages one recv call takes.
const maxRecv = 100

// SendInput is the input of send ("parley send").
type SendInput struct {
	From        string `json:"from" jsonschema:"the sender's name (need not be registered)"`
	To          string `json:"to" jsonschema:"the recipient's name"`
	Text        string `json:"text" jsonschema:"the message (Markdown), at most 1 MiB"`
	Type        string `json:"type,omitempty" jsonschema:"the message type (default text)"`
	ReplyTo     string `json:"reply_to,omitempty" jsonschema:"the id of the message this one answers"`
	RequireLive bool   `json:"require_live,omitempty" jsonschema:"fail (not_active) instead of delivering to an agent that is not running"`
}

// SendOutput is the result of send.
type SendOutput struct {
	ID        string `json:"id"`
	From      string `json:"from"`
	To        string `json:"to"`
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	// Warning is "not_active" when the recipient is not running: the
	// message waits in its inbox.
	Warning string `json:"warning,omitempty"`
	Note    string `json:"note,omitempty"`
}

// RecvInput is the input of recv ("parley recv").
type RecvInput struct {
	As          string  `json:"as" jsonschema:"the agent whose inbox to read"`
	WaitSeconds float64 `json:"wait_seconds,omitempty" jsonschema:"wait up to this many seconds for the first message (at most 30)"`
	All         bool    `json:"all,omitempty" jsonschema:"take every waiting message (at most 100), not just one"`
}

// RecvOutput is the result of recv: the messages claimed and acknowledged,
// each in its wire form.
type RecvOutput struct {
	Messages []map[string]any `json:"messages"`
	// SetAside says, one line each, which messages of the inbox could not
	// be read and were set aside on the way (quarantined), or could not be
	// set aside either and were skipped, so that an empty answer does not
	// hide a message that came broken.
	SetAside []string `json:"set_aside,omitempty"`
}

func (s *Server) addMessageTools() {
	addTool(s, &mcp.Tool{
		Name:  "send",
		Title: "Send a message to an agent",
		Description: "Deliver a message durably to an agent's inbox, as \"parley send\" does. An unknown agent is " +
			"not_found; a known agent that is not running still gets it, with warning not_active (an error with require_live).",
	}, s.send)
	addTool(s, &mcp.Tool{
		Name:  "recv",
		Title: "Receive messages",
		Description: "Claim and acknowledge the oldest message of an inbox (all: every waiting one), waiting up to " +
			"wait_seconds for the first, as \"parley recv\" does. An empty inbox returns no messages. A message that could not be read is " +
			"set aside (quarantined, never deleted) and named in set_aside, as is one that could not be set aside either (it stays, skipped).",
	}, s.recv)
}

func (s *Server) send(ctx context.Context, _ *mcp.CallToolRequest, in SendInput) (*mcp.CallToolResult, SendOutput, error) {
	var out SendOutput
	sent, err := app.Deliver(ctx, s.cfg.Transport, s.cfg.Registry, app.SendRequest{
		From: in.From, To: in.To, Text: in.Text, Type: orDefault(in.Type, ""), ReplyTo: in.ReplyTo, RequireLive: in.RequireLive,
	})
	if err != nil {
		return nil, out, s.toolError(err)
	}
	m := sent.Message
	out.ID, out.From, out.To, out.Type, out.Timestamp = m.ID, m.From, m.To, m.Kind(), m.Timestamp
	for _, w := range sent.Warnings {
		out.Warning, out.Note = w.Code, w.Text
	}
	return nil, out, nil
}

func (s *Server) recv(ctx context.Context, _ *mcp.CallToolRequest, in RecvInput) (*mcp.CallToolResult, RecvOutput, error) {
	out := RecvOutput{Messages: []map[string]any{}}
	if in.As == "" {
		return nil, out, invalidf("recv needs as (the agent whose inbox to read)")
	}
	if err := s.validName("as", in.As); err != nil {
		return nil, out, err
	}
	wait, err := waitArg(in.WaitSeconds)
	if err != nil {
		return nil, out, err
	}
	s.mu.Lock()
	joined := s.parts[in.As] != nil
	s.mu.Unlock()
	if joined {
		return nil, out, fmt.Errorf("%w: %s takes part in debates through this server, which holds its inbox (use debate_next_turn)", inbox.ErrBusy, in.As)
	}
	r, err := s.cfg.Transport.Listen(ctx, in.As)
	if errors.Is(err, inbox.ErrNotFound) {
		return nil, out, s.toolError(app.UnknownAgentNear(ctx, s.cfg.Transport, s.cfg.Registry, in.As))
	}
	if err != nil {
		// The messenger's error, worded as "parley recv" words it (an
		// inbox another receiver holds: stop it and try again).
		return nil, out, s.toolError(app.Explain(err))
	}
	defer r.Close()
	o := app.ReceiveOptions{Wait: wait, Max: 1, Warn: func(w app.Warning) { out.SetAside = append(out.SetAside, w.Text) }}
	if in.All {
		o.Max = maxRecv
	}
	n, err := app.Receive(ctx, r, o, func(m *inbox.Message) error {
		obj, err := wireForm(m)
		if err == nil {
			out.Messages = append(out.Messages, obj)
		}
		return err
	})
	if err != nil && n == 0 {
		// What was taken is returned; an error after it shows at the
		// next recv.
		return nil, out, s.toolError(err)
	}
	return nil, out, nil
}

// wireForm is a message as "parley recv --json" prints it, decoded.
func wireForm(m *inbox.Message) (map[string]any, error) {
	b, err := m.Encode()
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	return obj, nil
}
