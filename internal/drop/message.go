package drop

import (
	"math/rand/v2"

	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/jsonlite"
)

// MaxMessageBytes is the largest encoded message accepted, checked when a
// message is written and enforced when one is read.
const MaxMessageBytes = 1 << 20

// MaxIDLen is the longest message id accepted, on write and on read.
const MaxIDLen = 200

// TypeText is the type of a plain message; a message without "type" has it.
const TypeText = "text"

// Head is a message's keys before its typed fields: pi-messenger's six
// (id, from, to, text, timestamp, replyTo) and parley's type. A plain
// message is its head alone.
type Head struct {
	ID, From, To, Text, Timestamp string
	ReplyTo                       string // empty encodes as null
	Type                          string // empty means TypeText
}

// AppendHead appends the wire form of h's keys, in their order, after the
// object's opening brace, and no closing brace: the typed fields of a
// message follow (inbox.Message.Encode), or "}" ends a plain one. The
// strings are written as goccy/go-json writes them (jsonlite).
func AppendHead(dst []byte, h Head) []byte {
	typ := h.Type
	if typ == "" {
		typ = TypeText
	}
	for i, kv := range [...]struct{ k, v string }{{"id", h.ID}, {"from", h.From}, {"to", h.To}, {"text", h.Text}, {"timestamp", h.Timestamp}, {"replyTo", h.ReplyTo}, {"type", typ}} {
		if i == 0 {
			dst = append(dst, '{')
		} else {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, kv.k...)
		dst = append(dst, '"', ':')
		if kv.k == "replyTo" && kv.v == "" {
			dst = append(dst, "null"...)
			continue
		}
		dst = jsonlite.AppendString(dst, kv.v)
	}
	return dst
}

// NewID returns a random (version 4) UUID, from the runtime's generator
// (ChaCha8, seeded by the system for each process): an id need only be one
// no other message has.
func NewID() string {
	hi, lo := rand.Uint64(), rand.Uint64()
	hi = hi&^0xf000 | 0x4000     // version 4
	lo = lo&^(0xc<<60) | 0x8<<60 // variant 10
	h := durable.Hex(hi, 16) + durable.Hex(lo, 16)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
