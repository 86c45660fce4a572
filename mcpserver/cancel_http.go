package mcpserver

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// httpCancels keeps the HTTP transport from answering a call its client
// cancelled (notifications/cancelled) before it was answered, as the MCP
// specification asks and as ServeStdio does (owedConn): the SDK answers
// every cancelled call (modelcontextprotocol/go-sdk#1259), and a client
// that forgot the id takes the answer for a broken session. Over HTTP the
// answer goes on the event stream of the call's own POST, so that stream
// ends cleanly without it (as the Python SDK does). A Server has one; it
// is safe for concurrent use.
type httpCancels struct {
	log     *slog.Logger
	mu      sync.Mutex
	calls   map[httpCall]bool // the calls in flight, true once cancelled
	changed chan struct{}     // closed (and replaced) when calls end
}

// httpCall is a call in flight: its session and its id.
type httpCall struct {
	session string
	id      jsonrpc.ID
}

// wrap tracks the calls that the POSTs of a session (Mcp-Session-Id) make
// and the cancellations they send, and drops from a call's stream its
// response once it was cancelled. A request without a session (initialize,
// or protocol 2026-07-28, where closing the stream cancels) passes as it is;
// so does a body the SDK could not read, which it refuses itself.
func (c *httpCancels) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get("Mcp-Session-Id")
		if r.Method != http.MethodPost || sid == "" {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxFrame+1))
		// The SDK reads the body again: what was read, then the rest (and
		// the error of a body over the limit).
		r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		if err != nil || len(body) > MaxFrame {
			next.ServeHTTP(w, r)
			return
		}
		mine := c.track(sid, peekMessages(body))
		if len(mine) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		defer c.done(mine)
		next.ServeHTTP(&cancelledDropper{ResponseWriter: w, c: c, calls: mine}, r)
	})
}

// track records the calls among msgs as in flight, and marks the calls in
// flight that a notifications/cancelled among them names; it returns the
// calls it recorded.
func (c *httpCancels) track(sid string, msgs []peeked) []httpCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	var mine []httpCall
	for _, m := range msgs {
		switch {
		case m.Method == "":
			// a response the client sends
		case m.ID != nil:
			id, err := jsonrpc.MakeID(m.ID)
			if err != nil {
				continue // the SDK's to refuse
			}
			k := httpCall{sid, id}
			if _, dup := c.calls[k]; !dup { // a repeated id is the SDK's to refuse
				c.calls[k] = false
				mine = append(mine, k)
			}
		case m.Method == "notifications/cancelled":
			if id, err := jsonrpc.MakeID(m.Params.RequestID); err == nil {
				if _, inFlight := c.calls[httpCall{sid, id}]; inFlight {
					c.calls[httpCall{sid, id}] = true
				}
			}
		}
	}
	return mine
}

// peeked is what httpCancels reads of a JSON-RPC message: a call has an
// id and a method, a notification only a method, a response no method.
type peeked struct {
	ID     any    `json:"id"`
	Method string `json:"method"`
	Params struct {
		RequestID any `json:"requestId"`
	} `json:"params"`
}

// peekMessages reads the messages of a POST's body (one, or a batch), as
// little of them as it needs: the SDK decodes the body itself (and refuses
// what it cannot read); a body that does not decode here gives none.
func peekMessages(body []byte) []peeked {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	if body[0] == '[' {
		var batch []peeked
		if json.Unmarshal(body, &batch) != nil {
			return nil
		}
		return batch
	}
	var m peeked
	if json.Unmarshal(body, &m) != nil {
		return nil
	}
	return []peeked{m}
}

// done forgets calls: their POST has ended.
func (c *httpCancels) done(calls []httpCall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range calls {
		delete(c.calls, k)
	}
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
}

// drain waits until no call is in flight (each has had its response
// written), or limit passes.
func (c *httpCancels) drain(limit time.Duration) {
	t := time.NewTimer(limit)
	defer t.Stop()
	for {
		c.mu.Lock()
		if len(c.calls) == 0 {
			c.mu.Unlock()
			return
		}
		if c.changed == nil {
			c.changed = make(chan struct{})
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-t.C:
			return
		}
	}
}

// cancelled reports whether any of calls was cancelled, and which.
func (c *httpCancels) cancelled(calls []httpCall) map[jsonrpc.ID]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ids map[jsonrpc.ID]bool
	for _, k := range calls {
		if c.calls[k] {
			if ids == nil {
				ids = map[jsonrpc.ID]bool{}
			}
			ids[k.id] = true
		}
	}
	return ids
}

// cancelledDropper is the response of a POST that made calls: an event
// that answers one of them that was cancelled is not written. The SDK
// writes each event whole in one Write.
type cancelledDropper struct {
	http.ResponseWriter
	c     *httpCancels
	calls []httpCall
}

func (d *cancelledDropper) Write(p []byte) (int, error) {
	if ids := d.c.cancelled(d.calls); ids != nil {
		if id, ok := responseID(p); ok && ids[id] {
			d.c.log.Debug("a cancelled call is not answered", "op", "http", "session", d.calls[0].session, "id", id.Raw())
			return len(p), nil
		}
	}
	return d.ResponseWriter.Write(p)
}

// Flush flushes what was written (the SDK flushes after each event).
func (d *cancelledDropper) Flush() {
	if f, ok := d.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (d *cancelledDropper) Unwrap() http.ResponseWriter { return d.ResponseWriter }

// responseID is the id of the JSON-RPC response that p, an event as the
// SDK writes it ("event: message\ndata: {…}\n\n") or a JSON body, carries.
func responseID(p []byte) (jsonrpc.ID, bool) {
	data := bytes.TrimSpace(p)
	if len(data) == 0 || data[0] != '{' {
		var found bool
		for line := range bytes.Lines(p) {
			if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				data, found = bytes.TrimSpace(rest), true
				break
			}
		}
		if !found {
			return jsonrpc.ID{}, false
		}
	}
	m, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return jsonrpc.ID{}, false
	}
	resp, ok := m.(*jsonrpc.Response)
	if !ok {
		return jsonrpc.ID{}, false
	}
	return resp.ID, true
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (rc readCloser) Close() error { return rc.c.Close() }
