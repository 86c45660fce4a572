package debate_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

func TestDecodeTextTurn(t *testing.T) {
	t.Parallel()
	req := &debate.TurnRequest{DebateID: "20260101-spec-x-abcdef", RequestID: "20260101-spec-x-abcdef:r2:attacker1:a1", Round: 2, Role: debate.RoleAttacker, Position: "P"}
	for name, c := range map[string]struct {
		text     string
		position string
		argument string
		bad      string // part of the rejection, "" when accepted
	}{
		"bare object":         {`{"position":"Retries double the load","counter_to":"P","confidence_change":-1,"text":"Because."}`, "Retries double the load", "Because.", ""},
		"fenced in prose":     {"I object.\n\n```json\n{\"claim\":\"Retries double the load\",\"counter_to\":\"P\",\"confidence_change\":-1}\n```\nThanks", "Retries double the load", "I object.\n\nThanks", ""},
		"unlabelled fence":    {"```\n{\"position\":\"X\",\"counter_to\":\"P\",\"confidence_change\":\"-1\"}\n```", "", "", "does not decode"},
		"ids left out":        {`Sure: {"position":"Y","counter_to":"P","confidence_change":-1}`, "Y", "Sure:", ""},
		"concedes":            {`{"position":"","counter_to":"","confidence_change":0}`, "", "", ""},
		"another round":       {`{"round":1,"position":"Y","counter_to":"P","confidence_change":-1}`, "", "", "round 1, expected 2"},
		"no object":           {"I agree with everything you said.", "", "", "holds no JSON object"},
		"object without keys": {`{"hello":"world"}`, "", "", "holds no JSON object"},
		"braces everywhere":   {strings.Repeat("{", 5000) + `{"position":"Z"}`, "", "", "holds no JSON object"},
		// An agent that sends back the request it was given (a relay, a
		// model that quotes its prompt) sends the reply template the
		// request shows: its placeholders are not a position.
		"the request sent back": {requestText(t, req), "", "", "placeholder"},
		"the contract's dots":   {`{"position": "…", "counter_to": "…", "evidence_refs": ["path:line", "…"], "confidence_change": -1, "text": "…"}`, "", "", "placeholder"},
	} {
		m := &inbox.Message{ID: inbox.NewID(), From: "Pi", To: "C", Text: c.text}
		tu, err := debate.DecodeTextTurn(m, req)
		switch {
		case c.bad != "":
			if !errors.Is(err, debate.ErrBadReply) || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%s: %v, want a bad reply about %q", name, err, c.bad)
			}
		case err != nil:
			t.Errorf("%s: %v", name, err)
		case tu.Position != c.position || tu.Text != c.argument || tu.DebateID != req.DebateID || tu.Round != 2 || tu.Role != debate.RoleAttacker:
			t.Errorf("%s: %+v", name, tu)
		}
	}
}

// requestText is the text of the turn_request message of req.
func requestText(t testing.TB, req *debate.TurnRequest) string {
	t.Helper()
	m, err := debate.NewRequestMessage("C", "Pi", req)
	if err != nil {
		t.Fatal(err)
	}
	return m.Text
}

// A plain message from the agent asked, replying to the request but
// without the turn's object, is a rejected reply and the request is sent
// again; a plain message of another agent, or one that names another
// request, is left alone.
func TestPlainRepliesInADebate(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(2, 6000), def("Proposer", turns("1|Use UUIDv7 keys|")))
	// The attacker is driven by hand: it answers with plain messages.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.tr.Create(ctx, "Pi"); err != nil {
		t.Fatal(err)
	}
	h.session.Participants = append([]debate.Participant{{Name: "Pi", Role: debate.RoleAttacker, Agent: "@Pi"}}, h.session.Participants...)
	rcv, err := h.tr.Listen(ctx, "Pi")
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	go func() {
		next := func() *inbox.Message {
			d, err := rcv.Receive(ctx)
			if err != nil {
				return nil
			}
			rcv.Ack(ctx, d)
			return d.Message
		}
		send := func(text, replyTo string) {
			m, _ := inbox.NewMessage("Pi", h.session.Coordinator, inbox.TypeText, text, nil)
			m.ReplyTo = replyTo
			h.tr.Send(ctx, m)
		}
		r1 := next()
		if r1 == nil {
			return
		}
		send(`{"request_id":"someone-else:r1:attacker1:a1","position":"stray","confidence_change":-1}`, "") // names another request: left
		send("hello?", "")                                                                                  // chat: left
		send("I have nothing structured to say.", r1.ID)                                                    // replies without the object: rejected
		r2 := next()                                                                                        // attempt 2
		if r2 == nil {
			return
		}
		send(`{"position":"","counter_to":"","confidence_change":0}`, r2.ID)
	}()
	o, j := h.run()
	wantOutcome(t, o, debate.ConsensusReached, debate.RuleConceded, debate.ActionProceed, "Use UUIDv7 keys")
	k := strings.Join(kinds(t, j.Events()), " ")
	if k != "open request:Pi rejected:Pi request:Pi turn:Pi verdict" {
		t.Fatalf("events %s", k)
	}
}

// An attacker's turn that states an objection but leaves counter_to out
// (a hand-written exec agent, a plain message) counters the standing
// position: it does not concede by omission. Only an explicit empty
// counter_to concedes, or a position that restates the standing one.
func TestAttackerLeavingCounterOutObjects(t *testing.T) {
	t.Parallel()
	req := &debate.TurnRequest{DebateID: "20260101-spec-x-abcdef", RequestID: "20260101-spec-x-abcdef:r1:attacker1:a1", Round: 1, Role: debate.RoleAttacker, Position: "Use UUIDv7 keys"}
	for name, c := range map[string]struct {
		fields   string
		concedes bool
	}{
		"objection, counter left out":             {`{"position":"Keys leak the creation time","text":"Because."}`, false},
		"objection, explicit empty counter":       {`{"position":"Keys leak the creation time","counter_to":"","confidence_change":0}`, true},
		"restates the standing position":          {`{"position":"use UUIDv7 keys."}`, true},
		"concedes":                                {`{"position":"","counter_to":"","confidence_change":0}`, true},
		"no position, counter and confidence out": {`{"position":""}`, true},
	} {
		text := inbox.NewID()
		m, err := inbox.NewMessage("A", "C", debate.TypeTurn, text, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(c.fields), &m.Fields); err != nil {
			t.Fatal(err)
		}
		m.Fields["debate_id"], m.Fields["round"], m.Fields["role"] = json.RawMessage(`"`+req.DebateID+`"`), json.RawMessage(`1`), json.RawMessage(`"attacker"`)
		tu, err := debate.DecodeTurn(m, req)
		if err != nil {
			t.Errorf("%s (debate_turn): %v", name, err)
		} else if tu.Concedes() != c.concedes {
			t.Errorf("%s (debate_turn): concedes %v, want %v (%+v)", name, tu.Concedes(), c.concedes, tu)
		}
		plain := &inbox.Message{ID: inbox.NewID(), From: "Pi", To: "C", Text: c.fields}
		if tu, err := debate.DecodeTextTurn(plain, req); err != nil {
			t.Errorf("%s (plain message): %v", name, err)
		} else if tu.Concedes() != c.concedes {
			t.Errorf("%s (plain message): concedes %v, want %v (%+v)", name, tu.Concedes(), c.concedes, tu)
		}
	}
}
