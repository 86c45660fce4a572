package inbox_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// FuzzDecode feeds arbitrary bytes to the message decoder (and so to
// goccy/go-json): it must never panic, every error must wrap ErrMalformed or
// ErrTooLarge, and whatever it accepts must survive an encode/decode round
// trip unchanged.
func FuzzDecode(f *testing.F) {
	good, _ := (&inbox.Message{ID: "1", From: "Alice", To: "Bob", Text: "hi", Timestamp: "2026-11-30T12:00:00.000Z", ReplyTo: "0"}).Encode()
	f.Add(good)
	f.Add([]byte(`{"id":"x","from":"A","text":"","timestamp":"t","replyTo":null,"type":"debate_turn","round":2,"evidence_refs":["a.go:1"]}`))
	f.Add([]byte(`{"id":"x","from":"A","text":"t","timestamp":"t","to":null}`))
	f.Add([]byte(`{"id":"x","from":"../A","text":"t","timestamp":"t"}`))
	f.Add([]byte(`{"id":1}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Add([]byte("{\"id\":\"\xff\"}"))
	f.Add([]byte(`{"id":"x","from":"A","text":"t","timestamp":"t","id":"y"}`))
	f.Add([]byte(`{"id":"x","from":"A","text":"t","timestamp":"t"} trailing`))
	f.Add(good[:len(good)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := inbox.Decode(data)
		if err != nil {
			if !errors.Is(err, inbox.ErrMalformed) && !errors.Is(err, inbox.ErrTooLarge) {
				t.Fatalf("error %v wraps neither ErrMalformed nor ErrTooLarge", err)
			}
			return
		}
		if inbox.ValidateName(m.From) != nil || m.ID == "" {
			t.Fatalf("accepted a message without a valid from or id: %+v", m)
		}
		enc, err := m.Encode()
		if err != nil {
			if errors.Is(err, inbox.ErrTooLarge) {
				return
			}
			t.Fatalf("decoded message does not encode: %v", err)
		}
		m2, err := inbox.Decode(enc)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", enc, err)
		}
		enc2, err := m2.Encode()
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("round trip is not stable:\n%s\n%s", enc, enc2)
		}
	})
}
