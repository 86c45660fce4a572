package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/registry"
)

// typeRE is what "parley send --type" accepts.
var typeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`) })

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
}

func (s *Server) addMessageTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "send",
		Title: "Send a message to an agent",
		Description: "Deliver a message durably to an agent's inbox, as \"parley send\" does. An unknown agent is " +
			"not_found; a known agent that is not running still gets it, with warning not_active (an error with require_live).",
	}, s.send)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  "recv",
		Title: "Receive messages",
		Description: "Claim and acknowledge the oldest message of an inbox (all: every waiting one), waiting up to " +
			"wait_seconds for the first, as \"parley recv\" does. An empty inbox returns no messages.",
	}, s.recv)
}

func (s *Server) send(ctx context.Context, _ *mcp.CallToolRequest, in SendInput) (*mcp.CallToolResult, SendOutput, error) {
	var out SendOutput
	if in.From == "" || in.To == "" {
		return nil, out, invalidf("send needs from and to")
	}
	if err := validName("from", in.From); err != nil {
		return nil, out, err
	}
	if err := validName("to", in.To); err != nil {
		return nil, out, err
	}
	typ := orDefault(in.Type, inbox.TypeText)
	if !typeRE().MatchString(typ) {
		return nil, out, invalidf("type %q: use lower-case letters, digits and '_', starting with a letter", clip.Runes(typ, 81))
	}
	if len(in.ReplyTo) > 200 {
		return nil, out, invalidf("reply_to: an id is at most 200 characters")
	}
	if strings.TrimSpace(in.Text) == "" {
		return nil, out, invalidf("nothing to send: the text is empty")
	}
	if len(in.Text) > inbox.MaxMessageBytes {
		return nil, out, invalidf("%w: the text is over %d bytes; send a shorter text or put the content in a file and send its path", inbox.ErrTooLarge, inbox.MaxMessageBytes)
	}
	tr, reg := s.cfg.Transport, s.cfg.Registry
	has, err := tr.Exists(ctx, in.To)
	if err != nil {
		return nil, out, err
	}
	e, err := reg.Get(ctx, in.To)
	registered := err == nil
	if err != nil && !errors.Is(err, registry.ErrNotRegistered) && !errors.Is(err, registry.ErrMalformed) {
		return nil, out, err
	}
	if !has && !registered {
		return nil, out, fmt.Errorf("%w: no agent %q (no inbox, no registration); check the name with 'parley agents list', or create its inbox with 'parley agents add %s'", inbox.ErrNotFound, in.To, in.To)
	}
	if !has {
		if err := tr.Create(ctx, in.To); err != nil {
			return nil, out, err
		}
	}
	if !registered || !e.Alive {
		why := "it is not registered yet"
		if registered {
			why = "its process is gone or its heartbeat is stale"
		}
		if in.RequireLive {
			return nil, out, fmt.Errorf("not_active: %s is not running (%s); nothing sent (drop require_live to leave the message in its inbox)", in.To, why)
		}
		out.Warning, out.Note = "not_active", fmt.Sprintf("%s is not running (%s); the message waits in its inbox", in.To, why)
	}
	m := &inbox.Message{From: in.From, To: in.To, Text: in.Text, Type: typ, ReplyTo: in.ReplyTo}
	if err := tr.Send(ctx, m); err != nil {
		return nil, out, err
	}
	out.ID, out.From, out.To, out.Type, out.Timestamp = m.ID, m.From, m.To, m.Kind(), m.Timestamp
	return nil, out, nil
}

func (s *Server) recv(ctx context.Context, _ *mcp.CallToolRequest, in RecvInput) (*mcp.CallToolResult, RecvOutput, error) {
	out := RecvOutput{Messages: []map[string]any{}}
	if in.As == "" {
		return nil, out, invalidf("recv needs as (the agent whose inbox to read)")
	}
	if err := validName("as", in.As); err != nil {
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
		return nil, out, fmt.Errorf("%w: no agent %q (no inbox); check the name with 'parley agents list', or create its inbox with 'parley agents add %s'", err, in.As, in.As)
	}
	if err != nil {
		return nil, out, err
	}
	defer r.Close()
	for len(out.Messages) < maxRecv {
		// The first message may be waited for; the rest are polled.
		var (
			wctx   context.Context
			cancel context.CancelFunc
		)
		if len(out.Messages) > 0 || wait <= 0 {
			wctx, cancel = context.WithCancel(ctx)
			cancel() // a done context polls
		} else {
			wctx, cancel = context.WithTimeout(ctx, wait)
		}
		d, err := r.Receive(wctx)
		cancel()
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			break
		}
		if err != nil && len(out.Messages) > 0 {
			break // return what was taken; the error shows at the next recv
		}
		if err != nil {
			return nil, out, err
		}
		obj, err := wireForm(d.Message)
		if err != nil {
			return nil, out, err
		}
		if err := r.Ack(context.WithoutCancel(ctx), d); err != nil {
			return nil, out, err
		}
		out.Messages = append(out.Messages, obj)
		if !in.All {
			break
		}
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
