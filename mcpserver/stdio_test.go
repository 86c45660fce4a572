package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// stdioPeer is a client speaking raw lines to ServeStdio.
type stdioPeer struct {
	t    *testing.T
	e    *env
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func newStdioPeer(t *testing.T) *stdioPeer {
	e := newEnv(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPeer{t: t, e: e, in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	go func() {
		err := e.srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
		p.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return p
}

func (p *stdioPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("the server stopped reading: %v", err)
	}
}

type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func (p *stdioPeer) reply() rpcReply {
	p.t.Helper()
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		select {
		case serr := <-p.done:
			p.t.Fatalf("no reply, the session ended (%v): %v", serr, err)
		default:
		}
		p.t.Fatalf("no reply: %v", err)
	}
	var r rpcReply
	if err := json.Unmarshal(line, &r); err != nil {
		p.t.Fatalf("reply %q: %v", line, err)
	}
	return r
}

// Must show (issue 9, errors): a line the SDK cannot decode is answered with
// a JSON-RPC error and the session goes on; the SDK alone ends the session
// on the first such line (go-sdk#1209), losing every reply still owed.
func TestStdioSurvivesUndecodableLines(t *testing.T) {
	t.Parallel()
	p := newStdioPeer(t)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := p.reply(); string(r.ID) != "1" || r.Error != nil || len(r.Result) == 0 {
		t.Fatalf("initialize: %+v", r)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	for _, tc := range []struct {
		name, line string
		id         string
		code       int
	}{
		{"not JSON", `{bad json`, "null", codeParseError},
		{"two values on a line", `{} {}`, "null", codeParseError},
		{"a number", `5`, "null", codeInvalidRequest},
		{"null", `null`, "null", codeInvalidRequest},
		{"an object that is not JSON-RPC", `{"hello":"world"}`, "null", codeInvalidRequest},
		{"the wrong version, with an id", `{"jsonrpc":"1.0","id":9,"method":"ping"}`, "9", codeInvalidRequest},
		{"a string id", `{"jsonrpc":"1.0","id":"x","method":"ping"}`, `"x"`, codeInvalidRequest},
		{"a batch after 2025-06-18", `[{"jsonrpc":"2.0","id":10,"method":"ping"}]`, "null", codeInvalidRequest},
		{"an empty batch", `[]`, "null", codeInvalidRequest},
		{"over MaxFrame", `{"jsonrpc":"2.0","id":11,"method":"ping","params":{"x":"` + strings.Repeat("a", MaxFrame) + `"}}`, "null", codeParseError},
	} {
		p.send(tc.line)
		r := p.reply()
		if r.Error == nil || r.Error.Code != tc.code || string(r.ID) != tc.id {
			t.Errorf("%s: reply %+v, want error %d with id %s", tc.name, r, tc.code, tc.id)
		}
		// The session still answers.
		p.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
		if r := p.reply(); string(r.ID) != `"after"` || r.Error != nil {
			t.Fatalf("%s: the session did not go on: ping got %+v", tc.name, r)
		}
	}

	// Blank lines and CRLF are fine, and a tool list still comes back whole.
	p.send("")
	p.send(`{"jsonrpc":"2.0","id":12,"method":"tools/list"}` + "\r")
	r := p.reply()
	var tools struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(r.Result, &tools); err != nil || string(r.ID) != "12" || len(tools.Tools) != len(allTools) {
		t.Fatalf("tools/list: %+v (%v)", r, err)
	}
	p.in.Close()
	if err := <-p.done; err != nil {
		t.Fatalf("the end of input: %v, want a clean end", err)
	}
}

func TestStdioBatchesBeforeTheNewerProtocols(t *testing.T) {
	t.Parallel()
	p := newStdioPeer(t)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := p.reply(); string(r.ID) != "1" || r.Error != nil {
		t.Fatalf("initialize: %+v", r)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// 2025-03-26 has batches: one reaches the SDK and is answered.
	p.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	line, err := p.out.ReadBytes('\n')
	if err != nil || !strings.Contains(string(line), `"id":2`) || strings.Contains(string(line), `"error"`) {
		t.Fatalf("batch reply %q, %v", line, err)
	}
	// A batch with a member that is not JSON-RPC is refused before the SDK.
	p.send(`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"nope":1}]`)
	if r := p.reply(); r.Error == nil || r.Error.Code != codeInvalidRequest {
		t.Fatalf("bad batch: %+v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if r := p.reply(); string(r.ID) != "4" || r.Error != nil {
		t.Fatalf("after a bad batch: %+v", r)
	}
	// Batches the SDK would never answer, or end the session on, are
	// refused before it: a repeated id, notifications.
	for _, line := range []string{
		`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"}]`,
		`[{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]`,
		`[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}]`,
	} {
		p.send(line)
		if r := p.reply(); r.Error == nil || r.Error.Code != codeInvalidRequest {
			t.Fatalf("batch %s: %+v", line, r)
		}
		p.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
		if r := p.reply(); string(r.ID) != `"after"` || r.Error != nil {
			t.Fatalf("after batch %s: %+v", line, r)
		}
	}
}

// A client that writes its requests and closes its side still gets every
// reply: the SDK alone ends the session at the end of its input without
// answering the requests still in flight.
func TestStdioAnswersEverythingBeforeTheEndOfInput(t *testing.T) {
	t.Parallel()
	p := newStdioPeer(t)
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	in.WriteString(`{bad` + "\n")
	for id := 2; id <= 20; id++ {
		in.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/list"}` + "\n")
	}
	go func() {
		io.WriteString(p.in, in.String())
		p.in.Close()
	}()
	got := map[string]bool{}
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			break
		}
		var r rpcReply
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		got[string(r.ID)] = true
	}
	for id := 1; id <= 20; id++ {
		if !got[strconv.Itoa(id)] {
			t.Errorf("no reply to request %d (replies: %v)", id, got)
		}
	}
	if !got["null"] {
		t.Error("no parse error for the bad line")
	}
	if err := <-p.done; err != nil {
		t.Fatalf("the end of input: %v", err)
	}
}

// FuzzFilterFrames: whatever a client writes, every line the filter passes
// on is one the SDK decodes, every line it answers is a JSON-RPC error, and
// it returns at the end of the input.
func FuzzFilterFrames(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		"{bad\n5\nnull\n[]\n",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]` + "\n",
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}` + "\n[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]\n",
		"\r\n\n  \t\n{}{}\n\xff\xfe\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var sdk, out bytes.Buffer
		if err := filterFrames(context.Background(), bytes.NewReader(in), &sdk, &out, nil); err != nil {
			t.Fatalf("filterFrames: %v", err)
		}
		for line := range strings.Lines(sdk.String()) {
			frame := []byte(strings.TrimSuffix(line, "\n"))
			if len(frame) > 0 && frame[0] == '[' {
				var batch []json.RawMessage
				if err := json.Unmarshal(frame, &batch); err != nil || len(batch) == 0 {
					t.Fatalf("passed on a bad batch %q", frame)
				}
				ids := map[jsonrpc.ID]bool{}
				for _, m := range batch {
					msg, err := jsonrpc.DecodeMessage(m)
					if err != nil {
						t.Fatalf("passed on %q: %v", frame, err)
					}
					if req, ok := msg.(*jsonrpc.Request); ok {
						if !req.IsCall() || ids[req.ID] {
							t.Fatalf("passed on a batch the SDK cannot answer: %q", frame)
						}
						ids[req.ID] = true
					}
				}
				continue
			}
			if _, err := jsonrpc.DecodeMessage(frame); err != nil {
				t.Fatalf("passed on %q: %v", frame, err)
			}
		}
		for line := range strings.Lines(out.String()) {
			var r rpcReply
			if err := json.Unmarshal([]byte(line), &r); err != nil || r.Error == nil || len(r.ID) == 0 {
				t.Fatalf("answered %q", line)
			}
		}
	})
}

// A resources/read of a URI with a control character (NUL, BEL) or a rune
// Go quotes as \U…: the SDK's "Resource not found" error quoted the URI
// with Go's %q into its JSON data, which is not JSON, so the reply could
// not be written and the session ended, losing every reply still owed. It
// is now answered with the resource-not-found error, the URI as JSON, and
// the session goes on.
func TestStdioResourceNotFoundOfAnyURI(t *testing.T) {
	t.Parallel()
	p := newStdioPeer(t)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := p.reply(); string(r.ID) != "1" || r.Error != nil {
		t.Fatalf("initialize: %+v", r)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, uri := range []string{
		"parley://consensus/x\x00",      // our template, refused by ParseURI
		"parley://debates/\a",           // the other template
		"file:///etc/\x01passwd",        // no resource or template: the SDK's own answer
		"parley://consensus/\U000e0001", // a rune %q writes as \U000e0001
	} {
		req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 100 + i, "method": "resources/read", "params": map[string]any{"uri": uri}})
		if err != nil {
			t.Fatal(err)
		}
		p.send(string(req))
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%q: no reply: %v", uri, err)
		}
		var r struct {
			ID    int `json:"id"`
			Error *struct {
				Code int64                `json:"code"`
				Data struct{ URI string } `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &r); err != nil || r.ID != 100+i || r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || r.Error.Data.URI != uri {
			t.Errorf("%q: reply %s (%v), want resource not found with data.uri the URI", uri, line, err)
		}
		p.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
		if r := p.reply(); string(r.ID) != `"after"` || r.Error != nil {
			t.Fatalf("%q: the session did not go on: ping got %+v", uri, r)
		}
	}
}

// A call the client cancels (notifications/cancelled) before it is
// answered gets no response, as the MCP specification asks: the SDK
// answered it with "context canceled", which a client that forgot the id
// (Claude Code) takes for a broken session. Every other call is answered,
// and the session ends cleanly at the end of the input.
func TestStdioAnswersNoCancelledCall(t *testing.T) {
	t.Parallel()
	p := newStdioPeer(t)
	if err := p.e.tr.Create(context.Background(), "Bob"); err != nil {
		t.Fatal(err)
	}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := p.reply(); string(r.ID) != "1" || r.Error != nil {
		t.Fatalf("initialize: %+v", r)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// Bob's inbox is empty: recv waits its 30 seconds unless cancelled.
	p.send(`{"jsonrpc":"2.0","id":"wait","method":"tools/call","params":{"name":"recv","arguments":{"as":"Bob","wait_seconds":30}}}`)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"wait","reason":"the user pressed Esc"}}`)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	p.in.Close() // the server answers what it owes, then ends
	var ids []string
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			break
		}
		var r rpcReply
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		ids = append(ids, string(r.ID))
	}
	if strings.Join(ids, " ") != "3" {
		t.Errorf("answered %v, want only the ping (3): the cancelled call was answered", ids)
	}
	if err := <-p.done; err != nil {
		t.Errorf("ServeStdio: %v", err)
	}
}
