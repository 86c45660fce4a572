package main

import (
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/bench"
)

// newBenchDebateCmd is "parley bench debate" (bench.RunDebate).
func newBenchDebateCmd(a *factory) *cobra.Command {
	o := bench.DefaultDebateOptions
	var backends []string
	var natsURL string
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
			if err := o.Check(); err != nil {
				return cmdutil.UsageError{Err: err}
			}
			var err error
			if o.Backends, err = bench.ParseBackends(backends, a.benchNATSURL(natsURL)); err != nil {
				return cmdutil.Usagef("--backends: %v", err)
			}
			o.Env = cmdutil.ChildEnv
			return bench.RunDebate(cmd.Context(), o, func(r *bench.DebateResult) error { return a.benchResult(r, nil) })
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.Sequential, "debates", o.Sequential, "debates run one after another for the per-turn figure")
	f.IntVar(&o.Concurrent, "concurrent", o.Concurrent, "debates run at once")
	f.IntVar(&o.Rounds, "rounds", o.Rounds, "rounds per debate (2 turns each)")
	f.StringSliceVar(&backends, "backends", []string{bench.BackendFile}, "messenger backends of the agent-process runs: file, nats (none: --backends '')")
	f.IntVar(&o.AgentPairs, "agent-pairs", o.AgentPairs, "pairs of agent processes of each agent-process run")
	f.StringVar(&natsURL, "nats-url", "", "the NATS server of the nats backend")
	f.StringVar(&o.Dir, "dir", "", "directory of the agent-process runs (default: a temporary directory)")
	return cmd
}
