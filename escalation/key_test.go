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
