package vocab_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// vocab is a leaf: its files import the standard library and x/text's
// normalisation only, and no parley package but its own part vocab/wire
// and internal/lean (the strings functions of the code that runs before
// the rest of parley is initialised), themselves leaves, so that every
// package can import it and none has to borrow a word from a peer. The
// same holds for the internal helpers everything shares.
func TestLeavesImportNoParleyPackage(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{".", "wire", "../internal/lean", "../internal/clip", "../internal/flock", "../internal/sleep"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range parsed.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				first, _, _ := strings.Cut(path, "/")
				if dir == "." && path == "github.com/parleyhq/parley/vocab/wire" || path == "github.com/parleyhq/parley/internal/lean" {
					continue
				}
				if strings.Contains(first, ".") && path != "golang.org/x/text/unicode/norm" && path != "golang.org/x/sys/unix" {
					t.Errorf("%s imports %s: a leaf imports the standard library (and x/text's norm, x/sys/unix) only", f, path)
				}
			}
		}
	}
}
