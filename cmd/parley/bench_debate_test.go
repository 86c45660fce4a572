package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// "parley bench debate --backends file,nats" runs concurrent debates spoken
// by agent processes over each backend in the same run, and reports for
// each every figure: debates complete, debates/s, turn latency p50 ≤ p99,
// CPU here and in the agent processes. The debates of each run really
// went over its backend: the file run's agents have inboxes under its
// root, the NATS run's none; both wrote every transcript.
func TestBenchDebateOverBackends(t *testing.T) {
	srv := startNATS(t)
	dir := t.TempDir()
	out := mustCLI(t, t.TempDir(), "", "--json", "bench", "debate", "--debates", "2", "--concurrent", "6", "--rounds", "2",
		"--agent-pairs", "2", "--backends", "file,nats", "--nats-url", srv.URL(), "--dir", dir)
	figures := map[string]map[string]any{}
	for _, o := range jsonLines(t, out) {
		figures[o["name"].(string)] = o
	}
	for _, b := range []string{"file", "nats"} {
		o, ok := figures["processes_"+b]
		if !ok {
			t.Fatalf("no processes_%s figure in %s", b, out)
		}
		num := func(k string) float64 {
			f, _ := o[k].(float64)
			if f <= 0 {
				t.Errorf("%s: %s = %v, want a positive number", b, k, o[k])
			}
			return f
		}
		if o["backend"] != b || o["completed"] != float64(6) || o["turns"] != float64(24) || o["pass"] != true || o["agent_processes"] != float64(4) {
			t.Errorf("%s: %v", b, o)
		}
		num("debates_per_sec")
		if p50, p99 := num("turn_p50_ms"), num("turn_p99_ms"); p50 > p99 {
			t.Errorf("%s: turn p50 %v > p99 %v", b, p50, p99)
		}
		num("coordinator_cpu_s")
		num("agents_cpu_s")
		num("cpu_ms_per_turn")
		ds, err := filepath.Glob(filepath.Join(dir, b, "debates", "*", "transcript.jsonl"))
		if err != nil || len(ds) != 6 {
			t.Errorf("%s: %d transcripts (%v), want 6", b, len(ds), err)
		}
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "file", "inbox")); err != nil || len(ents) < 4 {
		t.Errorf("the file run's inboxes: %d, %v", len(ents), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nats", "inbox")); !os.IsNotExist(err) {
		t.Errorf("the NATS run made file inboxes: %v", err)
	}

	for _, bad := range [][]string{{"--backends", "pigeon"}, {"--backends", "memory"}, {"--agent-pairs", "0"}, {"--concurrent", "-1"}} {
		if _, _, code := cli(t, t.TempDir(), "", append([]string{"bench", "debate"}, bad...)...); code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, cmdutil.ExitUsage)
		}
	}
	_, stderr, code := cli(t, t.TempDir(), "", "bench", "debate", "--backends", "nats", "--nats-url", "nats://127.0.0.1:1")
	oneLineError(t, stderr, code, "nats-server")
}

// A bench started ignoring SIGINT (a script's background job, "parley bench
// debate &") starts its agent processes ignoring it too: it stops them with
// SIGTERM, and the run passes rather than killing them after a wait and
// failing.
func TestBenchDebateIgnoringCtrlC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command("sh", "-c", `trap "" INT; exec "$0" "$@"`, os.Args[0], "--root", t.TempDir(), "--json", "bench", "debate",
		"--debates", "1", "--concurrent", "1", "--rounds", "1", "--agent-pairs", "1", "--backends", "file", "--dir", dir)
	cmd.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench debate with SIGINT ignored: %v\n%s", err, stderr.String())
	}
	for _, o := range jsonLines(t, string(out)) {
		if o["name"] == "processes_file" && o["pass"] != true {
			t.Errorf("the run did not pass: %v", o)
		}
	}
}
