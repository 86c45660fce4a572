package mcpserver

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzPeekMessages: whatever a client posts, peekMessages does not panic,
// and a call it reads has the id the SDK reads (jsonrpc.DecodeMessage), so
// that the response to a cancelled call is the one held back.
func FuzzPeekMessages(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"debate_next_turn","arguments":{"name":"W"}}}`,
		`{"jsonrpc":"2.0","id":"a-7","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"Esc"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `{"id":null,"method":"x"}`, `[`, `{"id":{}}`, "\x00", `{"jsonrpc":"2.0","id":1,"result":{}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msgs := peekMessages(body)
		if len(msgs) != 1 || msgs[0].Method == "" || msgs[0].ID == nil {
			return
		}
		m, err := jsonrpc.DecodeMessage(body)
		if err != nil {
			return // the SDK refuses it
		}
		req, ok := m.(*jsonrpc.Request)
		if !ok {
			return
		}
		if id, err := jsonrpc.MakeID(msgs[0].ID); err == nil && req.IsCall() && id != req.ID {
			t.Errorf("%q: peeked id %v, the SDK reads %v", body, id.Raw(), req.ID.Raw())
		}
	})
}
