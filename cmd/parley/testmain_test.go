package main

import (
	"os"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/sigtest"
)

// TestMain lets the test binary stand in for the parley binary: with
// PARLEY_TEST_AS_CLI=1 in its environment it runs the command line instead
// of the tests. Commands that re-execute themselves (the sender process of
// "bench messenger") then work under "go test" without a build step.
func TestMain(m *testing.M) {
	if os.Getenv("PARLEY_TEST_AS_CLI") == "1" {
		// As main does: SIGINT and SIGTERM end the command cleanly.
		ctx := &interrupt.Context{}
		err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		ctx.Release()
		os.Exit(cmdutil.ExitCode(err, os.Stderr))
	}
	// The tests stop the parley processes they start by Ctrl-C, which
	// they would ignore if this binary was started ignoring it.
	sigtest.HearCtrlC()
	os.Exit(m.Run())
}
