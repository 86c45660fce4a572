package transcripts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// rewriting is a sealed debate whose transcript another program has just
// truncated to its first half, as cp or an editor does before writing the
// rest; the store's clock stands at that moment.
func rewriting(t *testing.T) (s *Store, path string, whole []byte, clock *time.Time) {
	t.Helper()
	s, dir := newStore(t)
	writeDebate(t, s, testID, 12, true).Close()
	path = filepath.Join(dir, "debates", testID, TranscriptFile)
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, whole[:len(whole)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	now := fi.ModTime()
	clock = &now
	s.now = func() time.Time { return *clock }
	return s, path, whole, clock
}

// A transcript caught while another program rewrites it in place (torn:
// its first half only) is read again once that program is done, and is
// intact, not tampered.
func TestAuditWaitsForATranscriptBeingRewritten(t *testing.T) {
	t.Parallel()
	s, path, whole, _ := rewriting(t)
	looks := 0
	s.sleep = func(context.Context, time.Duration) error {
		looks++
		return os.WriteFile(path, whole, 0o600) // the program is done
	}
	tr, err := s.Audit(context.Background(), testID, Witnesses{})
	if err != nil {
		t.Fatal(err)
	}
	if in := IntegrityOf(tr); in.Tampered() || looks != 1 {
		t.Fatalf("audit = %s after %d second looks; want intact after one", in.Trouble(), looks)
	}
}

// A torn transcript that has stood still for ChangeGrace is what the file
// says: tampered, at once.
func TestAuditOfATornTranscriptThatStandsStillIsTampered(t *testing.T) {
	t.Parallel()
	s, _, _, clock := rewriting(t)
	*clock = clock.Add(ChangeGrace)
	s.sleep = func(context.Context, time.Duration) error {
		t.Fatal("looked again at a file that stood still")
		return nil
	}
	tr, err := s.Audit(context.Background(), testID, Witnesses{})
	if err != nil || !IntegrityOf(tr).Tampered() {
		t.Fatalf("audit = %v, %v; want tampered", tr, err)
	}
}

// Files that keep changing for ChangeLimit are ErrChanging: neither
// tampered nor intact.
func TestAuditOfATranscriptThatKeepsChanging(t *testing.T) {
	t.Parallel()
	s, path, whole, clock := rewriting(t)
	n := 0
	s.sleep = func(_ context.Context, d time.Duration) error {
		*clock = clock.Add(d)
		n++
		if err := os.WriteFile(path, whole[:len(whole)/2+n%7], 0o600); err != nil {
			return err
		}
		return os.Chtimes(path, *clock, *clock)
	}
	_, err := s.Audit(context.Background(), testID, Witnesses{})
	if !errors.Is(err, ErrChanging) {
		t.Fatalf("audit = %v; want ErrChanging", err)
	}
}
