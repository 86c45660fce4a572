package main

import (
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// The benchmark runs end to end on a few messages: separate sender
// processes, every figure present and consistent. (It measures nothing
// here; "parley bench messenger" does.)
func TestBenchMessengerRuns(t *testing.T) {
	t.Setenv("PARLEY_TEST_AS_CLI", "1") // the re-executed sender is this binary
	srv := startNATS(t)
	for _, tc := range []struct {
		transport, raw string
	}{{"file", "raw_write_fsync_rename_dirfsync"}, {"nats", "raw_jetstream_publish"}} {
		t.Run(tc.transport, func(t *testing.T) {
			out := mustCLI(t, t.TempDir(), "", "--json", "bench", "messenger", "--transport", tc.transport, "--dir", t.TempDir(),
				"--nats-url", srv.URL(), "--raw", "20", "--idle", "5", "--stream", "5", "--throughput", "30")
			checkMessengerBench(t, out, tc.transport, tc.raw)
		})
	}
	if _, _, code := cli(t, t.TempDir(), "", "bench", "messenger", "--transport", "pigeon"); code != cmdutil.ExitUsage {
		t.Errorf("an unknown transport: exit %d, want %d", code, cmdutil.ExitUsage)
	}
	_, stderr, code := cli(t, t.TempDir(), "", "bench", "messenger", "--transport", "nats", "--nats-url", "nats://127.0.0.1:1")
	oneLineError(t, stderr, code, "nats-server")
}

func checkMessengerBench(t *testing.T, out, transport, raw string) {
	objs := jsonLines(t, out)
	if len(objs) != 1 {
		t.Fatalf("want one JSON line, got %q", out)
	}
	o := objs[0]
	num := func(path ...string) float64 {
		var v any = o
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		f, ok := v.(float64)
		if !ok || f <= 0 {
			t.Errorf("%v = %v, want a positive number", path, v)
		}
		return f
	}
	if o["transport"] != transport {
		t.Errorf("transport %v, want %s", o["transport"], transport)
	}
	num(raw, "ops_per_sec")
	for _, run := range []string{"latency_idle", "latency_stream"} {
		p50, p99, mx := num(run, "p50_ms"), num(run, "p99_ms"), num(run, "max_ms")
		if !(p50 <= p99 && p99 <= mx) {
			t.Errorf("%s: p50 %v, p99 %v, max %v out of order", run, p50, p99, mx)
		}
		if mx > float64(time.Minute.Milliseconds()) {
			t.Errorf("%s: a latency of %v ms is not a measurement", run, mx)
		}
	}
	if num("throughput", "messages") != 30 {
		t.Error("throughput ran the wrong number of messages")
	}
	num("throughput", "send_msgs_per_sec")
	num("throughput", "raw_over_send_ratio")
}

// Counts of zero or below are usage errors, refused before anything runs:
// no panic (an empty latency run has no maximum; a negative count made a
// slice of negative capacity), no ratio divided by zero.
func TestBenchMessengerRefusesEmptyRuns(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"--raw", "--idle", "--stream", "--throughput"} {
		for _, n := range []string{"0", "-5"} {
			_, stderr, code := cli(t, t.TempDir(), "", "bench", "messenger", "--dir", t.TempDir(), flag, n)
			if code != cmdutil.ExitUsage || !strings.Contains(stderr, flag) {
				t.Errorf("%s %s: exit %d, stderr %q; want a usage error naming the flag", flag, n, code, stderr)
			}
		}
	}
}
