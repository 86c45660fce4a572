package bench

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// The text forms say what a user reads the figures for: an agent-process
// run its backend's debates/s, turn latency and CPU, and why debates
// failed; a figure with no bar says so; a write error is returned.
func TestWriteText(t *testing.T) {
	t.Parallel()
	fail := false
	var b bytes.Buffer
	r := &DebateResult{Name: "processes_nats", Backend: BackendNATS, Debates: 10, Complete: 9, Turns: 72, Seconds: 2,
		DebatesPerSec: 4.5, TurnP50Ms: 12.5, TurnP99Ms: 40, CoordinatorCPU: 0.5, AgentsCPU: 0.25, AgentProcesses: 4, CPUPerTurn: 10.4,
		Bar: "10 debates complete", Pass: &fail, Error: "maximum consumers limit reached", Setup: "NATS"}
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"9/10 debates complete", "4 debates/s", "turn p50 12.50 ms, p99 40.00 ms", "4 agent processes", "FAIL", "maximum consumers limit reached"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("processes figure %q lacks %q", b.String(), want)
		}
	}
	b.Reset()
	if err := (&DebateResult{Name: "turn_file_transcript", PerTurn: 4000, P50: 3900, P99: 7500, Amortized: 6000, Turns: 8}).WriteText(&b); err != nil ||
		!strings.Contains(b.String(), "bar: none, an end-to-end figure  (reported)") {
		t.Errorf("a figure with no bar: %q, %v", b.String(), err)
	}
	// A messenger result with no raw figure (a run that failed early)
	// still prints, without one.
	b.Reset()
	if err := (&MessengerResult{}).WriteText(&b); err != nil || !strings.Contains(b.String(), "throughput into one inbox") {
		t.Errorf("an empty messenger result: %q, %v", b.String(), err)
	}
	broken := errors.New("disk full")
	if err := (&CLIResult{}).WriteText(failingWriter{broken}); !errors.Is(err, broken) {
		t.Errorf("CLI text to a failing writer: %v", err)
	}
	if err := (&GateResult{}).WriteText(failingWriter{broken}); !errors.Is(err, broken) {
		t.Errorf("gate text to a failing writer: %v", err)
	}
}

type failingWriter struct{ err error }

func (f failingWriter) Write([]byte) (int, error) { return 0, f.err }
