package agent

import (
	"context"
	"fmt"
	"os"
	"time"
)

// parentPoll is how often WatchParent looks at the parent process.
const parentPoll = 100 * time.Millisecond

// WatchParent is for an agent process that must not outlive the process
// that started it (a debate's coordinator): it returns a context that ends
// once this process's parent is no longer pid (the parent died and the
// process was handed to another), looked at every 100 ms, and a stop
// function that ends the watch and waits for it; call stop when done.
// When the parent is already not pid, it returns an error wrapping
// ErrParentGone and starts nothing.
func WatchParent(ctx context.Context, pid int) (context.Context, func(), error) {
	if os.Getppid() != pid {
		return ctx, func() {}, fmt.Errorf("%w (pid %d)", ErrParentGone, pid)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(parentPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != pid {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(); <-done }, nil
}
