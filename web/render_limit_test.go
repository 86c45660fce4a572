package web

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/vault"
)

// A page whose Markdown would take goldmark minutes (hundreds of KiB of
// "[a](") is shown as escaped plain text, at once; a normal page is still
// rendered as Markdown.
func TestHostileMarkdownIsShownAsText(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	notes := filepath.Join(f.vaultDir, "wiki", "notes")
	if err := os.MkdirAll(notes, 0o700); err != nil {
		t.Fatal(err)
	}
	hostile := strings.Repeat("[a](", 200<<10) + "<script>alert(1)</script>"
	os.WriteFile(filepath.Join(notes, "hostile.md"), []byte(hostile), 0o600)
	os.WriteFile(filepath.Join(notes, "normal.md"), []byte("# Normal\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"), 0o600)

	start := time.Now()
	res, body := get(t, f.srv, "/wiki/notes/hostile")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("hostile page: %d", res.StatusCode)
	}
	if !strings.Contains(body, "shown as plain text") || strings.Contains(body, "<script>alert") || !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("hostile page not shown as escaped text (%d bytes)", len(body))
	}
	t.Logf("hostile page served in %v", time.Since(start))

	res, body = get(t, f.srv, "/wiki/notes/normal")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "<table>") || strings.Contains(body, "shown as plain text") {
		t.Errorf("normal page: %d, rendered table %v", res.StatusCode, strings.Contains(body, "<table>"))
	}
}

// A vault page over the 1 MiB limit is not read, and the answer says so —
// 413, its size, the limit and where to open it — rather than that there
// is no page; one just under the limit is served.
func TestVaultPageOverTheLimitSaysItIsTooLarge(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	x := filepath.Join(f.vaultDir, "wiki", "x")
	if err := os.MkdirAll(x, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(x, "big.md"), []byte(strings.Repeat("a", 1_200_000)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(x, "fits.md"), []byte(strings.Repeat("b", vault.MaxPageBytes)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/wiki/x/big", "/vault/wiki/x/big.md"} {
		res, body := get(t, f.srv, target)
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: %d, want 413", target, res.StatusCode)
		}
		for _, want := range []string{"Too large to show", "wiki/x/big.md is 1.1 MiB (1200000 bytes)", "up to 1 MiB", "Open it in Obsidian or an editor", filepath.Join(x, "big.md")} {
			if !strings.Contains(body, want) {
				t.Errorf("%s does not say %q:\n%s", target, want, body)
			}
		}
		if strings.Contains(body, "There is no page at this address") {
			t.Errorf("%s says there is no page", target)
		}
	}
	if res, _ := get(t, f.srv, "/wiki/x/fits"); res.StatusCode != http.StatusOK {
		t.Errorf("a page of exactly 1 MiB: %d, want 200", res.StatusCode)
	}
	// A consensus record page too.
	if err := os.MkdirAll(filepath.Join(f.vaultDir, consensus.Folder), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.vaultDir, consensus.Folder, "big.md"), []byte(strings.Repeat("a", 1_200_000)), 0o600); err != nil {
		t.Fatal(err)
	}
	if res, body := get(t, f.srv, "/consensus/big"); res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, consensus.Folder+"/big.md is larger than 1 MiB") {
		t.Errorf("/consensus/big: %d\n%s", res.StatusCode, body)
	}
}
