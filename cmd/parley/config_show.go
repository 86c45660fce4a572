package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/config"
)

// newConfigCmd is "parley config show".
func newConfigCmd(a *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show parley's settings (<root>/config.json)",
		Args:  exactArgs(0),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration: config.json with every default filled in",
		Long: "Prints the settings in force as a complete config.json: the file's values, and the\n" +
			"default of every key it leaves out. The output is itself a valid config.json.\n" +
			"With --json it is one line; the file it came from is named on stderr.",
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.config()
			if err != nil {
				return err
			}
			path := filepath.Join(a.rootDir(), config.FileName)
			source := path
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				source = "no " + path + ": all defaults"
			}
			fmt.Fprintf(a.stderr, "parley: effective configuration (%s)\n", source)
			eff := cfg.Effective()
			if a.json {
				return a.emit(eff)
			}
			b, err := json.MarshalIndent(eff, "", "  ")
			if err != nil {
				return err
			}
			a.printf("%s\n", b)
			return nil
		},
	})
	return cmd
}
