package consensus

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// peakContext measures the live heap (after a full collection) each time
// it is asked whether to go on: the peak of what a call keeps.
type peakContext struct {
	context.Context
	peak uint64
}

func (c *peakContext) Err() error {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	c.peak = max(c.peak, m.HeapAlloc)
	return nil
}

// TestStaleReadsOnlyRecordsThatCiteLines: vault lint's stale check reads
// the records that cite evidence lines, not every active record of the
// vault (in a vault of 100,000 records it held them all, the largest
// part of lint's memory). Not parallel: the heap it measures is its own.
func TestStaleReadsOnlyRecordsThatCiteLines(t *testing.T) {
	const records, positionBytes = 1500, 6000
	e := newEnv(t)
	outs := make([]*debate.Outcome, records)
	for i := range outs {
		id := fmt.Sprintf("20261130-spec-q%d-abcdef", i)
		o := outcome(id, fmt.Sprintf("Question %d", i), debate.LayerSpec, debate.ConsensusReached, false)
		pos := fmt.Sprintf("Rule %d: ", i) + strings.Repeat("keep it short ", positionBytes/14)
		o.FinalPosition, o.FinalPositionHash = pos, debate.PositionHash(pos)
		o.Turns = o.Turns[2:] // no evidence but in the last record
		outs[i] = o
	}
	cited := outcome("20261130-spec-cited-aaaaaa", "Cited", debate.LayerSpec, debate.ConsensusReached, false)
	cited.Turns[0].Evidence[0].Hash = strings.Repeat("ab", 32) // api/handler.go:10-20, gone by now
	outs[records-1] = cited
	if _, err := e.s.Import(context.Background(), outs); err != nil {
		t.Fatal(err)
	}
	e.page(t, "api/handler.go", "package api\n")
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	ctx := &peakContext{Context: context.Background()}
	stale, err := e.s.Stale(ctx, e.vaultDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) != 1 || stale[0].Record.Name != "spec-cited" {
		t.Fatalf("stale %+v, want the one record citing lines", stale)
	}
	total := uint64(records * positionBytes)
	if kept := ctx.peak - min(ctx.peak, m.HeapAlloc); kept > total/4 {
		t.Errorf("stale kept %d KB of records whose positions take %d KB; want what the records citing lines take", kept>>10, total>>10)
	}
}
