package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrame is the largest JSON-RPC line ServeStdio reads; a longer one is
// answered with a parse error and skipped. It is well inside the SDK's own
// frame limit (mcp.DefaultMaxLineLength, 16 MiB), past which the SDK ends
// the session, and far above what any tool takes (a message's text is at
// most 1 MiB).
const MaxFrame = 8 << 20

// JSON-RPC 2.0 error codes for frames that never reach the SDK.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// ServeStdio serves MCP over newline-delimited JSON-RPC on r and w (a
// client's stdio) until r ends or ctx is done; the end of r is a clean end
// (nil).
//
// A line that is not JSON, or JSON that is not a JSON-RPC message, is
// answered with a JSON-RPC error (-32700 parse error, -32600 invalid
// request, with the request's id when it has one) and the session goes on.
// The SDK's own stream transport ends the session on the first frame it
// cannot decode (modelcontextprotocol/go-sdk#1209), so one garbled line from
// a client would lose every reply still owed; every line that decodes
// reaches the SDK byte for byte.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	o := newOwed()
	out := &frameWriter{w: w}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { pw.CloseWithError(filterFrames(ctx, r, pw, out, o)) }()
	err := s.mcp.Run(ctx, &owedTransport{Transport: &mcp.IOTransport{Reader: pr, Writer: out}, owed: o})
	// Run returns when the client's input ends (the filter has returned)
	// or the session fails or ctx ends; then the filter stops at its next
	// line. A read of r it is blocked in cannot be interrupted, as with any
	// reader of stdin, so it is not waited for here.
	pr.Close()
	cancel()
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || ctx.Err() != nil {
		return nil
	}
	return err
}

// frameWriter writes whole frames to w, one at a time: the SDK writes each
// message with its newline in one Write, and the filter's error replies go
// through the same lock, so no two frames interleave.
type frameWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w.Write(p)
}

func (f *frameWriter) Close() error { return nil }

// owedTransport strikes from owed every response the SDK has written, from
// the message the SDK hands its connection, so no outgoing frame is decoded
// again. A response that completes a batch is written whole before its Write
// returns, so nothing is struck before it went out.
//
// The wrapper hides the SDK's own batch check from the connection (it learns
// the protocol version through an unexported method); the filter's
// frameChecker makes the same check before the SDK sees a frame.
type owedTransport struct {
	mcp.Transport
	owed *owed
}

func (t *owedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &owedConn{Connection: c, owed: t.owed}, nil
}

type owedConn struct {
	mcp.Connection
	owed *owed
}

// Write writes msg, but not the response to a request the client
// cancelled (notifications/cancelled) before it was answered: the MCP
// specification asks that a cancelled request get no response, and a
// client that forgot the id (Claude Code) takes one for a broken session.
// The SDK answers every cancelled call ("context canceled"),
// modelcontextprotocol/go-sdk#1259.
func (c *owedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if ok && c.owed.cancelledBy(resp.ID) {
		c.owed.answered(resp.ID)
		return nil
	}
	err := c.Connection.Write(ctx, msg)
	if ok {
		c.owed.answered(resp.ID)
	}
	return err
}

// filterFrames copies r to sdk line by line, answering the lines the SDK
// could not decode on out instead. It returns nil at the end of r.
//
// At the end of r it waits until every request it passed on has been
// answered (at most drainLimit): the SDK ends the session at the end of its
// input without answering requests still in flight, so a client that writes
// its requests and closes its side would lose the last replies.
func filterFrames(ctx context.Context, r io.Reader, sdk io.Writer, out io.Writer, o *owed) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	var checker frameChecker
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		tooLong := len(line) > MaxFrame
		if errors.Is(err, bufio.ErrBufferFull) {
			if !tooLong {
				continue
			}
			// Skip the rest of the oversized line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
		}
		if tooLong {
			line = line[:0]
		}
		if ctx.Err() != nil {
			return nil
		}
		frame := bytes.TrimSpace(line)
		switch {
		case tooLong:
			if werr := reply(out, nil, codeParseError, "Parse error: the line is longer than 8 MiB"); werr != nil {
				return werr
			}
		case len(frame) == 0:
		default:
			if msgs, id, code, msg := checker.check(frame); code != 0 {
				if werr := reply(out, id, code, msg); werr != nil {
					return werr
				}
			} else {
				o.add(msgs)
				if _, werr := sdk.Write(append(frame, '\n')); werr != nil {
					return nil // the session ended
				}
			}
		}
		line = line[:0]
		if err != nil {
			if errors.Is(err, io.EOF) {
				o.drain(ctx, drainLimit)
				return nil
			}
			return err
		}
	}
}

// drainLimit bounds the wait at the end of the input for the replies still
// owed: the longest a tool waits (MaxWait), and time to answer.
const drainLimit = MaxWait + 30*time.Second

// owed is the set of request ids passed to the SDK and not yet answered,
// each true once the client cancelled it. A nil *owed tracks nothing.
type owed struct {
	mu      sync.Mutex
	ids     map[jsonrpc.ID]bool
	changed chan struct{} // closed (and replaced) when an id is answered
}

func newOwed() *owed {
	return &owed{ids: make(map[jsonrpc.ID]bool), changed: make(chan struct{})}
}

// add records the calls among the messages of a frame the SDK is about to
// read.
func (o *owed) add(msgs []jsonrpc.Message) {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, m := range msgs {
		req, ok := m.(*jsonrpc.Request)
		switch {
		case !ok:
		case req.IsCall():
			o.ids[req.ID] = false
		case req.Method == "notifications/cancelled":
			// Marked before the SDK reads it and cancels the call; a call
			// answered already is not owed and stays answered.
			var p struct {
				RequestID any `json:"requestId"`
			}
			if stdjson.Unmarshal(req.Params, &p) != nil {
				continue
			}
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
				if _, owed := o.ids[id]; owed {
					o.ids[id] = true
				}
			}
		}
	}
}

// cancelledBy reports whether the client cancelled the call id before it
// was answered.
func (o *owed) cancelledBy(id jsonrpc.ID) bool {
	if o == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ids[id]
}

// answered strikes id, a response that went out.
func (o *owed) answered(id jsonrpc.ID) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, owed := o.ids[id]; owed {
		delete(o.ids, id)
		close(o.changed)
		o.changed = make(chan struct{})
	}
}

// drain waits until nothing is owed, ctx ends or limit passes.
func (o *owed) drain(ctx context.Context, limit time.Duration) {
	if o == nil {
		return
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	for {
		o.mu.Lock()
		n, ch := len(o.ids), o.changed
		o.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return
		case <-t.C:
			return
		}
	}
}

// frameChecker tells which frames the SDK can decode. It follows the
// protocol version the client asks for, since the SDK ends the session on a
// batch once a version without batches (2025-06-18 and later) is in use.
type frameChecker struct {
	noBatches bool
}

// check decodes frame as the SDK will and returns its messages (one, or a
// batch's); if the SDK could not take it, the error to answer with and the id
// to answer (nil: none could be read).
func (c *frameChecker) check(frame []byte) (msgs []jsonrpc.Message, id json.RawMessage, code int, msg string) {
	// The SDK reads its input with encoding/json's Decoder: the same
	// library decides which lines it could read.
	if !stdjson.Valid(frame) {
		return nil, nil, codeParseError, "Parse error: the line is not JSON"
	}
	if frame[0] == '[' {
		if c.noBatches {
			return nil, nil, codeInvalidRequest, "Invalid Request: JSON-RPC batches are not supported in protocol 2025-06-18 and later"
		}
		var batch []json.RawMessage
		if err := json.Unmarshal(frame, &batch); err != nil || len(batch) == 0 {
			return nil, nil, codeInvalidRequest, "Invalid Request: an empty or malformed batch"
		}
		msgs = make([]jsonrpc.Message, len(batch))
		calls := make(map[jsonrpc.ID]bool, len(batch))
		for i, raw := range batch {
			m, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return nil, nil, codeInvalidRequest, "Invalid Request: " + err.Error()
			}
			// The SDK waits for a reply to every request of a batch,
			// notifications too (their empty ids collide, and the batch
			// is never answered), and ends the session on a repeated id.
			if req, ok := m.(*jsonrpc.Request); ok {
				if !req.IsCall() {
					return nil, nil, codeInvalidRequest, "Invalid Request: a batch with a notification in it is not supported; send notifications on their own lines"
				}
				if calls[req.ID] {
					return nil, nil, codeInvalidRequest, "Invalid Request: the batch repeats a request id"
				}
				calls[req.ID] = true
			}
			msgs[i] = m
		}
		return msgs, nil, 0, ""
	}
	m, err := jsonrpc.DecodeMessage(frame)
	if err != nil {
		return nil, requestID(frame), codeInvalidRequest, "Invalid Request: " + err.Error()
	}
	if req, ok := m.(*jsonrpc.Request); ok && req.Method == "initialize" {
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(req.Params, &p)
		// The server answers a version it does not know with its latest.
		c.noBatches = p.ProtocolVersion != "2024-11-05" && p.ProtocolVersion != "2025-03-26"
	}
	return []jsonrpc.Message{m}, nil, 0, ""
}

// requestID is the id of a JSON object that has a string or number id, for
// the error reply; nil otherwise.
func requestID(frame []byte) json.RawMessage {
	var v struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(frame, &v) != nil || len(v.ID) == 0 {
		return nil
	}
	switch c := v.ID[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return v.ID
	}
	return nil
}

type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcError        `json:"error"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// reply writes one JSON-RPC error response.
func reply(out io.Writer, id json.RawMessage, code int, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(errorResponse{JSONRPC: "2.0", ID: id, Error: rpcError{Code: code, Message: msg}})
	if err != nil {
		return err
	}
	_, err = out.Write(append(b, '\n'))
	return err
}
