package main

import (
	"io"

	"github.com/spf13/cobra"
)

// newBenchCmd is "parley bench [messenger|debate|consensus|gate]": whole-process
// performance figures (SPEC §11). Without a subcommand it runs them all.
func newBenchCmd(a *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench [messenger|cli|debate|consensus|gate]",
		Short: "Measure parley's performance against its speed targets (docs/performance.md)",
	}
	subs := benchCommands(a)
	for _, s := range subs {
		cmd.AddCommand(s)
	}
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		for _, s := range subs {
			s.SetContext(cmd.Context())
			if err := s.RunE(s, nil); err != nil {
				return err
			}
		}
		return nil
	}
	return cmd
}

// benchCommands lists the benchmarks, one file each (bench_<name>.go).
func benchCommands(a *factory) []*cobra.Command {
	return []*cobra.Command{
		newBenchGateCmd(a),
		newBenchConsensusCmd(a),
		newBenchMessengerCmd(a),
		newBenchDebateCmd(a),
		newBenchCLICmd(a),
	}
}

// benchResult prints a benchmark's result, unless the benchmark failed
// (err): a JSON line under --json, else its text.
func (a *factory) benchResult(r interface{ WriteText(io.Writer) error }, err error) error {
	if err != nil {
		return err
	}
	return a.show(r, r.WriteText)
}
