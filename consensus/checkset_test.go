package consensus

import (
	"context"
	"sync"
	"testing"
)

// checkedSet is a meaning set asked of a vault of its own records: its
// records, its questions, the record names fileMeaning gave them, and the
// answer to each question, in order.
type checkedSet struct {
	recs    []meaningRecord
	cases   []meaningCase
	names   map[string]string
	answers []*CheckResult
	done    bool // all of the above were computed (no Fatal on the way)
}

// checkedSets holds a *checkOnce per file.
var checkedSets sync.Map

type checkOnce struct {
	sync.Once
	set checkedSet
}

// checkSet files the records of file into a fresh vault and asks every
// question, once per test binary: the meaning figures (runMeaning) and
// the topic-found figures (runFound) read the same answers, which are
// the same whoever asks first (a fresh vault, the same filing order, a
// fake clock), rather than filing and asking every set twice (minutes
// under the race detector).
func checkSet(t *testing.T, file string) *checkedSet {
	t.Helper()
	v, _ := checkedSets.LoadOrStore(file, &checkOnce{})
	entry := v.(*checkOnce)
	entry.Do(func() {
		ctx := context.Background()
		e := newEnv(t)
		set := &entry.set
		set.recs, set.cases = loadMeaning(t, file)
		set.names = fileMeaning(t, e, set.recs)
		for _, c := range set.cases {
			res, err := e.s.Check(ctx, c.layer, c.topic, c.position)
			if err != nil {
				t.Fatalf("%s line %d: %v", file, c.line, err)
			}
			set.answers = append(set.answers, res)
		}
		set.done = true
	})
	if !entry.set.done {
		t.Fatalf("%s: asking its questions failed (see the test that asked first)", file)
	}
	return &entry.set
}
