package debate_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
)

// unreachable answers every request as an agent whose endpoint is gone,
// counting the requests it got.
func unreachable(name string, role debate.Role, kind debate.UnavailableKind, asked *int) party {
	return party{name: name, role: role, respond: func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		*asked++
		return nil, fmt.Errorf("turn: %w", &debate.UnavailableError{Kind: kind, Status: 401, URL: "http://model.example/v1/chat/completions",
			Detail: "HTTP 401 from the model server", Hint: "set $MODEL_KEY", Err: errNope})
	}}
}

func TestUnavailableAgents(t *testing.T) {
	t.Parallel()
	proposer := turns("1|Use UUIDv7 keys|", "2|Use UUIDv7 keys|", "3|Use UUIDv7 keys|")
	critic := turns("1|Keys leak creation time|Use UUIDv7 keys|-1", "2|Keys collide under load|Use UUIDv7 keys|-1")
	for _, c := range []struct {
		name    string
		parties func(asked *int) []party
		verdict debate.Verdict
		agent   string // the agent named unavailable
		filed   int
	}{
		{"the first speaker", func(asked *int) []party {
			return []party{unreachable("Critic", debate.RoleAttacker, debate.UnavailableAuth, asked), def("Proposer", proposer)}
		}, debate.Unavailable, "Critic", 0},
		{"the defender after the attacker spoke", func(asked *int) []party {
			return []party{att("Critic", critic), unreachable("Proposer", debate.RoleDefender, debate.UnavailableNotFound, asked)}
		}, debate.Unavailable, "Proposer", 0},
		{"the second of two attackers", func(asked *int) []party {
			return []party{att("Critic", critic), unreachable("Skeptic", debate.RoleAttacker, debate.UnavailableServer, asked), def("Proposer", proposer)}
		}, debate.Unavailable, "Skeptic", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			asked := 0
			h := newHarness(t, budgetOf(3, 6000), c.parties(&asked)...)
			o, j := h.run()
			wantOutcome(t, o, c.verdict, debate.RuleUnavailable, debate.ActionEscalate, "")
			if o.Unavailable == nil || o.Unavailable.Agent != c.agent || o.Unavailable.Hint != "set $MODEL_KEY" || o.Unavailable.Status != 401 {
				t.Fatalf("outcome names %+v, want %s with the cause", o.Unavailable, c.agent)
			}
			var ue *debate.UnavailableError
			if !errors.As(error(o.Unavailable), &ue) || !errors.Is(o.Unavailable, debate.ErrUnavailable) {
				t.Fatal("the cause is not an ErrUnavailable")
			}
			// Failed fast: one request, no second attempt, not the wall clock.
			if asked != 1 || o.ElapsedMs >= 30000 {
				t.Fatalf("the unavailable agent was asked %d times; %d ms", asked, o.ElapsedMs)
			}
			if h.filer.count() != c.filed || !j.Sealed() || j.Record() != "" {
				t.Fatalf("filed %d (sealed %v, record %q): an unavailable debate is not filed", h.filer.count(), j.Sealed(), j.Record())
			}
			// The journal keeps everything; replaying it gives the same.
			st, err := debate.Replay(j.Events())
			if err != nil || st.Verdict == nil || st.Verdict.Unavailable == nil || st.Verdict.Unavailable.Agent != c.agent {
				t.Fatalf("replay: %v %+v", err, st.Verdict)
			}
			// Resuming the closed debate files nothing either.
			if _, err := h.coordinator(j).Resume(context.Background()); err != nil || h.filer.count() != c.filed {
				t.Fatalf("resume: %v, filed %d", err, h.filer.count())
			}
		})
	}
}

// An agent that argued and then became unreachable took part: the debate
// is a TIMEOUT (forfeit) and is filed, not UNAVAILABLE.
func TestUnavailableAfterTakingPartIsATimeout(t *testing.T) {
	t.Parallel()
	flaky := party{name: "Proposer", role: debate.RoleDefender, respond: func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		if req.Round == 2 {
			return nil, &debate.UnavailableError{Kind: debate.UnavailableServer, Detail: "HTTP 503 after 6 retries"}
		}
		return &agent.Reply{Turn: &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role, Position: "Use UUIDv7 keys, hashed"}}, nil
	}}
	h := newHarness(t, budgetOf(3, 6000), att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1", "2|Keys collide|x|-1")), flaky)
	o, j := h.run()
	wantOutcome(t, o, debate.Timeout, debate.RuleForfeit, debate.ActionEscalate, "")
	if k := kinds(t, j.Events()); k[len(k)-2] != "forfeit:Proposer:unavailable" || o.Unavailable != nil || h.filer.count() != 1 {
		t.Fatalf("events %v, unavailable %+v, filed %d", k, o.Unavailable, h.filer.count())
	}
}

// diagnosing is a Presence that knows an agent's process never started.
type diagnosing struct {
	deadSet
	why map[string]*debate.UnavailableError
}

func (d *diagnosing) Unavailable(agent string) *debate.UnavailableError { return d.why[agent] }

func TestAgentWhoseProcessCannotStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(3, 6000), att("Critic", turns("1|Keys leak creation time|Use UUIDv7 keys|-1")))
	// The defender has no runner at all: its process could not start.
	h.session.Participants = append(h.session.Participants, debate.Participant{Name: "Proposer", Role: debate.RoleDefender, Agent: "exec:nope"})
	if err := h.tr.Create(context.Background(), "Proposer"); err != nil {
		t.Fatal(err)
	}
	p := &diagnosing{why: map[string]*debate.UnavailableError{"Proposer": {Kind: debate.UnavailableNoStart, Detail: "exited 1 before it registered"}}}
	p.kill("Proposer")
	j := debate.NewMemJournal()
	c := h.coordinator(j)
	c.Presence = p
	o, err := c.Start(context.Background(), h.session)
	if err != nil {
		t.Fatal(err)
	}
	wantOutcome(t, o, debate.Unavailable, debate.RuleUnavailable, debate.ActionEscalate, "")
	if o.Unavailable.Agent != "Proposer" || o.Unavailable.Kind != debate.UnavailableNoStart || h.filer.count() != 0 {
		t.Fatalf("%+v filed %d", o.Unavailable, h.filer.count())
	}
}

// A turn_unavailable reply that does not say why is a bad reply, not an
// unavailable agent.
func TestDecodeUnavailable(t *testing.T) {
	t.Parallel()
	req := &inbox.Message{ID: "r1", From: "Coord"}
	good, err := debate.NewUnavailableMessage("A", req, "rid", &debate.UnavailableError{Kind: debate.UnavailableAuth, Detail: "HTTP 403", Hint: "h"})
	if err != nil {
		t.Fatal(err)
	}
	u, err := debate.DecodeUnavailable(good)
	if err != nil || u.Kind != debate.UnavailableAuth || u.Detail != "HTTP 403" || good.ReplyTo != "r1" || good.To != "Coord" {
		t.Fatalf("%v %+v", err, u)
	}
	for name, fields := range map[string]any{
		"unknown kind": map[string]any{"kind": "bored", "detail": "x"},
		"no detail":    map[string]any{"kind": "auth"},
		"kind a list":  map[string]any{"kind": []int{1}, "detail": "x"},
	} {
		m, _ := inbox.NewMessage("A", "Coord", debate.TypeTurnUnavailable, "x", fields)
		if _, err := debate.DecodeUnavailable(m); !errors.Is(err, debate.ErrBadReply) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if !debate.ConsensusReached.Filed() || !debate.Timeout.Filed() || debate.Unavailable.Filed() {
		t.Error("Filed")
	}
	if v, err := debate.ParseVerdict("unavailable"); err != nil || v != debate.Unavailable {
		t.Errorf("ParseVerdict: %v %v", v, err)
	}
}
