package vault

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/parleyhq/parley/internal/clip"
)

func render(t testing.TB, src string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, []byte(src), func(l Link) (string, bool) { return "/p/" + l.Target, true }); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRenderAgreesWithGFM renders pages in the syntax vault pages use
// (tables, strikethrough, task lists, bare URLs) with parley's extensions
// and with goldmark's GFM extension, which the command no longer links:
// the HTML is the same, byte for byte.
func TestRenderAgreesWithGFM(t *testing.T) {
	t.Parallel()
	gfm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithXHTML()))
	for _, src := range []string{
		"| Owner | Due | Done |\n|:------|:---:|-----:|\n| ops | Friday | no |\n| qa | *soon* | **yes** |\n",
		"Notes from the call\n| a | b |\n|---|---|\n| 1 | 2 |\nafter the table, a row\n",
		"a | b\n-- | --:\nc | d\n\nplain paragraph\n",
		"| cmd | meaning |\n|---|---|\n| `grep a\\|b` | either \\| or |\n| `x` | ` \\| ` |\n",
		"> | quoted | table |\n> |---|---|\n> | in | a quote |\n\n- | in | a list |\n  |----|----|\n  | x | y |\n",
		"| only header |\n|---|\n",
		"|a|b|\n|-|-|\n|1|\n|1|2|3|\n",
		"| a | b |\n|---|---|\n| *open | close* |\n| **bold *and em*** | ***x*** |\n",
		"| html | here |\n|---|---|\n| <script>alert(1)</script> | <b onclick=\"x\">b</b> &lt;ok&gt; &amp; |\n",
		"| not | a table |\n|---|\n| x | y |\n",
		"- [ ] write the draft\n- [x] read the brief\n- [X] ship\n\n1. [ ] numbered\n2. [x] done\n\n- [ ] loose item\n\n  with a second paragraph\n",
		"- not [ ] at the start\n- [] empty\n- [y] other letter\n\n[ ] not in a list\n",
		"~~gone~~ and ~also~ but ~~~three~~~ and a~~b~~c and ~~ spaced ~~ and \\~~escaped~~\n",
		"**~~bold strike~~** ~~*em in strike*~~ ~~[link](https://example.net)~~\n",
		"see https://example.org/a_b?c=d&e=f. or https://example.org/x, then (https://example.org/wiki/Foo_(bar)) end\n",
		"quote \"https://example.org/q\" and https://example.org/&amp; and https://example.org/p?x=1;\n",
		"*https://example.org/em* _https://example.org/u_ ~~https://example.org/s~~\n",
		"<https://example.org/angle> [https://example.org/label](https://example.org/dest) `https://example.org/code`\n",
		"http:// alone, https://ex-ample.org/ok and https://example.org/<b>tag</b>\n",
		"x https://example.org/a\nhttps://example.org/line-start\n",
	} {
		var want bytes.Buffer
		if err := gfm.Convert([]byte(src), &want); err != nil {
			t.Fatal(err)
		}
		if got := render(t, src); got != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", src, got, want.String())
		}
	}
}

// TestRenderDiffersFromGoldmarkGFMOnPurpose pins where parley follows the
// GitHub spec (or its own safety) rather than goldmark's extension.
func TestRenderDiffersFromGoldmarkGFMOnPurpose(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		// A task needs white space after the brackets.
		{"- [ ]x\n", "<ul>\n<li>[ ]x</li>\n</ul>\n"},
		// Padded cells keep their column's alignment.
		{"| a | b |\n|---|--:|\n| 1 |\n", "<table>\n<thead>\n<tr>\n<th>a</th>\n<th align=\"right\">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td align=\"right\"></td>\n</tr>\n</tbody>\n</table>\n"},
		// Only runs of equal length pair.
		{"~~a~ b~~\n", "<p><del>a~ b</del></p>\n"},
		// The delimiter row must have as many cells as the header.
		{"| a |\n| - | - |\n", "<p>| a |\n| - | - |</p>\n"},
		// A host without a dot is still a host (localhost).
		{"http://localhost:8080/x\n", "<p><a href=\"http://localhost:8080/x\">http://localhost:8080/x</a></p>\n"},
		// A wikilink's "\|" in a cell is its alias.
		{"| a |\n|---|\n| [[page\\|the page]] |\n", "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td><a class=\"wikilink\" href=\"/p/page\">the page</a></td>\n</tr>\n</tbody>\n</table>\n"},
	} {
		if got := render(t, tc.src); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

// tagRE finds every HTML tag or comment in rendered output, with its
// attributes.
var tagRE = regexp.MustCompile(`<(/?[a-zA-Z0-9]+|!--)([^>]*)>?`)

// renderedTags are the only tags Render may write; anything else in the
// output means hostile input got through unescaped.
const renderedTags = " p a em strong del code pre table thead tbody tr th td ul ol li input blockquote h1 h2 h3 h4 h5 h6 hr br span img !-- "

// checkEscaped fails when out holds a tag Render does not write, an event
// handler or a script URL in a tag, or a comment other than goldmark's.
func checkEscaped(t testing.TB, src, out string) {
	t.Helper()
	for _, m := range tagRE.FindAllStringSubmatch(out, -1) {
		if !strings.Contains(renderedTags, " "+strings.TrimPrefix(m[1], "/")+" ") {
			t.Fatalf("%q: tag <%s in output:\n%s", clip.Runes(src, 81), m[1], clip.Runes(out, 400))
		}
		attrs := strings.ToLower(m[2])
		for _, bad := range []string{`="javascript:`, `="vbscript:`, `="data:`, " on", "style="} {
			if strings.Contains(attrs, bad) && m[1] != "!--" {
				t.Fatalf("%q: %q in tag %q:\n%s", clip.Runes(src, 81), bad, m[0], clip.Runes(out, 400))
			}
		}
	}
	if strings.Count(out, "<!--") != strings.Count(out, "<!-- raw HTML omitted -->") {
		t.Fatalf("%q: a comment that is not goldmark's:\n%s", clip.Runes(src, 81), clip.Runes(out, 400))
	}
}

// TestRenderTablesHostile feeds tables that are broken, huge or full of
// markup: the HTML stays escaped, and its size grows with the input's,
// never with rows × columns.
func TestRenderTablesHostile(t *testing.T) {
	t.Parallel()
	wide := "|" + strings.Repeat(" c |", 5000) + "\n|" + strings.Repeat("-|", 5000) + "\n" + strings.Repeat("x\n", 50000)
	for _, tc := range []struct {
		name, src string
		// cells is the number of <td>/<th> the output must hold, -1 to
		// not count them.
		cells int
	}{
		{"unclosed pipes", "| a | b\n|--- | ---\n| 1 | 2\n| 3\n", 6},
		{"no delimiter row", "| a | b |\n| 1 | 2 |\n", 0},
		{"delimiter row unclosed", "| a |\n|---\n", 1},
		{"delimiter cell count differs", "| a | b | c |\n|---|---|\n| 1 | 2 | 3 |\n", 0},
		{"only pipes", "|||\n|-|-|\n|||\n", 4},
		{"escaped trailing pipe", "| a \\|\n|---|\n| b \\|\n", 2},
		{"html in cells", "| <img src=x onerror=alert(1)> | <a href=\"javascript:alert(2)\">x</a> |\n|---|---|\n| <script>alert(3)</script> | </td></tr></table><script>x</script> |\n| [c](javascript:alert(4)) | ![i](javascript:alert(5)) |\n", 6},
		{"entities and brackets", "| a |\n|---|\n| &lt;script&gt; &#60;b&#62; \\<i> |\n", 2},
		{"nested emphasis", "| h |\n|---|\n| " + strings.Repeat("*_", 2000) + "x" + strings.Repeat("_*", 2000) + " |\n| " + strings.Repeat("**a ", 3000) + " |\n", 3},
		{"wide and padded", wide, -1},
		{"many rows", "| a | b |\n|---|---|\n" + strings.Repeat("| 1 | 2 |\n", 40000), 80002},
		{"pipes everywhere", strings.Repeat("|", 100000) + "\n" + strings.Repeat("|-", 50000) + "\n", -1},
	} {
		out := render(t, tc.src)
		checkEscaped(t, tc.src, out)
		if tc.cells >= 0 {
			if got := strings.Count(out, "<td") + strings.Count(out, "<th>") + strings.Count(out, "<th "); got != tc.cells {
				t.Errorf("%s: %d cells, want %d:\n%s", tc.name, got, tc.cells, clip.Runes(out, 600))
			}
		}
		// Each cell costs at least one byte of input or one padded cell,
		// and padding stops at the table's size: the HTML stays linear.
		if len(out) > 40*len(tc.src)+100 {
			t.Errorf("%s: %d bytes of HTML from %d of Markdown", tc.name, len(out), len(tc.src))
		}
	}

	// The wide table pads until the padding reaches its size, then the
	// rest of its lines are a paragraph again.
	out := render(t, wide)
	if !strings.Contains(out, "<table>") || !strings.Contains(out, "</table>\n<p>x\nx") {
		t.Errorf("wide table: no table, or no paragraph after it: %s", clip.Runes(out, 200))
	}
	if n := strings.Count(out, "<td>"); n > 2*len(wide) {
		t.Errorf("wide table: %d cells from %d bytes", n, len(wide))
	}
}

// TestRenderInlineHostile: strikethrough, task lists and bare URLs on
// input made to break them stay escaped, linear and link nothing unsafe.
func TestRenderInlineHostile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		links     int
	}{
		{"tildes", strings.Repeat("~", 200000), 0},
		{"tilde pairs", strings.Repeat("~~a", 50000) + strings.Repeat("a~~", 50000), 0},
		{"script url", "javascript:alert(1) http://x.org/\"><script>alert(1)</script> https://x.org/'onmouseover=alert(1)", 2},
		{"data url", "data:text/html,<script>alert(1)</script> https://x.org/data:text", 1},
		{"url of parens", "https://x.org/" + strings.Repeat(")", 100000), 1},
		{"url of semicolons", "https://x.org/a" + strings.Repeat(";", 100000), 1},
		{"url of entities", "https://x.org/" + strings.Repeat("&amp;", 30000), 1},
		{"many urls", strings.Repeat(" https://x.org", 20000), 20000},
		{"no host", strings.Repeat("https:// ", 20000), 0},
		{"tasks", strings.Repeat("- [x] <b>x</b> [ ] ~~[x]~~\n", 5000), 0},
		{"checkbox in link", "- [x](javascript:alert(1)) and [ ](javascript:alert(2))\n", 2}, // links without their href
	} {
		out := render(t, tc.src)
		checkEscaped(t, tc.src, out)
		if got := strings.Count(out, "<a "); got != tc.links {
			t.Errorf("%s: %d links, want %d: %s", tc.name, got, tc.links, clip.Runes(out, 300))
		}
		if len(out) > 40*len(tc.src)+100 {
			t.Errorf("%s: %d bytes of HTML from %d of Markdown", tc.name, len(out), len(tc.src))
		}
	}
	if out := render(t, "- [x] done <i>x</i>\n"); !strings.Contains(out, `<input checked="" disabled="" type="checkbox" /> done <!-- raw HTML omitted -->x`) {
		t.Errorf("a task with HTML: %s", out)
	}
}

// TestCommandLinksNoStartupHeavyweights: the parley command does not link
// goldmark's extension package (regular expressions compiled at start-up)
// nor the frontmatter and YAML 1.1 libraries vault no longer uses.
func TestCommandLinksNoStartupHeavyweights(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/parleyhq/parley/cmd/parley").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range []string{"github.com/yuin/goldmark/extension", "github.com/adrg/frontmatter", "gopkg.in/yaml.v2", "github.com/BurntSushi/toml"} {
		if strings.Contains("\n"+string(out), "\n"+pkg+"\n") {
			t.Errorf("cmd/parley links %s", pkg)
		}
	}
}

// FuzzRender renders arbitrary Markdown: it never panics and never lets a
// tag, handler or script URL through.
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"| a | b |\n|:-|-:|\n| <x> | `\\|` |\n", "- [ ] a\n- [x] <b>\n", "~~a~~ ~b~ ~~~c~~~",
		"https://x.org/(a)) http://y.org/&amp;", "| [[a\\|b]] |\n|---|\n", "> | q |\n> |--|\n> | <script> |\n",
		"a %%b [[c]]%% d\n\n%%\n<x>\n\n%%\n`%%`", "> %%\n> [[x]]\n%%%", "![[a]] ![[b|<i>]] ![x](y) !![[c]]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := render(t, s)
		checkEscaped(t, s, out)
	})
}

// BenchmarkRenderPage renders a page of the shape parley's records and
// hand-written pages have (a table, task list, prose with links and
// URLs), with parley's extensions and, beside them in the same run, with
// goldmark's GFM extension.
func BenchmarkRenderPage(b *testing.B) {
	var page strings.Builder
	page.WriteString("# Rate limits\n\n| Date | Layer | Topic | Verdict | Status |\n|------|-------|-------|---------|--------|\n")
	for i := range 200 {
		fmt.Fprintf(&page, "| 2026-11-%02d | plan | [[rate-limit-%d\\|Rate limits, take %d]] | CONSENSUS_REACHED | ~~open~~ closed |\n", i%28+1, i, i)
	}
	page.WriteString("\n## Follow-ups\n\n- [x] write the **runbook** (see https://example.org/runbook_v2)\n- [ ] load test at `10k rps`\n\n")
	for range 50 {
		page.WriteString("The gateway sheds load *before* the queue fills; details in [[capacity#Limits]] and https://example.org/design?rev=3.\n\n")
	}
	src := []byte(page.String())
	resolve := func(l Link) (string, bool) { return "/p/" + l.Target, true }
	b.Run("parley", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if err := Render(io.Discard, src, resolve); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("goldmark-gfm", func(b *testing.B) {
		gfm := goldmark.New(goldmark.WithExtensions(extension.GFM, wikilinkExt{}), goldmark.WithRendererOptions(html.WithXHTML()))
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if err := gfm.Convert(src, io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// HeadingID is the id Render gives a heading and the fragment a link to
// it takes: both must agree on any wording.
func TestHeadingID(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Rationale":               "rationale",
		"  Why -- it_holds!  ":    "why-it-holds",
		"Use `x` and **y**":       "use-x-and-y",
		"Décision: Ångström 2026": "décision-ångström-2026",
		"!!!":                     "heading",
	} {
		if got := HeadingID(in); got != want {
			t.Errorf("HeadingID(%q) = %q, want %q", in, got, want)
		}
	}
	var buf bytes.Buffer
	if err := Render(&buf, []byte("## Use `x` and **y**\n\n## Use x and y\n\nSetext\n---\n"), nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<h2 id="use-x-and-y">`, `<h2 id="use-x-and-y-1">`, `<h2 id="setext">`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("no %s in\n%s", want, buf.String())
		}
	}
}
