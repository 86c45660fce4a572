package escalation

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// FuzzParseRecord: any line either decodes to a record whose key fields
// are set and whose derived debate id is valid, or fails with ErrMalformed;
// and the Scanner splits any byte stream into the same lines however it is
// chunked.
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{
		`{"timestamp":"2026-05-14T13:18:42Z","task_id":"100123","verdict":"CONFIRMED","confidence":0.92,"latency_ms":2341,"model_id":"/m","cost_usd":0,"reasons":[],"fallback_used":false}`,
		`{"timestamp":"2026-05-14T13:18:42.123+02:00","task_id":42,"verdict":"drift","confidence":"80%","priority":"m","claims":"one","evidence_paths":["a.go:1-3"],"extra":{"x":[1]}}`,
		`{"timestamp":"2026-05-14T13:18:42Z","task_id":"\u0000","verdict":"DRIFT"}`,
		`{"task_id":1e3}`, `[]`, `null`, `{"a":1} {"b":2}`, "\xff\xfe",
		`{"timestamp":"2026-05-14T13:18:42Z","task_id":"1","verdict":"DRIFT","latency_ms":"2341","cost_usd":"n/a","fallback_used":"TRUE"}`,
		`{"timestamp":"2026-05-14T13:18:42Z","task_id":"1","verdict":"DRIFT","reasons":["` + strings.Repeat("é", MaxItemLen) + `"]}`,
		"\x00\x00" + `{"timestamp":"2026-05-14T13:18:42Z","task_id":"1","verdict":"DRIFT"}` + "\x00",
	} {
		f.Add([]byte(s), 7)
	}
	f.Fuzz(func(t *testing.T, line []byte, cut int) {
		r, err := ParseRecord(line)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
		} else {
			if r.TaskID == "" || r.Timestamp == "" || r.Verdict == "" || r.Verdict != strings.ToUpper(r.Verdict) {
				t.Fatalf("record %+v", r)
			}
			if r.Confidence != nil && !(*r.Confidence >= 0 && *r.Confidence <= 1) {
				t.Fatalf("confidence %v", *r.Confidence)
			}
			if _, err := ParsePriority(string(r.Priority)); err != nil {
				t.Fatalf("priority %q", r.Priority)
			}
			if err := debate.ValidateID(DebateID(r)); err != nil {
				t.Fatalf("debate id of %q: %v", r.TaskID, err)
			}
			if _, err := json.Marshal(r); err != nil {
				t.Fatal(err)
			}
			if len(r.Reasons) > MaxItems {
				t.Fatalf("%d reasons kept", len(r.Reasons))
			}
			for _, it := range r.Reasons {
				if len(it) > MaxItemLen || !utf8.ValidString(it) {
					t.Fatalf("a reason of %d bytes kept (valid UTF-8: %v)", len(it), utf8.ValidString(it))
				}
			}
		}
		for _, text := range RecordTexts(line) {
			if bytes.IndexByte(text, 0) >= 0 || len(trimSpace(text)) == 0 {
				t.Fatalf("record text %q", text)
			}
		}
		// Chunking does not change the lines.
		stream := append(append([]byte(nil), line...), '\n')
		stream = append(stream, line...)
		var whole, pieces []string
		var a, b Scanner
		_ = a.Feed(stream, func(l Line) error { whole = append(whole, string(l.Data)); return nil })
		if cut < 0 {
			cut = -cut
		}
		step := cut%17 + 1
		for i := 0; i < len(stream); i += step {
			_ = b.Feed(stream[i:min(i+step, len(stream))], func(l Line) error { pieces = append(pieces, string(l.Data)); return nil })
		}
		if strings.Join(whole, "\n") != strings.Join(pieces, "\n") || a.Pending() != b.Pending() {
			t.Fatalf("chunked %d: %q vs %q", step, pieces, whole)
		}
		for _, l := range whole {
			if bytes.ContainsRune([]byte(l), '\n') {
				t.Fatalf("a line holds a newline: %q", l)
			}
		}
	})
}
