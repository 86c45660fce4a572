package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/bench"
)

// newBenchCLICmd is "parley bench cli" (bench.RunCLI): a message through
// the command line, beside a minimal program's durable write.
func newBenchCLICmd(a *factory) *cobra.Command {
	o := bench.DefaultCLIOptions
	cmd := &cobra.Command{
		Use:   "cli [--dir DIR] [--floor PATH]",
		Short: "Latency, CPU and throughput of parley send processes, beside a minimal program's durable write",
		Long: "Spawns one 'parley send' process per message against a 'parley watch' process,\n" +
			"and, in the same run and at the same cadence, a minimal Go program (standard\n" +
			"library only) that does the same durable write (staging file, fsync, rename,\n" +
			"directory fsync) against a minimal inotify watcher. Rounds are paired and\n" +
			"alternate which side goes first. It prints, for both and as ratios:\n" +
			"  idle        latency from spawning the sender to the watcher's line, one send\n" +
			"              every --idle-gap;\n" +
			"  stream      the same with one sender spawned every --interval;\n" +
			"  cpu         user+system CPU time of one sender process, and of starting one\n" +
			"              that does nothing (parley --version; the minimal program);\n" +
			"  throughput  messages per second with --senders sender processes at a time;\n" +
			"and checks that every message arrived once, in send order per sender.\n\n" +
			"The minimal program is built from its source with the Go toolchain (go on PATH),\n" +
			"or given with --floor (go build -o floor ./internal/bench/floor). It is a separate\n" +
			"binary on purpose: re-running parley would carry parley's own start-up into the floor.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Check(); err != nil {
				return cmdutil.UsageError{Err: err}
			}
			if !a.JSON {
				o.Progress = a.Stderr
			}
			res, err := bench.RunCLI(cmd.Context(), o)
			if errors.Is(err, bench.ErrNoToolchain) && cmd.CalledAs() == "" {
				// Part of "parley bench" (all of them): say so and go on.
				a.Warnf("bench cli skipped: %v (pass --floor to parley bench cli)", bench.ErrNoToolchain)
				return nil
			}
			return a.benchResult(res, err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Dir, "dir", "", "directory to measure in (default: a temporary directory)")
	f.StringVar(&o.Floor, "floor", "", "the minimal program's binary (default: build it with go)")
	f.StringVar(&o.Parley, "parley", "", "the parley binary to measure (default: this one), e.g. a release build or an older version")
	f.IntVar(&o.Idle, "idle", o.Idle, "paired idle rounds")
	f.DurationVar(&o.IdleGap, "idle-gap", o.IdleGap, "pause after each idle send")
	f.IntVar(&o.Stream, "stream", o.Stream, "messages per side in each stream block")
	f.IntVar(&o.Blocks, "blocks", o.Blocks, "paired stream blocks")
	f.DurationVar(&o.Interval, "interval", o.Interval, "the stream's cadence")
	f.IntVar(&o.Senders, "senders", o.Senders, "concurrent sender processes of the throughput run")
	f.IntVar(&o.PerSender, "per-sender", o.PerSender, "messages each concurrent sender sends per round")
	f.IntVar(&o.Rounds, "rounds", o.Rounds, "paired throughput rounds")
	return cmd
}
