package cmdutil_test

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyTheCommandLineImportsCobra: the command line is the only front
// end built of cobra commands. No package outside cmd/ imports cobra or
// pflag (the service layer, the MCP server and serve build no command);
// the shared plumbing under cmd/internal imports no command package, and
// a command package (cmd/internal/*cmd) no other one.
func TestOnlyTheCommandLineImportsCobra(t *testing.T) {
	t.Parallel()
	files := 0
	eachModuleFile(t, func(rel string, src []byte) error {
		files++
		parsed, err := parser.ParseFile(token.NewFileSet(), rel, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range parsed.Imports {
			imp, _ := strconv.Unquote(im.Path.Value)
			switch {
			case (imp == "github.com/spf13/cobra" || imp == "github.com/spf13/pflag") && !strings.HasPrefix(rel, "cmd/"):
				t.Errorf("%s imports %s: only the command line (cmd/) builds commands", rel, imp)
			case strings.HasPrefix(rel, "cmd/internal/cmdutil/") || strings.HasPrefix(rel, "cmd/internal/cmdtest/"):
				if strings.HasPrefix(imp, "github.com/parleyhq/parley/cmd/") && !strings.HasSuffix(imp, "/cmdutil") {
					t.Errorf("%s imports %s: the shared plumbing imports no command package", rel, imp)
				}
			case strings.HasPrefix(rel, "cmd/internal/"):
				own := "github.com/parleyhq/parley/" + rel[:strings.LastIndex(rel, "/")]
				if strings.HasPrefix(imp, "github.com/parleyhq/parley/cmd/internal/") && strings.HasSuffix(imp, "cmd") && imp != own {
					t.Errorf("%s imports %s: a command package imports no other one", rel, imp)
				}
			}
		}
		return nil
	})
	if files < 100 {
		t.Fatalf("read %d Go files: not the whole module", files)
	}
}

// eachModuleFile calls fn with the path (slash-separated, from the
// module's root) and the contents of each Go file of the module that is
// not a test, outside testdata, node_modules and hidden directories, and
// not kept out of every build by the "ignore" tag.
func eachModuleFile(t *testing.T, fn func(rel string, src []byte) error) {
	t.Helper()
	module := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(module, "go.mod")); err != nil {
		t.Fatalf("the module's root is not %s: %v", module, err)
	}
	err := filepath.WalkDir(module, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(module, path)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if ignored(src) {
			return nil // "//go:build ignore": in no build (an example's own program)
		}
		return fn(filepath.ToSlash(rel), src)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// ignored reports whether src's build constraint keeps it out of every
// build with the "ignore" tag.
func ignored(src []byte) bool {
	for line := range strings.Lines(string(src)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return false
		}
		// "ignore" named, and the file in no build without it: every other
		// tag is taken to hold ("//go:build linux && !ignore" is built).
		names := false
		built := expr.Eval(func(tag string) bool {
			names = names || tag == "ignore"
			return tag != "ignore"
		})
		return names && !built
	}
	return false
}
