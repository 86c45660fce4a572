package transcripts

import (
	"bytes"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// tinyTranscript is a valid chain of n small events: fuzz seeds stay a
// few hundred bytes, since the fuzzer minimises every input it finds
// interesting by re-running it once per byte removed, and kilobyte seeds
// kept it minimising (under 10 executions a second) instead of fuzzing.
func tinyTranscript(tb testing.TB, n int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	prev := Genesis(testID)
	kinds := []debate.EventKind{debate.EventOpen, debate.EventRequest, debate.EventTurn, debate.EventVerdict}
	for i := 1; i <= n; i++ {
		e := debate.Event{Seq: i, Kind: kinds[(i-1)%len(kinds)], At: "2026-01-01T00:00:00.000Z", ElapsedMs: int64(i), Data: []byte(`{"round":1}`)}
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

func FuzzDecodeLine(f *testing.F) {
	data := tinyTranscript(f, 2)
	for line := range bytes.Lines(data) {
		f.Add(bytes.TrimSuffix(line, []byte("\n")))
	}
	f.Add([]byte(`{"prev":"` + Genesis(testID) + `","seq":1,"kind":"open","data":{},"hash":"` + Genesis(testID) + `"}`))
	f.Add([]byte(`{}`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := DecodeLine(line)
		if err != nil {
			return
		}
		// A line that decodes carries its own valid hash, a kind and data.
		if e.Kind == "" || len(e.Data) == 0 {
			t.Fatalf("decoded an event without kind or data: %+v", e)
		}
		if _, problem := checkLine(line); problem != "" {
			t.Fatalf("decoded a line that does not check: %s", problem)
		}
	})
}

func FuzzVerify(f *testing.F) {
	data := tinyTranscript(f, 3)
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add(append(bytes.Clone(data[:len(data)/3]), data[:len(data)/3]...))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Verify(bytes.NewReader(data), testID, nil)
		if err != nil {
			t.Fatal(err) // reading from memory never fails
		}
		if rep.Intact {
			// Every line of an intact transcript decodes, in sequence.
			n := 0
			for line := range bytes.Lines(data) {
				n++
				e, err := DecodeLine(bytes.TrimSuffix(line, []byte("\n")))
				if err != nil || e.Seq != n {
					t.Fatalf("intact transcript, line %d: %v (seq %d)", n, err, e.Seq)
				}
			}
			if n != rep.Events {
				t.Fatalf("%d lines, report says %d", n, rep.Events)
			}
		} else if rep.BadLine < 1 || rep.Problem == "" {
			t.Fatalf("bad report %+v", rep)
		}
	})
}
