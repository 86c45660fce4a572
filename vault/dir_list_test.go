package vault

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDirListAndWalkNames: List names the Markdown files and the folders
// of a folder (a link to a folder is no folder); WalkNames finds every
// file at any depth but in hidden folders and the folders it is told to
// skip, follows no link, and a folder that is gone holds nothing.
func TestDirListAndWalkNames(t *testing.T) {
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
	var found []string
	if err := v.WalkNames(context.Background(), ".", func(dir string) bool { return dir == "wiki/consensus" }, func(p string) { found = append(found, p) }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	if want := []string{"wiki/elsewhere/spec-d.md"}; !slices.Equal(found, want) {
		t.Errorf("WalkNames of the vault but wiki/consensus = %v, want %v", found, want)
	}
	found = nil
	if err := v.WalkNames(context.Background(), "wiki/consensus/archive", nil, func(p string) { found = append(found, p) }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	if want := []string{"wiki/consensus/archive/2026/Spec-B.md", "wiki/consensus/archive/2026/readme.html"}; !slices.Equal(found, want) {
		t.Errorf("WalkNames of archive = %v, want %v", found, want)
	}
	if err := v.WalkNames(context.Background(), "gone", nil, func(p string) { t.Errorf("found %s in a folder that is gone", p) }); err != nil {
		t.Errorf("WalkNames of a folder that is gone: %v", err)
	}
	// A link is not followed.
	if err := v.WalkNames(context.Background(), "wiki/consensus", func(dir string) bool { return dir == "wiki/consensus/archive" }, func(p string) {
		if p != "wiki/consensus/spec-a.md" && p != "wiki/consensus/notes.txt" {
			t.Errorf("WalkNames of wiki/consensus found %s", p)
		}
	}); err != nil {
		t.Fatal(err)
	}
}
