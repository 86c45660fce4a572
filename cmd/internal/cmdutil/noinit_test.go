package cmdutil_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"
	"testing"
)

// allowedCall is a call a package-level variable may be initialised with,
// and why: none of them does work a command that never uses the variable
// would notice. in, when set, is the one package directory whose function
// of that name it is.
type allowedCall struct{ why, in string }

// atInit are the allowed calls. Everything else (a regular expression
// compiled, a template parsed, a table computed, a map built) is built on
// first use.
var atInit = map[string]allowedCall{
	"errors.New":           {why: "an error value: one small allocation"},
	"fmt.Errorf":           {why: "an error value wrapping another"},
	"sync.OnceValue":       {why: "built on first use"},
	"sync.OnceValues":      {why: "built on first use"},
	"sync.OnceFunc":        {why: "run on first use"},
	"lazySet":              {why: "gating's sync.OnceValue of a word set", in: "gating"},
	"wordSet":              {why: "consensus's sync.OnceValue of a word set", in: "consensus"},
	"foldedWordSet":        {why: "consensus's sync.OnceValue of a set of folded words", in: "consensus"},
	"strings.NewReplacer":  {why: "the standard library builds it on first use"},
	"ast.NewNodeKind":      {why: "goldmark's node kinds: a number each, which goldmark has declared at initialisation"},
	"parser.NewContextKey": {why: "goldmark's context keys: a number each"},
	"inbox.Transport":      {why: "a conversion of nil, checked at compile time"},
	"agent.ResponderFunc":  {why: "a conversion of a function"},
	"len":                  {why: "of a constant, a constant"},
}

// predeclaredTypes are the types a conversion may name without a package.
var predeclaredTypes = map[string]bool{
	"bool": true, "string": true, "byte": true, "rune": true, "error": true, "any": true, "uintptr": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true,
}

// initFuncs are the files that may have an init function (one each), and
// why.
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
// sync.OnceValue above all); never a map literal (built at every start,
// whether its type is written out, named or left to the enclosing
// literal) or a function called in place. The only init functions are
// those of initFuncs. (GODEBUG=inittrace=1 parley --version shows the bill
// of what remains: the dependencies'.)
func TestNothingIsBuiltAtPackageInitialisation(t *testing.T) {
	t.Parallel()
	type file struct {
		rel  string
		fset *token.FileSet
		f    *ast.File
	}
	var files []file
	mapTypes := map[string]map[string]bool{} // per directory: the names of its map types
	eachModuleFile(t, func(rel string, src []byte) error {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			return err
		}
		files = append(files, file{rel, fset, f})
		dir := path.Dir(rel)
		for _, decl := range f.Decls {
			if d, ok := decl.(*ast.GenDecl); ok && d.Tok == token.TYPE {
				for _, spec := range d.Specs {
					if ts := spec.(*ast.TypeSpec); isMap(ts.Type, nil) {
						if mapTypes[dir] == nil {
							mapTypes[dir] = map[string]bool{}
						}
						mapTypes[dir][ts.Name.Name] = true
					}
				}
			}
		}
		return nil
	})
	vars, onces := 0, 0
	inits := map[string]int{}
	for _, fl := range files {
		named := mapTypes[path.Dir(fl.rel)]
		pos := func(n ast.Node) token.Position { return fl.fset.Position(n.Pos()) }
		// lit checks a composite literal of type typ (its own, or the one
		// the enclosing literal gives it) and the literals inside it.
		var lit func(n *ast.CompositeLit, typ ast.Expr)
		var value func(v ast.Expr, typ ast.Expr)
		lit = func(n *ast.CompositeLit, typ ast.Expr) {
			if n.Type != nil {
				typ = n.Type
			}
			if isMap(typ, named) {
				t.Errorf("%s: a map literal at package level is built at every start: build it on first use (sync.OnceValue), or use a switch", pos(n))
				return
			}
			elem := elemType(typ)
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					value(kv.Key, nil)
					e = kv.Value
				}
				value(e, elem)
			}
		}
		value = func(v ast.Expr, typ ast.Expr) {
			if c, ok := v.(*ast.CompositeLit); ok {
				lit(c, typ)
				return
			}
			ast.Inspect(v, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false // run when called, not at initialisation
				case *ast.CompositeLit:
					lit(n, nil)
					return false
				case *ast.CallExpr:
					name, conversion := callee(n.Fun)
					if strings.HasPrefix(name, "sync.Once") {
						onces++
					}
					if a, ok := atInit[name]; (!ok || a.in != "" && a.in != path.Dir(fl.rel)) && !conversion {
						t.Errorf("%s: %s called at package initialisation: call it on first use (sync.OnceValue)", pos(n), name)
					}
				}
				return true
			})
		}
		for _, decl := range fl.f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Name.Name == "init" && d.Recv == nil {
					inits[fl.rel]++
					if _, ok := initFuncs[fl.rel]; !ok || inits[fl.rel] > 1 {
						t.Errorf("%s: an init function: build what it builds on first use (sync.OnceValue)", pos(d))
					}
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					for _, v := range vs.Values {
						vars++
						value(v, vs.Type)
					}
				}
			}
		}
	}
	for rel := range initFuncs {
		if inits[rel] == 0 {
			t.Errorf("initFuncs lists %s, which has no init function: take it off", rel)
		}
	}
	// The walk read the module's variables: sync.OnceValues are most of
	// what the packages keep (well over a hundred).
	if vars < 200 || onces < 100 {
		t.Fatalf("read %d package-level values, %d of them sync.Once*: not the whole module", vars, onces)
	}
}

// isMap reports whether typ is a map type: written out, or one of named
// (the names of the package's own map types and aliases of them).
func isMap(typ ast.Expr, named map[string]bool) bool {
	switch t := typ.(type) {
	case *ast.MapType:
		return true
	case *ast.ParenExpr:
		return isMap(t.X, named)
	case *ast.Ident:
		return named[t.Name]
	}
	return false
}

// elemType is the type of the elements of a literal of type typ whose
// own type may be left out (of an array, a slice or a map's values); nil
// when it is not written in typ.
func elemType(typ ast.Expr) ast.Expr {
	switch t := typ.(type) {
	case *ast.ArrayType:
		return t.Elt
	case *ast.MapType:
		return t.Value
	case *ast.ParenExpr:
		return elemType(t.X)
	}
	return nil
}

// callee names what a call calls ("regexp.MustCompile", "lazySet"), and
// reports whether the call is a conversion to a type written as a type
// expression ("(*T)(nil)", "[]byte(s)", "string(b)"): those build nothing
// beyond their operand. A name in parentheses is the name.
func callee(fun ast.Expr) (name string, conversion bool) {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name, predeclaredTypes[f.Name]
	case *ast.SelectorExpr:
		x, _ := callee(f.X)
		return x + "." + f.Sel.Name, false
	case *ast.ParenExpr:
		return callee(f.X)
	case *ast.IndexExpr:
		return callee(f.X)
	case *ast.IndexListExpr:
		return callee(f.X)
	case *ast.StarExpr, *ast.ArrayType, *ast.MapType, *ast.StructType, *ast.FuncType, *ast.ChanType, *ast.InterfaceType:
		return "a conversion", true
	case *ast.FuncLit:
		return "a function literal", false
	}
	return "a call", false
}
