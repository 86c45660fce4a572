package web

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
