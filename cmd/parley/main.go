// Command parley coordinates multi-agent debates and files their verdicts.
// See README.md, or run "parley --help".
package main

import "os"

func main() {
	// SIGINT and SIGTERM end the command cleanly (see interruptContext).
	ctx := &interruptContext{}
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	ctx.release()
	os.Exit(exitCode(err, os.Stderr))
}
