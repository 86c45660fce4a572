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

// commentBlockParser opens a block comment at a line that starts with
// "%%" and holds no other "%%" (such a line is an inline comment of a
// paragraph).
type commentBlockParser struct{}

func (commentBlockParser) Trigger() []byte { return []byte{'%'} }

func (commentBlockParser) Open(_ ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || !bytes.HasPrefix(line[pos:], commentMark) || bytes.Contains(line[pos+2:], commentMark) {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &commentBlock{}, parser.NoChildren
}

// Continue ends the comment at the first "%%" of a line; what follows it
// on that line is read as Markdown again ("%% [[shown]]").
func (commentBlockParser) Continue(_ ast.Node, reader text.Reader, _ parser.Context) parser.State {
	line, _ := reader.PeekLine()
	if i := bytes.Index(line, commentMark); i >= 0 {
		reader.Advance(i + len(commentMark))
		return parser.Close
	}
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (commentBlockParser) Close(ast.Node, text.Reader, parser.Context) {}
func (commentBlockParser) CanInterruptParagraph() bool                 { return true }
func (commentBlockParser) CanAcceptIndentedLine() bool                 { return false }

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
