package transcripts

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// syntheticTranscript encodes n realistic events (turns with a 400-character
// argument and two evidence checks, alternating with requests) without
// touching the disk.
func syntheticTranscript(tb testing.TB, id string, n int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	prev := Genesis(id)
	for i := 1; i <= n; i++ {
		var data any = debate.RequestEvent{RequestID: fmt.Sprintf("%s:r%d:attacker1:a1", id, i), MessageID: "0e6f5d8a-4c1b-8d2e-9f30-a1b2c3d4e5f6", Round: i, Role: debate.RoleAttacker, Agent: "Critic", Attempt: 1, Deadline: "2026-01-01T00:02:00.000Z"}
		kind := debate.EventRequest
		if i%2 == 0 {
			kind = debate.EventTurn
			data = debate.TurnRecord{
				Turn: debate.Turn{DebateID: id, Round: i, Role: debate.RoleAttacker, Position: "Keys leak the creation time of each payment",
					CounterTo: "Use UUIDv7 keys", EvidenceRefs: []string{"api/keys.go:10-20", "[[idempotency]]"}, ConfidenceChange: -1, Tokens: 120,
					Text: strings.Repeat("An argument of some length. ", 14)},
				Agent: "Critic", RequestID: "x", MessageID: "y", PositionHash: debate.PositionHash("Keys leak"),
				Evidence: []debate.EvidenceCheck{{Ref: "api/keys.go:10-20", Kind: "range", Status: debate.EvidenceOK}, {Ref: "[[idempotency]]", Kind: "wiki", Status: debate.EvidenceMissing}},
			}
		}
		raw, err := jsonMarshal(data)
		if err != nil {
			tb.Fatal(err)
		}
		e := debate.Event{Seq: i, Kind: kind, At: "2026-01-01T00:00:00.000Z", ElapsedMs: int64(i), Data: raw}
		line, hash, err := encodeLine(prev, &e)
		if err != nil {
			tb.Fatal(err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
		prev = hash
	}
	return buf.Bytes()
}

// BenchmarkVerify measures transcript verification (SPEC §11: ≥ 200,000
// events per second), reading from memory.
func BenchmarkVerify(b *testing.B) {
	const n = 10000
	data := syntheticTranscript(b, testID, n)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rep, err := Verify(bytes.NewReader(data), testID, nil)
		if err != nil || !rep.Intact || rep.Events != n {
			b.Fatalf("%+v %v", rep, err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkVerifySmall measures verifying a short transcript (10 events),
// what every show, list row and web badge does for a typical debate: its
// cost must follow the transcript's size, not a fixed buffer.
func BenchmarkVerifySmall(b *testing.B) {
	const n = 10
	data := syntheticTranscript(b, testID, n)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rep, err := Verify(bytes.NewReader(data), testID, nil)
		if err != nil || !rep.Intact || rep.Events != n {
			b.Fatalf("%+v %v", rep, err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "verifies/s")
}

// BenchmarkAppend measures one fsynced transcript append on the real disk.
func BenchmarkAppend(b *testing.B) {
	s, _ := newStore(b)
	l, err := s.Create(context.Background(), testSession(testID))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	rec := debate.TurnRecord{Turn: debate.Turn{DebateID: testID, Round: 1, Role: debate.RoleAttacker, Position: "p", Text: strings.Repeat("x", 400)}, Agent: "Critic"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.Append(context.Background(), debate.EventTurn, 1, rec); err != nil {
			b.Fatal(err)
		}
	}
}

// TestVerifyAllocatesInProportion: verifying a 10-event transcript
// allocates about the transcript's size, not a fixed megabyte buffer (not
// parallel: it reads the process's allocation counter).
func TestVerifyAllocatesInProportion(t *testing.T) {
	data := syntheticTranscript(t, testID, 10)
	const runs = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		if rep, err := Verify(bytes.NewReader(data), testID, nil); err != nil || !rep.Intact {
			t.Fatalf("%+v %v", rep, err)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / runs
	if limit := uint64(2*len(data) + 16<<10); per > limit {
		t.Errorf("a %d-byte transcript allocates %d bytes per verification, want at most %d", len(data), per, limit)
	}
}
