package consensus

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
)

// TestCheckSurvivesItsIndexRemoved: the lookup index removed, or replaced
// by garbage, while a store has it open is opened again or rebuilt from
// the vault, and the check still answers from the record.
func TestCheckSurvivesItsIndexRemoved(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false)
	e.file(t, o)
	ctx := context.Background()
	check := func(when string) {
		t.Helper()
		res, err := e.s.Check(ctx, debate.LayerSpec, "Idempotency key design", o.FinalPosition)
		if err != nil || res.Status != CheckConsistent {
			t.Fatalf("%s: %+v %v", when, res, err)
		}
	}
	check("before")
	cache := filepath.Join(e.root, filepath.FromSlash(CacheFile))
	for _, damage := range indexDamages(cache) {
		damage.do()
		check("after the index was " + damage.name)
	}
}

// indexDamages are what a person or a cleaner does to the index file of
// an open store.
func indexDamages(cache string) []struct {
	name string
	do   func()
} {
	return []struct {
		name string
		do   func()
	}{
		{"removed", func() {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(cache + suffix)
			}
		}},
		{"replaced by garbage", func() {
			for _, suffix := range []string{"-wal", "-shm"} {
				os.Remove(cache + suffix)
			}
			os.Remove(cache)
			os.WriteFile(cache, []byte("not a database at all, and long enough to look like one's header"), 0o600)
		}},
		{"the directory removed", func() { os.RemoveAll(filepath.Dir(cache)) }},
	}
}

// lookups are every lookup of a store but Check, each failing unless it
// finds the one record filed for o.
func lookups(s *Store, o *debate.Outcome) map[string]func() error {
	ctx := context.Background()
	return map[string]func() error{
		"Records": func() error {
			recs, err := s.Records(ctx, Filter{})
			if err == nil && len(recs) != 1 {
				err = fmt.Errorf("%d records", len(recs))
			}
			return err
		},
		"Search": func() error {
			hits, err := s.Search(ctx, "idempotency", Filter{}, 5)
			if err == nil && len(hits) != 1 {
				err = fmt.Errorf("%d hits", len(hits))
			}
			return err
		},
		"Record": func() error { _, _, err := s.Record(ctx, o.DebateID); return err },
		"RecordOf": func() error {
			path, err := s.RecordOf(ctx, o.DebateID)
			if err == nil && path == "" {
				err = fmt.Errorf("no record of %s", o.DebateID)
			}
			return err
		},
		"Refresh":        func() error { return s.Refresh(ctx) },
		"Contradictions": func() error { _, err := s.Contradictions(ctx); return err },
		"Unsuperseded":   func() error { _, err := s.Unsuperseded(ctx); return err },
	}
}

// TestLookupsSurviveTheirIndexRemoved: every lookup of an open store, not
// only Check, opens the index again or rebuilds it from the vault when the
// index is removed or replaced under it.
func TestLookupsSurviveTheirIndexRemoved(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false)
	e.file(t, o)
	cache := filepath.Join(e.root, filepath.FromSlash(CacheFile))
	for lookup, do := range lookups(e.s, o) {
		for _, damage := range indexDamages(cache) {
			damage.do()
			if err := do(); err != nil {
				t.Errorf("%s after the index was %s: %v", lookup, damage.name, err)
			}
		}
	}
}

// TestCheckWhileTheIndexIsRemovedAgainAndAgain: new processes checking
// while someone removes the index file over and over all get their
// answer: a lookup whose index goes from under it opens or builds it
// again, a few times at most.
func TestCheckWhileTheIndexIsRemovedAgainAndAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("a stress test")
	}
	e := newEnv(t)
	o := outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false)
	e.file(t, o)
	cache := filepath.Join(e.root, filepath.FromSlash(CacheFile))
	// One removal in every two lookups' time, however fast this machine
	// (or the race detector) makes a lookup: the index is rebuilt as often
	// as it is used.
	begin := time.Now()
	for range 5 {
		s := e.open(t)
		s.Check(context.Background(), debate.LayerSpec, "Idempotency key design", o.FinalPosition)
		s.Close()
		os.Remove(cache)
	}
	tick, stop := remover(max(2*time.Since(begin)/5, 5*time.Millisecond), func() { os.Remove(cache) })
	failed := 0
	for i := 0; i < 100; i++ {
		tick()
		s := e.open(t)
		res, err := s.Check(context.Background(), debate.LayerSpec, "Idempotency key design", o.FinalPosition)
		if err != nil || res.Status != CheckConsistent {
			failed++
			t.Logf("check %d: %+v %v", i, res, err)
		}
		s.Close()
	}
	stop()
	if failed > 0 {
		t.Errorf("%d of 100 checks failed", failed)
	}
}

// TestLookupsWhileTheIndexIsRemovedAgainAndAgain: the other lookups of new
// stores, while someone removes the index and its journal files over and
// over, all get their answer.
func TestLookupsWhileTheIndexIsRemovedAgainAndAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("a stress test")
	}
	e := newEnv(t)
	o := outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false)
	e.file(t, o)
	cache := filepath.Join(e.root, filepath.FromSlash(CacheFile))
	remove := func() {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(cache + suffix)
		}
	}
	// Two removals in a rebuild's time, however fast this machine makes
	// one: a lookup that tried only once would fail now and then.
	begin := time.Now()
	for range 5 {
		s := e.open(t)
		s.Records(context.Background(), Filter{})
		s.Close()
		remove()
	}
	tick, stop := remover(max(time.Since(begin)/10, time.Millisecond), remove)
	failed, asked := 0, 0
	for i := 0; i < 40; i++ {
		s := e.open(t)
		for lookup, do := range lookups(s, o) {
			tick()
			asked++
			if err := do(); err != nil {
				failed++
				t.Logf("%s %d: %v", lookup, i, err)
			}
		}
		s.Close()
	}
	stop()
	if failed > 0 {
		t.Errorf("%d of %d lookups failed", failed, asked)
	}
}

// remover removes the index at a random moment within every of each tick,
// the lookups' pace: at most one removal for each lookup begun (and one
// left from the lookup before), wherever in the lookup it lands, however
// the machine's load makes the lookups faster or slower than the pace
// measured. A lookup is not promised to outlast a cleaner that removes its
// index faster than it can be rebuilt, only one that removes it now and
// then. stop waits for the last removal.
func remover(every time.Duration, remove func()) (tick, stop func()) {
	ticks := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range ticks {
			time.Sleep(time.Duration(rand.Int64N(int64(every))))
			remove()
		}
	}()
	tick = func() {
		select {
		case ticks <- struct{}{}:
		default:
		}
	}
	return tick, func() { close(ticks); <-done }
}
