package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/bench"
)

// newBenchConsensusCmd is "parley bench consensus" (bench.RunConsensus).
func newBenchConsensusCmd(a *factory) *cobra.Command {
	o := bench.DefaultConsensusOptions
	cmd := &cobra.Command{
		Use:   "consensus",
		Short: "Consensus lookup over a generated vault: filing, cold rebuild, a check in a new process, warm checks",
		Long: "Generates a vault of --records varied records (written in bulk, the index built\n" +
			"in one transaction), then measures, each beside a baseline taken in the same run:\n" +
			"filing one record at a time (beside one page write with fsync), the cold rebuild\n" +
			"of the lookup index (beside reading every record file), \"parley consensus check\"\n" +
			"as a new process with its peak memory (beside \"parley --help\"), and warm checks\n" +
			"and searches (beside one SELECT on the same database).\n" +
			"Bars: warm check p50 ≤ 1 ms, new process ≤ 100 ms, cold rebuild ≤ 10 s,\n" +
			"memory of a check ≤ 150 MB.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Check(); err != nil {
				return cmdutil.UsageError{Err: err}
			}
			if exe, err := os.Executable(); err == nil {
				o.Parley = exe
			}
			if !a.JSON {
				o.Progress = cmd.ErrOrStderr()
			}
			return a.benchResult(bench.RunConsensus(cmd.Context(), o))
		},
	}
	cmd.Flags().IntVar(&o.Records, "records", o.Records, "records in the generated vault")
	cmd.Flags().IntVar(&o.Checks, "checks", o.Checks, "warm checks (and a twentieth as many searches) to time")
	cmd.Flags().IntVar(&o.Processes, "processes", o.Processes, "checks to time as new processes")
	cmd.Flags().IntVar(&o.Filings, "filings", o.Filings, "records to file one at a time into the full vault")
	return cmd
}
