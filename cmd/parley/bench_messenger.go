package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	json "github.com/goccy/go-json"
	"github.com/nats-io/nats.go"
	njs "github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/jetstream"
)

// benchSenderCmd is the name of the hidden command that "parley bench
// messenger" re-executes as its sender process.
const benchSenderCmd = "bench-sender"

// messengerBench holds the figures of "parley bench messenger".
type messengerBench struct {
	Bench      string `json:"bench"`
	Transport  string `json:"transport"`
	Dir        string `json:"dir,omitempty"`
	FileSystem string `json:"filesystem,omitempty"`
	Server     string `json:"server,omitempty"`
	CPUs       int    `json:"cpus"`

	// Raw is the engine's own rate for what one delivery does: for files
	// the disk's write+fsync+rename+directory-fsync, for NATS a JetStream
	// publish awaiting its acknowledgement.
	Raw        *rawFigures    `json:"raw_write_fsync_rename_dirfsync,omitempty"`
	RawPublish *rawFigures    `json:"raw_jetstream_publish,omitempty"`
	Idle       latencyFigures `json:"latency_idle"`
	Stream     latencyFigures `json:"latency_stream"`
	Throughput struct {
		Messages       int     `json:"messages"`
		SendPerSec     float64 `json:"send_msgs_per_sec"`
		EndToEndPerSec float64 `json:"end_to_end_msgs_per_sec"`
		RawOverSend    float64 `json:"raw_over_send_ratio"`
		RawOverE2E     float64 `json:"raw_over_end_to_end_ratio"`
	} `json:"throughput"`
}

type rawFigures struct {
	Ops       int     `json:"ops"`
	MeanMs    float64 `json:"mean_ms"`
	P50Ms     float64 `json:"p50_ms"`
	OpsPerSec float64 `json:"ops_per_sec"`
}

type latencyFigures struct {
	Messages   int     `json:"messages"`
	IntervalMs float64 `json:"interval_ms"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
	// DiskP50Ms and DiskP99Ms (files only) are the disk's own
	// write+fsync+rename+dir-fsync at the same cadence: the floor a durable
	// delivery cannot go below, since a disk idle between writes flushes
	// more slowly than one written back to back.
	DiskP50Ms float64 `json:"disk_p50_ms,omitempty"`
	DiskP99Ms float64 `json:"disk_p99_ms,omitempty"`
}

func newBenchMessengerCmd(a *factory) *cobra.Command {
	var dir, transport, natsURL string
	var raw, idle, stream, through int
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
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch transport {
			case config.TransportFile, config.TransportNATS:
			default:
				return usagef("--transport %q: use file or nats", transport)
			}
			for _, c := range []struct {
				flag string
				n    int
			}{{"--raw", raw}, {"--idle", idle}, {"--stream", stream}, {"--throughput", through}} {
				if c.n < 1 {
					return usagef("%s %d: each run needs at least one operation", c.flag, c.n)
				}
			}
			return runMessengerBench(cmd.Context(), a, benchOptions{dir: dir, transport: transport, natsURL: natsURL,
				raw: raw, idle: idle, stream: stream, through: through})
		},
	}
	f := cmd.Flags()
	f.StringVar(&transport, "transport", config.TransportFile, "file or nats")
	f.StringVar(&dir, "dir", "", "directory to measure in (default: a temporary directory)")
	f.StringVar(&natsURL, "nats-url", "", "with --transport nats: the server to measure")
	f.IntVar(&raw, "raw", 1000, "raw operations")
	f.IntVar(&idle, "idle", 200, "messages of the idle latency run")
	f.IntVar(&stream, "stream", 500, "messages of the 20 ms stream run")
	f.IntVar(&through, "throughput", 2000, "messages of the throughput run")
	return cmd
}

type benchOptions struct {
	dir, transport, natsURL    string
	raw, idle, stream, through int
}

// benchTarget is the messenger a run measures: files under a directory, or
// a NATS server.
type benchTarget struct {
	dir     string // file transport: the runs' parent directory
	natsURL string // NATS transport: the server
}

// open returns a transport for run (a directory or an inbox name of its
// own), with its closer.
func (bt benchTarget) open(ctx context.Context, run string) (inbox.Transport, func(), error) {
	if bt.natsURL == "" {
		tr, err := inbox.NewFileTransport(filepath.Join(bt.dir, run))
		if err != nil {
			return nil, nil, err
		}
		return tr, func() { tr.Close() }, nil
	}
	c, err := jetstream.Connect(ctx, jetstream.Config{URL: bt.natsURL, Name: "parley bench"})
	if err != nil {
		return nil, nil, err
	}
	return c.Transport(), func() { c.Close() }, nil
}

// senderArgs are the sender process's arguments for run.
func (bt benchTarget) senderArgs(run string) []string {
	if bt.natsURL == "" {
		return []string{"--root", filepath.Join(bt.dir, run), benchSenderCmd}
	}
	return []string{benchSenderCmd, "--nats-url", bt.natsURL}
}

func runMessengerBench(ctx context.Context, a *factory, o benchOptions) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	dir := o.dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "parley-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	res := messengerBench{Bench: "messenger", Transport: o.transport, CPUs: runtime.NumCPU()}
	bt := benchTarget{dir: dir}
	if o.transport == config.TransportNATS {
		bt.natsURL = o.natsURL
		if bt.natsURL == "" {
			bt.natsURL = jetstream.DefaultURL
			if cfg, err := a.config(); err == nil && cfg.NATS.URL != "" {
				bt.natsURL = cfg.NATS.URL
			}
		}
		version, err := serverVersion(bt.natsURL)
		if err != nil {
			return &cliError{msg: fmt.Sprintf("%v; start a scratch server with: go run github.com/nats-io/nats-server/v2@v2.15.2 -js -sd DIR, and give --nats-url", err), err: err}
		}
		res.Server = bt.natsURL + " (nats-server " + version + ")"
		if !a.json {
			a.printf("parley bench messenger --transport nats: %s, %d CPUs\n", res.Server, res.CPUs)
		}
		raw, err := rawPublishRate(ctx, bt.natsURL, o.raw)
		if err != nil {
			return err
		}
		res.RawPublish = &raw
		if !a.json {
			a.printf("  raw JetStream publish+ack          %5d ops     mean %.3f ms  p50 %.3f ms  %.0f ops/s\n", raw.Ops, raw.MeanMs, raw.P50Ms, raw.OpsPerSec)
		}
	} else {
		res.Dir, res.FileSystem = dir, fsType(dir)
		if !a.json {
			a.printf("parley bench messenger: %s (%s), %d CPUs\n", dir, res.FileSystem, res.CPUs)
		}
		raw, err := rawRate(filepath.Join(dir, "raw"), o.raw)
		if err != nil {
			return err
		}
		res.Raw = &raw
		if !a.json {
			a.printf("  raw write+fsync+rename+dir-fsync  %5d ops     mean %.3f ms  p50 %.3f ms  %.0f ops/s\n", raw.Ops, raw.MeanMs, raw.P50Ms, raw.OpsPerSec)
		}
	}
	rawRate := res.rawOpsPerSec()
	sendRate, e2e, err := benchThroughput(ctx, exe, bt, o.through)
	if err != nil {
		return err
	}
	t := &res.Throughput
	t.Messages, t.SendPerSec, t.EndToEndPerSec = o.through, sendRate, e2e
	t.RawOverSend, t.RawOverE2E = rawRate/sendRate, rawRate/e2e
	if !a.json {
		a.printf("  throughput into one inbox         %5d msgs    send %.0f msg/s (raw/send %.2f×)  end to end with claim+ack %.0f msg/s (%.2f×)\n",
			o.through, sendRate, t.RawOverSend, e2e, t.RawOverE2E)
	}
	for _, run := range []struct {
		name     string
		n        int
		interval time.Duration
		out      *latencyFigures
	}{
		{"idle", o.idle, 50 * time.Millisecond, &res.Idle},
		{"stream", o.stream, 20 * time.Millisecond, &res.Stream},
	} {
		lat, err := benchLatency(ctx, exe, bt, run.name, run.n, run.interval)
		if err != nil {
			return err
		}
		*run.out = latencyFigures{Messages: run.n, IntervalMs: ms(run.interval), P50Ms: ms(pct(lat, 50)), P99Ms: ms(pct(lat, 99)), MaxMs: ms(lat[len(lat)-1])}
		floor := ""
		if o.transport != config.TransportNATS {
			disk, err := rawLatencies(filepath.Join(dir, "raw-"+run.name), min(run.n, 200), run.interval)
			if err != nil {
				return err
			}
			run.out.DiskP50Ms, run.out.DiskP99Ms = ms(pct(disk, 50)), ms(pct(disk, 99))
			floor = fmt.Sprintf("  (the disk alone at this cadence: p50 %.3f ms  p99 %.3f ms)", run.out.DiskP50Ms, run.out.DiskP99Ms)
		}
		if !a.json {
			a.printf("  latency, %-6s (1 msg / %2.0f ms)   %5d msgs    p50 %.3f ms  p99 %.3f ms  max %.3f ms%s\n",
				run.name, ms(run.interval), run.n, run.out.P50Ms, run.out.P99Ms, run.out.MaxMs, floor)
		}
	}
	if a.json {
		return a.emit(res)
	}
	return nil
}

func (r *messengerBench) rawOpsPerSec() float64 {
	if r.Raw != nil {
		return r.Raw.OpsPerSec
	}
	return r.RawPublish.OpsPerSec
}

// serverVersion connects to url and returns the server's version.
func serverVersion(url string) (string, error) {
	nc, err := nats.Connect(url, nats.Name("parley bench"), nats.Timeout(5*time.Second))
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", jetstream.ErrUnavailable, url, err)
	}
	defer nc.Close()
	return nc.ConnectedServerVersion(), nil
}

// rawPublishRate measures the server's own rate for what a delivery does:
// publish a 400-byte message to a file-backed stream and wait for its
// acknowledgement, back to back. It uses a scratch stream, deleted after.
func rawPublishRate(ctx context.Context, url string, n int) (rawFigures, error) {
	nc, err := nats.Connect(url, nats.Name("parley bench raw"))
	if err != nil {
		return rawFigures{}, err
	}
	defer nc.Close()
	js, err := njs.New(nc)
	if err != nil {
		return rawFigures{}, err
	}
	const name, subject = "PARLEY_BENCH_RAW", "parley-bench.raw"
	if _, err := js.CreateStream(ctx, njs.StreamConfig{Name: name, Subjects: []string{subject}, Storage: njs.FileStorage}); err != nil {
		return rawFigures{}, err
	}
	defer js.DeleteStream(context.WithoutCancel(ctx), name)
	data := make([]byte, 400)
	for i := range data {
		data[i] = 'x'
	}
	lat := make([]time.Duration, 0, n)
	start := time.Now()
	for range n {
		t0 := time.Now()
		if _, err := js.Publish(ctx, subject, data); err != nil {
			return rawFigures{}, err
		}
		lat = append(lat, time.Since(t0))
	}
	total := time.Since(start)
	slices.Sort(lat)
	return rawFigures{Ops: n, MeanMs: ms(total) / float64(n), P50Ms: ms(pct(lat, 50)), OpsPerSec: float64(n) / total.Seconds()}, nil
}

// rawRate measures the disk's own rate for what a delivery does: write a
// small file, fsync it, rename it into place, fsync the directory; back to
// back.
func rawRate(dir string, n int) (rawFigures, error) {
	start := time.Now()
	lat, err := rawLatencies(dir, n, 0)
	if err != nil {
		return rawFigures{}, err
	}
	total := time.Since(start)
	return rawFigures{Ops: n, MeanMs: ms(total) / float64(n), P50Ms: ms(pct(lat, 50)), OpsPerSec: float64(n) / total.Seconds()}, nil
}

// rawLatencies times n of the disk's own durable writes (write a small
// file, fsync it, rename it into place, fsync the directory), one every
// interval (0: back to back), and returns them sorted.
func rawLatencies(dir string, n int, interval time.Duration) ([]time.Duration, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	data := make([]byte, 400)
	for i := range data {
		data[i] = 'x'
	}
	lat := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		if interval > 0 {
			time.Sleep(interval)
		}
		t0 := time.Now()
		tmp := filepath.Join(dir, fmt.Sprintf(".raw-%d.tmp", i))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, filepath.Join(dir, fmt.Sprintf("raw-%d.json", i))); err != nil {
			return nil, err
		}
		if err := d.Sync(); err != nil {
			return nil, err
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	return lat, nil
}

// startSender starts the sender process of run: count messages to agent,
// one every interval (0: back to back).
func startSender(ctx context.Context, exe string, bt benchTarget, run, agent string, count int, interval time.Duration) (*exec.Cmd, *bufio.Reader, error) {
	args := append(bt.senderArgs(run), "--to", agent, "--count", strconv.Itoa(count), "--interval", interval.String())
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return cmd, bufio.NewReader(out), nil
}

// receiveAll claims and acks n messages, returning for each the time from
// the sender's Send call to the return of Receive.
func receiveAll(ctx context.Context, r inbox.Receiver, n int, cmd *exec.Cmd) ([]time.Duration, time.Time, time.Time, error) {
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		err := cmd.Wait()
		if err != nil {
			cancel()
		}
		done <- err
	}()
	lat := make([]time.Duration, 0, n)
	var first, last time.Time
	for i := 0; i < n; i++ {
		d, err := r.Receive(ctx)
		now := time.Now()
		if err != nil {
			if werr := <-done; werr != nil {
				return nil, first, last, fmt.Errorf("sender process: %w", werr)
			}
			return nil, first, last, err
		}
		var f struct {
			SentUnixNs int64 `json:"sent_unix_ns"`
		}
		if err := d.Message.DecodeFields(&f); err != nil {
			return nil, first, last, err
		}
		sent := time.Unix(0, f.SentUnixNs)
		if i == 0 {
			first = sent
		}
		last = now
		lat = append(lat, now.Sub(sent))
		if err := r.Ack(ctx, d); err != nil {
			return nil, first, last, err
		}
	}
	if err := <-done; err != nil {
		return nil, first, last, fmt.Errorf("sender process: %w", err)
	}
	return lat, first, last, nil
}

// benchInbox opens the receiving side of run: agent's inbox, listened to.
func benchInbox(ctx context.Context, bt benchTarget, run, agent string) (inbox.Receiver, func(), error) {
	tr, closeTr, err := bt.open(ctx, run)
	if err != nil {
		return nil, nil, err
	}
	if err := tr.Create(ctx, agent); err != nil {
		closeTr()
		return nil, nil, err
	}
	r, err := tr.Listen(ctx, agent)
	if err != nil {
		closeTr()
		return nil, nil, err
	}
	// The first Receive runs the initial scan before any message exists.
	pctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _ = r.Receive(pctx)
	return r, func() { r.Close(); closeTr() }, nil
}

// benchAgent names the receiving agent of a run: runs on one NATS server
// need inboxes of their own.
func benchAgent(run string) string { return "Receiver_" + run }

func benchLatency(ctx context.Context, exe string, bt benchTarget, run string, n int, interval time.Duration) ([]time.Duration, error) {
	r, done, err := benchInbox(ctx, bt, run, benchAgent(run))
	if err != nil {
		return nil, err
	}
	defer done()
	cmd, _, err := startSender(ctx, exe, bt, run, benchAgent(run), n, interval)
	if err != nil {
		return nil, err
	}
	lat, _, _, err := receiveAll(ctx, r, n, cmd)
	if err != nil {
		return nil, err
	}
	slices.Sort(lat)
	return lat, nil
}

func benchThroughput(ctx context.Context, exe string, bt benchTarget, n int) (sendRate, e2e float64, err error) {
	const run = "throughput"
	r, done, err := benchInbox(ctx, bt, run, benchAgent(run))
	if err != nil {
		return 0, 0, err
	}
	defer done()
	cmd, out, err := startSender(ctx, exe, bt, run, benchAgent(run), n, 0)
	if err != nil {
		return 0, 0, err
	}
	var report senderReport
	rep := make(chan error, 1)
	go func() { rep <- json.NewDecoder(out).Decode(&report) }()
	_, first, last, err := receiveAll(ctx, r, n, cmd)
	if err != nil {
		return 0, 0, err
	}
	if err := <-rep; err != nil {
		return 0, 0, fmt.Errorf("sender report: %w", err)
	}
	return float64(n) / time.Duration(report.ElapsedNs).Seconds(), float64(n) / last.Sub(first).Seconds(), nil
}

// senderReport is what the sender process prints when it is done.
type senderReport struct {
	Sent      int   `json:"sent"`
	ElapsedNs int64 `json:"elapsed_ns"`
}

// newBenchSenderCmd is the hidden sender process of "parley bench
// messenger": it sends --count messages, each stamped with the time its
// Send started, then prints a senderReport.
func newBenchSenderCmd(a *factory) *cobra.Command {
	var to, natsURL string
	var count int
	var interval time.Duration
	cmd := &cobra.Command{
		Use:    benchSenderCmd,
		Hidden: true,
		Args:   exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			bt := benchTarget{dir: a.rootDir(), natsURL: natsURL}
			tr, done, err := bt.open(ctx, "")
			if err != nil {
				return err
			}
			defer done()
			start := time.Now()
			next := start
			for i := 0; i < count; i++ {
				if interval > 0 {
					next = next.Add(interval)
					time.Sleep(time.Until(next))
				}
				m := &inbox.Message{From: "Sender", To: to, Text: "bench " + strconv.Itoa(i), Type: "bench"}
				if err := m.SetFields(map[string]any{"sent_unix_ns": time.Now().UnixNano(), "seq": i}); err != nil {
					return err
				}
				if err := tr.Send(ctx, m); err != nil {
					return err
				}
			}
			return a.emit(senderReport{Sent: count, ElapsedNs: time.Since(start).Nanoseconds()})
		},
	}
	f := cmd.Flags()
	f.StringVar(&to, "to", "", "recipient")
	f.StringVar(&natsURL, "nats-url", "", "send through this NATS server")
	f.IntVar(&count, "count", 100, "messages to send")
	f.DurationVar(&interval, "interval", 0, "pause between sends")
	return cmd
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// pct returns the p-th percentile of sorted durations (nearest rank).
func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
