package rootdir

import (
	"os"
	"path/filepath"
	"testing"
)

// The default root is the working directory's .parley, else the nearest
// one above it (as git finds .git), else .parley to be made here: a
// command run from a subdirectory of a project uses the project's root
// rather than making a second one beside the user.
func TestFind(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	mkdir := func(parts ...string) string {
		t.Helper()
		p := filepath.Join(append([]string{top}, parts...)...)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mkdir("proj", ".parley")
	mkdir("proj", "sub", "deep")
	mkdir("proj", "nested", ".parley")
	mkdir("proj", "nested", "below")
	mkdir("plain", "sub")
	mkdir("filed", "sub")
	if err := os.WriteFile(filepath.Join(top, "filed", ".parley"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mkdir("filed", "sub", "in")
	if err := os.WriteFile(filepath.Join(top, "filed", "sub", ".parley"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// Where no directory of the tree has one, the answer is whatever is
	// above the test's directory: .parley, unless the machine has one.
	none := Find(top)
	for _, tc := range []struct {
		name, wd, want string
	}{
		{"the working directory's own", "proj", Default},
		{"a subdirectory's parent's", "proj/sub", filepath.Join(top, "proj", ".parley")},
		{"two levels up", "proj/sub/deep", filepath.Join(top, "proj", ".parley")},
		{"the nearest of two", "proj/nested/below", filepath.Join(top, "proj", "nested", ".parley")},
		{"inside the root itself", "proj/.parley", filepath.Join(top, "proj", ".parley")},
		{"none anywhere: made here", "plain/sub", none},
		{"a file named .parley here: the working directory's, for what opens it to refuse", "filed/sub", Default},
		{"a file named .parley above is no root", "filed/sub/in", none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Find(filepath.Join(top, filepath.FromSlash(tc.wd))); got != tc.want {
				t.Errorf("Find(%s) = %q, want %q", tc.wd, got, tc.want)
			}
		})
	}
}

// A directory named as the root (--root, $PARLEY_ROOT) that is a
// project's, holding its .parley, stands for that .parley: "--root ." in
// the project answers from the root a bare "parley" uses there, rather
// than from a second, empty one made beside it. A directory of other files
// is no root: commands that only read make nothing in it. An empty
// directory is a root to be.
func TestNamedRoot(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	write := func(parts ...string) {
		t.Helper()
		p := filepath.Join(append([]string{top}, parts...)...)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("proj", ".parley", "inbox", "Bob", "keep")
	write("proj", "README.md")
	write("example", ".parley", "inbox", "Bob", "keep") // made by a command run there without --root
	write("example", "config.json")
	write("both", ".parley", "inbox", "Bob", "keep")
	write("both", "registry", "Bob.json")
	write("other", "notes.txt")
	write("root", "config.json")
	if err := os.MkdirAll(filepath.Join(top, "empty"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, root string
		have      bool
	}{
		{"proj", "proj/.parley", true},
		{"example", "example", true}, // its config.json: a root of its own
		{"both", "both", true},       // a root itself, whatever it holds
		{"other", "other", false},
		{"root", "root", true},
		{"empty", "empty", true},
		{"missing", "missing", false},
	} {
		root, _ := Named(filepath.Join(top, tc.dir), "", false)
		if want := filepath.Join(top, filepath.FromSlash(tc.root)); root != want || Have(root) != tc.have {
			t.Errorf("--root %s: root %s (a root: %v), want %s (%v)", tc.dir, root, Have(root), want, tc.have)
		}
	}
	entries, err := os.ReadDir(filepath.Join(top, "other"))
	if err != nil || len(entries) != 1 {
		t.Errorf("the directory of other files holds %v (%v), want notes.txt alone", entries, err)
	}
}

// A root named with a ".." element is made absolute as the shell reads it
// (the working directory's logical path, then the path cleaned), so that
// every part of parley opens the one directory; any other root is kept
// as it was given.
func TestNamedRootThroughDotDot(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ named, want string }{
		{"../x", filepath.Join(filepath.Dir(wd), "x")},
		{"/srv/a/../b", "/srv/b"},
		{"a/..", wd},
		{"..x/y", "..x/y"},
		{"x../y", "x../y"},
		{"./r", "./r"},
		{"/srv/r", "/srv/r"},
	} {
		if got, _ := Named(tc.named, "", false); got != tc.want {
			t.Errorf("Named(%q) = %q, want %q", tc.named, got, tc.want)
		}
	}
}
