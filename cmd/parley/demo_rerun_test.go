package main

import (
	"os"
	"path/filepath"
	"testing"
)

// demo never writes into a directory that holds anything: given a --dir
// with a user's config.json it runs in a new demo-* directory inside it
// and leaves the file as it was; the same --dir can be given again and
// each run gets its own root.
func TestDemoNeverOverwritesAndReruns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const cfg = `{"transport":"file","openai":{"baseUrl":"http://gpu-box:8000/v1"}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	roots := map[string]bool{}
	for range 2 {
		objs := jsonLines(t, mustCLI(t, dir, "", "--json", "demo", "--dir", dir))
		root, _ := objs[0]["root"].(string)
		if objs[0]["event"] != "root" || filepath.Dir(root) != dir || objs[len(objs)-1]["event"] != "done" {
			t.Fatalf("demo ran in %q (first %v, last %v)", root, objs[0], objs[len(objs)-1])
		}
		roots[root] = true
	}
	if len(roots) != 2 {
		t.Fatalf("two runs shared a root: %v", roots)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "config.json")); err != nil || string(b) != cfg {
		t.Fatalf("config.json changed: %q %v", b, err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 { // config.json and the two runs
		t.Fatalf("%d entries in --dir", len(ents))
	}
	// An empty or new --dir is used as it is.
	fresh := filepath.Join(dir, "fresh")
	objs := jsonLines(t, mustCLI(t, dir, "", "--json", "demo", "--dir", fresh))
	if objs[0]["root"] != fresh {
		t.Fatalf("a new --dir was not used as the root: %v", objs[0])
	}
}
