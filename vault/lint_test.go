package vault

import (
	"context"
	"os"
	"path/filepath"
	"testing"
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
