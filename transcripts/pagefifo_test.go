package transcripts

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/vault"
)

// A named pipe planted in the vault in place of a debate's page does not
// keep "transcripts show" or the web's debate page (both check the page)
// waiting for a writer: the page is unreadable, and says so.
func TestCheckPageOfANamedPipe(t *testing.T) {
	t.Parallel()
	s, dir := newStore(t)
	v, err := vault.Create(filepath.Join(dir, "vault"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	writeDebate(t, s, testID, 8, true).Close()
	p := filepath.Join(dir, "vault", filepath.FromSlash(PagePath(testID)))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	rep, err := s.Verify(testID)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *PageCheck, 1)
	go func() { done <- CheckPage(v, testID, &rep) }()
	select {
	case pc := <-done:
		if pc.Status != PageUnreadable {
			t.Errorf("check of a named pipe: %+v", pc)
		}
	case <-time.After(20 * time.Second):
		if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("checking a vault page that is a named pipe blocked")
	}
}
