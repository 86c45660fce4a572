package debate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/interrupt"
)

// unreachableEnroller registers the coordinator, then its registry stops
// answering: leave waits until its context ends, as unregistering from a
// NATS server that is down retries until then.
type unreachableEnroller struct {
	enrolled chan struct{}
	gaveUp   chan error // the cause that ended leave's wait
}

func (u unreachableEnroller) Enroll(ctx context.Context, name string) (func(context.Context), error) {
	close(u.enrolled)
	return func(ctx context.Context) {
		<-ctx.Done()
		u.gaveUp <- context.Cause(ctx)
	}, nil
}

// A coordinator stopped (Ctrl-C) while its registry does not answer gives
// its unregistering interrupt.Grace and returns, rather than waiting for
// as long as the registry would retry.
func TestCoordinatorStopsWithinTheGraceWhenItsRegistryDoesNotAnswer(t *testing.T) {
	t.Parallel()
	tr := inbox.NewMemTransport()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	for _, name := range []string{"Critic", "Proposer"} {
		if err := tr.Create(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	const id = "20260101-spec-stopped-coordinator-abcdef"
	sess := &debate.DebateSession{
		ID: id, Topic: "Stopped coordinator", Layer: debate.LayerSpec, Position: "p",
		Participants: []debate.Participant{{Name: "Critic", Role: debate.RoleAttacker}, {Name: "Proposer", Role: debate.RoleDefender}},
		Budget:       debate.DefaultBudget(debate.LayerSpec), Created: inbox.Now(), Coordinator: debate.CoordinatorName(id),
	}
	en := unreachableEnroller{enrolled: make(chan struct{}), gaveUp: make(chan error, 1)}
	c := &debate.Coordinator{Messenger: tr, Journal: debate.NewMemJournal(), Filer: printFiler{}, Enroller: en}
	done := make(chan error, 1)
	go func() {
		_, err := c.Start(ctx, sess)
		done <- err
	}()
	select {
	case <-en.enrolled:
	case err := <-done:
		t.Fatalf("the debate ended before the coordinator enrolled: %v", err)
	}
	stop()
	select {
	case <-done:
	case <-time.After(time.Minute): // a hang guard: the grace is seconds
		t.Fatal("the coordinator did not stop: it waits for a registry that does not answer")
	}
	if cause := <-en.gaveUp; !errors.Is(cause, interrupt.ErrGraceOver) {
		t.Fatalf("leaving ended with %v; want the grace over", cause)
	}
}

// A debate that reached its verdict while its registry stopped answering
// returns the outcome once leaving had interrupt.Grace, rather than
// waiting for as long as the registry would retry: it was not stopped,
// and still the unregistering is only best effort.
func TestCoordinatorLeavesWithinTheGraceAfterTheVerdict(t *testing.T) {
	t.Parallel()
	h := newHarness(t, budgetOf(3, 6000),
		att("Critic", turns("1|Keys leak the creation time|Use UUIDv7 keys|-1", "2||||")),
		def("Proposer", turns("1|Use UUIDv7 keys||0")))
	en := unreachableEnroller{enrolled: make(chan struct{}), gaveUp: make(chan error, 1)}
	c := h.coordinator(debate.NewMemJournal())
	c.Enroller = en
	type result struct {
		o   *debate.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		o, err := c.Start(context.Background(), h.session)
		done <- result{o, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || r.o.Verdict != debate.ConsensusReached {
			t.Fatalf("debate: %+v %v; want CONSENSUS_REACHED", r.o, r.err)
		}
	case <-time.After(time.Minute): // a hang guard: the grace is seconds
		t.Fatal("the debate reached its verdict and did not return: leaving waits for a registry that does not answer")
	}
	if cause := <-en.gaveUp; !errors.Is(cause, interrupt.ErrGraceOver) {
		t.Fatalf("leaving ended with %v; want the grace over", cause)
	}
}
