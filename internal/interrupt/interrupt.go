// Package interrupt owns how a parley process is stopped: the signals
// that end it (Ctrl-C, that is SIGINT, SIGTERM and a hang-up), a context that
// listens for them only once something could wait on it, and a read that
// they cut short. It knows nothing of the command line.
//
// It imports nothing of parley.
package interrupt

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrInterrupted ends a wait that Ctrl-C (or SIGTERM) cut short.
var ErrInterrupted = errors.New("interrupted")

// SignalError is the cause (context.Cause) of a context that On ended: the
// signal that ended it.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string { return "stopped by " + e.Signal.String() }

// ExitCode is the exit status of a process the signal stopped before it
// finished: 128 plus the signal's number, as a shell reports a process
// the signal killed (130 for Ctrl-C, 143 for SIGTERM, 129 for a hang-up).
func (e *SignalError) ExitCode() int {
	if n, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}

// Stopped returns err marked with the signal that ended ctx (a
// *SignalError that errors.As finds in it), when a signal did (On);
// otherwise err as it is. nil stays nil.
func Stopped(ctx context.Context, err error) error {
	var se *SignalError
	if err == nil || !errors.As(context.Cause(ctx), &se) {
		return err
	}
	return &stoppedError{err: err, sig: se}
}

// stoppedError is an error of work that a signal stopped: it reads as
// the error, and unwraps to the error and the signal.
type stoppedError struct {
	err error
	sig *SignalError
}

func (e *stoppedError) Error() string   { return e.err.Error() }
func (e *stoppedError) Unwrap() []error { return []error{e.err, e.sig} }

// On returns a copy of parent that Ctrl-C, SIGTERM or a hang-up ends, the
// signal its cause (a *SignalError), and the function that stops
// listening (as signal.NotifyContext does for parley's signals, Signals). Once the first signal ended it, it stops
// listening: the work on the way out may take longer than the user will
// wait (interrupt.Grace), and a second Ctrl-C (or SIGTERM) ends the
// process at once, by the signal's default action, as it would any
// program (the shell says 130 for Ctrl-C).
func On(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, Signals()...)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case sig := <-ch:
			signal.Stop(ch) // the next one is the signal's own
			cancel(&SignalError{Signal: sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		cancel(nil)
		<-done
		signal.Stop(ch)
	}
}

// Signals are the signals that stop a parley process the way Ctrl-C
// does, letting it clean up (a watch unregisters, a debate can be
// resumed): SIGINT, SIGTERM, and SIGHUP — its terminal closed. SIGINT and
// SIGHUP are left out when the process was started to ignore them (a job
// a non-interactive shell ran in the background, "cmd &", ignores SIGINT;
// nohup ignores SIGHUP), as the Go runtime leaves them ignored: listening
// (signal.Notify) would undo that. Decided once, before anything listens,
// since signal.Ignored no longer tells once a signal was listened for.
func Signals() []os.Signal { return slices.Clone(signals()) }

// HowToStop says how a person stops this process the way Ctrl-C does:
// "Ctrl-C", or "kill PID" (SIGTERM) when it was started to ignore SIGINT
// (a background job of a script, "parley agent run … &"), where Ctrl-C
// and "kill -INT" do nothing.
func HowToStop() string {
	if slices.Contains(signals(), os.Interrupt) {
		return "Ctrl-C"
	}
	return "kill " + strconv.Itoa(os.Getpid())
}

var signals = sync.OnceValue(func() []os.Signal {
	var sigs []os.Signal
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(sig) {
			sigs = append(sigs, sig)
		}
	}
	return sigs
})

// OutliveReader makes a write to standard output or error whose reader
// went away (a closed pipe: "parley watch | head -1", an MCP client that
// quit) fail with EPIPE, as a write to any other file does, rather than
// end the process by SIGPIPE before it cleans up, until release is
// called. For a command that must leave properly when its reader leaves:
// a watch unregisters, an MCP server leaves its debates.
func OutliveReader() (release func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	return func() { signal.Stop(ch) }
}

// Context is the context a command runs under: Ctrl-C (SIGINT) or SIGTERM
// ends it. It listens for the signals from the moment anything could wait
// on it: its Done channel is asked for (a select, a context derived from
// it, a sleep), or Arm is called. Until then the signals keep their
// default action and end the process at once. That is all a command that
// never waits needs, and it spares the process os/signal's machinery: a
// thread locked to its goroutine, the runtime's template thread, a
// goroutine blocked in the signal queue, and the futex hand-offs between
// them (a send creates 3–4 threads instead of 6–8).
//
// Safe for concurrent use. Err and Value answer nil until armed: no signal
// can have ended a context that was not listening for one. The zero value
// is ready to use.
type Context struct {
	once  sync.Once
	armed atomic.Bool
	ctx   context.Context // set once, before armed
	stop  context.CancelFunc
}

var _ context.Context = (*Context)(nil)

// Arm starts listening for Ctrl-C and SIGTERM (once) and returns the
// context they end.
func (c *Context) Arm() context.Context {
	c.once.Do(func() {
		c.ctx, c.stop = On(context.Background())
		c.armed.Store(true)
	})
	return c.ctx
}

// Listening reports whether c listens for the signals (it was armed).
func (c *Context) Listening() bool { return c.armed.Load() }

// Release stops listening, if it ever started.
func (c *Context) Release() {
	if c.armed.Load() {
		c.stop()
	}
}

func (c *Context) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *Context) Done() <-chan struct{}       { return c.Arm().Done() }

func (c *Context) Err() error {
	if !c.armed.Load() {
		return nil
	}
	return c.ctx.Err()
}

// Value reaches the armed context's values, the cancellation among them:
// a context derived from this one (which arms it, by asking for Done) is
// then tied to it directly, without a goroutine watching it.
func (c *Context) Value(key any) any {
	if !c.armed.Load() {
		return nil
	}
	return c.ctx.Value(key)
}

// Arm makes ctx listen for Ctrl-C now, when it is a *Context; any other
// context is left as it is.
func Arm(ctx context.Context) {
	if c, ok := ctx.(*Context); ok {
		c.Arm()
	}
}

// ReadAll reads r whole, at most limit bytes and one more (for the caller
// to tell that it is over). The end of ctx ends the wait with
// ErrInterrupted: a read from a terminal cannot be cancelled, so it is
// left to the exiting process. ctx is listened to before the read starts.
func ReadAll(ctx context.Context, r io.Reader, limit int64) ([]byte, error) {
	_ = ctx.Done() // listening before the read starts
	b, err := io.ReadAll(io.LimitReader(Reader(ctx, r), limit+1))
	if errors.Is(err, ErrInterrupted) {
		return nil, ErrInterrupted
	}
	return b, err
}

// Reader returns r whose reads the end of ctx cuts short with
// ErrInterrupted, for input consumed as it arrives (records on standard
// input) rather than whole (ReadAll). Each read of r runs on a goroutine
// of its own, one at a time; a read still waiting when ctx ends (a
// terminal, a pipe nobody writes to) cannot be cancelled and is left to
// the exiting process, as ReadAll leaves it. Not safe for concurrent use.
func Reader(ctx context.Context, r io.Reader) io.Reader {
	return &ctxReader{ctx: ctx, r: r, res: make(chan readResult, 1)}
}

type readResult struct {
	b   []byte
	err error
}

type ctxReader struct {
	ctx  context.Context
	r    io.Reader
	res  chan readResult // buffered: a read never waits to hand over
	busy bool            // a read of r is under way
	left []byte          // what the last read returned beyond the caller's buffer
	err  error           // the last read's error, once left is drained
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if len(c.left) > 0 {
		n := copy(p, c.left)
		c.left = c.left[n:]
		return n, nil
	}
	if c.err != nil {
		return 0, c.err
	}
	if c.ctx.Err() != nil {
		return 0, ErrInterrupted
	}
	if !c.busy {
		c.busy = true
		go func(n int) {
			b := make([]byte, n)
			n, err := c.r.Read(b)
			c.res <- readResult{b[:n], err}
		}(max(len(p), 512))
	}
	select {
	case r := <-c.res:
		c.busy = false
		n := copy(p, r.b)
		if c.left = r.b[n:]; len(c.left) > 0 {
			c.err = r.err
			return n, nil
		}
		return n, r.err
	case <-c.ctx.Done():
		return 0, ErrInterrupted
	}
}

// Grace is how long a process that was told to stop still gives the work
// it does on the way out: unregistering an agent, releasing its hold on an
// inbox, acknowledging or answering what it already handled. That work is
// best effort: what it cannot finish in time is left to the rules that
// judge what a dead process left (a registration whose process is gone or
// whose heartbeat is older than the TTL is not live; a hold expires; an
// unacknowledged message is delivered again). It is one attempt of a
// messenger operation, so that a server that does not answer (a NATS
// outage) costs a stop seconds, not the 30 s an operation otherwise
// retries for.
const Grace = 3 * time.Second

// ErrGraceOver is the cause of a context from AfterStop that Grace ended.
var ErrGraceOver = errors.New("stopping: the time left for work on the way out (interrupt.Grace) is over")

// Cleanup returns a context for the work a process does on its way out
// once its work proper is over — unregistering an agent, a debate's
// coordinator leaving — whether ctx ended (a stop) or not (a debate that
// reached its verdict, a watch whose output was closed): not cancelled by
// ctx, ended Grace from now with ErrGraceOver as its cause.
func Cleanup(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(context.WithoutCancel(ctx), Grace, ErrGraceOver)
}

// AfterStop returns a context for work that should still be done when ctx
// ends, but not for long: it is not cancelled by ctx, only Grace after ctx
// ends (Grace from now if ctx has ended already), with ErrGraceOver as its
// cause (context.Cause). Work begun before the stop keeps its own limits
// until then. cancel releases the context and the goroutine that times
// the grace; call it when the work is done.
func AfterStop(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(Grace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel(ErrGraceOver)
		case <-c.Done():
		}
	})
	return c, func() {
		stop()
		cancel(nil)
	}
}
