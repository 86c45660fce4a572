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
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/inbox"
)

// benchSenderCmd is the name of the hidden command that "parley bench
// messenger" re-executes as its sender process.
const benchSenderCmd = "bench-sender"

// messengerBench holds the figures of "parley bench messenger".
type messengerBench struct {
	Bench      string `json:"bench"`
	Dir        string `json:"dir"`
	FileSystem string `json:"filesystem"`
	CPUs       int    `json:"cpus"`

	Raw        rawFigures     `json:"raw_write_fsync_rename_dirfsync"`
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
}

func newBenchMessengerCmd(a *app) *cobra.Command {
	var dir string
	var raw, idle, stream, through int
	cmd := &cobra.Command{
		Use:   "messenger [--json]",
		Short: "Delivery latency and throughput between separate processes, beside the disk's own rate",
		Long: "Measures, on one file system and in one run:\n" +
			"  raw         the machine's small-file write+fsync+rename+directory-fsync rate;\n" +
			"  idle        delivery latency (send start → receive) between a separate sender\n" +
			"              process and this receiver, one message every 50 ms;\n" +
			"  stream      the same under a steady stream of one message every 20 ms;\n" +
			"  throughput  one sender process sending back to back into one inbox while this\n" +
			"              process claims and acknowledges.\n" +
			"Every delivery is durable (fsync of the file and the directory).",
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMessengerBench(cmd.Context(), a, dir, raw, idle, stream, through)
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "dir", "", "directory to measure in (default: a temporary directory)")
	f.IntVar(&raw, "raw", 1000, "raw write+fsync+rename operations")
	f.IntVar(&idle, "idle", 200, "messages of the idle latency run")
	f.IntVar(&stream, "stream", 500, "messages of the 20 ms stream run")
	f.IntVar(&through, "throughput", 2000, "messages of the throughput run")
	return cmd
}

func runMessengerBench(ctx context.Context, a *app, dir string, nRaw, nIdle, nStream, nThrough int) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "parley-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	res := messengerBench{Bench: "messenger", Dir: dir, FileSystem: fsType(dir), CPUs: runtime.NumCPU()}
	if !a.json {
		a.printf("parley bench messenger: %s (%s), %d CPUs\n", dir, res.FileSystem, res.CPUs)
	}
	if res.Raw, err = rawRate(filepath.Join(dir, "raw"), nRaw); err != nil {
		return err
	}
	if !a.json {
		a.printf("  raw write+fsync+rename+dir-fsync  %5d ops     mean %.3f ms  p50 %.3f ms  %.0f ops/s\n", res.Raw.Ops, res.Raw.MeanMs, res.Raw.P50Ms, res.Raw.OpsPerSec)
	}
	sendRate, e2e, err := benchThroughput(ctx, exe, filepath.Join(dir, "throughput"), nThrough)
	if err != nil {
		return err
	}
	t := &res.Throughput
	t.Messages, t.SendPerSec, t.EndToEndPerSec = nThrough, sendRate, e2e
	t.RawOverSend, t.RawOverE2E = res.Raw.OpsPerSec/sendRate, res.Raw.OpsPerSec/e2e
	if !a.json {
		a.printf("  throughput into one inbox         %5d msgs    send %.0f msg/s (raw/send %.2f×)  end to end with claim+ack %.0f msg/s (%.2f×)\n",
			nThrough, sendRate, t.RawOverSend, e2e, t.RawOverE2E)
	}
	for _, run := range []struct {
		name     string
		n        int
		interval time.Duration
		out      *latencyFigures
	}{
		{"idle", nIdle, 50 * time.Millisecond, &res.Idle},
		{"stream", nStream, 20 * time.Millisecond, &res.Stream},
	} {
		lat, err := benchLatency(ctx, exe, filepath.Join(dir, run.name), run.n, run.interval)
		if err != nil {
			return err
		}
		*run.out = latencyFigures{Messages: run.n, IntervalMs: ms(run.interval), P50Ms: ms(pct(lat, 50)), P99Ms: ms(pct(lat, 99)), MaxMs: ms(lat[len(lat)-1])}
		if !a.json {
			a.printf("  latency, %-6s (1 msg / %2.0f ms)   %5d msgs    p50 %.3f ms  p99 %.3f ms  max %.3f ms\n",
				run.name, ms(run.interval), run.n, run.out.P50Ms, run.out.P99Ms, run.out.MaxMs)
		}
	}
	if a.json {
		return a.emit(res)
	}
	return nil
}

// rawRate measures the disk's own rate for what a delivery does: write a
// small file, fsync it, rename it into place, fsync the directory.
func rawRate(dir string, n int) (rawFigures, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return rawFigures{}, err
	}
	d, err := os.Open(dir)
	if err != nil {
		return rawFigures{}, err
	}
	defer d.Close()
	data := make([]byte, 400)
	for i := range data {
		data[i] = 'x'
	}
	lat := make([]time.Duration, 0, n)
	start := time.Now()
	for i := 0; i < n; i++ {
		t0 := time.Now()
		tmp := filepath.Join(dir, fmt.Sprintf(".raw-%d.tmp", i))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return rawFigures{}, err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return rawFigures{}, err
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return rawFigures{}, err
		}
		if err := f.Close(); err != nil {
			return rawFigures{}, err
		}
		if err := os.Rename(tmp, filepath.Join(dir, fmt.Sprintf("raw-%d.json", i))); err != nil {
			return rawFigures{}, err
		}
		if err := d.Sync(); err != nil {
			return rawFigures{}, err
		}
		lat = append(lat, time.Since(t0))
	}
	total := time.Since(start)
	slices.Sort(lat)
	return rawFigures{Ops: n, MeanMs: ms(total) / float64(n), P50Ms: ms(pct(lat, 50)), OpsPerSec: float64(n) / total.Seconds()}, nil
}

// sender starts the sender process: count messages to agent, one every
// interval (0: back to back).
func startSender(ctx context.Context, exe, root, agent string, count int, interval time.Duration) (*exec.Cmd, *bufio.Reader, error) {
	cmd := exec.CommandContext(ctx, exe, "--root", root, benchSenderCmd, "--to", agent, "--count", strconv.Itoa(count), "--interval", interval.String())
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

func benchInbox(ctx context.Context, root, agent string) (*inbox.FileTransport, inbox.Receiver, error) {
	tr, err := inbox.NewFileTransport(root)
	if err != nil {
		return nil, nil, err
	}
	if err := tr.Create(ctx, agent); err != nil {
		tr.Close()
		return nil, nil, err
	}
	r, err := tr.Listen(ctx, agent)
	if err != nil {
		tr.Close()
		return nil, nil, err
	}
	// The first Receive runs the initial scan before any message exists.
	pctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _ = r.Receive(pctx)
	return tr, r, nil
}

func benchLatency(ctx context.Context, exe, root string, n int, interval time.Duration) ([]time.Duration, error) {
	tr, r, err := benchInbox(ctx, root, "Receiver")
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	defer r.Close()
	cmd, _, err := startSender(ctx, exe, root, "Receiver", n, interval)
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

func benchThroughput(ctx context.Context, exe, root string, n int) (sendRate, e2e float64, err error) {
	tr, r, err := benchInbox(ctx, root, "Receiver")
	if err != nil {
		return 0, 0, err
	}
	defer tr.Close()
	defer r.Close()
	cmd, out, err := startSender(ctx, exe, root, "Receiver", n, 0)
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
func newBenchSenderCmd(a *app) *cobra.Command {
	var to string
	var count int
	var interval time.Duration
	cmd := &cobra.Command{
		Use:    benchSenderCmd,
		Hidden: true,
		Args:   exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			tr, err := inbox.NewFileTransport(a.rootDir())
			if err != nil {
				return err
			}
			defer tr.Close()
			ctx := cmd.Context()
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
