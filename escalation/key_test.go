package escalation

import (
	"testing"
)

// One record written again with its timestamp in another offset or
// precision (a log normalised again in place) is the record decided
// already: it is not decided, nor debated, a second time. Another instant
// is another record.
func TestTheSameInstantWrittenOtherwiseIsTheSameRecord(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	rec := func(ts string) string {
		return `{"timestamp":"` + ts + `","task_id":"T-7","verdict":"DRIFT","priority":"L","reasons":["the docs were not updated"]}` + "\n"
	}
	if st, _, _, _ := f.run(t, rec("2026-05-14T13:21:30+02:00")); st.Decided != 1 {
		t.Fatalf("first run: %+v", st)
	}
	st, ds, _, _ := f.run(t, rec("2026-05-14T11:21:30Z")+rec("2026-05-14T11:21:30.000Z")+rec("2026-05-14T11:21:30.5Z"))
	if st.Decided != 1 || st.Already != 2 || len(ds) != 1 || ds[0].Timestamp != "2026-05-14T11:21:30.5Z" {
		t.Fatalf("the same instant written otherwise: %+v, decided %+v; want only 11:21:30.5Z, another instant, decided", st, ds)
	}
}

// Verifiers write their timestamps the way their language does: Python's
// isoformat() of a naive datetime has no offset, its str() a space for
// the T, time.time() and Date.now() a number. Each is read (without an
// offset: UTC), and the same instant written in another of these forms is
// the record decided already. A priority may be its word.
func TestTimestampsAsVerifiersWriteThem(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		timestamp string // as written in the JSON line
		want      string // the instant, in UTC
	}{
		{`"2026-06-02T09:00:00"`, "2026-06-02T09:00:00Z"},
		{`"2026-06-02T09:00:00.123456"`, "2026-06-02T09:00:00.123456Z"},
		{`"2026-06-02 09:00:00"`, "2026-06-02T09:00:00Z"},
		{`"2026-06-02 11:00:00+02:00"`, "2026-06-02T09:00:00Z"},
		{`1780390800`, "2026-06-02T09:00:00Z"},
		{`1780390800.25`, "2026-06-02T09:00:00.25Z"},
		{`1780390800250`, "2026-06-02T09:00:00.25Z"},
	} {
		r, err := ParseRecord([]byte(`{"timestamp":` + c.timestamp + `,"task_id":"T-8","verdict":"DRIFT","priority":"medium"}`))
		if err != nil {
			t.Errorf("timestamp %s: %v", c.timestamp, err)
			continue
		}
		if got := r.Time().UTC().Format("2006-01-02T15:04:05.999999999Z07:00"); got != c.want || r.Priority != PriorityM {
			t.Errorf("timestamp %s: read as %s, priority %q; want %s, M", c.timestamp, got, r.Priority, c.want)
		}
	}
	for _, bad := range []string{`"02/06/2026 09:00"`, `"2026-06-02"`, `"yesterday"`, `-5`, `0`, `true`} {
		if _, err := ParseRecord([]byte(`{"timestamp":` + bad + `,"task_id":"T-8","verdict":"DRIFT"}`)); err == nil {
			t.Errorf("timestamp %s was read", bad)
		}
	}
	f := newFixture(t)
	rec := func(ts string) string {
		return `{"timestamp":` + ts + `,"task_id":"T-9","verdict":"DRIFT","priority":"low","reasons":["the docs were not updated"]}` + "\n"
	}
	if st, _, _, _ := f.run(t, rec(`"2026-06-02 09:00:00"`)); st.Decided != 1 {
		t.Fatalf("first run: %+v", st)
	}
	if st, ds, _, _ := f.run(t, rec(`"2026-06-02T09:00:00Z"`)+rec(`1780390800`)); st.Decided != 0 || st.Already != 2 {
		t.Errorf("the same instant written otherwise: %+v, decided %+v; want it decided already", st, ds)
	}
}

// Python's json.dumps writes NaN and Infinity for a float it has no number
// for: the record is read with that value as null (a confidence left out),
// not skipped; the same words inside a string are text.
func TestNonFiniteNumbersAsPythonWritesThem(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		`{"timestamp":"2026-06-02T09:00:00Z","task_id":"N","verdict":"DRIFT","confidence":NaN,"latency_ms":Infinity,"cost_usd":-Infinity,"reasons":["NaN \"Infinity\" in text"]}`,
		`{"timestamp": "2026-06-02T09:00:00Z", "task_id": "N", "verdict": "DRIFT", "confidence": NaN, "reasons": ["NaN \"Infinity\" in text"]}`,
	} {
		r, err := ParseRecord([]byte(line))
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if r.Confidence != nil || r.LatencyMs != nil || len(r.Reasons) != 1 || r.Reasons[0] != `NaN "Infinity" in text` {
			t.Errorf("%s: read as %+v", line, r)
		}
	}
	// Not a value: still malformed.
	if _, err := ParseRecord([]byte(`{"timestamp":"2026-06-02T09:00:00Z","task_id":"N","verdict":"DRIFT","confidence":NaNa}`)); err == nil {
		t.Error("NaNa was read")
	}
}
