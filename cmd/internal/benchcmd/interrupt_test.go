package benchcmd

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdtest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// Ctrl-C (the end of the command's context) stops a benchmark as it stops
// any other wait of parley: exit 130 with a line saying it was
// interrupted, not a failure (exit 1, "context canceled") nor, for the
// gate's, the whole measurement run out first and its figures printed.
func TestBenchStopsOnCtrlC(t *testing.T) {
	t.Parallel()
	for name, run := range map[string]func(ctx context.Context) (int, string){
		// Measured for 10 s per figure unless it stops.
		"gate": func(ctx context.Context) (int, string) {
			return cmdtest.RunContext(ctx, NewCmdGate(cmdtest.Factory(), nil), "--duration", "10s")
		},
		"consensus": func(ctx context.Context) (int, string) {
			return cmdtest.RunContext(ctx, NewCmdConsensus(cmdtest.Factory(), nil), "--records", "50", "--checks", "10", "--processes", "1", "--filings", "1")
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // Ctrl-C
			code, stderr := run(ctx)
			if code != cmdutil.ExitInterrupted || !strings.HasPrefix(stderr, "parley: interrupted") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("bench %s after Ctrl-C: exit %d, stderr %q; want exit %d and one line saying it was interrupted", name, code, stderr, cmdutil.ExitInterrupted)
			}
		})
	}
}
