package vault

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// LinkResolver turns a wikilink into the URL it points to; ok false means
// the page does not exist (the link is rendered as broken, not as a link).
// Vault.Resolver builds one that finds the page in the vault and leaves the
// URL scheme to the caller (a web server, a static export).
type LinkResolver func(l Link) (href string, ok bool)

// Render writes the HTML of a Markdown page body (without its frontmatter)
// to w: CommonMark with tables, ~~strikethrough~~, task list items and
// bare http(s) URLs as links (render_table.go, render_inline.go), Obsidian
// %%comments%% left out (render_comment.go), $math$ and $$math$$ shown
// as their TeX (render_math.go), and
// [[wikilinks]] and ![[embeds]] turned into links through resolve (nil:
// every wikilink is rendered as broken). It is safe on hostile input: raw
// HTML is not passed through (goldmark replaces it with a comment) and
// links with dangerous schemes such as javascript: are dropped. Render is
// safe for concurrent use.
func Render(w io.Writer, markdown []byte, resolve LinkResolver) error {
	if len(markdown) > MaxPageBytes {
		return fmt.Errorf("%w: page is larger than %d bytes", ErrTooLarge, MaxPageBytes)
	}
	pc := parser.NewContext(parser.WithIDs(headingIDs{}))
	pc.Set(resolverKey, resolve)
	return md().Convert(markdown, w, parser.WithContext(pc))
}

// md is the one converter, built on first use; it holds no per-call state
// (the resolver travels in the parser context), so it is shared. Its
// extensions are parley's own, for what vault pages use: goldmark's
// extension package compiles its regular expressions and tables when the
// program starts, in every command, whether it renders or not.
var md = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(pageSyntax{}, wikilinkExt{}),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(html.WithXHTML()),
	)
})

// HeadingID is the id Render gives a heading with this text, and so the
// fragment a [[Page#Heading]] link to it takes: its letters and digits (of
// any script) lowercased, a "-" for each run of spaces, hyphens and
// underscores between them, the rest dropped; "heading" when nothing is
// left. A page's second heading of the same id gets "-1", and so on.
func HeadingID(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r) || r == '-' || r == '_':
			dash = true
		}
	}
	if b.Len() == 0 {
		return "heading"
	}
	return b.String()
}

// headingIDs gives a page's headings their ids (HeadingID), each unique
// in the page.
type headingIDs map[string]bool

func (ids headingIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	id := HeadingID(string(value))
	for n := 1; ids[id]; n++ {
		id = fmt.Sprintf("%s-%d", HeadingID(string(value)), n)
	}
	ids[id] = true
	return []byte(id)
}

func (ids headingIDs) Put(value []byte) { ids[string(value)] = true }

// pageSyntax adds tables, strikethrough, task list items, bare URLs,
// Obsidian's %%comments%% and $math$.
type pageSyntax struct{}

func (pageSyntax) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		// After the link reference definitions (100) are taken out.
		parser.WithParagraphTransformers(util.Prioritized(tableParagraphs{}, 200)),
		parser.WithASTTransformers(util.Prioritized(codePipes{}, 100)),
		// Before the fenced code blocks (700) and paragraphs (1000).
		parser.WithBlockParsers(
			util.Prioritized(markBlockParser{mark: commentMark, newNode: func() ast.Node { return &commentBlock{} }}, 650),
			util.Prioritized(markBlockParser{mark: mathMark, newNode: func() ast.Node { return &mathBlock{} }, keep: true}, 660),
		),
		parser.WithInlineParsers(
			// Before the link parser (200), which would take "[ ]".
			util.Prioritized(checkboxParser{}, 198),
			util.Prioritized(commentParser{}, 197),
			util.Prioritized(mathParser{}, 196),
			util.Prioritized(strikeParser{}, 500),
			util.Prioritized(urlParser{}, 999),
		),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(
		util.Prioritized(tableRenderer{}, 500),
		util.Prioritized(inlineRenderer{}, 500),
		util.Prioritized(commentRenderer{}, 500),
		util.Prioritized(mathRenderer{}, 500),
	))
}

var resolverKey = parser.NewContextKey()

// kindWikilink is the AST node kind of a wikilink.
var kindWikilink = ast.NewNodeKind("Wikilink")

// wikilinkNode is a [[wikilink]] in the AST, resolved while parsing.
type wikilinkNode struct {
	ast.BaseInline
	Link     Link
	Href     string
	Resolved bool
}

func (n *wikilinkNode) Kind() ast.NodeKind { return kindWikilink }

func (n *wikilinkNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Link": n.Link.String(), "Href": n.Href}, nil)
}

type wikilinkExt struct{}

func (wikilinkExt) Extend(m goldmark.Markdown) {
	// Before the link parser (200), which would otherwise take "[[".
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(wikilinkParser{}, 199)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(wikilinkRenderer{}, 199)))
}

type wikilinkParser struct{}

// Trigger: a wikilink starts at "[[", an embed at "![[" (before goldmark's
// image parser takes the "![").
func (wikilinkParser) Trigger() []byte { return []byte{'[', '!'} }

func (wikilinkParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	embed := len(line) > 0 && line[0] == '!'
	if embed {
		line = line[1:]
	}
	if len(line) < 5 || line[0] != '[' || line[1] != '[' {
		return nil
	}
	end := linkEnd(line[2:])
	if end < 0 {
		return nil
	}
	l, err := ParseLink(string(line[2 : 2+end]))
	if err != nil {
		return nil
	}
	l.Embed = embed
	if embed {
		block.Advance(1)
	}
	block.Advance(2 + end + 2)
	n := &wikilinkNode{Link: l}
	if pc != nil {
		if resolve, _ := pc.Get(resolverKey).(LinkResolver); resolve != nil {
			n.Href, n.Resolved = resolve(l)
		}
	}
	return n
}

// linkEnd returns the length of a wikilink's inside at the start of rest
// (what follows "[["): the offset of the "]]" that closes it, or -1 when
// it does not close within MaxLinkBytes or a bracket comes first (a link
// holds none, see ParseLink). It looks at no more than MaxLinkBytes+2
// bytes, so a line full of "[[" that never close costs linear time, not
// a scan to the end of the line at every bracket.
func linkEnd(rest []byte) int {
	if len(rest) > MaxLinkBytes+2 {
		rest = rest[:MaxLinkBytes+2]
	}
	i := bytes.IndexAny(rest, "[]")
	if i < 0 || rest[i] != ']' || i+1 >= len(rest) || rest[i+1] != ']' {
		return -1
	}
	return i
}

type wikilinkRenderer struct{}

func (wikilinkRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindWikilink, renderWikilink)
}

func renderWikilink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*wikilinkNode)
	label := util.EscapeHTML([]byte(n.Link.Text()))
	if !n.Resolved || html.IsDangerousURL([]byte(n.Href)) {
		_, _ = w.WriteString(`<span class="wikilink broken" title="no such page">`)
		_, _ = w.Write(label)
		_, _ = w.WriteString(`</span>`)
		return ast.WalkSkipChildren, nil
	}
	if n.Link.Embed {
		_, _ = w.WriteString(`<a class="wikilink embed" href="`)
	} else {
		_, _ = w.WriteString(`<a class="wikilink" href="`)
	}
	_, _ = w.Write(util.EscapeHTML(util.URLEscape([]byte(n.Href), true)))
	_, _ = w.WriteString(`">`)
	_, _ = w.Write(label)
	_, _ = w.WriteString(`</a>`)
	return ast.WalkSkipChildren, nil
}

// collectLinks parses markdown and returns its wikilink nodes in order.
func collectLinks(markdown []byte) []Link {
	if len(markdown) > MaxPageBytes {
		markdown = markdown[:MaxPageBytes]
	}
	doc := md().Parser().Parse(text.NewReader(markdown))
	var out []Link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if w, ok := n.(*wikilinkNode); ok && entering {
			out = append(out, w.Link)
		}
		return ast.WalkContinue, nil
	})
	return out
}
