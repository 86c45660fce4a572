package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
)

// JoinInput is the input of debate_join.
type JoinInput struct {
	DebateID string `json:"debate_id,omitempty" jsonschema:"a debate (its id, or a unique prefix of it) that names this agent as @NAME; omit it to join first and start the debate after (debate_start with ROLE=@NAME)"`
	Role     string `json:"role" jsonschema:"defender or attacker"`
	Name     string `json:"name,omitempty" jsonschema:"the agent's name (letters, digits, _ and -; at most 50); default: the debate's @NAME for the role, else a new memorable name"`
}

// JoinOutput is the result of debate_join.
type JoinOutput struct {
	Name      string      `json:"name"`
	Role      debate.Role `json:"role"`
	DebateID  string      `json:"debate_id,omitempty"`
	Agent     string      `json:"agent" jsonschema:"the agent spec naming this participant in debate_start: ROLE=@NAME"`
	SessionID string      `json:"session_id"`
	// Already is set when the name had joined through this server before.
	Already bool `json:"already,omitempty"`
}

// NameInput names a participant.
type NameInput struct {
	Name string `json:"name" jsonschema:"the name debate_join returned"`
}

// NextTurnInput is the input of debate_next_turn.
type NextTurnInput struct {
	Name        string  `json:"name" jsonschema:"the name debate_join returned"`
	WaitSeconds float64 `json:"wait_seconds,omitempty" jsonschema:"wait up to this many seconds for a request (0 to 30; default 0: do not wait); the wait ends at once when the debate is closed"`
	DebateID    string  `json:"debate_id,omitempty" jsonschema:"the debate to wait in (its id, or a unique prefix of it); default: the latest debate that names this participant"`
}

// NextTurnOutput is the result of debate_next_turn: the pending turn
// request, or none yet, and where the participant's debate stands.
type NextTurnOutput struct {
	Name    string `json:"name"`
	Pending bool   `json:"pending" jsonschema:"a turn request waits for this participant's answer"`
	// Request is the turn_request as the coordinator sent it.
	Request *debate.TurnRequest `json:"request,omitempty"`
	// Prompt is the request rendered as Markdown (the message's text).
	Prompt string `json:"prompt,omitempty"`
	// Debate is where the participant's debate stands: the request's
	// debate when a request is pending, else the one asked for
	// (debate_id), else the one joined or the latest that sent it a
	// request, or a newer one that names it and is not closed yet.
	Debate *DebateState `json:"debate,omitempty"`
	// Note says why the request pending is not of the debate asked for:
	// the participant answers its requests in the order they came, so
	// another debate's request that came first is answered first.
	Note string `json:"note,omitempty"`
}

// DebateState is a short status of a debate.
type DebateState struct {
	DebateID string            `json:"debate_id"`
	State    transcripts.State `json:"state" jsonschema:"running, closed or interrupted"`
	Verdict  debate.Verdict    `json:"verdict,omitempty"`
	Action   debate.Action     `json:"action,omitempty"`
	Record   string            `json:"record,omitempty"`
	// Next says what continues an interrupted debate (debate_resume).
	Next string `json:"next,omitempty" jsonschema:"for an interrupted debate: what continues it (debate_resume)"`
}

// SubmitInput is the input of debate_submit_turn: the debate_turn fields
// of SPEC §5.3 (debate id, round and role are the request's).
type SubmitInput struct {
	Name             string   `json:"name" jsonschema:"the name debate_join returned"`
	RequestID        string   `json:"request_id" jsonschema:"the request_id of the request answered"`
	Position         string   `json:"position,omitempty" jsonschema:"the succinct statement this agent asserts (empty only on a conceding attacker turn)"`
	CounterTo        *string  `json:"counter_to,omitempty" jsonschema:"the claim this turn counters (an attacker that leaves it out counters the defender's standing position); an attacker with no further objections sends it empty with an empty position and confidence_change 0"`
	EvidenceRefs     []string `json:"evidence_refs,omitempty" jsonschema:"path, path:line, path:from-to, [[wiki page]] or URL"`
	ConfidenceChange int      `json:"confidence_change,omitempty" jsonschema:"-1, 0 or +1"`
	Text             string   `json:"text,omitempty" jsonschema:"the argument, in Markdown"`
	Tokens           int      `json:"tokens,omitempty" jsonschema:"tokens the model spent on this turn (default: estimated from the text)"`
}

// SubmitOutput is the result of debate_submit_turn.
type SubmitOutput struct {
	Name      string      `json:"name"`
	RequestID string      `json:"request_id"`
	DebateID  string      `json:"debate_id,omitempty"`
	Round     int         `json:"round,omitempty"`
	Role      debate.Role `json:"role,omitempty"`
	// MessageID is the debate_turn reply's message id.
	MessageID string `json:"message_id,omitempty"`
	// Duplicate is set when the request had been answered with this very
	// turn before: nothing was sent again.
	Duplicate bool `json:"duplicate,omitempty"`
}

// LeaveOutput is the result of debate_leave.
type LeaveOutput struct {
	Name string `json:"name"`
	Left bool   `json:"left"`
}

func (s *Server) addParticipantTools() {
	addTool(s, &mcp.Tool{
		Name:  "debate_join",
		Title: "Take part in debates as an agent",
		Description: "Register the calling agent under a name, as a defender or attacker. The server holds the " +
			"registration, heartbeats it and listens on the agent's inbox for as long as it runs (or until " +
			"debate_leave). Then start a debate with ROLE=@NAME among its agents (or join a debate that names you), " +
			"and loop: debate_next_turn, then debate_submit_turn, until debate_next_turn reports the debate closed.",
	}, s.debateJoin)
	addTool(s, &mcp.Tool{
		Name:  "debate_next_turn",
		Title: "Fetch the pending turn request",
		Description: "Return the participant's pending turn_request (the debate so far, the standing position, the " +
			"budget and deadline, and a Markdown prompt), waiting up to wait_seconds (at most 30) for one; pending " +
			"false means none yet, and with debate.state closed that the debate is over (the wait ends as it closes). " +
			"Answer a request with debate_submit_turn before its deadline.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.debateNextTurn)
	addTool(s, &mcp.Tool{
		Name:  "debate_submit_turn",
		Title: "Answer a turn request",
		Description: "Answer the pending request_id with a debate turn: position, counter_to, evidence_refs, " +
			"confidence_change (-1, 0, +1), text and tokens. It is checked as the coordinator checks a reply and " +
			"sent as a debate_turn; a turn the coordinator would reject is refused here and the request stays " +
			"pending. Submitting the same answer again is harmless; a different one is refused.",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true},
	}, s.debateSubmitTurn)
	addTool(s, &mcp.Tool{
		Name:        "debate_leave",
		Title:       "Stop taking part",
		Description: "Stop listening as the participant and unregister it. A request it has not answered stays in its inbox.",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true},
	}, s.debateLeave)
}

func (s *Server) debateJoin(ctx context.Context, req *mcp.CallToolRequest, in JoinInput) (*mcp.CallToolResult, JoinOutput, error) {
	var out JoinOutput
	role, err := debate.ParseRole(in.Role)
	if err != nil {
		return nil, out, invalidf("role: %w", err)
	}
	name := in.Name
	if name != "" {
		if err := s.validName("name", name); err != nil {
			return nil, out, err
		}
	}
	if in.DebateID != "" {
		// The id, or a unique prefix of one, as debate_status takes it.
		if in.DebateID, err = s.resolveDebate("debate_join", "debate_id", in.DebateID); err != nil {
			return nil, out, err
		}
		if name, err = s.seat(in.DebateID, role, name); err != nil {
			return nil, out, err
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, out, ErrClosed
	}
	if p := s.parts[name]; name != "" && p != nil {
		s.mu.Unlock()
		p.enter()()
		if p.role != role {
			return nil, out, invalidf("%s joined through this server as %s, not %s (debate_leave first)", name, p.role, role)
		}
		if in.DebateID != "" {
			p.mu.Lock()
			p.debateID = in.DebateID
			p.mu.Unlock()
		}
		return nil, JoinOutput{Name: name, Role: role, DebateID: p.lastDebate(), Agent: string(role) + "=@" + name, SessionID: p.session, Already: true}, nil
	}
	s.mu.Unlock()

	model := "mcp"
	if ci := clientInfo(req); ci != "" {
		model = "mcp:" + ci
	}
	session, memorable := "", name == ""
	if memorable {
		// A memorable name, claimed now; the runner registers it again
		// under the same session.
		res, err := s.cfg.Registry.Register(ctx, registry.Registration{SessionID: inbox.NewID(), Roles: []string{string(role)}, Model: model})
		if err != nil {
			return nil, out, err
		}
		name, session = res.Name, res.SessionID
	} else {
		if e, err := s.cfg.Registry.Get(ctx, name); err == nil && e.Alive {
			return nil, out, fmt.Errorf("%w: %s (pid %d on %s); choose another name", registry.ErrNameTaken, name, e.PID, orDefault(e.Host, "this host"))
		}
		session = sessionFor(name)
	}
	p := newParticipant(name, role, session, in.DebateID)
	p.running = s.runningDebate
	if err := s.start(p, model); err != nil {
		if memorable { // give back the name claimed above
			uctx, release := interrupt.Cleanup(ctx)
			_ = s.cfg.Registry.Unregister(uctx, name, session)
			release()
		}
		if errors.Is(err, registry.ErrNameTaken) {
			err = fmt.Errorf("%w; choose another name", err)
		}
		return nil, out, err
	}
	return nil, JoinOutput{Name: name, Role: role, DebateID: in.DebateID, Agent: string(role) + "=@" + name, SessionID: session}, nil
}

// seat finds who joins debate id as role: the participant named name, or
// the only @NAME participant of that role.
func (s *Server) seat(id string, role debate.Role, name string) (string, error) {
	sum, err := s.cfg.Transcripts.Summary(id)
	if err != nil {
		return "", s.storeError(err, id)
	}
	if sum.State == transcripts.StateClosed {
		return "", invalidf("debate %s is closed (%s); see transcript_show", id, sum.Verdict)
	}
	seats := seatsIn(sum.Session, role)
	switch {
	case name != "" && !slices.Contains(seats, name):
		return "", invalidf("debate %s has no %s @%s to join (its %ss waiting for a running agent: %s)", id, role, name, role, listOrNone(seats))
	case name != "":
		return name, nil
	case len(seats) == 1:
		return seats[0], nil
	case len(seats) == 0:
		return "", invalidf("debate %s has no %s played by a running agent (@NAME) to join", id, role)
	}
	return "", invalidf("debate %s has several %ss to join (%s): give the name", id, role, strings.Join(seats, ", "))
}

// seatsIn are the names of the running agents (@NAME) that sess names in
// role: the seats an MCP participant can take.
func seatsIn(sess *debate.DebateSession, role debate.Role) []string {
	var seats []string
	for _, p := range sess.Participants {
		if p.Role == role && p.Agent == "@"+p.Name {
			seats = append(seats, p.Name)
		}
	}
	return seats
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func clientInfo(req *mcp.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	ip := req.Session.InitializeParams()
	if ip == nil || ip.ClientInfo == nil {
		return ""
	}
	return clip.Runes(ip.ClientInfo.Name, 81)
}

// start runs p's agent runner in a goroutine the Server owns, and returns
// once it is registered and listening, or failed.
func (s *Server) start(p *participant, model string) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	if s.parts[p.name] != nil {
		s.mu.Unlock()
		return invalidf("%s is joining through this server already", p.name)
	}
	s.parts[p.name] = p
	delete(s.gone, p.name)
	ctx, cancel := context.WithCancel(s.base)
	p.cancel = cancel
	s.wg.Add(1)
	s.mu.Unlock()

	ready := make(chan struct{})
	r := &agent.Runner{
		Name: p.name, Roles: []debate.Role{p.role}, Transport: tapTransport{s.cfg.Transport, p},
		Registry:  &agent.SessionRegistry{Registrar: s.cfg.Registry, SessionID: p.session, Model: model},
		Responder: p, Logger: s.log, Heartbeat: s.cfg.Heartbeat,
		Ready: func() { close(ready) },
	}
	if idle := s.cfg.ParticipantIdle; idle > 0 {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.expire(ctx, p, idle)
		}()
	}
	go func() {
		defer s.wg.Done()
		defer cancel()
		p.runErr = r.Run(ctx)
		s.mu.Lock()
		if s.parts[p.name] == p {
			delete(s.parts, p.name)
			s.remember(p)
		}
		s.mu.Unlock()
		close(p.done)
		if p.runErr != nil {
			s.log.Warn("participant stopped", "agent", p.name, "err", p.runErr)
		}
	}()
	select {
	case <-ready:
		// Joining is a call: the idle time counts from its end.
		p.enter()()
		return nil
	case <-p.done:
		if p.runErr != nil {
			return p.runErr
		}
		return ErrClosed
	}
}

// expire makes p leave once it has gone idle longer than idle (its client
// went away without debate_leave); it returns when p stops or ctx ends.
func (s *Server) expire(ctx context.Context, p *participant, idle time.Duration) {
	t := time.NewTicker(max(min(idle/4, time.Second), 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.done:
			return
		case now := <-t.C:
			if d := p.idle(now); d > idle {
				s.log.Info("a participant idle longer than its registration TTL leaves", "agent", p.name, "idle", d.Round(time.Millisecond))
				p.leave(fmt.Sprintf("no tool call named it for %v, the registration TTL, so it was taken for gone and unregistered; "+
					"call debate_join again (a request it had not answered waits in its inbox), and while thinking longer than %v, wait in debate_next_turn", idle, idle))
				return
			}
		}
	}
}

// participant returns the participant called name.
func (s *Server) participant(name string) (*participant, error) {
	if err := s.validName("name", name); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.parts[name]; p != nil {
		return p, nil
	}
	if why := s.gone[name]; why != "" {
		return nil, invalidf("%w: %s left: %s", ErrNotJoined, name, why)
	}
	return nil, invalidf("%w: %s has not joined through this server (call debate_join)", ErrNotJoined, name)
}

// goneLimit bounds how many participants that left the server remembers
// the reason of.
const goneLimit = 1024

// remember keeps why p left, for a later call naming it. s.mu must be
// held.
func (s *Server) remember(p *participant) {
	if p.runErr != nil {
		return
	}
	if len(s.gone) >= goneLimit {
		for name := range s.gone { // forget one, any
			delete(s.gone, name)
			break
		}
	}
	s.gone[p.name] = p.reason()
}

func (s *Server) debateNextTurn(ctx context.Context, _ *mcp.CallToolRequest, in NextTurnInput) (*mcp.CallToolResult, NextTurnOutput, error) {
	out := NextTurnOutput{Name: in.Name}
	wait, err := waitArg(in.WaitSeconds)
	if err != nil {
		return nil, out, err
	}
	p, err := s.participant(in.Name)
	if err != nil {
		return nil, out, err
	}
	asked := in.DebateID
	if asked != "" {
		if asked, err = s.resolveDebate("debate_next_turn", "debate_id", asked); err != nil {
			return nil, out, err
		}
	}
	defer p.enter()()
	req, err := p.next(ctx, wait, func() bool { return s.waitOver(p, asked) })
	if err == nil && req == nil && s.base.Err() != nil {
		// The Server is closing, which ended the wait: the participant
		// is leaving, and the client is told so.
		<-p.done
		err = p.stopped()
	}
	if err != nil {
		return nil, out, err
	}
	if req != nil {
		if s.cfg.Untrusted {
			cp := *req
			cp.Transcript = debate.RedactTurns(req.Transcript)
			req = &cp
		}
		out.Pending, out.Request, out.Prompt = true, req, turnPrompt(p.name, req)
	}
	id := asked
	if id == "" {
		id = p.lastDebate()
	}
	if req != nil && req.DebateID != id {
		// The participant answers its requests in the order they came:
		// one of another debate waits first, and the state given is its
		// debate's, so that request and state agree.
		if asked != "" {
			out.Note = fmt.Sprintf("a turn request of debate %s came first and waits for its answer: answer it (debate_submit_turn), then call debate_next_turn again for debate %s", req.DebateID, asked)
		}
		id = req.DebateID
	}
	if id != "" {
		if sum, err := s.cfg.Transcripts.Summary(id); err == nil {
			out.Debate = &DebateState{DebateID: id, State: sum.State, Verdict: sum.Verdict, Action: sum.Action, Record: sum.Record,
				Next: s.nextStep(transcripts.ContinuationOf(sum.State, sum.Verdict != "", false), id)}
		}
	}
	if req != nil {
		if out.Note != "" {
			return textResult(out.Note + "\n\n" + out.Prompt), out, nil
		}
		return textResult(out.Prompt), out, nil
	}
	return nil, out, nil
}

// waitOver reports whether debate_next_turn for p may stop waiting: the
// debate it asked for (asked) is closed, or, when it asked for none, the
// participant's latest debate is closed and no newer debate that names it
// in its role is still to close (one started a moment ago may not have
// sent its first request yet: p waits in that one instead). A debate that
// is interrupted is not over: resuming it sends its requests again.
func (s *Server) waitOver(p *participant, asked string) bool {
	id := asked
	if id == "" {
		id = p.lastDebate()
	}
	if id == "" || !s.closedDebate(id) {
		return false
	}
	if asked != "" {
		return true
	}
	next := s.openSeat(p, id)
	if next == "" {
		return true
	}
	p.mu.Lock()
	if p.debateID == id {
		p.debateID = next
	}
	p.mu.Unlock()
	return false
}

// runningDebate reports whether a coordinator runs debate id: false only
// when its transcript says it is closed or interrupted, true when that
// cannot be told.
func (s *Server) runningDebate(id string) bool {
	st, err := s.cfg.Transcripts.Stamp(id)
	return err != nil || st.State == transcripts.StateRunning
}

func (s *Server) closedDebate(id string) bool {
	st, err := s.cfg.Transcripts.Stamp(id)
	return err == nil && st.State == transcripts.StateClosed
}

// openSeat is the newest debate, created no earlier than debate after,
// that names p in its role as a running agent (@NAME) and is not closed:
// "" when there is none.
func (s *Server) openSeat(p *participant, after string) string {
	since, err := s.cfg.Transcripts.Session(after)
	if err != nil {
		return ""
	}
	ids, err := app.DebateIDsIn(filepath.Join(s.cfg.Transcripts.Dir(), transcripts.Dir))
	if err != nil {
		return ""
	}
	var best, bestCreated string
	for _, id := range ids {
		if id == after {
			continue
		}
		sess, err := s.cfg.Transcripts.Session(id)
		if err != nil || sess.Created < since.Created || sess.Created < bestCreated || !slices.Contains(seatsIn(sess, p.role), p.name) || s.closedDebate(id) {
			continue
		}
		best, bestCreated = id, sess.Created
	}
	return best
}

// turnPrompt renders req for the MCP client playing name: the whole
// request, and how an MCP client answers it (debate_submit_turn, then
// debate_next_turn). These are the MCP channel's words; an agent on the
// messenger is told to send a debate_turn message instead (debate.RenderRequest).
func turnPrompt(name string, req *debate.TurnRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Answer with the `debate_submit_turn` tool before the deadline, with `name` `%s`, `request_id` `%s`, ", name, req.RequestID)
	b.WriteString("and your `position`, `counter_to`, `evidence_refs` (" + debate.EvidenceRefForms + "), ")
	b.WriteString("`confidence_change` (-1, 0, +1), `text` (your argument) and `tokens` (what your model spent, if you know it); ")
	b.WriteString("the debate, round and role are this request's. Then call `debate_next_turn` again for the next request.\n")
	if spec, ok := debate.LookupRole(req.Role); ok && spec.ReplyHint != "" {
		b.WriteString("\n" + spec.ReplyHint + "\n")
	}
	return debate.RenderRequestAnswering(req, b.String())
}

func (s *Server) debateSubmitTurn(ctx context.Context, _ *mcp.CallToolRequest, in SubmitInput) (*mcp.CallToolResult, SubmitOutput, error) {
	out := SubmitOutput{Name: in.Name, RequestID: in.RequestID}
	if strings.TrimSpace(in.RequestID) == "" {
		return nil, out, invalidf("debate_submit_turn needs the request_id of the request it answers (see debate_next_turn)")
	}
	if err := checkSize("text", in.Text); err != nil {
		return nil, out, err
	}
	p, err := s.participant(in.Name)
	if err != nil {
		return nil, out, err
	}
	defer p.enter()()
	req, a, dup, err := p.submit(ctx, in.RequestID, turnFields{
		Position: in.Position, CounterTo: in.CounterTo, EvidenceRefs: in.EvidenceRefs,
		ConfidenceChange: in.ConfidenceChange, Tokens: in.Tokens, Text: in.Text,
	})
	if err != nil {
		return nil, out, err
	}
	out.Duplicate, out.MessageID = dup, a.messageID
	if req != nil {
		out.DebateID, out.Round, out.Role = req.DebateID, req.Round, req.Role
	} else {
		out.DebateID, out.Round, out.Role = a.turn.DebateID, a.turn.Round, a.turn.Role
	}
	return nil, out, nil
}

func (s *Server) debateLeave(_ context.Context, _ *mcp.CallToolRequest, in NameInput) (*mcp.CallToolResult, LeaveOutput, error) {
	if err := s.validName("name", in.Name); err != nil {
		return nil, LeaveOutput{}, err
	}
	s.mu.Lock()
	p := s.parts[in.Name]
	s.mu.Unlock()
	if p == nil {
		return nil, LeaveOutput{Name: in.Name}, nil
	}
	p.leave("it called debate_leave; call debate_join to take part again")
	<-p.done
	return nil, LeaveOutput{Name: in.Name, Left: true}, nil
}
