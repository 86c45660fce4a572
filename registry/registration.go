package registry

import (
	"bytes"
	"fmt"
	"time"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/livereg"
	"github.com/parleyhq/parley/vocab"
)

// Protocol is the value of "protocol" in the registrations parley writes.
const Protocol = "parley/1"

// MaxRegistrationBytes bounds a registration file, on write and on read.
const MaxRegistrationBytes = livereg.MaxRegistrationBytes

// TimeLayout is the format of the registration's times (RFC 3339, UTC,
// milliseconds), as in messages.
const TimeLayout = vocab.TimeLayout

// Registration is one agent's registry file. The first block of fields is
// pi-messenger's; Host, Roles, Protocol and HeartbeatAt are parley's.
type Registration struct {
	Name      string   `json:"name"`
	PID       int      `json:"pid"`
	SessionID string   `json:"sessionId"`
	Cwd       string   `json:"cwd"`
	Model     string   `json:"model"`
	StartedAt string   `json:"startedAt"`
	IsHuman   bool     `json:"isHuman"`
	Session   Session  `json:"session"`
	Activity  Activity `json:"activity"`

	Host        string   `json:"host,omitempty"`
	Roles       []string `json:"roles,omitempty"`
	Protocol    string   `json:"protocol,omitempty"`
	HeartbeatAt string   `json:"heartbeatAt,omitempty"`
}

// Session is pi-messenger's usage summary of an agent's session.
type Session struct {
	ToolCalls     int      `json:"toolCalls"`
	Tokens        int      `json:"tokens"`
	FilesModified []string `json:"filesModified"`
}

// Activity is pi-messenger's activity record.
type Activity struct {
	LastActivityAt string `json:"lastActivityAt"`
}

// Encode returns the file form of r.
func (r *Registration) Encode() ([]byte, error) {
	c := *r
	if c.Session.FilesModified == nil {
		c.Session.FilesModified = []string{}
	}
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	if len(b) > MaxRegistrationBytes {
		return nil, fmt.Errorf("registration of %s is %d bytes, limit %d", r.Name, len(b), MaxRegistrationBytes)
	}
	return b, nil
}

// Decode parses a registration file. It requires a JSON object with a
// valid "name" and a numeric "pid"; the other keys are optional (a
// pi-messenger registration has no parley keys) and unknown keys are
// ignored. "heartbeatAt", when present, must be an RFC 3339 time. Every
// error wraps ErrMalformed.
func Decode(data []byte) (*Registration, error) {
	if len(data) > MaxRegistrationBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrMalformed, len(data), MaxRegistrationBytes)
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
	for _, k := range []string{"name", "pid"} {
		if _, ok := obj[k]; !ok {
			return nil, fmt.Errorf("%w: missing %q", ErrMalformed, k)
		}
	}
	r := &Registration{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if err := inbox.ValidateName(r.Name); err != nil {
		return nil, fmt.Errorf("%w: name: %v", ErrMalformed, err)
	}
	if r.PID < 0 {
		return nil, fmt.Errorf("%w: negative pid", ErrMalformed)
	}
	if r.HeartbeatAt != "" {
		if _, err := time.Parse(time.RFC3339Nano, r.HeartbeatAt); err != nil {
			return nil, fmt.Errorf("%w: heartbeatAt: %v", ErrMalformed, err)
		}
	}
	return r, nil
}
