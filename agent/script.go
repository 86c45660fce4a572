package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/jsonerr"
	"github.com/parleyhq/parley/internal/trust"
	"github.com/parleyhq/parley/internal/userfile"
)

// MaxScriptBytes bounds a script file.
const MaxScriptBytes = 4 << 20

// Script is the script adapter: deterministic turns from a JSON file, for
// tests, demos and replays. For round r it answers with the first entry
// whose round is r, else with the last entry.
//
//	{"turns":[{"round":1,"position":"…","counter_to":"…","evidence_refs":[],
//	           "confidence_change":-1,"tokens":120,"text":"…","delay_ms":0}, …]}
//
// An entry may also make its reply wrong on purpose, so that tests can
// exercise the coordinator's rejections: reply_round, reply_role and
// reply_debate_id replace the reply's round, role and debate id;
// reply_fields sends a JSON object as the reply's fields as it is; and
// wrong_attempts limits all three to the first N attempts of a request (0:
// every attempt). A Script is safe for concurrent use.
type Script struct {
	Turns []ScriptTurn `json:"turns"`
}

// ScriptTurn is one entry of a script.
type ScriptTurn struct {
	Round            int      `json:"round"`
	Position         string   `json:"position"`
	Claim            string   `json:"claim,omitempty"` // alias of position, as in a debate_turn
	CounterTo        string   `json:"counter_to"`
	EvidenceRefs     []string `json:"evidence_refs"`
	ConfidenceChange int      `json:"confidence_change"`
	Tokens           int      `json:"tokens"`
	Text             string   `json:"text"`
	// DelayMs makes the agent think this long before it answers (it stops
	// early when the request's deadline or the agent's context ends).
	DelayMs int `json:"delay_ms"`

	ReplyRound    *int            `json:"reply_round,omitempty"`
	ReplyRole     *string         `json:"reply_role,omitempty"`
	ReplyDebateID *string         `json:"reply_debate_id,omitempty"`
	ReplyFields   json.RawMessage `json:"reply_fields,omitempty"`
	WrongAttempts int             `json:"wrong_attempts,omitempty"`
}

var _ Responder = (*Script)(nil)

// LoadScript reads and checks a script file. It is read again by every
// agent that runs it, so it must be a regular file: a directory, a named
// pipe (refused at once, not waited on) or a device is an error wrapping
// userfile.ErrNotFile.
func LoadScript(path string) (*Script, error) {
	// Judged before its mode: the fix for a shared directory's mode
	// (chmod go-w /tmp) is no fix at all.
	f, fi, err := userfile.OpenRegular(path)
	if errors.Is(err, userfile.ErrNotFile) {
		return nil, fmt.Errorf("the agent script %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	defer f.Close()
	// A script decides what an agent says: one that someone else could
	// have written is refused, as ssh refuses such a config.
	if err := trust.Check("the agent script", path, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxScriptBytes+1))
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	s, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// MaxDelayMs is the longest delay_ms a script entry may ask for: the
// longest time.Duration, in milliseconds (about 292 years).
const MaxDelayMs = int64(math.MaxInt64 / int64(time.Millisecond))

// ParseScript decodes a script (after a byte order mark, which is
// ignored) strictly: unknown keys, no turns, negative
// rounds or delays, delays over MaxDelayMs, and reply_fields that are not
// an object are errors wrapping ErrBadScript.
func ParseScript(data []byte) (*Script, error) {
	if len(data) > MaxScriptBytes {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrBadScript, MaxScriptBytes)
	}
	// A byte order mark (Notepad's, PowerShell's UTF-8) is no JSON: as
	// for an exec: command's output, it is not read as the script's.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadScript, jsonerr.At(jsonerr.Explain(err, jsonerr.Keys(reflect.TypeFor[Script]()), ""), data, 0))
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data after the JSON object", ErrBadScript)
	}
	if len(s.Turns) == 0 {
		return nil, fmt.Errorf(`%w: no turns (want {"turns":[{"round":1,"position":"…"}, …]})`, ErrBadScript)
	}
	for i, t := range s.Turns {
		switch {
		case t.Round < 0:
			return nil, fmt.Errorf("%w: turn %d: negative round", ErrBadScript, i+1)
		case t.DelayMs < 0:
			return nil, fmt.Errorf("%w: turn %d: negative delay_ms", ErrBadScript, i+1)
		case int64(t.DelayMs) > MaxDelayMs:
			// As a time.Duration it would wrap round to a negative one:
			// no delay at all, the opposite of what was asked.
			return nil, fmt.Errorf("%w: turn %d: delay_ms %d is longer than parley can wait (at most %d)", ErrBadScript, i+1, t.DelayMs, MaxDelayMs)
		case t.WrongAttempts < 0:
			return nil, fmt.Errorf("%w: turn %d: negative wrong_attempts", ErrBadScript, i+1)
		case len(t.ReplyFields) > 0 && !isObject(t.ReplyFields):
			return nil, fmt.Errorf("%w: turn %d: reply_fields must be a JSON object", ErrBadScript, i+1)
		}
	}
	return &s, nil
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// Entry returns the entry that answers round r.
func (s *Script) Entry(r int) *ScriptTurn {
	for i := range s.Turns {
		if s.Turns[i].Round == r {
			return &s.Turns[i]
		}
	}
	return &s.Turns[len(s.Turns)-1]
}

// Respond answers req with the entry for its round, after the entry's delay.
func (s *Script) Respond(ctx context.Context, req *debate.TurnRequest) (*Reply, error) {
	e := s.Entry(req.Round)
	if e.DelayMs > 0 {
		t := time.NewTimer(time.Duration(e.DelayMs) * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	wrong := e.WrongAttempts == 0 || req.Attempt <= e.WrongAttempts
	if wrong && len(e.ReplyFields) > 0 {
		return &Reply{Raw: e.ReplyFields}, nil
	}
	pos := e.Position
	if pos == "" {
		pos = e.Claim
	}
	t := &debate.Turn{
		DebateID: req.DebateID, Round: req.Round, Role: req.Role,
		Position: pos, CounterTo: e.CounterTo, EvidenceRefs: e.EvidenceRefs,
		ConfidenceChange: e.ConfidenceChange, Tokens: e.Tokens, Text: e.Text,
	}
	if t.EvidenceRefs == nil {
		t.EvidenceRefs = []string{}
	}
	if wrong {
		if e.ReplyRound != nil {
			t.Round = *e.ReplyRound
		}
		if e.ReplyRole != nil {
			t.Role = debate.Role(*e.ReplyRole)
		}
		if e.ReplyDebateID != nil {
			t.DebateID = *e.ReplyDebateID
		}
	}
	return &Reply{Turn: t}, nil
}
