package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// runT runs the command line in a test and returns stdout, stderr and the
// exit code main would have used.
func runT(t testing.TB, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	code := cmdutil.ExitCode(err, &errb)
	return out.String(), errb.String(), code
}

func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"no-such-command"}, {"--no-such-flag"}, {"recv", "--as", "Bob", "--wait", "-5s"}} {
		_, stderr, code := runT(t, "", args...)
		if code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cmdutil.ExitUsage)
		}
		if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 || !strings.HasPrefix(stderr, "parley: ") {
			t.Errorf("%v: error is not one line: %q", args, stderr)
		}
	}
}
