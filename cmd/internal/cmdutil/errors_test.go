package cmdutil

import (
	"errors"
	"io"
	"testing"
)

// Cobra's own usage errors exit 2; an error that only quotes their words
// (a path a user named, a message from elsewhere) is an error like any
// other, exit 1.
func TestExitCodeKnowsCobrasUsageErrorsByTheirStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want int
	}{
		{errors.New("unknown command \"sned\" for \"parley\""), ExitUsage},
		{errors.New("unknown flag: --form"), ExitUsage},
		{errors.New("requires at least 1 arg(s), only received 0"), ExitUsage},
		{errors.New("required flag(s) \"to\" not set"), ExitUsage},
		{errors.New("send Bob (/srv/Q requires at least/R/inbox/Bob): sync: input/output error"), ExitError},
		{errors.New("open /tmp/unknown flag/x: permission denied"), ExitError},
	} {
		if got := ExitCode(tc.err, io.Discard); got != tc.want {
			t.Errorf("ExitCode(%q) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
