package vault

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestLintLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for p, body := range map[string]string{
		"wiki/index.md":     "---\ntype: index\n---\n[[a]] [[b]]\n",
		"wiki/a.md":         "# A\n[[b#Heading]] [[#Local]] [[dup]] [[gone]] [[gone]] `[[in-code]]`\n",
		"wiki/b.md":         "# B\n",
		"wiki/x/dup.md":     "# one dup\n",
		"wiki/y/dup.md":     "# another dup\n",
		"wiki/lonely.md":    "# nobody links here\n",
		"wiki/img.png":      "not a page",
		"wiki/c.md":         "---\nrelated: [\"[[lonely]]\"]\n---\n![[img.png]]\n",
		".obsidian/skip.md": "[[nowhere]]\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o700)
		os.WriteFile(full, []byte(body), 0o600)
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	rep, err := v.LintLinks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"[[dup]]": "ambiguous: several pages have this name", "[[gone]]": "no such page"}
	if len(rep.Broken) != len(want) {
		t.Fatalf("broken %+v", rep.Broken)
	}
	for _, b := range rep.Broken {
		if b.Page != "wiki/a.md" || want[b.Link] != b.Reason {
			t.Errorf("broken %+v", b)
		}
	}
	// index.md is an index; c.md and the two dups are linked by nobody
	// (an ambiguous link reaches no page).
	wantOrphans := []string{"wiki/c.md", "wiki/x/dup.md", "wiki/y/dup.md"}
	if len(rep.Orphans) != len(wantOrphans) {
		t.Fatalf("orphans %v", rep.Orphans)
	}
	for i, o := range wantOrphans {
		if rep.Orphans[i] != o {
			t.Errorf("orphans %v, want %v", rep.Orphans, wantOrphans)
		}
	}
}

// LintLinks looks every link up in one walk of the vault's names, however
// many links lead nowhere: a link Resolve does not find makes it check
// every folder again, and rebuild the names of a folder it cannot prove
// unchanged, which for a vault of many folders and many broken links cost
// minutes. The folders here have times a walk cannot prove unchanged (in
// the future), so each broken link would walk the vault again.
func TestLintLinksWalksTheNamesOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	future := time.Now().Add(time.Hour)
	for d := range 5 {
		sub := filepath.Join(dir, "notes", fmt.Sprintf("d%d", d))
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			body := fmt.Sprintf("[[n%d-%d]] [[missing-%d-%d]]\n", d, (i+1)%4, d, i)
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("n%d-%d.md", d, i)), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(sub, future, future); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	rep, err := v.LintLinks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Broken) != 20 || len(rep.Orphans) != 0 {
		t.Errorf("%d broken links and orphans %v, want the 20 missing-* links and none", len(rep.Broken), rep.Orphans)
	}
	v.mu.Lock()
	builds := v.builds
	v.mu.Unlock()
	if builds != 1 {
		t.Errorf("LintLinks walked the vault's names %d times, want once", builds)
	}
}

// A page whose frontmatter does not parse (a quote left open, a key
// written twice) still shows in Obsidian, links and all: lint reads its
// body's links, reports the broken ones, and the pages it links are no
// orphans.
func TestLintLinksReadsPagesWithBadFrontmatter(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"index.md":        "---\ntype: index\n---\n[[open-quote]] [[twice]]\n",
		"open-quote.md":   "---\ntitle: \"unclosed\ntags: [a\n---\n# Bad YAML\nSee [[target]] and [[gone-a]].\n",
		"twice.md":        "---\na: 1\na: 2\n---\n[[other]] [[gone-b]]\n",
		"notes/target.md": "# linked only by open-quote\n",
		"notes/other.md":  "# linked only by twice\n",
		"notes/good.md":   "---\nok: true\n---\n[[index]]\n",
	})
	rep, err := v.LintLinks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	broken := map[string]string{}
	for _, b := range rep.Broken {
		broken[b.Link] = b.Page
	}
	if len(broken) != 2 || broken["[[gone-a]]"] != "open-quote.md" || broken["[[gone-b]]"] != "twice.md" {
		t.Errorf("broken %+v, want [[gone-a]] of open-quote.md and [[gone-b]] of twice.md", rep.Broken)
	}
	if want := []string{"notes/good.md"}; fmt.Sprint(rep.Orphans) != fmt.Sprint(want) {
		t.Errorf("orphans %v, want %v", rep.Orphans, want)
	}
}
