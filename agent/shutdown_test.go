package agent

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/interrupt"
)

// unreachableRegistry is a registry whose server stopped answering once
// the runner registered: Unregister waits until its context ends, as an
// operation against a NATS server that is down retries until then.
type unreachableRegistry struct {
	fakeRegistry
	gaveUp chan error // the cause that ended Unregister's wait
}

func (u *unreachableRegistry) Unregister(ctx context.Context, name string) error {
	<-ctx.Done()
	u.gaveUp <- context.Cause(ctx)
	return ctx.Err()
}

// A runner told to stop while its registry does not answer gives the
// unregistering interrupt.Grace and returns, rather than waiting for as
// long as the registry would retry.
func TestRunnerStopsWithinTheGraceWhenItsRegistryDoesNotAnswer(t *testing.T) {
	t.Parallel()
	reg := &unreachableRegistry{gaveUp: make(chan error, 1)}
	resp := ResponderFunc(func(context.Context, *debate.TurnRequest) (*Reply, error) { return nil, errors.New("not asked") })
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	r := &Runner{Name: "Critic", Transport: inbox.NewMemTransport(), Registry: reg, Responder: resp, Ready: func() { close(ready) }}
	go func() { done <- r.Run(ctx) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("the runner ended: %v", err)
	}
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the runner stopped with %v", err)
		}
	case <-time.After(time.Minute): // a hang guard: the grace is seconds
		t.Fatal("the runner did not stop: its unregistering waits for a registry that does not answer")
	}
	if cause := <-reg.gaveUp; !errors.Is(cause, interrupt.ErrGraceOver) {
		t.Fatalf("the unregistering ended with %v; want the grace over", cause)
	}
}
