package inbox_test

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/roottest"
)

// A send whose last step (the inbox directory's sync) fails has put its
// message in the inbox: the error says so (Placed, and in its words), so
// that no caller says "nothing was delivered" or sends it again.
func TestASendThatFailsOnceInTheInboxSaysSo(t *testing.T) {
	t.Parallel()
	rt, root := roottest.Temp(t)
	fsys := &inboxtest.DirSyncFails{FS: durable.Root(rt)}
	tr := newFileAt(t, root, inbox.WithFS(fsys))
	mustCreate(t, tr, "Bob")
	fsys.Armed.Store(true)
	m := &inbox.Message{ID: inbox.NewID(), From: "Alice", To: "Bob", Text: "hello", Timestamp: inbox.Now(), Type: inbox.TypeText}
	err := tr.Send(ctxT(t), m)
	var de *inbox.DeliveryError
	if !errors.As(err, &de) || !inbox.Placed(err) || !errors.Is(err, syscall.EIO) {
		t.Fatalf("Send = %v, want a Placed delivery error", err)
	}
	if !strings.Contains(err.Error(), "the message is in the inbox nonetheless") {
		t.Errorf("the error does not say the message is in the inbox: %q", err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "inbox", "Bob", "*.json"))
	if len(files) != 1 {
		t.Errorf("the inbox holds %v, want the message", files)
	}
	// Another failure is not Placed: an inbox that is not there.
	err = tr.Send(ctxT(t), &inbox.Message{ID: inbox.NewID(), From: "Alice", To: "Nobody", Text: "hi", Timestamp: inbox.Now(), Type: inbox.TypeText})
	if inbox.Placed(err) {
		t.Errorf("a send to a missing inbox is Placed: %v", err)
	}
}
