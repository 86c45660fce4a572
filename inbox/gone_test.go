package inbox_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
)

// TestReceiverStopsWhenItsInboxIsReplaced: an inbox removed under its
// receiver, or removed and made again (messages sent then land where the
// receiver never looks, and another receiver could claim them), ends the
// receiver's wait with ErrInboxGone, with the watcher (at once) and
// without it (at the next scan).
func TestReceiverStopsWhenItsInboxIsReplaced(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		opts     []inbox.FileOption
		recreate bool
	}{
		{"watched, removed", nil, false},
		{"watched, removed and made again", nil, true},
		{"scanning, removed and made again", []inbox.FileOption{inbox.WithoutWatcher(), inbox.WithReconcile(20 * time.Millisecond)}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			tr := newFileAt(t, root, c.opts...)
			ctx := ctxT(t)
			if err := tr.Create(ctx, "Del"); err != nil {
				t.Fatal(err)
			}
			rcv, err := tr.Listen(ctx, "Del")
			if err != nil {
				t.Fatal(err)
			}
			defer rcv.Close()
			got := make(chan error, 1)
			go func() {
				_, err := rcv.Receive(ctx)
				got <- err
			}()
			time.Sleep(50 * time.Millisecond)
			dir := filepath.Join(root, "inbox", "Del")
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if c.recreate {
				if err := tr.Create(context.Background(), "Del"); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case err := <-got:
				if !errors.Is(err, inbox.ErrInboxGone) {
					t.Fatalf("Receive: %v, want ErrInboxGone", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the receiver still waits on an inbox that is gone")
			}
		})
	}
}
