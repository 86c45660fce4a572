package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/transcripts"
)

// onTranscripts gives a scenario journals that are transcripts in the same
// root as its transport, and removes that root on cleanup, or at once when
// the transport cannot be made.
func TestOnTranscripts(t *testing.T) {
	t.Parallel()
	var root string
	env := onTranscripts(func(dir string) (inbox.Transport, func(), error) {
		root = dir
		tr, err := inbox.NewFileTransport(dir)
		if err != nil {
			return nil, nil, err
		}
		return tr, func() { tr.Close() }, nil
	})
	tr, journal, cleanup, err := env()
	if err != nil {
		t.Fatal(err)
	}
	s := debateBenchSession(0, 1, 1)
	j, err := journal(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(context.Background(), debate.EventOpen, 0, s); err != nil {
		t.Fatal(err)
	}
	j.Close()
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(transcripts.Path(s.ID, transcripts.TranscriptFile)))); err != nil {
		t.Errorf("the journal is not a transcript in the transport's root: %v", err)
	}
	if err := tr.Create(context.Background(), "Bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "inbox", "Bob")); err != nil {
		t.Errorf("the transport is not on the root: %v", err)
	}
	cleanup()
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cleanup left the root: %v", err)
	}

	failed := errors.New("no transport")
	env = onTranscripts(func(dir string) (inbox.Transport, func(), error) { root = dir; return nil, nil, failed })
	if _, _, _, err := env(); !errors.Is(err, failed) {
		t.Errorf("env: %v, want the transport's error", err)
	}
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed env left its root: %v", err)
	}
}
