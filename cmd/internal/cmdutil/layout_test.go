package cmdutil_test

import (
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
	module := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(module, "go.mod")); err != nil {
		t.Fatalf("the module's root is not %s: %v", module, err)
	}
	files := 0
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
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
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
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files under %s: not the whole module", files, module)
	}
}
