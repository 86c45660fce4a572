package consensus

import (
	"context"
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
	for _, damage := range []struct {
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
	} {
		damage.do()
		check("after the index was " + damage.name)
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
	every := max(2*time.Since(begin)/5, 5*time.Millisecond)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(every):
				os.Remove(cache)
			}
		}
	}()
	failed := 0
	for i := 0; i < 100; i++ {
		s := e.open(t)
		res, err := s.Check(context.Background(), debate.LayerSpec, "Idempotency key design", o.FinalPosition)
		if err != nil || res.Status != CheckConsistent {
			failed++
			t.Logf("check %d: %+v %v", i, res, err)
		}
		s.Close()
	}
	close(stop)
	<-done
	if failed > 0 {
		t.Errorf("%d of 100 checks failed", failed)
	}
}
