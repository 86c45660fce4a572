package web_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
	"github.com/parleyhq/parley/web"
)

// Serve the pages of a parley root and its vault; here one request goes
// through the handler, as "parley serve" would answer it.
func ExampleServer() {
	dir, _ := os.MkdirTemp("", "parley-example")
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "root")
	os.Mkdir(root, 0o700)
	debates, _ := transcripts.OpenStore(root, nil)
	defer debates.Close()
	v, _ := vault.Create(filepath.Join(dir, "vault"))
	defer v.Close()
	cs, _ := consensus.Open(root, v)
	defer cs.Close()

	srv, err := web.New(web.Config{Debates: debates, Vault: v, Consensus: cs})
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	// In a program: ln, _ := net.Listen("tcp", "127.0.0.1:7420"); srv.Serve(ctx, ln)

	for _, target := range []string{"/", "/wiki/../../etc/passwd"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", target, nil)
		req.Host = "127.0.0.1:7420"
		srv.ServeHTTP(rec, req)
		fmt.Println(target, rec.Code, rec.Header().Get("Content-Security-Policy") != "")
	}
	// Output:
	// / 200 true
	// /wiki/../../etc/passwd 404 true
}
