//go:build unix

package flock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func open(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestLocksExcludeEachOther(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "x.lock")
	a, b := open(t, name), open(t, name)
	if ok, err := Try(a, Exclusive); !ok || err != nil {
		t.Fatalf("first exclusive lock: %v %v", ok, err)
	}
	if ok, err := Try(b, Exclusive); ok || err != nil {
		t.Fatalf("second exclusive lock taken (%v, %v) while the first is held", ok, err)
	}
	if ok, err := Try(b, Shared); ok || err != nil {
		t.Fatalf("shared lock taken (%v, %v) while an exclusive one is held", ok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if err := Wait(ctx, b, Exclusive); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait on a held lock = %v, want the context's deadline", err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if err := Wait(context.Background(), b, Exclusive); err != nil {
		t.Fatalf("Wait after the holder unlocked: %v", err)
	}
	// Shared locks share; closing the holder releases.
	c, d := open(t, name), open(t, name)
	b.Close()
	for _, f := range []*os.File{c, d} {
		if ok, err := Try(f, Shared); !ok || err != nil {
			t.Fatalf("shared lock: %v %v", ok, err)
		}
	}
}

func TestWaitGetsALockReleasedMeanwhile(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "x.lock")
	a, b := open(t, name), open(t, name)
	if ok, _ := Try(a, Exclusive); !ok {
		t.Fatal("no lock")
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(20 * time.Millisecond)
		a.Close()
		close(released)
	}()
	if err := Wait(context.Background(), b, Exclusive); err != nil {
		t.Fatal(err)
	}
	<-released
}
