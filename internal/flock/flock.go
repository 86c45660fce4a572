//go:build unix

// Package flock is the one way parley takes an advisory lock on an open
// file (flock(2)): a receiver's inbox, the registry, a debate's
// transcript, the consensus filing lock, the escalation ledger.
//
// It owns nothing else and imports no parley package. A lock belongs to
// the open file description: it is released by Unlock or when the file is
// closed, and a second open of the same file (in this process or another)
// does not share it.
package flock

import (
	"context"
	"errors"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Mode is a lock's kind.
type Mode int

// The modes.
const (
	Exclusive Mode = unix.LOCK_EX
	Shared    Mode = unix.LOCK_SH
)

// File is what a lock is taken on: an *os.File, or a wrapper that keeps
// its SyscallConn (so the descriptor stays in the runtime's hands and in
// non-blocking mode).
type File interface {
	SyscallConn() (syscall.RawConn, error)
}

// Try takes the lock on f without waiting. It reports false, with a nil
// error, when another open file description holds a conflicting lock; an
// interrupted call (EINTR) is retried.
func Try(f File, m Mode) (bool, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = unix.Flock(int(fd), int(m)|unix.LOCK_NB)
			if ferr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return false, err
	}
	if errors.Is(ferr, unix.EWOULDBLOCK) {
		return false, nil
	}
	return ferr == nil, ferr
}

// Wait takes the lock on f, retrying (200 µs, doubling up to 10 ms) until
// it is free or ctx is done (ctx.Err()).
func Wait(ctx context.Context, f File, m Mode) error {
	wait := 200 * time.Microsecond
	for {
		ok, err := Try(f, m)
		if err != nil || ok {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(wait*2, 10*time.Millisecond)
	}
}

// Unlock releases the lock on f (closing f releases it too).
func Unlock(f File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = unix.Flock(int(fd), unix.LOCK_UN) }); err != nil {
		return err
	}
	return ferr
}
