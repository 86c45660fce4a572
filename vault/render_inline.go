package vault

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The inline syntax pages use beyond CommonMark: ~~strikethrough~~, task
// list items ("- [ ] open", "- [x] done") and bare http(s) URLs as links.

var (
	kindStrike   = ast.NewNodeKind("Strikethrough")
	kindCheckbox = ast.NewNodeKind("TaskCheckbox")
)

// strikeNode is text between "~~" and "~~" (or "~" and "~").
type strikeNode struct{ ast.BaseInline }

func (n *strikeNode) Kind() ast.NodeKind { return kindStrike }
func (n *strikeNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// strikeParser finds runs of one or two tildes and leaves the pairing to
// goldmark's delimiter processing, as for emphasis: a run opens or closes
// by the characters around it, and only runs of the same length pair
// ("~~a~" is no strikethrough). Three or more tildes are text.
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, strikeDelims{})
	if d == nil {
		return nil
	}
	if d.OriginalLength > 2 { // the whole run is text, not its last two
		block.Advance(d.OriginalLength)
		return ast.NewTextSegment(seg.WithStop(seg.Start + d.OriginalLength))
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

type strikeDelims struct{}

func (strikeDelims) IsDelimiter(b byte) bool { return b == '~' }

func (strikeDelims) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char && opener.Length == closer.Length
}

func (strikeDelims) OnMatch(int) ast.Node { return &strikeNode{} }

// checkboxNode is the "[ ]" or "[x]" that starts a list item.
type checkboxNode struct {
	ast.BaseInline
	checked bool
}

func (n *checkboxNode) Kind() ast.NodeKind { return kindCheckbox }
func (n *checkboxNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// checkboxParser takes "[ ]", "[x]" or "[X]" followed by a space or tab
// at the very start of a list item's first paragraph; anywhere else the
// brackets are left to the other parsers.
type checkboxParser struct{}

func (checkboxParser) Trigger() []byte { return []byte{'['} }

func (checkboxParser) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	if parent.HasChildren() || parent.PreviousSibling() != nil {
		return nil
	}
	if item := parent.Parent(); item == nil || item.Kind() != ast.KindListItem {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 4 || line[2] != ']' || (line[3] != ' ' && line[3] != '\t') {
		return nil
	}
	var checked bool
	switch line[1] {
	case ' ':
	case 'x', 'X':
		checked = true
	default:
		return nil
	}
	block.Advance(3)
	return &checkboxNode{checked: checked}
}

// urlParser makes a bare "http://" or "https://" URL a link, as Obsidian
// and GitHub do. The URL starts a line or follows white space or one of
// "*_~(", and runs to the next space or '<'; trailing punctuation
// (".,:!?*_~"), a ')' without its '(' and a trailing entity such as
// "&amp;" stay text. The host must be letters, digits, '-', '_' or '.'.
// Inside a link's text nothing is made a link (no link in a link).
//
// goldmark calls an inline parser only at punctuation, white space and
// the start of what is left of a line; so the parser is called at the
// space or '(' before a URL, which it returns as text, and then again at
// the URL itself. After '*', '_' and '~' the emphasis and strikethrough
// delimiters are taken first, and the URL is again at a start.
type urlParser struct{}

func (urlParser) Trigger() []byte { return []byte{' ', '('} }

func (urlParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) == 0 {
		return nil
	}
	switch line[0] {
	case ' ', '\t', '(':
		if bareURL(line[1:]) == 0 || pc.IsInLinkLabel() {
			return nil
		}
		block.Advance(1)
		return ast.NewTextSegment(seg.WithStop(seg.Start + 1))
	}
	switch block.PrecendingCharacter() {
	case ' ', '\t', '\n', '\r', '*', '_', '~', '(':
	default:
		return nil
	}
	n := bareURL(line)
	if n == 0 || pc.IsInLinkLabel() {
		return nil
	}
	block.Advance(n)
	return ast.NewAutoLink(ast.AutoLinkURL, ast.NewTextSegment(seg.WithStop(seg.Start+n)))
}

// bareURL returns the length of the URL at the start of line, 0 if none.
func bareURL(line []byte) int {
	var scheme int
	switch {
	case bytes.HasPrefix(line, []byte("https://")):
		scheme = len("https://")
	case bytes.HasPrefix(line, []byte("http://")):
		scheme = len("http://")
	default:
		return 0
	}
	host := scheme
	for host < len(line) && (isAlnum(line[host]) || line[host] == '-' || line[host] == '_' || line[host] == '.') {
		host++
	}
	if host == scheme {
		return 0
	}
	end := host
	for end < len(line) && !util.IsSpace(line[end]) && line[end] != '<' {
		end++
	}
	return trimURLEnd(line[:end], host)
}

// trimURLEnd returns the length of url without its trailing punctuation,
// unbalanced ')' and entities, never shorter than min. It runs in time
// linear in the URL.
func trimURLEnd(url []byte, min int) int {
	end := len(url)
	opens, closes := bytes.Count(url, []byte("(")), bytes.Count(url, []byte(")"))
	for end > min {
		c := url[end-1]
		if c == ';' {
			amp := end - 2
			for amp >= min && isAlnum(url[amp]) {
				amp--
			}
			if amp >= min && amp < end-2 && url[amp] == '&' {
				end = amp
				continue
			}
		}
		switch {
		case bytes.IndexByte([]byte(".,:!?*_~"), c) >= 0:
			end--
		case c == ')' && closes > opens:
			end--
			closes--
		default:
			return end
		}
	}
	return end
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

type inlineRenderer struct{}

func (inlineRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindStrike, renderStrike)
	reg.Register(kindCheckbox, renderCheckbox)
}

func renderStrike(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<del>")
	} else {
		_, _ = w.WriteString("</del>")
	}
	return ast.WalkContinue, nil
}

func renderCheckbox(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	if node.(*checkboxNode).checked {
		_, _ = w.WriteString(`<input checked="" disabled="" type="checkbox" />`)
	} else {
		_, _ = w.WriteString(`<input disabled="" type="checkbox" />`)
	}
	return ast.WalkContinue, nil
}
