package transcripts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// The layout of one transcript line (one event):
//
//	{"prev":"<64 hex>","seq":N,"kind":"turn","at":"…","elapsed_ms":N,"data":{…},"hash":"<64 hex>"}
//
// hash is the SHA-256 of the line's bytes before `,"hash":"` (the body);
// prev is the previous line's hash, or for line 1 the SHA-256 of the
// genesis string "parley/transcript/v1\n" followed by the debate id. prev
// comes first and hash last, at fixed offsets, so that verification reads
// neither through JSON. A change to any byte of a line breaks its own hash;
// removing, inserting or reordering lines breaks seq and prev.
const (
	prevPrefix = `{"prev":"`
	seqPrefix  = `","seq":`
	hashPrefix = `,"hash":"`
	hashSuffix = `"}`
	hexLen     = 2 * sha256.Size
	// tailLen is the length of `,"hash":"<64 hex>"}`.
	tailLen = len(hashPrefix) + hexLen + len(hashSuffix)
	// MaxLineBytes bounds one event; an event that would exceed it is
	// refused, and a longer line is not a transcript line.
	MaxLineBytes = 4 << 20
	genesisText  = "parley/transcript/v1\n"
)

// Genesis returns the prev of line 1 of debate id's transcript.
func Genesis(id string) string {
	sum := sha256.Sum256([]byte(genesisText + id))
	return hex.EncodeToString(sum[:])
}

// encodeLine builds the line for an event (without the newline) and
// returns it with its hash.
func encodeLine(prev string, e *debate.Event) ([]byte, string, error) {
	if !json.Valid(e.Data) {
		return nil, "", fmt.Errorf("event %d (%s): data is not valid JSON", e.Seq, e.Kind)
	}
	kind, err := json.Marshal(e.Kind)
	if err != nil {
		return nil, "", err
	}
	at, err := json.Marshal(e.At)
	if err != nil {
		return nil, "", err
	}
	b := make([]byte, 0, 160+len(e.Data)+tailLen)
	b = append(b, prevPrefix...)
	b = append(b, prev...)
	b = append(b, seqPrefix...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"kind":`...)
	b = append(b, kind...)
	b = append(b, `,"at":`...)
	b = append(b, at...)
	b = append(b, `,"elapsed_ms":`...)
	b = strconv.AppendInt(b, e.ElapsedMs, 10)
	b = append(b, `,"data":`...)
	if bytes.ContainsAny(e.Data, "\r\n") {
		return nil, "", fmt.Errorf("event %d (%s): data must be compact JSON", e.Seq, e.Kind)
	}
	b = append(b, e.Data...)
	sum := sha256.Sum256(b)
	var h [hexLen]byte
	hex.Encode(h[:], sum[:])
	b = append(b, hashPrefix...)
	b = append(b, h[:]...)
	b = append(b, hashSuffix...)
	if len(b)+1 > MaxLineBytes {
		return nil, "", fmt.Errorf("event %d (%s) is %d bytes, limit %d", e.Seq, e.Kind, len(b), MaxLineBytes)
	}
	return b, string(h[:]), nil
}

// checked is what checkLine learns from a line.
type checked struct {
	seq  int
	prev []byte // hex, aliasing the line
	hash []byte // hex, aliasing the line
}

// checkLine checks a line's structure and own hash, without decoding its
// JSON. It reports a problem in words, or "".
func checkLine(line []byte) (checked, string) {
	var c checked
	if len(line) < len(prevPrefix)+hexLen+len(seqPrefix)+1+tailLen || !bytes.HasPrefix(line, []byte(prevPrefix)) {
		return c, "not a transcript line"
	}
	c.prev = line[len(prevPrefix) : len(prevPrefix)+hexLen]
	rest := line[len(prevPrefix)+hexLen:]
	if !bytes.HasPrefix(rest, []byte(seqPrefix)) {
		return c, "not a transcript line (no seq after prev)"
	}
	rest = rest[len(seqPrefix):]
	n := 0
	for n < len(rest) && n < 10 && rest[n] >= '0' && rest[n] <= '9' {
		c.seq = c.seq*10 + int(rest[n]-'0')
		n++
	}
	if n == 0 || n >= len(rest) || rest[n] != ',' || (rest[0] == '0' && n > 1) {
		return c, "not a transcript line (bad seq)"
	}
	tail := line[len(line)-tailLen:]
	if !bytes.HasPrefix(tail, []byte(hashPrefix)) || !bytes.HasSuffix(tail, []byte(hashSuffix)) {
		return c, "not a transcript line (no hash at the end)"
	}
	c.hash = tail[len(hashPrefix) : len(hashPrefix)+hexLen]
	body := line[:len(line)-tailLen]
	sum := sha256.Sum256(body)
	var h [hexLen]byte
	hex.Encode(h[:], sum[:])
	if !bytes.Equal(h[:], c.hash) {
		return c, "its content does not match its hash (the line was edited)"
	}
	return c, ""
}

// rawLine is a decoded transcript line.
type rawLine struct {
	Prev      string           `json:"prev"`
	Seq       int              `json:"seq"`
	Kind      debate.EventKind `json:"kind"`
	At        string           `json:"at"`
	ElapsedMs int64            `json:"elapsed_ms"`
	Data      json.RawMessage  `json:"data"`
	Hash      string           `json:"hash"`
}

// DecodeLine decodes one transcript line (without its newline) into an
// event, checking its structure and its own hash, but not its place in the
// chain (see Verify).
func DecodeLine(line []byte) (debate.Event, error) {
	if len(line) > MaxLineBytes {
		return debate.Event{}, fmt.Errorf("%w: line longer than %d bytes", ErrMalformed, MaxLineBytes)
	}
	if _, problem := checkLine(line); problem != "" {
		return debate.Event{}, fmt.Errorf("%w: %s", ErrMalformed, problem)
	}
	var r rawLine
	if err := json.Unmarshal(line, &r); err != nil {
		return debate.Event{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if r.Kind == "" || len(r.Data) == 0 {
		return debate.Event{}, fmt.Errorf("%w: no kind or data", ErrMalformed)
	}
	return debate.Event{Seq: r.Seq, Kind: r.Kind, At: r.At, ElapsedMs: r.ElapsedMs, Data: r.Data}, nil
}
