package main

import (
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/bench"
)

// newBenchMessengerCmd is "parley bench messenger" (bench.RunMessenger).
func newBenchMessengerCmd(a *factory) *cobra.Command {
	o := bench.DefaultMessengerOptions
	var natsURL string
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
			if err := o.Check(); err != nil {
				return cmdutil.UsageError{Err: err}
			}
			if o.Backend.Name == bench.BackendNATS {
				o.Backend.NATSURL = a.benchNATSURL(natsURL)
			}
			return a.benchResult(bench.RunMessenger(cmd.Context(), o))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Backend.Name, "transport", o.Backend.Name, "file or nats")
	f.StringVar(&o.Dir, "dir", "", "directory to measure in (default: a temporary directory)")
	f.StringVar(&natsURL, "nats-url", "", "with --transport nats: the server to measure")
	f.IntVar(&o.Raw, "raw", o.Raw, "raw operations")
	f.IntVar(&o.Idle, "idle", o.Idle, "messages of the idle latency run")
	f.IntVar(&o.Stream, "stream", o.Stream, "messages of the 20 ms stream run")
	f.IntVar(&o.Throughput, "throughput", o.Throughput, "messages of the throughput run")
	return cmd
}

// newBenchSenderCmd is the hidden sender process of "parley bench
// messenger" (bench.RunSender): it prints a bench.SenderReport.
func newBenchSenderCmd(a *factory) *cobra.Command {
	var o bench.SenderOptions
	cmd := &cobra.Command{
		Use:    bench.SenderCommand,
		Hidden: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Root = a.RootDir()
			rep, err := bench.RunSender(cmd.Context(), o)
			if err != nil {
				return err
			}
			return a.Emit(rep)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.To, "to", "", "recipient")
	f.IntVar(&o.Count, "count", 100, "messages to send")
	f.DurationVar(&o.Interval, "interval", 0, "pause between sends")
	return cmd
}

// benchNATSURL is the NATS server a benchmark runs on: flag, else the
// "nats" section of config.json; "" is bench's default (jetstream.DefaultURL).
func (a *factory) benchNATSURL(flag string) string {
	if flag != "" {
		return flag
	}
	if cfg, err := a.Config(); err == nil {
		return cfg.NATS.URL
	}
	return ""
}
