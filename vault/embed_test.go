package vault

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Obsidian counts an embed, "![[page]]", as a link of the page that holds
// it: a missing one is broken, and an embedded page is no orphan.
func TestLintLinksCountsEmbeds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for p, body := range map[string]string{
		"wiki/index.md":         "---\ntype: index\n---\n[[note]]\n",
		"wiki/note.md":          "# Note\n\n![[shown]] and ![[gone]] and ![[chart.png|300]]\n",
		"wiki/shown.md":         "# Embedded, linked by nothing else\n",
		"wiki/assets/chart.png": "png",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o700)
		os.WriteFile(full, []byte(body), 0o600)
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	rep, err := v.LintLinks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Broken) != 1 || rep.Broken[0].Link != "![[gone]]" || rep.Broken[0].Page != "wiki/note.md" || rep.Broken[0].Reason != "no such page" {
		t.Errorf("broken = %+v, want ![[gone]] of wiki/note.md", rep.Broken)
	}
	if len(rep.Orphans) != 0 {
		t.Errorf("orphans = %v, want none (wiki/shown.md is embedded)", rep.Orphans)
	}
}

func TestRenderEmbedsAsLinks(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	resolve := func(l Link) (string, bool) { return "/page/" + l.Target, l.Target != "gone" }
	if err := Render(&b, []byte("![[shown]] ![[gone]] ![alt](x.png)\n"), resolve); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`<a class="wikilink embed" href="/page/shown">shown</a>`, `<span class="wikilink broken" title="no such page">gone</span>`, `<img src="x.png" alt="alt" />`} {
		if !strings.Contains(html, want) {
			t.Errorf("Render = %q, want %q in it", html, want)
		}
	}
	if strings.Contains(html, "![[") {
		t.Errorf("Render = %q, an embed left as text", html)
	}
}
