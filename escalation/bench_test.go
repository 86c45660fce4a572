package escalation

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
)

var benchLine = []byte(`{"timestamp":"2026-05-14T13:21:30Z","task_id":"100125","verdict":"DRIFT","confidence":0.58,"latency_ms":11990,"model_id":"gemma-4-26b-mlx","cost_usd":0,"reasons":["The retry loop might not back off: I could not find a delay between attempts.","Not sure the tests cover a 429 answer."],"fallback_used":false,"priority":"M","claims":["Requests are retried three times with exponential backoff"],"evidence_paths":["retry.go"]}`)

func BenchmarkParseRecord(b *testing.B) {
	b.SetBytes(int64(len(benchLine)))
	for b.Loop() {
		if _, err := ParseRecord(benchLine); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecideWithoutDebate is the cost of one record the cascade
// decides alone (an L DRIFT): parse, decide, one fsynced ledger line.
func BenchmarkDecideWithoutDebate(b *testing.B) {
	root, err := os.OpenRoot(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	l, err := OpenLedger(root)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	e := &Escalator{Ledger: l, Gate: gating.Default(), Budget: debate.DefaultBudget(debate.LayerVerify)}
	ctx := context.Background()
	i := 0
	for b.Loop() {
		i++
		r := &Record{TaskID: fmt.Sprint(i), Timestamp: "2026-05-14T13:21:30Z", Verdict: VerdictDrift, Priority: PriorityL}
		if d, _, err := e.Escalate(ctx, r); err != nil || d == nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGateOfARecord is the gate's decision on a record's
// self-critique, the step before any debate.
func BenchmarkGateOfARecord(b *testing.B) {
	r, err := ParseRecord(benchLine)
	if err != nil {
		b.Fatal(err)
	}
	g := gating.Default()
	for b.Loop() {
		if _, err := g.Decide(SelfCritique(r)); err != nil {
			b.Fatal(err)
		}
	}
}
