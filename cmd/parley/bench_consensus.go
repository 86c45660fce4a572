package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/bench"
)

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
		Example: "  parley bench consensus\n  parley bench consensus --records 100000 --json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Records < 1 || o.Checks < 1 || o.Processes < 1 || o.Filings < 1 {
				return usagef("--records, --checks, --processes and --filings must be at least 1")
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if exe, err := os.Executable(); err == nil {
				o.Parley = exe
			}
			if !a.json {
				o.Progress = cmd.ErrOrStderr()
			}
			res, err := bench.RunConsensus(ctx, o)
			if err != nil {
				return err
			}
			if a.json {
				return a.emit(res)
			}
			printConsensusBench(a, res)
			return nil
		},
	}
	cmd.Flags().IntVar(&o.Records, "records", o.Records, "records in the generated vault")
	cmd.Flags().IntVar(&o.Checks, "checks", o.Checks, "warm checks (and a twentieth as many searches) to time")
	cmd.Flags().IntVar(&o.Processes, "processes", o.Processes, "checks to time as new processes")
	cmd.Flags().IntVar(&o.Filings, "filings", o.Filings, "records to file one at a time into the full vault")
	return cmd
}

func printConsensusBench(a *factory, r *bench.ConsensusResult) {
	a.printf("consensus, %d records, %d CPUs, load %.2f → %.2f (bars: warm check p50 ≤ 1 ms, new process ≤ 100 ms, cold rebuild ≤ 10 s, memory ≤ 150 MB)\n",
		r.Records, r.CPUs, r.LoadBefore, r.LoadAfter)
	a.printf("  %-22s %10s  %s\n", "", "parley", "baseline")
	a.printf("  %-22s %7.0f ms  generating %.0f ms; index %.1f MB\n", "import (bulk, no fsync)", r.ImportMs, r.GenerateMs, r.IndexMB)
	a.printf("  %-22s %7.1f ms  page write with fsync %.1f ms  (p50 of %d, max %.1f ms, %d record reads)\n", "filing one record", r.FilingP50Ms, r.PageWriteP50Ms, r.Filings, r.FilingMaxMs, r.FilingIndexReads)
	a.printf("  %-22s %7.0f ms  reading every record file %.0f ms  (%.0f ms CPU, peak %.1f MB)\n", "cold rebuild", r.ColdRebuildMs, r.ReadAllMs, r.ColdRebuildCPUMs, r.ColdRebuildRSSMB)
	a.printf("  %-22s %7.1f ms  parley --help %.1f ms  (p50 of %d, max %.1f ms)\n", "check, new process", r.NewProcessP50Ms, r.ProcessFloorP50Ms, r.NewProcessRuns, r.NewProcessMaxMs)
	a.printf("  %-22s %7.1f MB  parley --help %.1f MB  (peak resident)\n", "memory of a check", r.NewProcessRSSMB, r.ProcessFloorRSSMB)
	a.printf("  %-22s %7.0f µs  SELECT by name %.0f µs  (p50 of %d; p99 %.0f µs; %.0f µs CPU per check; %d record reads)\n", "warm check", r.WarmCheckP50Us, r.SelectP50Us, r.WarmChecks, r.WarmCheckP99Us, r.WarmCheckCPUUs, r.WarmRecordReads)
	a.printf("  %-22s %7.0f µs  (p50 of %d; p99 %.0f µs)\n", "search", r.SearchP50Us, r.Searches, r.SearchP99Us)
	a.printf("  warm check p50 by question: %v\n  answers: %v\n", r.WarmByKindP50Us, r.Answers)
}
