package consensus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// A record file a person renamed with characters a wikilink cannot hold
// ("ADR #12 [draft] ^x | y.md": '#' starts a heading, '^' a block, '|'
// the alias, brackets end the link) is linked from the index page by a
// Markdown link to its percent-encoded name, which reaches it, instead of
// a [[wikilink]] that names another page and whose '|' splits the table
// row into more cells. Records of the names parley gives keep their
// wikilinks.
func TestIndexPageLinksAnyFileName(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fileRule(t, debate.LayerSpec, "20261130-spec-cache-aaaaaa", "Cache lifetime", "Cache product pages for 10 minutes")
	dir := filepath.Join(e.vaultDir, "wiki", "consensus")
	if err := os.Rename(filepath.Join(dir, "spec-cache-lifetime.md"), filepath.Join(dir, "ADR #12 [draft] ^x | y.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Records(context.Background(), Filter{}); err != nil { // a lookup sees the rename
		t.Fatal(err)
	}
	e.fileRule(t, debate.LayerSpec, "20261130-spec-queue-bbbbbb", "Queue retries", "Retry failed jobs 3 times")
	index := e.read(t, "wiki/consensus/"+IndexName)
	rows := 0
	for line := range strings.Lines(index) {
		if !strings.HasPrefix(line, "| 20") {
			continue
		}
		rows++
		if cells := strings.Count(line, "|") - strings.Count(line, `\|`); cells != 6 {
			t.Errorf("row with %d cells, want 5: %s", cells-1, line)
		}
		switch {
		case strings.Contains(line, "Cache lifetime"):
			if want := "[Cache lifetime](ADR%20%2312%20%5Bdraft%5D%20%5Ex%20%7C%20y.md)"; !strings.Contains(line, want) || strings.Contains(line, "[[") {
				t.Errorf("the renamed record's row: %s, want the link %s", line, want)
			}
		case strings.Contains(line, "Queue retries"):
			if !strings.Contains(line, `[[spec-queue-retries\|Queue retries]]`) {
				t.Errorf("the filed record's row: %s, want its wikilink", line)
			}
		}
	}
	if rows != 2 {
		t.Errorf("%d rows, want 2:\n%s", rows, index)
	}
}
