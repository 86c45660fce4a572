package vault

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// heapContext is a context that, each time a walk asks it whether to go
// on, measures the live heap (after a full collection): the peak of what
// the walk keeps.
type heapContext struct {
	context.Context
	calls int
	peak  uint64
}

func (c *heapContext) Err() error {
	c.calls++
	if c.calls%4 == 0 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		c.peak = max(c.peak, m.HeapAlloc)
	}
	return nil
}

// TestLintLinksKeepsNoPageText: lint reads a vault of any size in the
// memory of its links, not of its text (a vault of 100,000 records is
// gigabytes of text). Not parallel: the heap it measures is its own.
func TestLintLinksKeepsNoPageText(t *testing.T) {
	const pages, pageBytes = 120, 256 << 10
	code := strings.Repeat(strings.Repeat("x", 63)+"\n", pageBytes/64)
	files := map[string]string{"index.md": "---\ntype: index\n---\n[[p000]]\n"}
	for i := range pages {
		files[fmt.Sprintf("notes/p%03d.md", i)] = fmt.Sprintf("---\ntype: note\n---\n```\n%s```\n[[p%03d]] [[gone]]\n", code, (i+1)%pages)
	}
	v := newVault(t, files)
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	ctx := &heapContext{Context: context.Background()}
	rep, err := v.LintLinks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Broken) != pages || len(rep.Orphans) != 0 {
		t.Fatalf("broken %d, orphans %v; want %d broken [[gone]], no orphan", len(rep.Broken), rep.Orphans, pages)
	}
	total := uint64(pages * pageBytes)
	if kept := ctx.peak - min(ctx.peak, m.HeapAlloc); kept > total/3 {
		t.Errorf("lint kept %d MB of a vault of %d MB at its peak; want what one page and the links take", kept>>20, total>>20)
	}
}
