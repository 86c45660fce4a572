package web

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/parleyhq/parley/debate"
)

// A long unbroken word in what agents wrote (a URL, a hash, a path) wraps
// inside the page: no page scrolls sideways on a small screen.
func TestBrowserLongWordsWrap(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	long := "https://example.com/" + strings.Repeat("a1b2c3d4", 30)
	id := f.run(debate.LayerSpec, "Pin "+long, long,
		attacker(turns("1|Counter "+long+"|"+long+"|-1|50|"+long, "2||||10|")),
		defender(turns("1|"+long+"||0|40|"+long)))
	rec := ""
	ents, err := os.ReadDir(filepath.Join(f.vaultDir, "wiki", "consensus"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "spec-pin") {
			rec = strings.TrimSuffix(e.Name(), ".md")
		}
	}
	if rec == "" {
		t.Fatal("no record filed")
	}
	ts := httptest.NewServer(f.srv)
	defer ts.Close()
	ts.URL = strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	step(t, ctx, "narrow viewport", chromedp.EmulateViewport(800, 800))
	for _, page := range []string{"/", "/debates/" + id, "/consensus", "/consensus/" + rec, "/search?q=pin", "/wiki/debates/" + id} {
		step(t, ctx, "open "+page, chromedp.Navigate(ts.URL+page), chromedp.WaitVisible(chromedp.CSS("main")))
		wide := value(t, ctx, "widths", chromedp.Evaluate[[]float64](`[document.documentElement.scrollWidth, window.innerWidth]`))
		if wide[0] > wide[1] {
			wider := value(t, ctx, "wider", chromedp.Evaluate[[]string](`[...document.querySelectorAll("main *")].filter(e => e.getBoundingClientRect().right > window.innerWidth).map(e => e.tagName + "." + e.className).slice(0, 8)`))
			t.Errorf("%s scrolls sideways: %.0f px wide in a %.0f px window; wider: %v", page, wide[0], wide[1], wider)
		}
	}
}
