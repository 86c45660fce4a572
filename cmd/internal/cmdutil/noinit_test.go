package cmdutil_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// atInit are the calls a package-level variable may be initialised with:
// none of them does work a command that never uses the variable would
// notice. Everything else (a regular expression compiled, a template
// parsed, a table computed, a map built) is built on first use.
var atInit = map[string]string{
	"errors.New":           "an error value: one small allocation",
	"fmt.Errorf":           "an error value wrapping another",
	"sync.OnceValue":       "built on first use",
	"sync.OnceValues":      "built on first use",
	"sync.OnceFunc":        "run on first use",
	"lazySet":              "gating's sync.OnceValue of a word set",
	"strings.NewReplacer":  "the standard library builds it on first use",
	"ast.NewNodeKind":      "goldmark's node kinds: a number each, which goldmark has declared at initialisation",
	"parser.NewContextKey": "goldmark's context keys: a number each",
	"inbox.Transport":      "a conversion of nil, checked at compile time",
	"agent.ResponderFunc":  "a conversion of a function",
}

// initFuncs are the init functions the module may have, and why.
var initFuncs = map[string]string{
	"cmd/parley/internal/fastpath/fastpath.go": "the fast path, which runs before the rest of parley is initialised, by design",
	"agent/openai.go":                          "registers the openai provider: one map entry",
	"app/backend_files.go":                     "registers the file backend: one map entry",
	"app/backend_nats.go":                      "registers the NATS backend: one map entry",
}

// TestNothingIsBuiltAtPackageInitialisation: a package's initialisation
// does no work beyond constants, so that a command pays only for what it
// uses. A package-level variable is a constant expression, a literal of
// constant parts, a conversion, or one of the calls of atInit (a
// sync.OnceValue above all); never a map literal (built at every start)
// or a function called in place. The only init functions are those of
// initFuncs. (GODEBUG=inittrace=1 parley --version shows the bill of what
// remains: the dependencies'.)
func TestNothingIsBuiltAtPackageInitialisation(t *testing.T) {
	t.Parallel()
	vars, onces := 0, 0
	seenInits := map[string]bool{}
	eachModuleFile(t, func(rel string, src []byte) error {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Name.Name == "init" && d.Recv == nil {
					seenInits[rel] = true
					if _, ok := initFuncs[rel]; !ok {
						t.Errorf("%s: an init function: build what it builds on first use (sync.OnceValue)", fset.Position(d.Pos()))
					}
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						vars++
						ast.Inspect(v, func(n ast.Node) bool {
							switch n := n.(type) {
							case *ast.FuncLit:
								return false // run when called, not at initialisation
							case *ast.CompositeLit:
								if _, ok := n.Type.(*ast.MapType); ok {
									t.Errorf("%s: a map literal at package level is built at every start: build it on first use (sync.OnceValue), or use a switch", fset.Position(n.Pos()))
									return false
								}
							case *ast.CallExpr:
								name, conversion := callee(n.Fun)
								if strings.HasPrefix(name, "sync.Once") {
									onces++
								}
								if _, ok := atInit[name]; !ok && !conversion {
									t.Errorf("%s: %s called at package initialisation: call it on first use (sync.OnceValue)", fset.Position(n.Pos()), name)
								}
							}
							return true
						})
					}
				}
			}
		}
		return nil
	})
	for rel := range initFuncs {
		if !seenInits[rel] {
			t.Errorf("initFuncs lists %s, which has no init function: take it off", rel)
		}
	}
	// The walk read the module's variables: sync.OnceValues are most of
	// what the packages keep (well over a hundred).
	if vars < 200 || onces < 100 {
		t.Fatalf("read %d package-level values, %d of them sync.Once*: not the whole module", vars, onces)
	}
}

// callee names what a call calls ("regexp.MustCompile", "lazySet"), and
// reports whether the call is a conversion to a type written as a type
// expression ("(*T)(nil)", "[]byte(s)"): those build nothing beyond their
// operand.
func callee(fun ast.Expr) (name string, conversion bool) {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name, false
	case *ast.SelectorExpr:
		x, _ := callee(f.X)
		return x + "." + f.Sel.Name, false
	case *ast.IndexExpr:
		return callee(f.X)
	case *ast.IndexListExpr:
		return callee(f.X)
	case *ast.ParenExpr, *ast.StarExpr, *ast.ArrayType, *ast.FuncType, *ast.ChanType, *ast.InterfaceType:
		return "a conversion", true
	case *ast.FuncLit:
		return "a function literal", false
	}
	return "a call", false
}
