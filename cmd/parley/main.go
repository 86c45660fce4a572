// Command parley coordinates multi-agent debates and files their verdicts.
// See README.md, or run "parley --help".
package main

import (
	"os"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	// A plain send is sent, and the process ends, in its initialisation.
	_ "github.com/parleyhq/parley/cmd/parley/internal/fastpath"
	"github.com/parleyhq/parley/internal/interrupt"
)

func main() {
	// SIGINT and SIGTERM end the command cleanly (see interrupt.Context).
	ctx := &interrupt.Context{}
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	ctx.Release()
	os.Exit(cmdutil.ExitCode(err, os.Stderr))
}
