package debate_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
)

// A coordinator that did not run for a while (Ctrl-Z then fg, SIGSTOP
// then SIGCONT) while it waited on a turn does not count that time
// against the wall clock, does not take the agent for dead while its
// heartbeat is as old as the stop (Ctrl-Z stopped it too), and asks it
// again, under the same request id, when the request's deadline passed
// meanwhile (the agent gave up on it). The debate used to end TIMEOUT,
// filed, blaming the agent, the moment the coordinator was continued.
func TestAStoppedCoordinatorKeepsItsWallClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(1, 6000), def("Proposer", turns("1|Use UUIDv7 keys||0")))
	h.session.Participants = append([]debate.Participant{{Name: "Critic", Role: debate.RoleAttacker, Agent: "script:test"}}, h.session.Participants...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.tr.Create(ctx, "Critic"); err != nil {
		t.Fatal(err)
	}
	rcv, err := h.tr.Listen(ctx, "Critic")
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()

	var (
		mu   sync.Mutex
		jump time.Duration
	)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return time.Now().Add(jump)
	}
	critic := make(chan error, 1)
	go func() {
		critic <- func() error {
			// The first request: the coordinator is stopped for an hour
			// while it waits (its clock jumps), and the agent gives up.
			d, err := rcv.Receive(ctx)
			if err != nil {
				return err
			}
			first, err := debate.DecodeRequest(d.Message)
			if err != nil {
				return err
			}
			if err := rcv.Ack(ctx, d); err != nil {
				return err
			}
			mu.Lock()
			jump = time.Hour
			mu.Unlock()
			// Its heartbeat is an hour old until it runs again.
			h.presence.kill("Critic")
			// Asked again, with a new deadline: answered.
			d, err = rcv.Receive(ctx)
			if err != nil {
				return err
			}
			h.presence.revive("Critic")
			req, err := debate.DecodeRequest(d.Message)
			if err != nil {
				return err
			}
			if req.RequestID != first.RequestID || req.Budget.Deadline == first.Budget.Deadline {
				t.Errorf("asked again as %s (deadline %s), first %s (deadline %s)", req.RequestID, req.Budget.Deadline, first.RequestID, first.Budget.Deadline)
			}
			m, err := debate.NewTurnMessage("Critic", d.Message, req.RequestID, &debate.Turn{DebateID: req.DebateID, Round: req.Round, Role: req.Role,
				Position: "Keys leak the creation time", CounterTo: req.Position, ConfidenceChange: -1, Tokens: 100, Text: "because"})
			if err != nil {
				return err
			}
			return h.tr.Send(ctx, m)
		}()
	}()

	j := debate.NewMemJournal()
	c := h.coordinator(j)
	c.Clock = clock
	o, err := c.Start(ctx, h.session)
	if err != nil {
		t.Fatalf("debate: %v", err)
	}
	if o.Verdict == debate.Timeout || len(o.Forfeits) != 0 || len(o.Turns) != 2 {
		t.Fatalf("the hour the coordinator was stopped ended the debate: %s (%s), %d turns, forfeits %+v", o.Verdict, o.Reason, len(o.Turns), o.Forfeits)
	}
	if err := <-critic; err != nil {
		t.Fatalf("the critic: %v", err)
	}
	if o.ElapsedMs >= h.session.Budget.MaxWallClockMs {
		t.Errorf("active time %d ms counts the hour the coordinator was stopped", o.ElapsedMs)
	}
	got := kinds(t, j.Events())
	requests := 0
	for _, k := range got {
		if k == "request:Critic" {
			requests++
		}
	}
	if requests != 2 {
		t.Errorf("the critic was asked %d times, want 2 (the request again after its deadline passed): %v", requests, got)
	}
}
