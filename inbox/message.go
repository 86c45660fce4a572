package inbox

import (
	"bytes"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/internal/drop"
	"github.com/parleyhq/parley/vocab"
)

// MaxMessageBytes is the largest encoded message accepted, checked when a
// message is written and enforced when one is read.
const MaxMessageBytes = drop.MaxMessageBytes

// TimeLayout is the timestamp format of messages: RFC 3339, UTC,
// milliseconds (vocab.TimeLayout).
const TimeLayout = vocab.TimeLayout

// TypeText is the type of a plain message; a message without "type" has it.
const TypeText = drop.TypeText

// Message is one message between agents. On the wire it is a JSON object
// with pi-messenger's six keys (id, from, to, text, timestamp, replyTo),
// parley's "type", and the typed fields of that type as further top-level
// keys. Text is always a readable Markdown rendering of the whole message.
type Message struct {
	ID        string
	From      string
	To        string
	Text      string
	Timestamp string
	ReplyTo   string // empty encodes as null
	Type      string // empty means TypeText
	// Fields holds the typed fields, keyed by their JSON name. Keys that
	// collide with the fields above are ignored when encoding.
	Fields map[string]json.RawMessage
}

// reserved reports whether k is one of the keys a message's own fields
// are written under.
func reserved(k string) bool {
	switch k {
	case "id", "from", "to", "text", "timestamp", "replyTo", "type":
		return true
	}
	return false
}

// NewID returns a random (version 4) UUID (drop.NewID).
func NewID() string { return drop.NewID() }

// Now returns the current time in TimeLayout.
func Now() string { return time.Now().UTC().Format(TimeLayout) }

// NewMessage builds a message with a fresh id and timestamp. fields, when
// not nil, is encoded to a JSON object whose keys become the typed fields.
func NewMessage(from, to, typ, text string, fields any) (*Message, error) {
	m := &Message{ID: NewID(), From: from, To: to, Text: text, Timestamp: Now(), Type: typ}
	if fields != nil {
		if err := m.SetFields(fields); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// SetFields replaces the typed fields with the keys of v encoded as a JSON
// object.
func (m *Message) SetFields(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode fields: %w", err)
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("fields must encode to a JSON object: %w", err)
	}
	m.Fields = f
	return nil
}

// DecodeFields decodes the typed fields into v (a pointer to a struct whose
// JSON keys name them).
func (m *Message) DecodeFields(v any) error {
	b, err := json.Marshal(m.Fields)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: fields of %s message: %v", ErrMalformed, m.Kind(), err)
	}
	return nil
}

// Head is m's keys before its typed fields.
func (m *Message) Head() drop.Head {
	return drop.Head{ID: m.ID, From: m.From, To: m.To, Text: m.Text, Timestamp: m.Timestamp, ReplyTo: m.ReplyTo, Type: m.Type}
}

// FromHead is the message of h, with no typed fields.
func FromHead(h drop.Head) *Message {
	return &Message{ID: h.ID, From: h.From, To: h.To, Text: h.Text, Timestamp: h.Timestamp, ReplyTo: h.ReplyTo, Type: h.Type}
}

// Kind returns the message type, TypeText when none is set.
func (m *Message) Kind() string {
	if m.Type == "" {
		return TypeText
	}
	return m.Type
}

// MaxIDLen is the longest message id accepted, on write and on read.
const MaxIDLen = drop.MaxIDLen

// Encode returns the wire form of m: the six pi-messenger keys first, then
// "type", then the typed fields in key order. It fails with ErrTooLarge
// beyond MaxMessageBytes, and with ErrMalformed when the result would not
// decode (an id over MaxIDLen bytes, a typed field that is not UTF-8), so
// that a transport never accepts a message its receivers must refuse.
func (m *Message) Encode() ([]byte, error) {
	b, err := m.encode()
	if err != nil {
		return nil, err
	}
	if len(b) > MaxMessageBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(b), MaxMessageBytes)
	}
	return b, nil
}

// Size is the length in bytes of m's wire form (Encode's), also when it is
// over MaxMessageBytes: what a sender that must shorten a message measures
// it by. It fails as Encode does, except for ErrTooLarge.
func (m *Message) Size() (int, error) {
	b, err := m.encode()
	return len(b), err
}

// encode is Encode without the size limit.
func (m *Message) encode() ([]byte, error) {
	if len(m.ID) > MaxIDLen {
		return nil, fmt.Errorf("%w: id is %d bytes, limit %d", ErrMalformed, len(m.ID), MaxIDLen)
	}
	buf := bytes.NewBuffer(drop.AppendHead(make([]byte, 0, 256+len(m.Text)), m.Head()))
	put := func(key string, v any) error {
		buf.WriteByte(',')
		k, _ := json.Marshal(key)
		buf.Write(k)
		buf.WriteByte(':')
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(b)
		return nil
	}
	keys := make([]string, 0, len(m.Fields))
	for k := range m.Fields {
		if !reserved(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		raw := m.Fields[k]
		if !json.Valid(raw) {
			return nil, fmt.Errorf("field %q is not valid JSON", k)
		}
		// The encoder makes strings valid UTF-8 but copies raw fields.
		if !utf8.Valid(raw) {
			return nil, fmt.Errorf("%w: typed field %q is not UTF-8", ErrMalformed, k)
		}
		if err := put(k, raw); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Decode parses the wire form of a message. It requires a JSON object with
// string "id", "from", "text" and "timestamp"; "to", "replyTo" (string or
// null) and "type" are optional; every other key is kept in Fields. All
// errors wrap ErrMalformed or ErrTooLarge.
func Decode(data []byte) (*Message, error) {
	if len(data) > MaxMessageBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(data), MaxMessageBytes)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: not UTF-8", ErrMalformed)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if obj == nil {
		return nil, fmt.Errorf("%w: not a JSON object", ErrMalformed)
	}
	m := &Message{}
	str := func(key string, dst *string, required, nullable bool) error {
		raw, ok := obj[key]
		if !ok {
			if required {
				return fmt.Errorf("%w: missing %q", ErrMalformed, key)
			}
			return nil
		}
		if nullable && string(raw) == "null" {
			return nil
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return fmt.Errorf("%w: %q must be a string", ErrMalformed, key)
		}
		return nil
	}
	for _, f := range []struct {
		key                string
		dst                *string
		required, nullable bool
	}{
		{"id", &m.ID, true, false},
		{"from", &m.From, true, false},
		{"to", &m.To, false, true},
		{"text", &m.Text, true, false},
		{"timestamp", &m.Timestamp, true, false},
		{"replyTo", &m.ReplyTo, false, true},
		{"type", &m.Type, false, true},
	} {
		if err := str(f.key, f.dst, f.required, f.nullable); err != nil {
			return nil, err
		}
	}
	if m.ID == "" || len(m.ID) > MaxIDLen {
		return nil, fmt.Errorf("%w: id must be 1-%d bytes", ErrMalformed, MaxIDLen)
	}
	if err := ValidateName(m.From); err != nil {
		return nil, fmt.Errorf("%w: from: %v", ErrMalformed, err)
	}
	for k, v := range obj {
		if reserved(k) {
			continue
		}
		if m.Fields == nil {
			m.Fields = make(map[string]json.RawMessage, len(obj))
		}
		m.Fields[k] = v
	}
	return m, nil
}
