package inbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/parleyhq/parley/inbox"
)

// inotifyInstances counts this process's inotify descriptors.
func inotifyInstances(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

// One transport shares one watcher among all its receivers: more receivers
// than the default per-user limit of inotify instances (128) each get their
// messages, with a single instance.
func TestOneWatcherForManyReceivers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("inotify")
	}
	const n = 150
	tr := newFile(t)
	before := inotifyInstances(t)
	var rs []inbox.Receiver
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("Agent%d", i)
		mustCreate(t, tr, name)
		rs = append(rs, mustListen(t, tr, name))
	}
	if got := inotifyInstances(t) - before; got != 1 {
		t.Fatalf("%d receivers opened %d inotify instances, want 1", n, got)
	}
	for i := 0; i < n; i++ {
		mustSend(t, tr, "Alice", fmt.Sprintf("Agent%d", i), fmt.Sprint(i))
	}
	for i, r := range rs {
		d, err := r.Receive(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if d.Message.Text != fmt.Sprint(i) || d.Message.To != fmt.Sprintf("Agent%d", i) {
			t.Fatalf("receiver %d got %+v", i, d.Message)
		}
	}
	for _, r := range rs {
		r.Close()
	}
	tr.Close()
	if got := inotifyInstances(t) - before; got != 0 {
		t.Fatalf("Close left %d inotify instances", got)
	}
}
