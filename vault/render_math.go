package vault

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Obsidian math (MathJax): "$…$" inline and "$$…$$" displayed, in a
// paragraph (also across its lines) or as a block that opens with a line
// starting "$$" and runs to the next "$$" (to the end of the page when
// none does). What is inside is TeX, not Markdown: "$[[A, B]] = AB - BA$"
// is a commutator, and no view of the page shows a link in it. As
// Obsidian reads it, an inline "$" opens math only when white space does
// not follow it, and closes at the next "$" of the paragraph that white
// space does not precede and a digit does not follow, so "$5 and $10" is
// text. Inside code spans and code blocks "$" is text, and an escaped
// "\$" (EscapeInline) opens nothing.

var (
	kindMath      = ast.NewNodeKind("Math")
	kindMathBlock = ast.NewNodeKind("MathBlock")
)

var mathMark = []byte("$$")

// mathNode is inline math: its TeX, shown as it is written.
type mathNode struct {
	ast.BaseInline
	Display bool
	TeX     []byte
}

func (n *mathNode) Kind() ast.NodeKind { return kindMath }
func (n *mathNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"TeX": string(n.TeX)}, nil)
}

// mathBlock is a block of displayed math; its lines are not parsed.
type mathBlock struct{ ast.BaseBlock }

func (n *mathBlock) Kind() ast.NodeKind { return kindMathBlock }
func (n *mathBlock) IsRaw() bool        { return true }
func (n *mathBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// mathParser takes inline math, "$…$" or "$$…$$", within the paragraph.
// Without a closing mark the "$" is text.
type mathParser struct{}

func (mathParser) Trigger() []byte { return []byte{'$'} }

func (mathParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if len(line) < 2 || line[0] != '$' {
		return nil
	}
	display := line[1] == '$'
	mark, key := 1, noInlineClose
	if display {
		mark, key = 2, noDisplayClose
	} else if util.IsSpace(line[1]) {
		return nil
	}
	l, pos := block.Position()
	if span, ok := pc.Get(key).(closeless); ok && pos.Start >= span.from && pos.Start < span.to {
		return nil
	}
	block.Advance(mark)
	var tex []byte
	end := pos.Stop
	for first := true; ; first = false {
		line, seg := block.PeekLine()
		if line == nil {
			pc.Set(key, closeless{from: pos.Start, to: end})
			block.SetPosition(l, pos)
			return nil
		}
		end = seg.Stop
		if i := mathEnd(line, display, first); i >= 0 {
			tex = append(tex, line[:i]...)
			block.Advance(i + mark)
			return &mathNode{Display: display, TeX: tex}
		}
		tex = append(tex, line...)
		block.AdvanceLine()
	}
}

// closeless is a stretch of the source, from an opening mark to the end
// of its paragraph, that holds no closing mark of its kind: whether a "$"
// (or "$$") closes math does not depend on where the math opened, so no
// opening mark in it closes either. Remembered per parse, it keeps a
// paragraph of many marks that never close ("$5 and $10, $20 and $30 …")
// from being scanned to its end once per mark.
type closeless struct{ from, to int }

var (
	noInlineClose  = parser.NewContextKey()
	noDisplayClose = parser.NewContextKey()
)

// mathEnd is the offset in line of the mark that closes math ("$$" for
// displayed math, else a "$" that follows no white space, is not
// escaped and precedes no digit), -1 when line holds none. first says
// line starts right after the opening mark.
func mathEnd(line []byte, display, first bool) int {
	if display {
		return bytes.Index(line, mathMark)
	}
	for i := 0; i < len(line); i++ {
		if line[i] != '$' {
			continue
		}
		switch {
		case i == 0 && !first, i > 0 && util.IsSpace(line[i-1]):
		case i > 0 && line[i-1] == '\\':
		case i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9':
		default:
			return i
		}
	}
	return -1
}

type mathRenderer struct{}

func (mathRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMath, renderMath)
	reg.Register(kindMathBlock, renderMathBlock)
}

// renderMath writes inline math as its TeX, as text.
func renderMath(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*mathNode)
	class := "math"
	if n.Display {
		class = "math display"
	}
	_, _ = w.WriteString(`<span class="` + class + `">`)
	_, _ = w.Write(util.EscapeHTML(n.TeX))
	_, _ = w.WriteString(`</span>`)
	return ast.WalkSkipChildren, nil
}

// renderMathBlock writes a math block as its TeX lines, as text.
func renderMathBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<div class="math display">`)
	lines := node.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
	}
	_, _ = w.WriteString("</div>\n")
	return ast.WalkSkipChildren, nil
}
