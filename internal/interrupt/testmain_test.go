package interrupt

import (
	"os"
	"testing"

	"github.com/parleyhq/parley/internal/sigtest"
)

// TestMain: the tests send Ctrl-C to processes they start (the binary
// itself, as a child), which would ignore it if this binary was started
// ignoring it; but the child of TestAnIgnoredCtrlCStaysIgnored is meant to.
func TestMain(m *testing.M) {
	if os.Getenv("PARLEY_IGNORED_SIGINT_CHILD") != "1" {
		sigtest.HearCtrlC()
	}
	os.Exit(m.Run())
}
