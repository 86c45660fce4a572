package debate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
)

// RequestID is the request_id of the turn_request for speaker sp in round,
// attempt 1 or 2. It is derived, never random, so that a coordinator that
// resumes after a crash sends the very request it sent before, and an agent
// that already answered it answers again from its cache:
// "<debate id>:r<round>:attacker<n>:a<attempt>" or "…:defender:a<attempt>":
// the role, numbered from 1 when the role may have more than one speaker.
func RequestID(debateID string, round int, sp Speaker, attempt int) string {
	who := string(sp.Role)
	if roleSpec(sp.Role).Max != 1 {
		who = fmt.Sprintf("%s%d", sp.Role, sp.Nth+1)
	}
	return fmt.Sprintf("%s:r%d:%s:a%d", debateID, round, who, attempt)
}

// RequestMessageID is the message id of the turn_request with requestID
// and deadline: a UUID (version 8) derived from both. The same request
// sent again with the same deadline is the same message, and an agent's
// receiver drops the copy it already handled. A resumed coordinator sends
// the pending request again with a new deadline (the time it was down
// does not count): that is a new message, which an agent that took the
// old copy too late to answer still sees; one that answered it answers
// the new one from its cache (same request id).
func RequestMessageID(requestID, deadline string) string {
	sum := sha256.Sum256([]byte("parley/turn_request/" + requestID + "/" + deadline))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x80
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// NewRequestMessage builds the turn_request message for req, from the
// coordinator to agent, with its derived message id and a Markdown rendering
// of the whole request as its text.
func NewRequestMessage(from, to string, req *TurnRequest) (*inbox.Message, error) {
	m, err := inbox.NewMessage(from, to, TypeTurnRequest, renderRequest(req, from), req)
	if err != nil {
		return nil, err
	}
	m.ID = RequestMessageID(req.RequestID, req.Budget.Deadline)
	return m, nil
}

// NewTurnMessage builds the debate_turn reply to the request message req:
// replyTo is req's id, and request_id travels with the turn's fields so that
// a coordinator can match the reply either way. The turn's text (its
// argument) is the message's text, as "text" is a message key; a turn
// without an argument gets a Markdown rendering of itself instead.
func NewTurnMessage(from string, req *inbox.Message, requestID string, t *Turn) (*inbox.Message, error) {
	fields := struct {
		*Turn
		RequestID string `json:"request_id,omitempty"`
	}{t, requestID}
	text := t.Text
	if strings.TrimSpace(text) == "" {
		text = RenderTurn(t)
	}
	m, err := inbox.NewMessage(from, req.From, TypeTurn, text, fields)
	if err != nil {
		return nil, err
	}
	m.ReplyTo = req.ID
	return m, nil
}

// DecodeRequest decodes the typed fields of a turn_request message.
func DecodeRequest(m *inbox.Message) (*TurnRequest, error) {
	if m.Kind() != TypeTurnRequest {
		return nil, fmt.Errorf("%w: a %q message is not a %s", inbox.ErrMalformed, m.Kind(), TypeTurnRequest)
	}
	var r TurnRequest
	if err := m.DecodeFields(&r); err != nil {
		return nil, err
	}
	if r.RequestID == "" || r.DebateID == "" || r.Round < 1 {
		return nil, fmt.Errorf("%w: a %s needs debate_id, request_id and a round ≥ 1", inbox.ErrMalformed, TypeTurnRequest)
	}
	return &r, nil
}

// MaxPositionLen bounds a turn's position and counter_to (characters).
const MaxPositionLen = 4000

// MaxTurnTokens bounds the tokens an agent may report for one turn: 2^24
// (16,777,216), more than any model reads and writes in a call, with room
// for an agent that makes many calls for one turn. A figure above it is no
// count (an exec agent printing "tokens": 9223372036854775807): Record
// estimates instead, as for a turn that reports none.
const MaxTurnTokens = 1 << 24

// MaxEvidenceRefs bounds how many evidence references one turn may cite.
const MaxEvidenceRefs = 100

// DecodeTurn decodes the typed fields of a debate_turn message (its text,
// the argument, is the message's text) and checks
// them against the request they answer: the debate id, round and role must
// match, the position may be empty only on a conceding attacker turn, and
// confidence_change is -1, 0 or +1. It also returns the request_id the reply
// names, if any. Every failure wraps ErrBadReply and says why in words fit
// for the transcript.
func DecodeTurn(m *inbox.Message, req *TurnRequest) (*Turn, error) {
	if m.Kind() != TypeTurn {
		return nil, fmt.Errorf("%w: a %q message, not a %s", ErrBadReply, m.Kind(), TypeTurn)
	}
	raw, err := json.Marshal(m.Fields)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadReply, err)
	}
	var t Turn
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("%w: does not decode: %v", ErrBadReply, clip.Line(err.Error(), 201))
	}
	// A turn without an argument travels with its own rendering as the
	// message text (NewTurnMessage); that rendering is not an argument.
	t.Text = ""
	if m.Text != RenderTurn(&t) {
		t.Text = m.Text
	}
	_, said := m.Fields["counter_to"]
	CounterByDefault(&t, said, req)
	if err := t.check(req); err != nil {
		return nil, err
	}
	return &t, nil
}

// CounterByDefault makes the turn of a role that may concede (an
// attacker) that states a position of its own but leaves counter_to out
// (said false) counter the standing position, as a plain-text turn does: a
// concession is said (an empty counter_to, or the standing position
// restated), never assumed from a field left out. Every way a turn arrives
// (a JSON reply, plain text, an MCP tool call) decides it here.
func CounterByDefault(t *Turn, said bool, req *TurnRequest) {
	if said || !roleSpec(req.Role).MayConcede {
		return
	}
	if strings.TrimSpace(t.Position) == "" || PositionHash(t.Position) == PositionHash(req.Position) {
		return
	}
	t.CounterTo = req.Position
}

func (t *Turn) check(req *TurnRequest) error {
	switch {
	case t.DebateID != req.DebateID:
		return fmt.Errorf("%w: debate_id %q, expected %q", ErrBadReply, clip.Runes(t.DebateID, 61), req.DebateID)
	case t.Round != req.Round:
		return fmt.Errorf("%w: round %d, expected %d", ErrBadReply, t.Round, req.Round)
	case t.Role != req.Role:
		return fmt.Errorf("%w: role %q, expected %q", ErrBadReply, clip.Runes(string(t.Role), 61), req.Role)
	case t.ConfidenceChange < -1 || t.ConfidenceChange > 1:
		return fmt.Errorf("%w: confidence_change %d, expected -1, 0 or +1", ErrBadReply, t.ConfidenceChange)
	case t.Tokens < 0:
		return fmt.Errorf("%w: negative tokens %d", ErrBadReply, t.Tokens)
	case strings.TrimSpace(t.Position) == "" && roleSpec(t.Role).MayConcede && strings.TrimSpace(t.CounterTo) == "" && t.ConfidenceChange == 1:
		// An agent convinced by the defender ("+1 if you now trust the
		// standing position more") that meant to concede: told how.
		return fmt.Errorf("%w: empty position with confidence_change +1%s (to concede, send confidence_change 0 with an empty position and counter_to)", ErrBadReply, saying(t.Text))
	case strings.TrimSpace(t.Position) == "" && (!roleSpec(t.Role).MayConcede || !t.Concedes()) && strings.TrimSpace(t.Text) != "":
		// What it says comes first, within the line a terminal shows: an
		// agent that failed says why there.
		return fmt.Errorf("%w: empty position%s (only a conceding attacker turn may have none)", ErrBadReply, saying(t.Text))
	case strings.TrimSpace(t.Position) == "" && (!roleSpec(t.Role).MayConcede || !t.Concedes()):
		return fmt.Errorf("%w: empty position (only a conceding attacker turn may have none)", ErrBadReply)
	case placeholder(t.Position, req.Role) != "":
		return fmt.Errorf("%w: the position is the reply template's placeholder %q, not the agent's own words", ErrBadReply, placeholder(t.Position, req.Role))
	case placeholder(t.CounterTo, req.Role) != "":
		return fmt.Errorf("%w: counter_to is the reply template's placeholder %q, not the agent's own words", ErrBadReply, placeholder(t.CounterTo, req.Role))
	case utf8.RuneCountInString(t.Position) > MaxPositionLen || utf8.RuneCountInString(t.CounterTo) > MaxPositionLen:
		return fmt.Errorf("%w: position or counter_to longer than %d characters", ErrBadReply, MaxPositionLen)
	case len(t.EvidenceRefs) > MaxEvidenceRefs:
		return fmt.Errorf("%w: %d evidence refs, limit %d", ErrBadReply, len(t.EvidenceRefs), MaxEvidenceRefs)
	}
	return nil
}

// placeholderPosition is the position of the reply template a request
// shows an agent that can only send plain messages.
const placeholderPosition = "<your position, in one sentence>"

// placeholder returns s when it is a placeholder of a reply template (the
// plain-message template's position or role's counter, or the dots of the
// openai contract) rather than words of the agent: an agent that sends
// back the request it was given, or copies the template unfilled, has not
// taken a turn. It returns "" otherwise.
func placeholder(s string, role Role) string {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return ""
	case t == placeholderPosition, t == roleSpec(role).ExampleCounter:
		return t
	case strings.Trim(t, "….") == "":
		return t
	}
	return ""
}

// saying quotes the start of a rejected reply's argument, where an agent
// that had no turn to give says why ("" when it has no argument).
func saying(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return "; it says: " + clip.Line(text, 301)
}

// replyRequestID returns the request_id a reply's fields name, if any.
func replyRequestID(m *inbox.Message) string {
	raw, ok := m.Fields["request_id"]
	if !ok {
		return ""
	}
	var id string
	if json.Unmarshal(raw, &id) != nil {
		return ""
	}
	return id
}

// Record turns an accepted reply into the turn as recorded: its position
// hash, its tokens (the agent's figure, else — when it reports none or one
// above MaxTurnTokens — EstimateTokens of what it wrote, flagged as
// estimated), over_budget when it exceeds the per-round
// allowance, and its checked evidence.
func Record(t *Turn, agent, requestID, messageID string, b ConsensusBudget, evidence []EvidenceCheck) TurnRecord {
	rec := TurnRecord{
		Turn:         *t,
		Agent:        agent,
		RequestID:    requestID,
		MessageID:    messageID,
		PositionHash: PositionHash(t.Position),
		Evidence:     evidence,
	}
	if rec.Tokens <= 0 || rec.Tokens > MaxTurnTokens {
		rec.Tokens = EstimateTokens(t.Position + t.CounterTo + t.Text)
		rec.TokensEstimated = true
	}
	rec.OverBudget = rec.Tokens > b.MaxTokensPerRound
	if rec.EvidenceRefs == nil {
		rec.EvidenceRefs = []string{}
	}
	return rec
}

// RenderRequest renders a turn_request as the Markdown prompt of its text
// field: everything the request holds, readable by an agent that only reads
// text, with the messenger's way to answer (a debate_turn message).
func RenderRequest(r *TurnRequest) string { return renderRequest(r, "") }

// EvidenceRefForms lists the forms an evidence reference may take, as a
// turn request's reply instructions name them.
const EvidenceRefForms = "`path`, `path:line`, `path:from-to`, `[[wiki page]]`, URL"

// RenderRequestAnswering renders r as RenderRequest does, with answer in
// place of the messenger's reply instructions: how an agent that does not
// answer by message (an MCP client calls a tool) sends its turn, in the
// words of the channel it uses, which owns them. answer is Markdown, one
// or more paragraphs.
func RenderRequestAnswering(r *TurnRequest, answer string) string {
	return render(r, func(b *strings.Builder) { b.WriteString(strings.TrimRight(answer, "\n") + "\n") })
}

// renderRequest is RenderRequest for a request sent by coordinator, which
// the reply instructions name: the messenger's way to answer.
func renderRequest(r *TurnRequest, coordinator string) string {
	return render(r, func(b *strings.Builder) {
		b.WriteString("Reply with a `" + TypeTurn + "` message whose `replyTo` is this message's id, with the fields ")
		b.WriteString("`debate_id`, `round`, `role` (as above), `position`, `counter_to`, `evidence_refs` ")
		b.WriteString("(" + EvidenceRefForms + "), `confidence_change` (-1, 0, +1), `tokens` and `text` (your argument).\n")
		if coordinator != "" {
			// Only the message's text: exec and MCP agents answer otherwise.
			writePlainReply(b, r, coordinator)
		}
	})
}

// render renders r with the reply instructions answer writes after "Your
// task".
func render(r *TurnRequest, answer func(*strings.Builder)) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Debate turn: round %d of %d — you are the %s\n\n", r.Round, r.MaxRounds, r.Role)
	fmt.Fprintf(&b, "- **Debate:** `%s` (layer `%s`)\n", r.DebateID, r.Layer)
	fmt.Fprintf(&b, "- **Topic:** %s\n", r.Topic)
	if r.Scope != "" {
		fmt.Fprintf(&b, "- **Scope:** %s\n", r.Scope)
	}
	fmt.Fprintf(&b, "- **Defender's standing position:** %s\n", r.Position)
	fmt.Fprintf(&b, "- **Request:** `%s` (attempt %d)\n", r.RequestID, r.Attempt)
	fmt.Fprintf(&b, "- **Budget:** at most %d tokens for this turn; reply before %s\n\n", r.Budget.TokensThisTurn, r.Budget.Deadline)
	b.WriteString("## Your task\n\n")
	b.WriteString(roleSpec(r.Role).Task + "\n\n")
	answer(&b)
	if len(r.Context) > 0 {
		b.WriteString("\n## Context\n")
		for _, c := range r.Context {
			title := c.Kind
			if c.Ref != "" {
				title += ": " + c.Ref
			}
			fmt.Fprintf(&b, "\n### %s\n\n%s\n", title, fence(c.Text))
		}
	}
	b.WriteString("\n## Transcript so far\n")
	if len(r.Transcript) == 0 {
		b.WriteString("\nNo turns yet.\n")
	}
	round := 0
	for i := range r.Transcript {
		t := &r.Transcript[i]
		if t.Round != round {
			round = t.Round
			fmt.Fprintf(&b, "\n### Round %d\n", round)
		}
		b.WriteString("\n" + renderTurnLine(&t.Turn, t.Agent))
	}
	return b.String()
}

// writePlainReply tells an agent that can only send plain messages (a
// pi-messenger agent) exactly what to send: the JSON object to put in its
// message's text, with this request's ids filled in.
func writePlainReply(b *strings.Builder, r *TurnRequest, coordinator string) {
	to := "`" + coordinator + "`"
	b.WriteString("\n### If you can only send plain messages\n\n")
	b.WriteString("Send a message to " + to + ", as a reply to this message if you can, whose text is this JSON object ")
	b.WriteString("with your own words in place of the angle brackets (keep `request_id`, `debate_id`, `round` and `role` as they are):\n\n")
	spec := roleSpec(r.Role)
	obj := fmt.Sprintf(`{"request_id": %s, "debate_id": %s, "round": %d, "role": %s, "position": %q, "counter_to": %q, "evidence_refs": ["<path/to/file:line>"], "confidence_change": %d, "text": "<your argument>"}`,
		jsonString(r.RequestID), jsonString(r.DebateID), r.Round, jsonString(string(r.Role)), placeholderPosition, spec.ExampleCounter, spec.ExampleConfidence)
	b.WriteString("```json\n" + obj + "\n```\n\n")
	if spec.ReplyHint != "" {
		b.WriteString(spec.ReplyHint + "\n")
	}
}

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// RenderTurn renders a debate_turn as the Markdown of its text field.
func RenderTurn(t *Turn) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Round %d — %s\n\n", t.Round, t.Role)
	b.WriteString(renderTurnLine(t, ""))
	return b.String()
}

func renderTurnLine(t *Turn, agent string) string {
	var b strings.Builder
	who := string(t.Role)
	if agent != "" {
		who += " " + agent
	}
	pos := t.Position
	if strings.TrimSpace(pos) == "" {
		pos = "_(no position)_"
	}
	fmt.Fprintf(&b, "**%s:** %s\n", who, clip.Line(pos, 201))
	if strings.TrimSpace(t.CounterTo) != "" {
		fmt.Fprintf(&b, "\n- counters: %s\n", clip.Line(t.CounterTo, 201))
	} else if roleSpec(t.Role).MayConcede && t.Concedes() {
		b.WriteString("\n- no further objections\n")
	}
	fmt.Fprintf(&b, "- confidence change: %s\n", signed(t.ConfidenceChange))
	if len(t.EvidenceRefs) > 0 {
		fmt.Fprintf(&b, "- evidence: %s\n", strings.Join(t.EvidenceRefs, ", "))
	}
	if strings.TrimSpace(t.Text) != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(t.Text))
	}
	return b.String()
}

// fence wraps text in a Markdown code fence longer than any it contains.
func fence(text string) string {
	n := 3
	for run, i := 0, 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + "text\n" + strings.TrimRight(text, "\n") + "\n" + f
}

// signed writes -1, 0 or +1.
func signed(n int) string {
	if n > 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}
