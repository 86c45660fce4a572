package debate

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/jsonscan"
)

// An agent that can only send plain messages (a pi-messenger agent, a
// person) takes part by replying to a turn_request with a plain message
// whose text is, or contains, a JSON object with the turn's fields. This
// file finds that object, in a model's reply or a plain message alike.

// maxCandidates bounds how many '{' a text is searched from, so that a
// hostile text full of braces costs linear time, not quadratic.
const maxCandidates = 64

var fenceRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(?s)```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n(.*?)```")
})

// turnKeys are the keys that make a JSON object a turn.
var turnKeys = []string{"position", "claim", "counter_to", "confidence_change", "evidence_refs"}

// FindTurnObject finds the JSON object that carries a turn in text: in a
// fenced block labelled json (or jsonc, or not labelled), else the first
// balanced {…} of the text that decodes to an object with a turn key
// (position, claim, counter_to, confidence_change, evidence_refs). It
// returns the object and the byte span of text it (or its fence) occupies.
func FindTurnObject(text string) (map[string]json.RawMessage, [2]int, bool) {
	for _, m := range fenceRE().FindAllStringSubmatchIndex(text, -1) {
		lang := strings.ToLower(text[m[2]:m[3]])
		if lang != "" && lang != "json" && lang != "jsonc" {
			continue
		}
		if obj, _, ok := firstObject(text[m[4]:m[5]]); ok {
			return obj, [2]int{m[0], m[1]}, true
		}
	}
	return firstObject(text)
}

// OtherTurnObject reports whether text holds, outside span (where
// FindTurnObject found obj), another JSON object with a turn key whose
// turn fields differ from obj's: an example of the contract quoted before
// the answer ("to concede I would send {"position": ""…}. My turn: {…}"),
// which makes the reply ambiguous rather than the first object its
// answer. Objects inside span (obj's own) and repetitions of obj are not
// counted.
func OtherTurnObject(text string, span [2]int, obj map[string]json.RawMessage) bool {
	want := turnFields(obj)
	tried := 0
	for start := strings.IndexByte(text, '{'); start >= 0 && tried < maxCandidates; tried++ {
		next := start + 1
		if start < span[0] || start >= span[1] {
			if end := balanced(text, start); end > start {
				if o, ok := turnObjectAt(text[start:end]); ok {
					if end <= span[0] || start >= span[1] {
						if turnFields(o) != want {
							return true
						}
					}
					next = end // past it: its inner braces are its own
				}
			}
		} else {
			next = span[1] // obj's own
		}
		i := strings.IndexByte(text[min(next, len(text)):], '{')
		if i < 0 {
			break
		}
		start = next + i
	}
	return false
}

// turnFields is the turn keys' values of obj, as one comparable string.
func turnFields(obj map[string]json.RawMessage) string {
	var b strings.Builder
	for _, k := range turnKeys {
		if v, ok := obj[k]; ok {
			var x any
			_ = json.Unmarshal(v, &x)
			norm, _ := json.Marshal(x)
			b.WriteString(k + "=" + string(norm) + "\x00")
		}
	}
	return b.String()
}

// turnObjectAt decodes the balanced {…} s: an object with a turn key.
func turnObjectAt(s string) (map[string]json.RawMessage, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &obj) != nil || obj == nil {
		return nil, false
	}
	for _, k := range turnKeys {
		if _, ok := obj[k]; ok {
			return obj, true
		}
	}
	return nil, false
}

// firstObject finds the first balanced {…} in s that decodes to an object
// with a turn key.
func firstObject(s string) (map[string]json.RawMessage, [2]int, bool) {
	tried := 0
	for start := strings.IndexByte(s, '{'); start >= 0 && tried < maxCandidates; tried++ {
		if end := balanced(s, start); end > start {
			if obj, ok := turnObjectAt(s[start:end]); ok {
				return obj, [2]int{start, end}, true
			}
		}
		next := strings.IndexByte(s[start+1:], '{')
		if next < 0 {
			break
		}
		start += 1 + next
	}
	return nil, [2]int{}, false
}

// balanced returns the end (exclusive) of the JSON object that starts at
// s[start] == '{', honouring strings and escapes, or -1.
func balanced(s string, start int) int {
	depth := 0
	var q jsonscan.Quoted
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case q.Step(c):
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				if c != '}' {
					return -1
				}
				return i + 1
			}
			if depth < 0 {
				return -1
			}
		}
	}
	return -1
}

// textReply is what a plain message holds for the pending request: the
// turn object found in its text, and the request it names, if any.
type textReply struct {
	obj       map[string]json.RawMessage
	span      [2]int
	requestID string
}

// findTextReply looks for a turn object in a plain message's text.
func findTextReply(m *inbox.Message) (*textReply, bool) {
	if m.Kind() != inbox.TypeText {
		return nil, false
	}
	obj, span, ok := FindTurnObject(m.Text)
	if !ok {
		return nil, false
	}
	r := &textReply{obj: obj, span: span}
	if raw, ok := obj["request_id"]; ok {
		_ = json.Unmarshal(raw, &r.requestID)
	}
	return r, true
}

// answers reports whether the turn object names req: by its request_id,
// else by the debate, round and role it states (an agent that cannot set
// replyTo and left request_id out still names its slot).
func (r *textReply) answers(req *TurnRequest) bool {
	if r.requestID != "" {
		return r.requestID == req.RequestID
	}
	var slot struct {
		DebateID string `json:"debate_id"`
		Round    int    `json:"round"`
		Role     Role   `json:"role"`
	}
	b, _ := json.Marshal(r.obj)
	if json.Unmarshal(b, &slot) != nil {
		return false
	}
	return slot.DebateID == req.DebateID && slot.Round == req.Round && slot.Role == req.Role
}

// DecodeTextTurn reads the turn a plain message's text carries for req
// (see FindTurnObject): the object's fields as a debate_turn's, with
// debate_id, round and role the request's where the object leaves them
// out, and the prose around the object as the argument when the object has
// no "text". The turn is checked against req as DecodeTurn checks a
// debate_turn. Every failure wraps ErrBadReply.
func DecodeTextTurn(m *inbox.Message, req *TurnRequest) (*Turn, error) {
	r, ok := findTextReply(m)
	if !ok {
		return nil, fmt.Errorf("%w: a plain message whose text holds no JSON object with the turn's fields (see the request for what to write)", ErrBadReply)
	}
	return r.turn(m, req)
}

func (r *textReply) turn(m *inbox.Message, req *TurnRequest) (*Turn, error) {
	defaults := map[string]any{"debate_id": req.DebateID, "round": req.Round, "role": req.Role}
	for k, v := range defaults {
		if _, ok := r.obj[k]; !ok {
			r.obj[k], _ = json.Marshal(v)
		}
	}
	raw, err := json.Marshal(r.obj)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadReply, err)
	}
	var t Turn
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("%w: the JSON object in the text does not decode as a turn: %v", ErrBadReply, clip.Line(err.Error(), 201))
	}
	if strings.TrimSpace(t.Text) == "" {
		var prose []string
		for _, part := range []string{m.Text[:r.span[0]], m.Text[r.span[1]:]} {
			if part = strings.TrimSpace(part); part != "" {
				prose = append(prose, part)
			}
		}
		t.Text = strings.Join(prose, "\n\n")
	}
	if t.EvidenceRefs == nil {
		t.EvidenceRefs = []string{}
	}
	_, said := r.obj["counter_to"]
	CounterByDefault(&t, said, req)
	if err := t.check(req); err != nil {
		return nil, err
	}
	return &t, nil
}
