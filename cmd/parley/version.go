package main

import (
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// printVersion prints the version as one line, or one JSON object under
// --json. (The fast path, cmd/parley/internal/fastpath, prints the same
// before the rest of parley is initialised.)
func printVersion(a *factory) error {
	v := app.BuildVersion()
	if a.JSON {
		return a.Emit(v)
	}
	a.Printf("%s\n", v)
	return nil
}

// newVersionCmd is "parley version", the same as "parley --version".
func newVersionCmd(a *factory) *cobra.Command {
	return cmdutil.WaitsLazily(&cobra.Command{
		Use:   "version",
		Short: "Print parley's version and the revision it was built from",
		Long: "Print the module version, the VCS revision and time it was built from (when the\n" +
			"build recorded them), and the Go version. The same as parley --version.",
		// The version reads no root: no check of one that may not be trusted.
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE:              func(*cobra.Command, []string) error { return printVersion(a) },
	})
}
