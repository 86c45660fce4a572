package vault

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Obsidian comments: text between "%%" and "%%", inline ("a %%note%% b",
// also across the lines of one paragraph) or as a block that opens with a
// line starting "%%" and runs to the next "%%" (blank lines and all; to
// the end of the page when none does). A comment shows in no
// view of the page, so the links in it link nothing. Inside code spans and
// code blocks "%%" is text, and an escaped "\%\%" (EscapeInline) is no
// comment.

var (
	kindComment      = ast.NewNodeKind("Comment")
	kindCommentBlock = ast.NewNodeKind("CommentBlock")
)

var commentMark = []byte("%%")

// commentNode is an inline comment; it keeps no text.
type commentNode struct{ ast.BaseInline }

func (n *commentNode) Kind() ast.NodeKind { return kindComment }
func (n *commentNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// commentBlock is a block comment; its lines are not parsed.
type commentBlock struct{ ast.BaseBlock }

func (n *commentBlock) Kind() ast.NodeKind { return kindCommentBlock }
func (n *commentBlock) IsRaw() bool        { return true }
func (n *commentBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// markBlockParser opens a block at a line that starts with its mark
// ("%%" of a comment, "$$" of math) and holds no other (such a line is an
// inline comment or displayed math of a paragraph); the block runs to the
// first mark of a later line, and what follows that mark on its line is
// read as Markdown again ("%% [[shown]]"). Its lines are not parsed: a
// block that keeps them (math shows its TeX) holds them, a comment none.
type markBlockParser struct {
	mark    []byte
	newNode func() ast.Node
	keep    bool
}

func (p markBlockParser) Trigger() []byte { return p.mark[:1] }

func (p markBlockParser) Open(_ ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || !bytes.HasPrefix(line[pos:], p.mark) || bytes.Contains(line[pos+len(p.mark):], p.mark) {
		return nil, parser.NoChildren
	}
	n := p.newNode()
	if rest := seg.WithStart(seg.Start + pos + len(p.mark)); p.keep && !util.IsBlank(rest.Value(reader.Source())) {
		n.Lines().Append(rest)
	}
	reader.AdvanceToEOL()
	return n, parser.NoChildren
}

func (p markBlockParser) Continue(n ast.Node, reader text.Reader, _ parser.Context) parser.State {
	line, seg := reader.PeekLine()
	if i := bytes.Index(line, p.mark); i >= 0 {
		if p.keep && i > 0 {
			n.Lines().Append(seg.WithStop(seg.Start + i))
		}
		reader.Advance(i + len(p.mark))
		return parser.Close
	}
	if p.keep {
		n.Lines().Append(seg)
	}
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (markBlockParser) Close(ast.Node, text.Reader, parser.Context) {}
func (markBlockParser) CanInterruptParagraph() bool                 { return true }
func (markBlockParser) CanAcceptIndentedLine() bool                 { return false }

// commentParser takes an inline comment: "%%" to the next "%%" of the
// paragraph. Without a closing "%%" the marks are text.
type commentParser struct{}

func (commentParser) Trigger() []byte { return []byte{'%'} }

func (commentParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, commentMark) {
		return nil
	}
	l, pos := block.Position()
	block.Advance(len(commentMark))
	for {
		line, _ := block.PeekLine()
		if line == nil {
			block.SetPosition(l, pos)
			return nil
		}
		if i := bytes.Index(line, commentMark); i >= 0 {
			block.Advance(i + len(commentMark))
			return &commentNode{}
		}
		block.AdvanceLine()
	}
}

type commentRenderer struct{}

func (commentRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindComment, renderNothing)
	reg.Register(kindCommentBlock, renderNothing)
}

func renderNothing(util.BufWriter, []byte, ast.Node, bool) (ast.WalkStatus, error) {
	return ast.WalkSkipChildren, nil
}
