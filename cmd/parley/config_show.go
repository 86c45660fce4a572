package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/textview"
)

// newConfigCmd is "parley config show" (app.ShowConfig).
func newConfigCmd(a *factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "config",
		Short: "Show parley's settings (<root>/config.json)",
	}, &cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration: config.json with every default filled in",
		Long: "Prints the settings in force as a complete config.json: the file's values, and the\n" +
			"default of every key it leaves out. The output is itself a valid config.json.\n" +
			"With --json it is one line; the file it came from is named on stderr.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := a.Service().ShowConfig()
			if err != nil {
				return err
			}
			textview.ConfigSource(a.Stderr, c)
			return a.Show(c.Effective, func(w io.Writer) error { return textview.Config(w, c) })
		},
	})
}
