package transcripts

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/flock"
)

// TestOpenWaitsOutAProbe: a reader asking whether a debate runs holds its
// lock shared for an instant (longer on a busy machine); the coordinator
// opening the debate then (as "debate start" polls the state of the
// debate it just handed to its own process) gets it once the probe lets
// go, instead of ErrBusy. A coordinator that
// holds it still makes a second writer busy (TestOneWriterAtATime).
func TestOpenWaitsOutAProbe(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 4, false).Close()
	f, err := os.Open(filepath.Join(dir, "debates", testID, TranscriptFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, err := flock.Try(f, flock.Shared); !ok || err != nil {
		t.Fatalf("probe's lock: %v %v", ok, err)
	}
	go func() {
		time.Sleep(150 * time.Millisecond)
		_ = flock.Unlock(f)
	}()
	l, err := s.Open(context.Background(), testID)
	if err != nil {
		t.Fatalf("open while a probe held the lock a moment: %v", err)
	}
	l.Close()
}
