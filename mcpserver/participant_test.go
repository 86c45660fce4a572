package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/registry"
)

// proposerAgainstCritic is an env where the script agent Critic attacks
// (conceding in round 2) and Proposer has joined this server as defender.
func proposerAgainstCritic(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	e.scriptAgent(t, "Critic", debate.RoleAttacker, concedingCritic)
	ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Proposer"})
	return e
}

// awaitTurn asks debate_next_turn (in) until a request is pending, for up
// to a minute, and returns the last answer: pending, or not if none came.
func awaitTurn(t testing.TB, cs *mcp.ClientSession, in NextTurnInput) NextTurnOutput {
	t.Helper()
	in.WaitSeconds = 0.5
	var nt NextTurnOutput
	for range 120 {
		if nt = ok[NextTurnOutput](t, cs, "debate_next_turn", in); nt.Pending {
			break
		}
	}
	return nt
}

// argue plays a participant through MCP: it fetches each turn request and
// answers it with the script's entry for the round, until the debate is
// closed. before, when set, is called with each request first (to try
// wrong answers).
func argue(t testing.TB, cs *mcp.ClientSession, name, script string, before func(req *debate.TurnRequest)) []SubmitOutput {
	t.Helper()
	sc, err := agent.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	var sent []SubmitOutput
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		nt := ok[NextTurnOutput](t, cs, "debate_next_turn", NextTurnInput{Name: name, WaitSeconds: 0.5})
		if !nt.Pending {
			if nt.Debate != nil && nt.Debate.State == "closed" {
				return sent
			}
			continue
		}
		req := nt.Request
		checkPrompt(t, name, nt.Prompt, req)
		if before != nil {
			before(req)
		}
		e := sc.Entry(req.Round)
		sent = append(sent, ok[SubmitOutput](t, cs, "debate_submit_turn", SubmitInput{
			Name: name, RequestID: req.RequestID, Position: e.Position, CounterTo: &e.CounterTo, EvidenceRefs: e.EvidenceRefs,
			ConfidenceChange: e.ConfidenceChange, Text: e.Text, Tokens: e.Tokens,
		}))
	}
	t.Fatal("the debate did not close")
	return nil
}

// checkPrompt checks the prompt an MCP client is given for req: the whole
// request, with the MCP way to answer (debate_submit_turn with this name
// and request id), never the messenger's (a debate_turn message with
// replyTo, or a plain message to the coordinator), which an MCP client
// following the text could not send.
func checkPrompt(t testing.TB, name, prompt string, req *debate.TurnRequest) {
	t.Helper()
	for _, want := range []string{
		"you are the " + string(req.Role),
		"Answer with the `debate_submit_turn` tool",
		"`name` `" + name + "`", "`request_id` `" + req.RequestID + "`",
		"`debate_next_turn`",
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt does not say %q:\n%s", want, prompt)
		}
	}
	for _, not := range []string{"replyTo", "`debate_turn` message", "plain message"} {
		if strings.Contains(prompt, not) {
			t.Errorf("the prompt says %q, which is how an agent on the messenger answers:\n%s", not, prompt)
		}
	}
}

// normalizeRecord hides what differs between two runs of one debate: the
// id, the times and the elapsed seconds.
func normalizeRecord(rec, id string) string {
	rec = strings.ReplaceAll(rec, id, "DEBATE-ID")
	rec = regexp.MustCompile(`(?m)^(created|updated|date|debate_started|transcript_head|session_hash): .*$`).ReplaceAllString(rec, "$1: T")
	return regexp.MustCompile(`[0-9]+\.[0-9] s\b`).ReplaceAllString(rec, "N s")
}

// TestMCPDefenderArguesLikeAScriptedAgent is the debate of SPEC §5 with
// the defender an MCP client (join, next_turn, submit_turn in a loop) and
// the attacker a scripted agent: its verdict and record are those of the
// same debate between two scripted agents.
func TestMCPDefenderArguesLikeAScriptedAgent(t *testing.T) {
	t.Parallel()
	for _, sc := range []struct {
		name, critic, defender string
		verdict                debate.Verdict
		defenderTurns          int
	}{
		{"conceded", concedingCritic, holdingDefender, debate.ConsensusReached, 1},
		{"deadlock", repeatingCritic, stubbornDefender, debate.Deadlock, 2},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			mcpDefenderDebate(t, sc.critic, sc.defender, sc.verdict, sc.defenderTurns)
		})
	}
}

func mcpDefenderDebate(t *testing.T, critic, defender string, verdict debate.Verdict, defenderTurns int) {
	topic, position := "Idempotency keys", "Use UUIDv7 keys"

	// Two scripted agents.
	ref := newEnv(t)
	ref.scriptAgent(t, "Critic", debate.RoleAttacker, critic)
	ref.scriptAgent(t, "Proposer", debate.RoleDefender, defender)
	rs := session(t, topic, position, "Critic", "Proposer")
	want := wait(t, ref.runDebate(t, rs))

	// The defender through MCP.
	e := newEnv(t)
	e.scriptAgent(t, "Critic", debate.RoleAttacker, critic)
	j := ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Proposer"})
	if j.Name != "Proposer" || j.Agent != "defender=@Proposer" || j.SessionID == "" {
		t.Fatalf("join: %+v", j)
	}
	if ent, err := e.reg.Get(context.Background(), "Proposer"); err != nil || !ent.Alive || ent.PID != os.Getpid() || ent.Model != "mcp:parley-test" || ent.Roles[0] != "defender" {
		t.Fatalf("registration: %v %+v", err, ent)
	}
	s := session(t, topic, position, "Critic", "Proposer")
	done := e.runDebate(t, s)
	checked := false
	sent := argue(t, e.client, "Proposer", defender, func(req *debate.TurnRequest) {
		if checked {
			return
		}
		checked = true
		// A turn the coordinator would reject is refused, and the request
		// stays pending.
		for _, bad := range []struct {
			in   SubmitInput
			want string
		}{
			{SubmitInput{Position: "  "}, "bad reply: empty position (only a conceding attacker turn may have none)"},
			{SubmitInput{Position: "x", ConfidenceChange: 5}, "bad reply: confidence_change 5, expected -1, 0 or +1"},
			{SubmitInput{Position: "x", Tokens: -3}, "bad reply: negative tokens -3"},
			{SubmitInput{Position: strings.Repeat("p", debate.MaxPositionLen+1)}, "longer than 4000 characters"},
			{SubmitInput{Position: "x", EvidenceRefs: make([]string, debate.MaxEvidenceRefs+1)}, "101 evidence refs, limit 100"},
			{SubmitInput{Position: "x", Text: strings.Repeat("t", 1<<20)}, "the turn is too long: position, counter_to, evidence_refs and text together must fit in one debate_turn reply of at most 1048576 bytes"},
			{SubmitInput{Position: "x", RequestID: req.RequestID + "x"}, "no pending turn request"},
			{SubmitInput{Position: "x", RequestID: " "}, "needs the request_id"},
		} {
			bad.in.Name = "Proposer"
			if bad.in.RequestID == "" {
				bad.in.RequestID = req.RequestID
			}
			msg := fails(t, e.client, "debate_submit_turn", bad.in)
			if !strings.Contains(msg, bad.want) {
				t.Errorf("bad turn: %q, want %q", msg, bad.want)
			}
			// A turn refused for what it says tells the model what to do
			// next: the request is still its to answer.
			if bad.in.RequestID == req.RequestID && !strings.Contains(msg, "; the request is still pending: correct the turn and call debate_submit_turn again") {
				t.Errorf("bad turn: %q does not say the request is still pending", msg)
			}
		}
		if nt := ok[NextTurnOutput](t, e.client, "debate_next_turn", NextTurnInput{Name: "Proposer"}); !nt.Pending || nt.Request.RequestID != req.RequestID {
			t.Errorf("after refused turns the request is not pending: %+v", nt)
		}
	})
	got := wait(t, done)
	if len(sent) != defenderTurns || sent[0].Round != 1 || sent[0].Role != debate.RoleDefender || sent[0].DebateID != s.ID || sent[0].MessageID == "" {
		t.Fatalf("submitted %+v", sent)
	}

	for _, c := range []struct{ field, got, want string }{
		{"verdict", string(got.Verdict), string(want.Verdict)},
		{"action", string(got.Action), string(want.Action)},
		{"rule", string(got.Rule), string(want.Rule)},
		{"reason", got.Reason, want.Reason},
		{"final position", got.FinalPosition, want.FinalPosition},
		{"defender position", got.DefenderPosition, want.DefenderPosition},
		{"rounds/tokens", mustJSON([]int{got.Rounds, got.Tokens}), mustJSON([]int{want.Rounds, want.Tokens})},
		{"attackers", mustJSON(got.AttackerPositions), mustJSON(want.AttackerPositions)},
		{"record path", got.Record, want.Record},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q with the MCP defender, %q with two scripted agents", c.field, c.got, c.want)
		}
	}
	if want.Verdict != verdict {
		t.Errorf("the reference debate: %+v", want)
	}
	gotRec := normalizeRecord(readFile(t, filepath.Join(e.vault, filepath.FromSlash(got.Record))), s.ID)
	wantRec := normalizeRecord(readFile(t, filepath.Join(ref.vault, filepath.FromSlash(want.Record))), rs.ID)
	if gotRec != wantRec {
		t.Errorf("records differ:\n--- MCP defender\n%s\n--- scripted defender\n%s", gotRec, wantRec)
	}
	// The reply recorded in the transcript is the message submit reported.
	events, err := e.store.Events(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var defTurns []debate.TurnRecord
	for _, ev := range events {
		if ev.Kind == debate.EventTurn {
			var tr debate.TurnRecord
			if err := json.Unmarshal(ev.Data, &tr); err != nil {
				t.Fatal(err)
			}
			if tr.Role == debate.RoleDefender {
				defTurns = append(defTurns, tr)
			}
		}
	}
	if len(defTurns) != defenderTurns || defTurns[0].MessageID != sent[0].MessageID || defTurns[0].Agent != "Proposer" || defTurns[0].Text != mustScript(t, defender).Entry(1).Text {
		t.Errorf("recorded defender turns %+v, submitted %+v", defTurns, sent)
	}

	// Answering again: the same turn is a harmless duplicate, another is
	// refused; nothing is sent again.
	first := sent[0]
	e1 := mustScript(t, defender).Entry(1)
	same := SubmitInput{Name: "Proposer", RequestID: first.RequestID, Position: e1.Position, Text: e1.Text, Tokens: e1.Tokens}
	dup := ok[SubmitOutput](t, e.client, "debate_submit_turn", same)
	if !dup.Duplicate || dup.MessageID != first.MessageID || dup.Round != 1 || dup.DebateID != s.ID {
		t.Errorf("duplicate: %+v, first %+v", dup, first)
	}
	same.Position = "Something else"
	if msg := fails(t, e.client, "debate_submit_turn", same); !strings.Contains(msg, "request already answered") {
		t.Errorf("changed answer: %q", msg)
	}
	// The debate is closed: next_turn says so.
	nt := ok[NextTurnOutput](t, e.client, "debate_next_turn", NextTurnInput{Name: "Proposer"})
	if nt.Pending || nt.Debate == nil || nt.Debate.DebateID != s.ID || nt.Debate.State != "closed" || nt.Debate.Verdict != verdict || nt.Debate.Record != got.Record {
		t.Errorf("next_turn after the verdict: %+v", nt)
	}
}

func mustScript(t testing.TB, s string) *agent.Script {
	t.Helper()
	sc, err := agent.ParseScript([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// An MCP participant that does not answer before the deadline forfeits
// like any agent: the debate times out and the late answer is refused.
func TestMCPParticipantMissesTheDeadline(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.scriptAgent(t, "Critic", debate.RoleAttacker, concedingCritic)
	ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Slow"})
	s := session(t, "Slow answers", "Answer quickly", "Critic", "Slow")
	// The clock must outlast the critic's turn, which comes first: 3 s did
	// not on a loaded CI machine (the debate timed out before Slow was
	// asked). The test waits it out, so it is as long as it must be.
	s.Budget.MaxWallClockMs = 10000
	done := e.runDebate(t, s)
	nt := ok[NextTurnOutput](t, e.client, "debate_next_turn", NextTurnInput{Name: "Slow", WaitSeconds: 30})
	if !nt.Pending || nt.Request.Round != 1 || nt.Request.Budget.Deadline == "" {
		t.Fatalf("next_turn: %+v", nt)
	}
	o := wait(t, done)
	if o.Verdict != debate.Timeout || o.Rule != debate.RuleWallClock {
		t.Fatalf("outcome %+v", o)
	}
	// The request expired with the deadline, and the late answer is told
	// so: not merely that nothing is pending.
	var msg string
	for range 100 {
		msg = fails(t, e.client, "debate_submit_turn", SubmitInput{Name: "Slow", RequestID: nt.Request.RequestID, Position: "Answer quickly"})
		if !strings.Contains(msg, "the pending one is "+nt.Request.RequestID) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	want := "no pending turn request \"" + nt.Request.RequestID + "\" for Slow: its deadline (" + nt.Request.Budget.Deadline + ") passed before the answer came: the turn is forfeited"
	if !strings.Contains(msg, want) {
		t.Errorf("late answer: %q, want %q", msg, want)
	}
}

func TestDebateJoin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.scriptAgent(t, "Critic", debate.RoleAttacker, concedingCritic)

	// No name: a memorable one, registered and alive.
	j := ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "attacker"})
	if inboxNameErr(j.Name) != nil || j.Agent != "attacker=@"+j.Name {
		t.Fatalf("join without a name: %+v", j)
	}
	if ent, err := e.reg.Get(ctx, j.Name); err != nil || !ent.Alive || ent.SessionID != j.SessionID {
		t.Fatalf("registration of %s: %v %+v", j.Name, err, ent)
	}
	// Again, same role: the same participant; another role: refused.
	if again := ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "attacker", Name: j.Name}); !again.Already || again.SessionID != j.SessionID {
		t.Errorf("join again: %+v", again)
	}
	if msg := fails(t, e.client, "debate_join", JoinInput{Role: "defender", Name: j.Name}); !strings.Contains(msg, "joined through this server as attacker") {
		t.Errorf("join as another role: %q", msg)
	}
	// A name a live agent holds is taken.
	if msg := fails(t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Critic"}); !strings.Contains(msg, "name taken by a live agent: Critic") {
		t.Errorf("join a live agent's name: %q", msg)
	}
	if msg := fails(t, e.client, "debate_join", JoinInput{Role: "judge"}); !strings.Contains(msg, "role: unknown role") {
		t.Errorf("unknown role: %q", msg)
	}

	// Joining a debate: the seat is found by role, or checked by name.
	s := session(t, "Seats", "Sit down", "Critic", "Host")
	log, err := e.store.Create(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	for _, c := range []struct {
		in   JoinInput
		want string
	}{
		{JoinInput{DebateID: s.ID, Role: "defender", Name: "Guest"}, "has no defender @Guest to join (its defenders waiting for a running agent: Host)"},
		{JoinInput{DebateID: s.ID, Role: "attacker"}, "has no attacker played by a running agent"},
		{JoinInput{DebateID: "20261130-spec-nothing-abcdef", Role: "defender"}, "no debate 20261130-spec-nothing-abcdef"},
		{JoinInput{DebateID: "../debates", Role: "defender"}, "invalid debate id"},
	} {
		if msg := fails(t, e.client, "debate_join", c.in); !strings.Contains(msg, c.want) {
			t.Errorf("join %+v: %q, want %q", c.in, msg, c.want)
		}
	}
	// A unique prefix of the id names the debate, as for debate_status and
	// every command that takes a debate id.
	seat := ok[JoinOutput](t, e.client, "debate_join", JoinInput{DebateID: s.ID[:len(s.ID)-4], Role: "defender"})
	if seat.Name != "Host" || seat.DebateID != s.ID {
		t.Errorf("join by seat, with a prefix of the id: %+v", seat)
	}
	// next_turn reports the joined debate's state before any request.
	if nt := ok[NextTurnOutput](t, e.client, "debate_next_turn", NextTurnInput{Name: "Host"}); nt.Pending || nt.Debate == nil || nt.Debate.DebateID != s.ID || nt.Debate.State != "interrupted" {
		t.Errorf("next_turn before the debate runs: %+v", nt)
	}
	// A second client sees the same participants (they are the server's).
	other := e.connect(t)
	if nt := ok[NextTurnOutput](t, other, "debate_next_turn", NextTurnInput{Name: "Host"}); nt.Name != "Host" {
		t.Errorf("other client: %+v", nt)
	}

	// Leave: unregistered, and no longer known.
	if l := ok[LeaveOutput](t, e.client, "debate_leave", NameInput{Name: "Host"}); !l.Left {
		t.Errorf("leave: %+v", l)
	}
	if _, err := e.reg.Get(ctx, "Host"); !isNotRegistered(err) {
		t.Errorf("after leave: %v", err)
	}
	if msg := fails(t, e.client, "debate_next_turn", NextTurnInput{Name: "Host"}); !strings.Contains(msg, "Host left: it called debate_leave") {
		t.Errorf("next_turn after leave: %q", msg)
	}
	if l := ok[LeaveOutput](t, e.client, "debate_leave", NameInput{Name: "Host"}); l.Left {
		t.Errorf("leave twice: %+v", l)
	}
	// A participant that left can join again under its name.
	if again := ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Host"}); again.Already || again.SessionID != sessionFor("Host") {
		t.Errorf("join after leave: %+v", again)
	}
	// Joining the debate as the participant it already is points it there.
	if again := ok[JoinOutput](t, e.client, "debate_join", JoinInput{DebateID: s.ID, Role: "defender", Name: "Host"}); !again.Already || again.DebateID != s.ID {
		t.Errorf("join the debate again: %+v", again)
	}
	if nt := ok[NextTurnOutput](t, e.client, "debate_next_turn", NextTurnInput{Name: "Host"}); nt.Debate == nil || nt.Debate.DebateID != s.ID {
		t.Errorf("next_turn after joining the debate: %+v", nt)
	}

	// Close leaves every debate: the participants unregister.
	e.srv.Close()
	for _, n := range []string{j.Name, "Host"} {
		if _, err := e.reg.Get(ctx, n); !isNotRegistered(err) {
			t.Errorf("%s after Close: %v", n, err)
		}
	}
	if msg := fails(t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Late"}); !strings.Contains(msg, "server closed") {
		t.Errorf("join after Close: %q", msg)
	}
}

func isNotRegistered(err error) bool { return errors.Is(err, registry.ErrNotRegistered) }

func inboxNameErr(n string) error { return (&Server{}).validName("name", n) }

// TestMCPAttackerWithoutCounterTo: an attacker over MCP that states an
// objection and leaves counter_to out counters the defender's standing
// position, as an exec or plain-text attacker does; it is not read as
// conceding (which files CONSENSUS_REACHED, action proceed). Sending the
// same answer again is a harmless duplicate.
func TestMCPAttackerWithoutCounterTo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.scriptAgent(t, "Proposer", debate.RoleDefender, stubbornDefender)
	ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "attacker", Name: "Critic"})
	s := session(t, "Idempotency keys", "Use UUIDv7 keys", "Critic", "Proposer")
	s.Budget.MaxRounds = 1
	done := e.runDebate(t, s)
	req := awaitTurn(t, e.client, NextTurnInput{Name: "Critic"}).Request
	if req == nil {
		t.Fatal("the attacker was never asked")
	}
	in := SubmitInput{Name: "Critic", RequestID: req.RequestID, Position: "Keys leak the creation time", Text: "A UUIDv7 key starts with a timestamp."}
	first := ok[SubmitOutput](t, e.client, "debate_submit_turn", in)
	if dup := ok[SubmitOutput](t, e.client, "debate_submit_turn", in); !dup.Duplicate || dup.MessageID != first.MessageID {
		t.Errorf("the same answer again: %+v, first %+v", dup, first)
	}
	o := wait(t, done)
	if o.Verdict == debate.ConsensusReached || o.Rule == debate.RuleConceded {
		t.Fatalf("an objection without counter_to was read as conceding: %+v", o)
	}
	events, err := e.store.Events(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var counters []string
	for _, ev := range events {
		var tr debate.TurnRecord
		if ev.Kind == debate.EventTurn && json.Unmarshal(ev.Data, &tr) == nil && tr.Role == debate.RoleAttacker {
			counters = append(counters, tr.CounterTo)
		}
	}
	if len(counters) != 1 || counters[0] != req.Position {
		t.Errorf("the attacker's recorded counter_to: %q, want the standing position %q", counters, req.Position)
	}
}

// debate_next_turn does not sit out its wait on a debate that is over: it
// returns as the debate closes, and at once once it is closed. A newer
// debate that names the participant and has not asked it anything yet is
// not over, though: an agent that asked for any debate waits in that one,
// and only one that asked for the closed debate by its id is told it is.
func TestMCPNextTurnEndsWhenTheDebateCloses(t *testing.T) {
	t.Parallel()
	e := proposerAgainstCritic(t)
	s := session(t, "Idempotency keys", "Use UUIDv7 keys", "Critic", "Proposer")
	done := e.runDebate(t, s)

	// A call that sat out its wait took all of it; one that ended as the
	// debate closed took moments, however slow the machine. The check is
	// that the wait did not run out, not how quick the answer was.
	const waitSeconds = 30
	quick := time.Duration(waitSeconds) * time.Second
	nextTurn := func(in NextTurnInput) (NextTurnOutput, time.Duration) {
		t.Helper()
		start := time.Now()
		nt := ok[NextTurnOutput](t, e.client, "debate_next_turn", in)
		return nt, time.Since(start)
	}

	nt, _ := nextTurn(NextTurnInput{Name: "Proposer", WaitSeconds: waitSeconds})
	if !nt.Pending {
		t.Fatalf("next_turn: %+v", nt)
	}
	e1 := mustScript(t, holdingDefender).Entry(1)
	ok[SubmitOutput](t, e.client, "debate_submit_turn", SubmitInput{Name: "Proposer", RequestID: nt.Request.RequestID, Position: e1.Position, Text: e1.Text})
	// The critic concedes in round 2: no more requests, and the wait ends
	// as the debate closes.
	nt, took := nextTurn(NextTurnInput{Name: "Proposer", WaitSeconds: waitSeconds})
	if nt.Pending || nt.Debate == nil || nt.Debate.DebateID != s.ID || nt.Debate.State != "closed" || took >= quick {
		t.Fatalf("next_turn as the debate closes: %+v after %v of %d s", nt, took, waitSeconds)
	}
	wait(t, done)
	for _, in := range []NextTurnInput{{Name: "Proposer", WaitSeconds: waitSeconds}, {Name: "Proposer", WaitSeconds: waitSeconds, DebateID: s.ID}} {
		if nt, took := nextTurn(in); nt.Pending || nt.Debate == nil || nt.Debate.State != "closed" || took >= quick {
			t.Errorf("next_turn %+v on a closed debate: %+v after %v", in, nt, took)
		}
	}

	// The next debate naming Proposer, started but not asking yet.
	s2 := session(t, "Retry budget", "Retry three times", "Critic", "Proposer")
	log, err := e.store.Create(context.Background(), s2)
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	if nt, _ := nextTurn(NextTurnInput{Name: "Proposer", WaitSeconds: 1}); nt.Pending || nt.Debate == nil || nt.Debate.DebateID != s2.ID || nt.Debate.State == "closed" {
		t.Errorf("next_turn with the next debate yet to ask: %+v (want %s, not closed)", nt, s2.ID)
	}
	if nt, took := nextTurn(NextTurnInput{Name: "Proposer", WaitSeconds: waitSeconds, DebateID: s.ID}); nt.Pending || nt.Debate == nil || nt.Debate.DebateID != s.ID || nt.Debate.State != "closed" || took >= quick {
		t.Errorf("next_turn asking for the closed debate: %+v after %v", nt, took)
	}
}

// A request of a debate whose coordinator stopped (killed: the debate is
// interrupted) is withdrawn rather than held until its deadline: the
// participant takes the next debate's requests, and a late answer to the
// withdrawn one is told why it is not taken.
func TestMCPRequestOfAStoppedDebateIsWithdrawn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.scriptAgent(t, "Critic", debate.RoleAttacker, concedingCritic)
	ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Proposer"})

	// Debate A asked Proposer, then its coordinator died: the debate is
	// interrupted, its request's deadline ten minutes away.
	sa := session(t, "Killed debate", "Use UUIDv7 keys", "Critic", "Proposer")
	log, err := e.store.Create(ctx, sa)
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	coordinator := debate.CoordinatorName(sa.ID)
	if err := e.tr.Create(ctx, coordinator); err != nil {
		t.Fatal(err)
	}
	req := &debate.TurnRequest{
		DebateID: sa.ID, RequestID: sa.ID + ":r1:defender:a1", Round: 1, Role: debate.RoleDefender,
		Topic: sa.Topic, Layer: sa.Layer, Position: sa.Position, Context: []debate.ContextItem{}, Transcript: []debate.TurnRecord{},
		Budget: debate.TurnBudget{TokensThisTurn: 1000, Deadline: time.Now().Add(10 * time.Minute).UTC().Format(inbox.TimeLayout)}, Attempt: 1, MaxRounds: 3,
	}
	m, err := debate.NewRequestMessage(coordinator, "Proposer", req)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.tr.Send(ctx, m); err != nil {
		t.Fatal(err)
	}
	// Handed to the client first (the participant learns the debate
	// stopped by looking), then withdrawn.
	withdrawn := false
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && !withdrawn; {
		nt := ok[NextTurnOutput](t, e.client, "debate_next_turn", NextTurnInput{Name: "Proposer", WaitSeconds: 1})
		withdrawn = !nt.Pending && nt.Debate != nil && nt.Debate.DebateID == sa.ID && nt.Debate.State == "interrupted"
		if nt.Pending && nt.Request.RequestID != req.RequestID {
			t.Fatalf("next_turn: %+v", nt)
		}
	}
	if !withdrawn {
		t.Fatalf("the request of the stopped debate %s is still pending", sa.ID)
	}
	msg := fails(t, e.client, "debate_submit_turn", SubmitInput{Name: "Proposer", RequestID: req.RequestID, Position: "Use UUIDv7 keys"})
	if !strings.Contains(msg, "withdrawn") || !strings.Contains(msg, sa.ID+" is no longer running") {
		t.Errorf("late answer to the withdrawn request: %q", msg)
	}

	// Debate B asks Proposer next, and gets its turn.
	sb := session(t, "Retry budget", "Retry three times", "Critic", "Proposer")
	done := e.runDebate(t, sb)
	sent := argue(t, e.client, "Proposer", holdingDefender, func(r *debate.TurnRequest) {
		if r.DebateID != sb.ID {
			t.Fatalf("a request of %s, not of %s", r.DebateID, sb.ID)
		}
	})
	if o := wait(t, done); o.Verdict != debate.ConsensusReached || len(sent) != 1 {
		t.Errorf("debate B: %+v after %d turns of Proposer", o, len(sent))
	}
	// Nothing went to A's coordinator (the participant had done with A's
	// request before it took B's): a turn_unavailable waiting there would
	// end the debate when it is resumed, which asks again instead.
	if waiting, _, _, err := e.tr.Count(ctx, coordinator); err != nil || waiting != 0 {
		t.Errorf("%d messages wait for the stopped debate's coordinator (%v)", waiting, err)
	}
}

// A participant made to leave tells the next call naming it why, and what
// to do: one whose client went quiet for longer than the registration TTL
// (a remote agent thinking between calls) was told it "has not joined
// through this server", which it had, 5 s before.
func TestParticipantThatLeftSaysWhy(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, func(c *Config) { c.ParticipantIdle = 20 * time.Millisecond })
	ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Thinker"})
	for deadline := time.Now().Add(30 * time.Second); ; {
		e.srv.mu.Lock()
		_, in := e.srv.parts["Thinker"]
		e.srv.mu.Unlock()
		if !in {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle participant did not leave")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for tool, args := range map[string]any{
		"debate_next_turn":   NextTurnInput{Name: "Thinker"},
		"debate_submit_turn": SubmitInput{Name: "Thinker", RequestID: "r1", Position: "p", Text: "t"},
	} {
		msg := fails(t, e.client, tool, args)
		for _, want := range []string{"Thinker left: no tool call named it for 20ms, the registration TTL", "call debate_join again", "wait in debate_next_turn"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s after the TTL: %q, want %q", tool, msg, want)
			}
		}
	}

	// Joined again, it is told nothing of the past; left by debate_leave,
	// it is told that.
	e = newEnv(t)
	for range 2 {
		ok[JoinOutput](t, e.client, "debate_join", JoinInput{Role: "defender", Name: "Thinker"})
		if nt := ok[NextTurnOutput](t, e.client, "debate_next_turn", NextTurnInput{Name: "Thinker"}); nt.Name != "Thinker" {
			t.Errorf("next_turn once joined: %+v", nt)
		}
		ok[LeaveOutput](t, e.client, "debate_leave", NameInput{Name: "Thinker"})
		if msg := fails(t, e.client, "debate_next_turn", NextTurnInput{Name: "Thinker"}); !strings.Contains(msg, "Thinker left: it called debate_leave; call debate_join to take part again") {
			t.Errorf("after debate_leave: %q", msg)
		}
	}
	if msg := fails(t, e.client, "debate_next_turn", NextTurnInput{Name: "Stranger"}); !strings.Contains(msg, "Stranger has not joined through this server (call debate_join)") {
		t.Errorf("a name that never joined: %q", msg)
	}
}

// A participant answers its requests in the order they came: asked for
// debate B while a request of debate A waits, debate_next_turn hands back
// A's request with A's state (request and state agree), and a note that
// says so; once A's is answered, B's comes.
func TestMCPNextTurnForAnotherDebateSaysWhichComesFirst(t *testing.T) {
	t.Parallel()
	e := proposerAgainstCritic(t)
	sa := session(t, "Idempotency keys", "Use UUIDv7 keys", "Critic", "Proposer")
	doneA := e.runDebate(t, sa)
	nt := awaitTurn(t, e.client, NextTurnInput{Name: "Proposer"})
	if !nt.Pending || nt.Request.DebateID != sa.ID {
		t.Fatalf("debate A never asked: %+v", nt)
	}
	sb := session(t, "Retry budget", "Retry three times", "Critic", "Proposer")
	doneB := e.runDebate(t, sb)
	got := ok[NextTurnOutput](t, e.client, "debate_next_turn", NextTurnInput{Name: "Proposer", DebateID: sb.ID})
	if !got.Pending || got.Request.DebateID != sa.ID || got.Debate == nil || got.Debate.DebateID != sa.ID ||
		!strings.Contains(got.Note, sa.ID) || !strings.Contains(got.Note, sb.ID) {
		t.Fatalf("asked for B with A's request waiting: request %s, debate %+v, note %q; want A's request and state, and a note naming both",
			got.Request.DebateID, got.Debate, got.Note)
	}
	// Answered, A goes on to close (its critic concedes), and B's request
	// is the one handed for B, with no note.
	e1 := mustScript(t, holdingDefender).Entry(1)
	answer := func(req *debate.TurnRequest) {
		t.Helper()
		ok[SubmitOutput](t, e.client, "debate_submit_turn", SubmitInput{Name: "Proposer", RequestID: req.RequestID, Position: e1.Position, Text: e1.Text})
	}
	answer(got.Request)
	wait(t, doneA)
	got = awaitTurn(t, e.client, NextTurnInput{Name: "Proposer", DebateID: sb.ID})
	if !got.Pending || got.Request.DebateID != sb.ID || got.Debate.DebateID != sb.ID || got.Note != "" {
		t.Fatalf("asked for B once A closed: %+v", got)
	}
	answer(got.Request)
	wait(t, doneB)
}
