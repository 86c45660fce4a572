package escalation

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

type seen struct {
	mu    sync.Mutex
	lines []string // "gen:line:task"
	bad   []string
}

func (s *seen) handle(src Source, l Line) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := ParseRecord(l.Data)
	if err != nil {
		s.bad = append(s.bad, fmt.Sprintf("%d:%d:%q", src.Generation, l.N, l.Data))
		return nil
	}
	s.lines = append(s.lines, fmt.Sprintf("%d:%d:%s", src.Generation, l.N, r.TaskID))
	return nil
}

func (s *seen) snapshot() ([]string, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...), append([]string(nil), s.bad...)
}

// waitFor waits until the lines seen are want; it fails after a generous
// deadline (a broken follower never gets there), never because of speed.
func (s *seen) waitFor(t *testing.T, want ...string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, bad := s.snapshot()
		if len(bad) > 0 {
			t.Fatalf("a partial or torn line was handled: %v", bad)
		}
		if fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		if len(got) > len(want) || time.Now().After(deadline) {
			t.Fatalf("lines %v, want %v", got, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func rec(task string) string {
	return fmt.Sprintf(`{"timestamp":"2026-05-14T13:18:42Z","task_id":%q,"verdict":"DRIFT","priority":"M"}`, task)
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestFollow(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string]FollowOptions{
		"fsnotify":               {Reconcile: time.Hour}, // only events wake it
		"reconciliation only":    {NoWatcher: true, Reconcile: 10 * time.Millisecond},
		"fsnotify and reconcile": {Reconcile: 10 * time.Millisecond}, // both
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "telemetry.jsonl")
			appendTo(t, path, rec("1")+"\n")
			s := &seen{}
			var drops []string
			var mu sync.Mutex
			opts.Incomplete = func(src Source, line int) {
				mu.Lock()
				drops = append(drops, fmt.Sprintf("%d:%d", src.Generation, line))
				mu.Unlock()
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- Follow(ctx, path, opts, s.handle) }()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Follow: %v", err)
				}
			}()
			s.waitFor(t, "1:1:1")

			// Appended after start.
			appendTo(t, path, rec("2")+"\n"+rec("3")+"\n")
			s.waitFor(t, "1:1:1", "1:2:2", "1:3:3")

			// A partial last line is held until its newline arrives. It
			// is written with the line before it, so the read that hands
			// that line over has read the partial one too: the follower
			// has surely seen it partial, in two pieces, before it ends.
			line := rec("4")
			appendTo(t, path, rec("3a")+"\n"+line[:25])
			s.waitFor(t, "1:1:1", "1:2:2", "1:3:3", "1:4:3a")
			appendTo(t, path, line[25:40])
			appendTo(t, path, line[40:]+"\n")
			s.waitFor(t, "1:1:1", "1:2:2", "1:3:3", "1:4:3a", "1:5:4")
			// A partial line that is already a whole record waits for its
			// newline too: until then the writer has not finished it.
			appendTo(t, path, rec("4a")+"\n"+rec("4b"))
			s.waitFor(t, "1:1:1", "1:2:2", "1:3:3", "1:4:3a", "1:5:4", "1:6:4a")
			appendTo(t, path, "\n")
			s.waitFor(t, "1:1:1", "1:2:2", "1:3:3", "1:4:3a", "1:5:4", "1:6:4a", "1:7:4b")

			// Rotation: the old file gets a last line after it was moved,
			// then a new file appears at the path.
			if err := os.Rename(path, path+".1"); err != nil {
				t.Fatal(err)
			}
			appendTo(t, path+".1", rec("5")+"\n")
			appendTo(t, path, rec("6")+"\n"+`{"timestamp":"2026-05-14T13:18:42Z","task_id":"cut`)
			s.waitFor(t, "1:1:1", "1:2:2", "1:3:3", "1:4:3a", "1:5:4", "1:6:4a", "1:7:4b", "1:8:5", "2:1:6")

			// Truncation: the file is read again from its start; the
			// partial line it held is given up.
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
			appendTo(t, path, rec("7")+"\n")
			s.waitFor(t, "1:1:1", "1:2:2", "1:3:3", "1:4:3a", "1:5:4", "1:6:4a", "1:7:4b", "1:8:5", "2:1:6", "3:1:7")
			mu.Lock()
			if fmt.Sprint(drops) != "[2:2]" {
				t.Errorf("dropped partial lines %v, want [2:2]", drops)
			}
			mu.Unlock()
		})
	}
}

// A file that does not exist yet is waited for.
func TestFollowWaitsForTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "later.jsonl")
	s := &seen{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Follow(ctx, path, FollowOptions{Reconcile: 10 * time.Millisecond}, s.handle) }()
	appendTo(t, path, rec("1")+"\n")
	s.waitFor(t, "1:1:1")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestScannerLines(t *testing.T) {
	t.Parallel()
	var got []string
	var s Scanner
	emit := func(l Line) error {
		got = append(got, fmt.Sprintf("%d:%v:%d", l.N, l.TooLong, len(l.Data)))
		return nil
	}
	big := make([]byte, MaxLineBytes+10)
	for i := range big {
		big[i] = 'x'
	}
	// A too-long line arriving in pieces is reported once, kept nowhere.
	for _, chunk := range [][]byte{[]byte("ab\r\ncd"), []byte("e\n"), big[:MaxLineBytes/2], big[MaxLineBytes/2:], []byte("\nfg\n"), []byte("h")} {
		if err := s.Feed(chunk, emit); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(got) != "[1:false:2 2:false:3 3:true:0 4:false:2]" || !s.Pending() {
		t.Fatalf("lines %v, pending %v", got, s.Pending())
	}
	// A held last line that is not a record stays held.
	if inc, err := s.Flush(emit); !inc || err != nil || len(got) != 4 {
		t.Fatalf("flush: %v %v %v", inc, err, got)
	}
}

// A named pipe appearing at the followed path (a rotation gone wrong, or
// planted) is refused with an error, not opened for a read that waits for
// a writer: Follow returns.
func TestFollowRefusesANamedPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "telemetry.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	s := &seen{}
	done := make(chan error, 1)
	go func() {
		done <- Follow(context.Background(), path, FollowOptions{Reconcile: 10 * time.Millisecond}, s.handle)
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("Follow of a named pipe: %v", err)
		}
	case <-time.After(20 * time.Second):
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("Follow blocked opening a named pipe")
	}
}
