package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// interruptContext is the context main gives a command: Ctrl-C (SIGINT)
// or SIGTERM ends it. It listens for the signals from the moment anything
// could wait on it: its Done channel is asked for (a select, a context
// derived from it, a sleep), or arm is called, which the root command does
// before every command but those marked waitsLazily. Until then the
// signals keep their default action and end the process at once. That is
// all a command that never waits needs, and it spares the process
// os/signal's machinery: a thread locked to its goroutine, the runtime's
// template thread, a goroutine blocked in the signal queue, and the futex
// hand-offs between them (a send creates 3–4 threads instead of 6–8).
//
// Safe for concurrent use. Err and Value answer nil until armed: no signal
// can have ended a context that was not listening for one.
type interruptContext struct {
	once  sync.Once
	armed atomic.Bool
	ctx   context.Context // set once, before armed
	stop  context.CancelFunc
}

var _ context.Context = (*interruptContext)(nil)

// arm starts listening for Ctrl-C and SIGTERM (once) and returns the
// context they end.
func (c *interruptContext) arm() context.Context {
	c.once.Do(func() {
		c.ctx, c.stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		c.armed.Store(true)
	})
	return c.ctx
}

// release stops listening, if it ever started.
func (c *interruptContext) release() {
	if c.armed.Load() {
		c.stop()
	}
}

func (c *interruptContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *interruptContext) Done() <-chan struct{}       { return c.arm().Done() }

func (c *interruptContext) Err() error {
	if !c.armed.Load() {
		return nil
	}
	return c.ctx.Err()
}

// Value reaches the armed context's values, the cancellation among them:
// a context derived from this one (which arms it, by asking for Done) is
// then tied to it directly, without a goroutine watching it.
func (c *interruptContext) Value(key any) any {
	if !c.armed.Load() {
		return nil
	}
	return c.ctx.Value(key)
}

// armInterrupt makes ctx listen for Ctrl-C now, when main gave an
// interruptContext; any other context is left as it is.
func armInterrupt(ctx context.Context) {
	if c, ok := ctx.(*interruptContext); ok {
		c.arm()
	}
}

// lazyInterrupt is the annotation of a command that never waits without
// asking its context for Done first (a wait on standard input, a messenger
// server that does not answer): it runs without listening for Ctrl-C until
// then, and Ctrl-C before that ends the process as it would any program.
const lazyInterrupt = "parley/interrupt-lazily"

// waitsLazily marks cmd lazyInterrupt and returns it.
func waitsLazily(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[lazyInterrupt] = "yes"
	return cmd
}
