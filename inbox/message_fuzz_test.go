package inbox_test

import (
	"bytes"
	"errors"
	"testing"

	json "github.com/goccy/go-json"

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

// encodedByTheLibrary is the wire form of m, without typed fields, as
// Encode wrote it with goccy/go-json's Marshal for every key and value:
// what Encode, which writes the strings with internal/jsonlite, must
// still write byte for byte.
func encodedByTheLibrary(t testing.TB, m *inbox.Message) []byte {
	var replyTo any
	if m.ReplyTo != "" {
		replyTo = m.ReplyTo
	}
	b := []byte{'{'}
	for i, kv := range []struct {
		k string
		v any
	}{{"id", m.ID}, {"from", m.From}, {"to", m.To}, {"text", m.Text}, {"timestamp", m.Timestamp}, {"replyTo", replyTo}, {"type", m.Kind()}} {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(kv.k)
		v, err := json.Marshal(kv.v)
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}')
}

// Encode writes a message's keys as the JSON library did: every text,
// name and id a sender may give (controls, HTML, invalid UTF-8, U+2028),
// in the same bytes.
func FuzzEncodeAsTheLibrary(f *testing.F) {
	for _, s := range []string{"", "hi", "<a href=\"x\">&amp;</a>", "\x00\x01\x1f\x7f", "\u2028\u2029", "\xff\xfe", "tab\tnew\nline\r\b\f", `back\slash "quote"`, "é日本\U0001F600", "\ufffd", "\xed\xa0\x80"} {
		f.Add(s, "Alice", "x-1", "")
		f.Add("id "+s, s, s, s)
	}
	f.Fuzz(func(t *testing.T, text, id, replyTo, typ string) {
		m := &inbox.Message{ID: id, From: "Alice", To: "Bob", Text: text, Timestamp: "2026-12-05T17:00:00.000Z", ReplyTo: replyTo, Type: typ}
		if len(id) > inbox.MaxIDLen {
			return
		}
		got, err := m.Encode()
		if err != nil {
			if errors.Is(err, inbox.ErrTooLarge) {
				return
			}
			t.Fatal(err)
		}
		if want := encodedByTheLibrary(t, m); !bytes.Equal(got, want) {
			t.Fatalf("Encode wrote\n%q\nthe library\n%q", got, want)
		}
	})
}
