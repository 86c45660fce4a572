package agent

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// MaxModelReplyBytes bounds the reply text a model may send for one turn.
const MaxModelReplyBytes = 1 << 20

var (
	// A reasoning block, or one left open by a reply cut short: a draft in
	// a model's reasoning is not its answer.
	thinkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)<think>.*?(?:</think>|\z)`) })
)

// ParseModelReply reads what a model wrote for req as a debate turn. The
// reply contract is one JSON object with the debate_turn fields
// (position — or its alias claim —, counter_to, evidence_refs,
// confidence_change, text); it is found tolerantly: in a fenced ```json
// block, else as the first balanced JSON object in the text that has a
// turn field. <think>…</think> blocks (and one left open at the end) are
// ignored, and prose around the object becomes the argument when the
// object has no text. debate_id, round and role are always the request's
// (a model is not trusted to copy them); tokens are left for the caller.
//
// A missing field takes the value that objects rather than concedes: an
// attacker's counter_to defaults to the defender's standing position and
// its confidence_change to -1, so only an explicit "position": "",
// "counter_to": "", "confidence_change": 0 concedes. Errors wrap
// ErrMalformedReply and say what is wrong in words fit to show the model.
func ParseModelReply(content string, req *debate.TurnRequest) (*debate.Turn, error) {
	if len(content) > MaxModelReplyBytes {
		return nil, fmt.Errorf("%w: the reply is longer than %d bytes", ErrMalformedReply, MaxModelReplyBytes)
	}
	content = replyText(content)
	obj, prose, ok, err := turnObject(content)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %w", ErrMalformedReply, err)
	case ok:
		return turnFromObject(obj, prose, req)
	case strings.TrimSpace(content) == "":
		return nil, fmt.Errorf("%w: %w", ErrMalformedReply, ErrEmptyReply)
	}
	return nil, fmt.Errorf("%w: the reply holds no JSON object with a \"position\"", ErrMalformedReply)
}

// replyText is an agent's reply as parley reads it, a model's
// (ParseModelReply) and a command's (ParseOutput) alike: valid UTF-8 (a
// byte that is not becomes U+FFFD), without its <think>…</think> blocks.
func replyText(content string) string {
	if !utf8.ValidString(content) {
		content = strings.ToValidUTF8(content, "\uFFFD")
	}
	return thinkRE().ReplaceAllString(content, "")
}

// turnObject finds the JSON object of the turn in an agent's reply text
// (debate.FindTurnObject: in a fenced ```json block, else the first
// balanced object with a turn key) and returns it with the prose around it
// (or its fence), trimmed. This is the one reading of where a reply's turn
// is, for a model's reply and a command's output alike.
//
// A reply that holds another turn object, with other values, besides the
// one found (a quoted example of the contract, a draft and its answer) is
// ambiguous: errSeveralTurns, for the agent to be asked again, rather than
// the first object taken as its answer (a quoted concession read as one).
func turnObject(text string) (obj map[string]json.RawMessage, prose string, ok bool, err error) {
	obj, span, ok := debate.FindTurnObject(text)
	if !ok {
		return nil, "", false, nil
	}
	if debate.OtherTurnObject(text, span, obj) {
		return nil, "", false, errSeveralTurns
	}
	return obj, strings.TrimSpace(text[:span[0]] + "\n" + text[span[1]:]), true, nil
}

// errSeveralTurns: the reply holds two or more JSON objects with turn
// fields that differ, in words fit to show the model.
var errSeveralTurns = errors.New("the reply holds more than one JSON object with turn fields, with different values (a quoted example and an answer?): reply with exactly one, your answer")

func turnFromObject(obj map[string]json.RawMessage, prose string, req *debate.TurnRequest) (*debate.Turn, error) {
	t := &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, EvidenceRefs: []string{}}
	var err error
	// "claim" is the alias of "position", used when position is absent,
	// null or empty (as debate.Turn decodes it).
	if t.Position, _, err = stringField(obj, "position"); err != nil {
		return nil, err
	}
	if t.Position == "" {
		if t.Position, _, err = stringField(obj, "claim"); err != nil {
			return nil, err
		}
	}
	counter, hasCounter, err := stringField(obj, "counter_to")
	if err != nil {
		return nil, err
	}
	cc, hasCC, err := confidenceField(obj)
	if err != nil {
		return nil, err
	}
	if t.EvidenceRefs, err = refsField(obj); err != nil {
		return nil, err
	}
	if t.Text, _, err = stringField(obj, "text"); err != nil {
		return nil, err
	}
	if strings.TrimSpace(t.Text) == "" {
		t.Text = prose
	}
	t.Position = strings.TrimSpace(t.Position)
	counter = strings.TrimSpace(counter)
	switch req.Role {
	case debate.RoleDefender:
		if t.Position == "" {
			return nil, fmt.Errorf("%w: \"position\" is empty; the defender must state its position", ErrMalformedReply)
		}
		t.CounterTo, t.ConfidenceChange = counter, cc
	default:
		concedes := t.Position == "" && hasCounter && counter == "" && hasCC && cc == 0
		switch {
		case concedes:
			t.CounterTo, t.ConfidenceChange = "", 0
		case t.Position == "":
			return nil, fmt.Errorf("%w: \"position\" is empty; state your objection, or concede with \"position\": \"\", \"counter_to\": \"\" and \"confidence_change\": 0", ErrMalformedReply)
		default:
			t.CounterTo = counter
			if !hasCounter {
				t.CounterTo = req.Position
			}
			t.ConfidenceChange = -1
			if hasCC {
				t.ConfidenceChange = cc
			}
		}
	}
	if utf8.RuneCountInString(t.Position) > debate.MaxPositionLen || utf8.RuneCountInString(t.CounterTo) > debate.MaxPositionLen {
		return nil, fmt.Errorf("%w: \"position\" or \"counter_to\" is longer than %d characters; state it in a sentence", ErrMalformedReply, debate.MaxPositionLen)
	}
	return t, nil
}

// stringField reads a string (or null) field; present reports whether the
// key was there at all.
func stringField(obj map[string]json.RawMessage, key string) (s string, present bool, err error) {
	raw, ok := obj[key]
	if !ok {
		return "", false, nil
	}
	if isNull(raw) {
		return "", true, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", true, fmt.Errorf("%w: %q must be a string", ErrMalformedReply, key)
	}
	return s, true, nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// confidenceField reads confidence_change: -1, 0 or 1, as a number
// (1.0 too) or a string ("+1").
func confidenceField(obj map[string]json.RawMessage) (int, bool, error) {
	raw, ok := obj["confidence_change"]
	if !ok || isNull(raw) {
		return 0, false, nil
	}
	bad := fmt.Errorf("%w: \"confidence_change\" must be -1, 0 or 1", ErrMalformedReply)
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, true, bad
		}
		if f, err = strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(s), "+"), 64); err != nil {
			return 0, true, bad
		}
	}
	if f != math.Trunc(f) || f < -1 || f > 1 {
		return 0, true, bad
	}
	return int(f), true, nil
}

// refsField reads evidence_refs: a list of strings (blank ones dropped), a
// single string, or null; at most debate.MaxEvidenceRefs are kept.
func refsField(obj map[string]json.RawMessage) ([]string, error) {
	raw, ok := obj["evidence_refs"]
	if !ok || isNull(raw) {
		return []string{}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var one string
		if json.Unmarshal(raw, &one) != nil {
			return nil, fmt.Errorf("%w: \"evidence_refs\" must be a list of strings", ErrMalformedReply)
		}
		list = []string{one}
	}
	out := []string{}
	for _, r := range list {
		if r = strings.TrimSpace(r); r != "" && len(out) < debate.MaxEvidenceRefs {
			out = append(out, r)
		}
	}
	return out, nil
}
