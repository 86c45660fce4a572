package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A record that lookups skip (a hand edit broke its frontmatter, a
// symbolic link stands in the records folder) is a vault lint finding:
// check answers "none" for its question, so the lint that looks for what
// is wrong with the vault must name it, and why.
func TestLintReportsSkippedRecords(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a,
		outcome("20261201-spec-upload-size-cap-m4n5b6", "Upload size cap", "Uploads stop at 50 MB"),
		outcome("20261201-spec-session-storage-x3k5pa", "Session storage backend", "Sessions live in Redis"))
	dir := filepath.Join(a.Vault(), "wiki", "consensus")
	file := filepath.Join(dir, "spec-upload-size-cap.md")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// A second status key, as a hand edit that forgot to remove the first.
	edited := strings.Replace(string(data), "status: \"active\"\n", "status: \"active\"\nstatus: \"superseded\"\n", 1)
	if edited == string(data) {
		t.Fatal("no status line to edit")
	}
	if err := os.WriteFile(file, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "spec-session-storage-backend.md"), filepath.Join(dir, "spec-session-link.md")); err != nil {
		t.Fatal(err)
	}
	found, err := c.Lint(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string]string{}
	for _, f := range found {
		if f.Kind == LintSkipped {
			skipped[f.Page] = f.Problem
		}
	}
	if p := skipped["wiki/consensus/spec-upload-size-cap.md"]; !strings.Contains(p, "status") {
		t.Errorf("the record with two status keys: %q, want a skipped finding naming the key (all: %+v)", p, found)
	}
	if p := skipped["wiki/consensus/spec-session-link.md"]; !strings.Contains(p, "symbolic link") {
		t.Errorf("the symbolic link: %q, want a skipped finding (all: %+v)", p, found)
	}
	if len(skipped) != 2 {
		t.Errorf("skipped findings: %v, want the two files", skipped)
	}
}
