package debate_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/debate"
)

// The arbiter is a role that exists only in this file: one optional
// participant who speaks after the defender and, when it rules for the
// defender (confidence_change +1), closes the debate. Registering it is
// the whole change a new role needs: no file of package debate names it.
const roleArbiter debate.Role = "arbiter"

// ruleRuled is the arbiter's end rule: CONSENSUS_REACHED when the arbiter
// rules for the defender; the defender's standing position stands.
const ruleRuled debate.Rule = "ruled"

func init() {
	err := debate.RegisterRole(debate.RoleSpec{
		Name: roleArbiter, Min: 0, Max: 1, Order: 30,
		Task:      "Rule on the round: confidence_change +1 if the defender's position holds against this round's counters, 0 if it is too early to say.",
		ReplyHint: "To rule, restate the position you rule on and set confidence_change.",
		Decide: func(t *debate.Tally, s *debate.Slot, d *debate.Decision) {
			d.Stance = "undecided"
			if s.Turn.ConfidenceChange > 0 {
				d.Stance = "rules for the defender"
			}
		},
		Rules: []debate.EndRule{{Name: ruleRuled, Check: func(t *debate.Tally) *debate.Outcome {
			last := t.Last()
			if last.Turn == nil || last.Turn.ConfidenceChange <= 0 {
				return nil
			}
			return t.Close(debate.ConsensusReached, ruleRuled, t.Standing(),
				fmt.Sprintf("the arbiter %s ruled for the defender in round %d", last.Agent, last.Round))
		}}},
	})
	if err != nil {
		panic(err)
	}
}

func TestRegisteredRoleRunsADebate(t *testing.T) {
	t.Parallel()
	var asked []string
	arbiter := party{name: "Umpire", role: roleArbiter, respond: agent.ResponderFunc(func(ctx context.Context, req *debate.TurnRequest) (*agent.Reply, error) {
		asked = append(asked, req.RequestID)
		if !strings.Contains(debate.RenderRequest(req), "Rule on the round") {
			t.Errorf("the arbiter's request does not carry its role's task:\n%s", debate.RenderRequest(req))
		}
		cc := 0
		if req.Round == 2 {
			cc = 1
		}
		return &agent.Reply{Turn: &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role,
			Position: req.Position, ConfidenceChange: cc, Text: "weighed the round"}}, nil
	})}
	b := budgetOf(4, 60000)
	b.ConvergenceRounds = 2 // so the defender's own rules cannot close round 2
	h := newHarness(t, b,
		att("Critic", turns("1|Keys need a 24h expiry|Use UUIDv7 keys|-1", "2|Keys must be scoped per tenant|Use UUIDv7 keys|-1", "3|||0")),
		def("Proposer", turns("1|Use UUIDv7 keys|", "2|Use UUIDv7 keys|", "3|Use UUIDv7 keys|")),
		arbiter,
	)
	o, j := h.run()
	wantOutcome(t, o, debate.ConsensusReached, ruleRuled, debate.ActionProceed, "Use UUIDv7 keys")
	if o.Rounds != 2 {
		t.Errorf("closed after %d rounds, want 2 (the arbiter's ruling)", o.Rounds)
	}
	if want := []string{h.session.ID + ":r1:arbiter:a1", h.session.ID + ":r2:arbiter:a1"}; !slices.Equal(asked, want) {
		t.Errorf("the arbiter was asked %q, want %q (after the defender, once per round)", asked, want)
	}
	var got []string
	for _, d := range o.Decisions {
		got = append(got, fmt.Sprintf("r%d %s %s", d.Round, d.Agent, d.Label()))
	}
	want := []string{
		"r1 Critic new counter", "r1 Proposer holds", "r1 Umpire undecided",
		"r2 Critic new counter", "r2 Proposer holds", "r2 Umpire rules for the defender",
	}
	if !slices.Equal(got, want) {
		t.Errorf("decisions:\n got %q\nwant %q", got, want)
	}
	// The journal replays with the new role in its speaking order, to the
	// same verdict and the same decisions.
	st, err := debate.Replay(j.Events())
	if err != nil {
		t.Fatal(err)
	}
	if st.Verdict == nil || st.Verdict.Rule != ruleRuled || !slices.Equal(decisionLabels(st.Verdict), decisionLabels(o)) {
		t.Errorf("replayed verdict %+v does not match the run", st.Verdict)
	}
	if h.filer.count() != 1 {
		t.Errorf("filed %d times, want 1", h.filer.count())
	}
}

func TestRegisteredRoleLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(2, 6000), att("Critic", turns("1|x|y|-1")), def("Proposer", turns("1|y|")))
	s := *h.session
	s.Participants = append(slices.Clone(s.Participants),
		debate.Participant{Name: "U1", Role: roleArbiter}, debate.Participant{Name: "U2", Role: roleArbiter})
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "arbiter") {
		t.Errorf("two arbiters validated: %v", err)
	}
	if err := debate.RegisterRole(debate.RoleSpec{Name: roleArbiter}); err == nil {
		t.Error("a role registered twice")
	}
	if err := debate.RegisterRole(debate.RoleSpec{Name: "Bad Name"}); err == nil {
		t.Error("a role with an invalid name registered")
	}
	if r, err := debate.ParseRole(" Arbiter "); err != nil || r != roleArbiter {
		t.Errorf("ParseRole(Arbiter) = %q, %v", r, err)
	}
}

func decisionLabels(o *debate.Outcome) []string {
	var out []string
	for _, d := range o.Decisions {
		out = append(out, d.Agent+" "+d.Label())
	}
	return out
}
