package main

import (
	"runtime"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// "parley bench cli" runs end to end on a few messages: real send and watch
// processes (this test binary standing in for parley), the floor program
// built from its source, every figure present, and every message delivered
// once and in order. (It measures nothing here; the command does.)
func TestBenchCLIRuns(t *testing.T) {
	t.Setenv("PARLEY_TEST_AS_CLI", "1")
	out := mustCLI(t, t.TempDir(), "", "--json", "bench", "cli", "--dir", t.TempDir(),
		"--idle", "3", "--idle-gap", "1ms", "--stream", "4", "--blocks", "2", "--senders", "3", "--per-sender", "2", "--rounds", "2")
	objs := jsonLines(t, out)
	if len(objs) != 1 {
		t.Fatalf("want one JSON line, got %q", out)
	}
	o := objs[0]
	get := func(path ...string) float64 {
		t.Helper()
		var v any = o
		for _, p := range path {
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object in %v", path, o)
			}
			v = m[p]
		}
		f, _ := v.(float64)
		return f
	}
	for _, side := range []string{"parley", "floor"} {
		for _, run := range []string{"idle", "stream"} {
			p50, p99, mx := get(side, run, "p50_ms"), get(side, run, "p99_ms"), get(side, run, "max_ms")
			if !(p50 > 0 && p50 <= p99 && p99 <= mx) {
				t.Errorf("%s %s: p50 %v, p99 %v, max %v", side, run, p50, p99, mx)
			}
		}
		if n := get(side, "idle", "messages"); n != 3 {
			t.Errorf("%s idle: %v messages, want 3", side, n)
		}
		if n := get(side, "stream", "messages"); n != 8 {
			t.Errorf("%s stream: %v messages, want 8", side, n)
		}
		if get(side, "cpu_per_send_ms") <= 0 || get(side, "throughput_msgs_per_sec") <= 0 {
			t.Errorf("%s: cpu %v ms, throughput %v/s", side, get(side, "cpu_per_send_ms"), get(side, "throughput_msgs_per_sec"))
		}
		// 3 idle + 8 stream + 3 senders × 2 × 2 rounds.
		if sent := get(side, "sent"); sent != 23 {
			t.Errorf("%s: %v sent, want 23", side, sent)
		}
		if l, d, r := get(side, "lost"), get(side, "duplicated"), get(side, "reordered"); l+d+r != 0 {
			t.Errorf("%s: %v lost, %v duplicated, %v reordered", side, l, d, r)
		}
	}
	// The build is what the binary says of itself ("--json version").
	if pb, _ := o["parley_build"].(map[string]any); pb == nil || pb["go"] != runtime.Version() {
		t.Errorf("parley_build %v, want go %s", o["parley_build"], runtime.Version())
	}
	if get("startup", "runs") <= 0 || get("startup", "floor_cpu_ms") <= 0 || get("startup", "parley_version_cpu_ms") <= 0 || get("startup", "parley_whole_cpu_ms") <= 0 {
		t.Errorf("start-up: %v", o["startup"])
	}
	for _, r := range []string{"idle_p50", "idle_p99", "stream_p50", "stream_p99", "cpu_per_send", "throughput"} {
		if get("ratios", r) <= 0 {
			t.Errorf("ratio %s = %v", r, get("ratios", r))
		}
	}
	for _, args := range [][]string{{"--idle", "0"}, {"--senders", "-1"}, {"--interval", "0s"}} {
		if _, _, code := cli(t, t.TempDir(), "", append([]string{"bench", "cli"}, args...)...); code != cmdutil.ExitUsage {
			t.Errorf("bench cli %v: exit %d, want %d", args, code, cmdutil.ExitUsage)
		}
	}
}
