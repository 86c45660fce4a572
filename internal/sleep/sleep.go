// Package sleep is the one cancellable sleep: a wait between retries or
// polls that returns as soon as its context is done.
//
// It owns nothing else and imports only the standard library.
package sleep

import (
	"context"
	"time"
)

// For waits d, or until ctx is done, whichever comes first: nil after d,
// ctx.Err() when ctx ended the wait (at once if it was already done). It
// leaves no timer behind.
func For(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
