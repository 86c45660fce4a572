package vault_test

import (
	"fmt"
	"os"

	"github.com/parleyhq/parley/vault"
)

// Write a page, resolve a wikilink to it and render a page that links to it.
func Example() {
	dir, _ := os.MkdirTemp("", "vault")
	defer os.RemoveAll(dir)
	v, err := vault.Create(dir)
	if err != nil {
		panic(err)
	}
	defer v.Close()

	fm := vault.Frontmatter{{Key: "type", Value: "concept"}, {Key: "title", Value: `Idempotency: "keys"`}}
	if err := v.WritePage("wiki/concepts/idempotency.md", fm, []byte("# Idempotency\n")); err != nil {
		panic(err)
	}
	p, _ := v.Resolve("[[idempotency#Idempotency|keys]]")
	page, _ := v.Page("idempotency")
	fmt.Println(p, page.Meta["title"])

	resolve := v.Resolver(func(path, heading string) string { return "/p/" + path })
	_ = vault.Render(os.Stdout, []byte("See [[idempotency|the keys]] and [[nowhere]]."), resolve)
	// Output:
	// wiki/concepts/idempotency.md Idempotency: "keys"
	// <p>See <a class="wikilink" href="/p/wiki/concepts/idempotency.md">the keys</a> and <span class="wikilink broken" title="no such page">nowhere</span>.</p>
}
