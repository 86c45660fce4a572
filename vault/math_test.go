package vault

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// Obsidian reads what is between "$" marks as TeX: "[[A, B]]" there is a
// commutator, not a link, so lint must not call it broken. Dollars that
// are prices, not math, leave the links between them links.
func TestLinksInSkipsMath(t *testing.T) {
	t.Parallel()
	checkLinksIn(t, []linksCase{
		{"inline", "The commutator $[[A, B]] = AB - BA$ and [[a]].\n", []string{"a"}},
		{"inline across lines", "See $x +\n[[gone]]$ [[a]]\n", []string{"a"}},
		{"displayed in a paragraph", "So $$[[x]] \\cdot [[y]]$$ and [[a]].\n", []string{"a"}},
		{"block", "[[a]]\n\n$$\n[[x]] \\cdot [[y]]\n$$\n\n[[b]]\n", []string{"a", "b"}},
		{"block interrupts a paragraph", "[[a]]\n$$\n[[gone]]\n$$\n", []string{"a"}},
		{"block opened with TeX", "$$ [[x]]\n[[y]] $$ [[a]]\n", []string{"a"}},
		{"prices", "Prices $5 and [[a]] cost $10.\n", []string{"a"}},
		{"space after the opening", "It costs $ [[a]] $ each.\n", []string{"a"}},
		{"space before the closing", "From $x [[a]] $ on.\n", []string{"a"}},
		{"never closed", "It costs $5 [[a]]\n", []string{"a"}},
		{"escaped", `\$[[a]]\$` + "\n", []string{"a"}},
		{"in code", "`$` [[a]] `$`\n\n```\n$$\n```\n[[b]]\n", []string{"a", "b"}},
		{"in a table", "| x | y |\n|---|---|\n| $[[gone]]$ | [[a]] |\n", []string{"a"}},
	})
}

// Math renders as its TeX, escaped, never as a link or as HTML.
func TestRenderShowsMathAsTeX(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Render(&b, []byte("Let $[[A, B]] < 1$ hold.\n\n$$\n[[x]] & <b>\n$$\n\nafter $5 and $10\n"), nil); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{`<span class="math">[[A, B]] &lt; 1</span>`, `<div class="math display">[[x]] &amp; &lt;b&gt;`, "after $5 and $10"} {
		if !strings.Contains(html, want) {
			t.Errorf("Render lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "wikilink") || strings.Contains(html, "<b>") {
		t.Errorf("Render:\n%s", html)
	}
}

// TestMathMarksThatNeverCloseAreReadOnce: a paragraph of many "$" that
// close nothing (prices, "$5 and $10 …") is read in work proportional to
// its length, not once to its end per mark (a page of them took minutes
// to lint). Measured in bytes allocated, which the repeated reading
// copies; not parallel: the allocations it counts are its own.
func TestMathMarksThatNeverCloseAreReadOnce(t *testing.T) {
	for _, unit := range []string{"$a ", "x $5 ", "$$a "} {
		md := []byte(strings.Repeat(unit, 20000) + "[[a]]\n")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		links := LinksIn(md)
		runtime.ReadMemStats(&after)
		if len(links) != 1 || links[0].Target != "a" {
			t.Errorf("%q: links %v, want [[a]]", unit, links)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > uint64(200*len(md)) {
			t.Errorf("%q × 20000 (%d KB): %d MB allocated, want what a few readings take", unit, len(md)>>10, n>>20)
		}
	}
}
