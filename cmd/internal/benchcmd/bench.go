// Package benchcmd is "parley bench": whole-process performance figures,
// each beside a baseline measured in the same run. The benchmarks
// themselves and their results are package internal/bench's; this package
// owns their flags and how their results are printed.
//
// Each command is an options struct, a constructor NewCmdX(f, runF) and a
// run function, as in GitHub's gh (see cmdutil.Runner): the options are
// checked (exit 2) before anything is measured. It imports no other
// command package.
package benchcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/bench"
)

// NewCmd is "parley bench [messenger|cli|debate|consensus|gate]". Without
// a subcommand it runs them all, in order, and stops at the first failure.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench [messenger|cli|debate|consensus|gate]",
		Short: "Measure parley's performance against its speed targets (docs/performance.md)",
	}
	subs := []*cobra.Command{
		NewCmdGate(f, nil),
		NewCmdConsensus(f, nil),
		NewCmdMessenger(f, nil),
		NewCmdDebate(f, nil),
		NewCmdCLI(f, nil),
	}
	cmd.AddCommand(subs...)
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

// result prints a benchmark's result, unless the benchmark failed (err,
// as stopped words it): a JSON line under --json, else its text.
func result(ctx context.Context, f *cmdutil.Factory, r interface{ WriteText(io.Writer) error }, err error) error {
	if err != nil {
		return stopped(ctx, err)
	}
	return f.Show(r, r.WriteText)
}

// stopped is a benchmark's error err, unless the command's context ended
// (Ctrl-C, SIGTERM): then, whatever err says of it (a cancelled read, a
// sender process killed), the benchmark was cut short, which is
// cmdutil.ErrInterrupted (exit 130).
func stopped(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w: the benchmark stopped before it finished", cmdutil.ErrInterrupted)
	}
	return err
}

// natsURL is the NATS server a benchmark runs on: the flag, else the
// "nats" section of config.json; "" is bench's default
// (jetstream.DefaultURL).
func natsURL(f *cmdutil.Factory, flag string) string {
	if flag != "" {
		return flag
	}
	if cfg, err := f.Config(); err == nil {
		return cfg.NATS.URL
	}
	return ""
}

// GateOptions are what "parley bench gate" was asked for.
type GateOptions struct {
	f        *cmdutil.Factory
	Duration time.Duration // how long each figure is measured
}

// NewCmdGate is "parley bench gate" (bench.RunGate).
func NewCmdGate(f *cmdutil.Factory, runF func(*GateOptions) error) *cobra.Command {
	opts := &GateOptions{f: f}
	run := cmdutil.Runner(opts, runF, func(ctx context.Context, o *GateOptions) error {
		r, err := bench.RunGate(ctx, o.Duration)
		return result(ctx, o.f, r, err)
	})
	cmd := &cobra.Command{
		Use:   "gate",
		Short: "Gate decisions per second on one core (bar: 20,000/s)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Duration <= 0 {
				return cmdutil.Usagef("--duration %v: measure for some time", opts.Duration)
			}
			return run(cmd)
		},
	}
	cmd.Flags().DurationVar(&opts.Duration, "duration", 2*time.Second, "how long to measure each figure")
	return cmd
}

// ConsensusOptions are what "parley bench consensus" was asked for.
type ConsensusOptions struct {
	f     *cmdutil.Factory
	Bench bench.ConsensusOptions
}

// NewCmdConsensus is "parley bench consensus" (bench.RunConsensus).
func NewCmdConsensus(f *cmdutil.Factory, runF func(*ConsensusOptions) error) *cobra.Command {
	opts := &ConsensusOptions{f: f, Bench: bench.DefaultConsensusOptions}
	run := cmdutil.Runner(opts, runF, consensusRun)
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
			if err := opts.Bench.Check(); err != nil {
				return cmdutil.UsageError{Err: err}
			}
			return run(cmd)
		},
	}
	o := &opts.Bench
	cmd.Flags().IntVar(&o.Records, "records", o.Records, "records in the generated vault")
	cmd.Flags().IntVar(&o.Checks, "checks", o.Checks, "warm checks (and a twentieth as many searches) to time")
	cmd.Flags().IntVar(&o.Processes, "processes", o.Processes, "checks to time as new processes")
	cmd.Flags().IntVar(&o.Filings, "filings", o.Filings, "records to file one at a time into the full vault")
	return cmd
}

func consensusRun(ctx context.Context, opts *ConsensusOptions) error {
	o := opts.Bench
	if exe, err := os.Executable(); err == nil {
		o.Parley = exe
	}
	if !opts.f.JSON {
		o.Progress = opts.f.Stderr
	}
	r, err := bench.RunConsensus(ctx, o)
	return result(ctx, opts.f, r, err)
}

// MessengerOptions are what "parley bench messenger" was asked for.
type MessengerOptions struct {
	f     *cmdutil.Factory
	Bench bench.MessengerOptions
	// NATSURL is --nats-url: with --transport nats, the server measured.
	NATSURL string
}

// NewCmdMessenger is "parley bench messenger" (bench.RunMessenger).
func NewCmdMessenger(f *cmdutil.Factory, runF func(*MessengerOptions) error) *cobra.Command {
	opts := &MessengerOptions{f: f, Bench: bench.DefaultMessengerOptions}
	run := cmdutil.Runner(opts, runF, func(ctx context.Context, opts *MessengerOptions) error {
		o := opts.Bench
		if o.Backend.Name == bench.BackendNATS {
			o.Backend.NATSURL = natsURL(opts.f, opts.NATSURL)
		}
		r, err := bench.RunMessenger(ctx, o)
		return result(ctx, opts.f, r, err)
	})
	cmd := &cobra.Command{
		Use:   "messenger [--transport file|nats] [--json]",
		Short: "Delivery latency and throughput between separate processes, beside the engine's own rate",
		Long: "Measures, in one run:\n" +
			"  raw         the engine's own rate for one delivery: for files the small-file\n" +
			"              write+fsync+rename+directory-fsync, for NATS a JetStream publish\n" +
			"              awaiting its acknowledgement;\n" +
			"  idle        delivery latency (send start → receive) between a separate sender\n" +
			"              process and this receiver, one message every 50 ms;\n" +
			"  stream      the same under a steady stream of one message every 20 ms;\n" +
			"  throughput  one sender process sending back to back into one inbox while this\n" +
			"              process claims and acknowledges.\n" +
			"--transport file (the default) measures the file messenger on --dir, every\n" +
			"delivery fsynced. --transport nats measures the JetStream transport on the\n" +
			"server of --nats-url (default: the \"nats\" section of config.json, else\n" +
			"nats://127.0.0.1:4222); start one with\n" +
			"  go run github.com/nats-io/nats-server/v2@v2.15.2 -js -sd DIR\n" +
			"(its stream and buckets are parley's; run it on a scratch server).",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Bench.Check(); err != nil {
				return cmdutil.UsageError{Err: err}
			}
			return run(cmd)
		},
	}
	o := &opts.Bench
	fl := cmd.Flags()
	fl.StringVar(&o.Backend.Name, "transport", o.Backend.Name, "file or nats")
	fl.StringVar(&o.Dir, "dir", "", "file system to measure on: the run uses, then removes, a temporary directory inside `DIR` (default: the system's temporary directory)")
	fl.StringVar(&opts.NATSURL, "nats-url", "", "with --transport nats: the server to measure")
	fl.IntVar(&o.Raw, "raw", o.Raw, "raw operations")
	fl.IntVar(&o.Idle, "idle", o.Idle, "messages of the idle latency run")
	fl.IntVar(&o.Stream, "stream", o.Stream, "messages of the 20 ms stream run")
	fl.IntVar(&o.Throughput, "throughput", o.Throughput, "messages of the throughput run")
	return cmd
}

// SenderOptions are what the hidden sender process of "parley bench
// messenger" was asked for.
type SenderOptions struct {
	f     *cmdutil.Factory
	Bench bench.SenderOptions
}

// NewCmdSender is the hidden sender process of "parley bench messenger"
// (bench.RunSender): it prints a bench.SenderReport.
func NewCmdSender(f *cmdutil.Factory, runF func(*SenderOptions) error) *cobra.Command {
	opts := &SenderOptions{f: f}
	run := cmdutil.Runner(opts, runF, func(ctx context.Context, opts *SenderOptions) error {
		o := opts.Bench
		o.Root = opts.f.RootDir()
		rep, err := bench.RunSender(ctx, o)
		if err != nil {
			return err
		}
		return opts.f.Emit(rep)
	})
	cmd := &cobra.Command{
		Use:    bench.SenderCommand,
		Hidden: true,
		RunE:   func(cmd *cobra.Command, _ []string) error { return run(cmd) },
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Bench.To, "to", "", "recipient")
	fl.IntVar(&opts.Bench.Count, "count", 100, "messages to send")
	fl.DurationVar(&opts.Bench.Interval, "interval", 0, "pause between sends")
	return cmd
}

// DebateOptions are what "parley bench debate" was asked for.
type DebateOptions struct {
	f     *cmdutil.Factory
	Bench bench.DebateOptions
	// Backends and NATSURL are --backends and --nats-url as given; Bench's
	// backends are made of them.
	Backends []string
	NATSURL  string
}

// NewCmdDebate is "parley bench debate" (bench.RunDebate).
func NewCmdDebate(f *cmdutil.Factory, runF func(*DebateOptions) error) *cobra.Command {
	opts := &DebateOptions{f: f, Bench: bench.DefaultDebateOptions}
	run := cmdutil.Runner(opts, runF, func(ctx context.Context, opts *DebateOptions) error {
		o := opts.Bench
		o.Env = cmdutil.ChildEnv
		return stopped(ctx, bench.RunDebate(ctx, o, func(r *bench.DebateResult) error { return result(ctx, opts.f, r, nil) }))
	})
	cmd := &cobra.Command{
		Use:   "debate [--backends file,nats]",
		Short: "Coordinator overhead per turn, and concurrent debates to completion, with agents in this process and as processes",
		Long: "Measures, with agents that answer at once:\n" +
			"  turn_*        the coordinator's time per turn, --debates debates one after\n" +
			"                another, agents in this process (memory and file transports);\n" +
			"  concurrent_*  --concurrent debates at once, agents in this process;\n" +
			"  processes_*   on each messenger backend of --backends (file, nats), --concurrent\n" +
			"                debates at once spoken by --agent-pairs pairs of 'parley agent run\n" +
			"                --script' processes, as a user runs them: debates/s, a turn's\n" +
			"                latency (request → recorded turn, p50 and p99) and CPU time.\n" +
			"The nats backend uses the server of --nats-url (default: the \"nats\" section of\n" +
			"config.json, else nats://127.0.0.1:4222), e.g. a scratch one started with\n" +
			"  go run github.com/nats-io/nats-server/v2@v2.15.2 -js -sd DIR",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Bench.Check(); err != nil {
				return cmdutil.UsageError{Err: err}
			}
			var err error
			if opts.Bench.Backends, err = bench.ParseBackends(opts.Backends, natsURL(f, opts.NATSURL)); err != nil {
				return cmdutil.Usagef("--backends: %v", err)
			}
			return run(cmd)
		},
	}
	o := &opts.Bench
	fl := cmd.Flags()
	fl.IntVar(&o.Sequential, "debates", o.Sequential, "debates run one after another for the per-turn figure")
	fl.IntVar(&o.Concurrent, "concurrent", o.Concurrent, "debates run at once")
	fl.IntVar(&o.Rounds, "rounds", o.Rounds, "rounds per debate (2 turns each)")
	fl.StringSliceVar(&opts.Backends, "backends", []string{bench.BackendFile}, "messenger backends of the agent-process runs: file, nats (none: --backends '')")
	fl.IntVar(&o.AgentPairs, "agent-pairs", o.AgentPairs, "pairs of agent processes of each agent-process run")
	fl.StringVar(&opts.NATSURL, "nats-url", "", "the NATS server of the nats backend")
	fl.StringVar(&o.Dir, "dir", "", "directory to keep the agent-process runs in (default: a temporary directory, removed after)")
	return cmd
}

// CLIOptions are what "parley bench cli" was asked for.
type CLIOptions struct {
	f     *cmdutil.Factory
	Bench bench.CLIOptions
	// partOfAll: run by "parley bench" with the others, where a machine
	// without the Go toolchain skips it with a warning.
	partOfAll bool
}

// NewCmdCLI is "parley bench cli" (bench.RunCLI): a message through the
// command line, beside a minimal program's durable write.
func NewCmdCLI(f *cmdutil.Factory, runF func(*CLIOptions) error) *cobra.Command {
	opts := &CLIOptions{f: f, Bench: bench.DefaultCLIOptions}
	run := cmdutil.Runner(opts, runF, cliRun)
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
			if err := opts.Bench.Check(); err != nil {
				return cmdutil.UsageError{Err: err}
			}
			opts.partOfAll = cmd.CalledAs() == ""
			return run(cmd)
		},
	}
	o := &opts.Bench
	fl := cmd.Flags()
	fl.StringVar(&o.Dir, "dir", "", "file system to measure on: the run uses, then removes, a temporary directory inside `DIR` (default: the system's temporary directory)")
	fl.StringVar(&o.Floor, "floor", "", "the minimal program's binary (default: build it with go)")
	fl.StringVar(&o.Parley, "parley", "", "the parley binary to measure (default: this one), e.g. a release build or an older version")
	fl.IntVar(&o.Idle, "idle", o.Idle, "paired idle rounds")
	fl.DurationVar(&o.IdleGap, "idle-gap", o.IdleGap, "pause after each idle send")
	fl.IntVar(&o.Stream, "stream", o.Stream, "messages per side in each stream block")
	fl.IntVar(&o.Blocks, "blocks", o.Blocks, "paired stream blocks")
	fl.DurationVar(&o.Interval, "interval", o.Interval, "the stream's cadence")
	fl.IntVar(&o.Senders, "senders", o.Senders, "concurrent sender processes of the throughput run")
	fl.IntVar(&o.PerSender, "per-sender", o.PerSender, "messages each concurrent sender sends per round")
	fl.IntVar(&o.Rounds, "rounds", o.Rounds, "paired throughput rounds")
	return cmd
}

func cliRun(ctx context.Context, opts *CLIOptions) error {
	f, o := opts.f, opts.Bench
	if !f.JSON {
		o.Progress = f.Stderr
	}
	res, err := bench.RunCLI(ctx, o)
	if errors.Is(err, bench.ErrNoToolchain) && opts.partOfAll {
		// Part of "parley bench" (all of them): say so and go on.
		f.Warnf("bench cli skipped: %v (pass --floor to parley bench cli)", bench.ErrNoToolchain)
		return nil
	}
	return result(ctx, f, res, err)
}
