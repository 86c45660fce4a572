package inbox_test

import (
	"testing"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/inboxtest"
)

// newFile opens a FileTransport on a fresh directory, closed with the test.
func newFile(t testing.TB, opts ...inbox.FileOption) *inbox.FileTransport {
	t.Helper()
	tr, err := inbox.NewFileTransport(t.TempDir(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestFileTransportConformance(t *testing.T) {
	inboxtest.Run(t, func(t testing.TB) inbox.Transport { return newFile(t) })
}

func TestFileTransportConformanceWithoutWatcher(t *testing.T) {
	inboxtest.Run(t, func(t testing.TB) inbox.Transport {
		return newFile(t, inbox.WithoutWatcher(), inbox.WithReconcile(20*1e6))
	})
}
