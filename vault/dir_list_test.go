package vault

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDirListAndHolds: List names the Markdown files and the folders of a
// folder (a link to a folder is no folder); Holds finds a file at any
// depth under one of them, in any case, and a folder that is gone holds
// nothing.
func TestDirListAndHolds(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"wiki/consensus/spec-a.md":                "a",
		"wiki/consensus/notes.txt":                "n",
		"wiki/consensus/archive/2026/Spec-B.md":   "b",
		"wiki/consensus/.hidden/spec-c.md":        "c",
		"wiki/elsewhere/spec-d.md":                "d",
		"wiki/consensus/archive/2026/readme.html": "r",
	})
	if err := os.Symlink(filepath.Join(v.Path(), "wiki", "elsewhere"), filepath.Join(v.Path(), "wiki", "consensus", "linked")); err != nil {
		t.Fatal(err)
	}
	d, err := v.OpenDir("wiki/consensus", false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	pages, folders, err := d.List()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pages, []string{"spec-a.md"}) || !slices.Equal(folders, []string{"archive"}) {
		t.Errorf("List: pages %v, folders %v; want [spec-a.md], [archive]", pages, folders)
	}
	for _, tc := range []struct {
		sub, name string
		want      bool
	}{
		{"archive", "spec-b.md", true},
		{"archive", "spec-a.md", false},
		{"linked", "spec-d.md", false}, // a link is not followed
		{"gone", "spec-b.md", false},
	} {
		if got, err := d.Holds(tc.sub, tc.name); err != nil || got != tc.want {
			t.Errorf("Holds(%q, %q) = %v, %v; want %v", tc.sub, tc.name, got, err, tc.want)
		}
	}
}
