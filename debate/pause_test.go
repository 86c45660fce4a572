package debate_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
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

// outageMessenger is a messenger whose first send waits out an outage of
// its server (a NATS server that does not answer: the send retries).
type outageMessenger struct {
	debate.Messenger
	once   sync.Once
	outage func()
}

func (o *outageMessenger) Send(ctx context.Context, m *inbox.Message) error {
	o.once.Do(o.outage)
	return o.Messenger.Send(ctx, m)
}

// A coordinator that waits on its messenger (its NATS server down, a send
// retrying) is running: that time counts against the wall clock, as a
// wait on an agent does, and a debate whose wall clock ran out meanwhile
// ends TIMEOUT. Only the time the process did not run (Ctrl-Z, SIGSTOP,
// a machine asleep) is left out. The outage used to be taken for a stop
// when the call that waited was a send (but not when it was a receive),
// so the debate could run past its wall clock by every outage.
func TestAnOutageOfTheMessengerCountsAgainstTheWallClock(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(3, 6000),
		att("Critic", turns("1|Keys leak the creation time|Use UUIDv7 keys|-1")),
		def("Proposer", turns("1|Use UUIDv7 keys||0")))
	var (
		mu    sync.Mutex
		jump  time.Duration
		looks int
	)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		looks++
		return time.Now().Add(jump)
	}
	outage := 90 * time.Second // the budget's wall clock is 60 s
	m := &outageMessenger{Messenger: h.tr, outage: func() {
		// Time passes in steps of a second, each seen by the coordinator
		// (a look at its clock), as it passes for a process that runs.
		for passed := time.Duration(0); passed < outage; passed += time.Second {
			mu.Lock()
			jump += time.Second
			seen := looks
			mu.Unlock()
			for guard := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
				mu.Lock()
				looked := looks > seen
				mu.Unlock()
				if looked {
					break
				}
				if time.Now().After(guard) { // a hang guard: looks come every 20 ms
					t.Fatal("the coordinator does not look at its clock while it waits on the messenger")
				}
			}
		}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := h.coordinator(debate.NewMemJournal())
	c.Messenger, c.Clock = m, clock
	o, err := c.Start(ctx, h.session)
	if err != nil {
		t.Fatalf("debate: %v", err)
	}
	if o.Verdict != debate.Timeout || o.ElapsedMs < h.session.Budget.MaxWallClockMs {
		t.Fatalf("after an outage of %v with a wall clock of %d ms: %s (%s), active time %d ms; want TIMEOUT, the outage counted",
			outage, h.session.Budget.MaxWallClockMs, o.Verdict, o.Reason, o.ElapsedMs)
	}
}

// hungMessenger is a messenger whose server does not answer: a send
// waits until its context ends, as one retrying through an outage does.
type hungMessenger struct{ debate.Messenger }

func (hungMessenger) Send(ctx context.Context, m *inbox.Message) error {
	<-ctx.Done()
	return ctx.Err()
}

// The wall clock bounds a send as it bounds every wait: a debate whose
// messenger stops answering ends TIMEOUT when its wall clock runs out,
// not when the messenger gives up (nats.retryMs, 30 s by default).
func TestTheWallClockBoundsASendTheMessengerDoesNotAnswer(t *testing.T) {
	t.Parallel()
	b := budgetOf(3, 6000)
	b.MaxWallClockMs = 1000
	h := newHarness(t, b, att("Critic", turns("1|Keys leak the creation time|Use UUIDv7 keys|-1")), def("Proposer", turns("1|Use UUIDv7 keys||0")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	guard := time.AfterFunc(time.Minute, cancel) // a hang guard: the wall clock is a second
	defer guard.Stop()
	c := h.coordinator(debate.NewMemJournal())
	c.Messenger = hungMessenger{h.tr}
	o, err := c.Start(ctx, h.session)
	if err != nil {
		t.Fatalf("debate: %v; want TIMEOUT when the wall clock ran out", err)
	}
	if o.Verdict != debate.Timeout {
		t.Fatalf("%s (%s); want TIMEOUT", o.Verdict, o.Reason)
	}
}
