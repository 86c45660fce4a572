package vault

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Tables, as GitHub and Obsidian write them:
//
//	| Date | Topic |
//	|:-----|------:|
//	| 2026 | [[spec-x\|the topic]] |
//
// A paragraph becomes a table from a line of cells followed by a
// delimiter row (cells of '-' with an optional ':' at either end, at
// least one '|') with the same number of cells; the lines before it stay
// a paragraph, every line after it is a row. A row with fewer cells than
// the header is padded with empty cells, one with more loses the extra
// ones. A '|' after a backslash is text, not a cell boundary (in a code
// span too, where the backslash is dropped). Padding is bounded: a row
// that would bring the table's padded cells past the size of its source
// ends the table, and the lines from there on are a paragraph again, so
// the HTML of a table grows with its Markdown, never with rows × columns.

// cellAlign is a column's alignment from its delimiter cell.
type cellAlign uint8

const (
	alignNone cellAlign = iota
	alignLeft
	alignCenter
	alignRight
)

// attr is the HTML attribute of the alignment (an attribute, not a style:
// the web pages' Content-Security-Policy allows no inline styles).
func (a cellAlign) attr() string {
	switch a {
	case alignLeft:
		return ` align="left"`
	case alignCenter:
		return ` align="center"`
	case alignRight:
		return ` align="right"`
	}
	return ""
}

var (
	kindTable     = ast.NewNodeKind("Table")
	kindTableRow  = ast.NewNodeKind("TableRow")
	kindTableCell = ast.NewNodeKind("TableCell")
)

// tableNode holds the header row, then the body rows.
type tableNode struct{ ast.BaseBlock }

func (n *tableNode) Kind() ast.NodeKind { return kindTable }
func (n *tableNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

type tableRowNode struct {
	ast.BaseBlock
	header bool
}

func (n *tableRowNode) Kind() ast.NodeKind { return kindTableRow }
func (n *tableRowNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// tableCellNode is a block whose one line (the cell's text) goldmark
// parses as inline Markdown like a paragraph's.
type tableCellNode struct {
	ast.BaseBlock
	header bool
	align  cellAlign
}

func (n *tableCellNode) Kind() ast.NodeKind { return kindTableCell }
func (n *tableCellNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// tableParagraphs turns paragraphs that hold a table into a table.
type tableParagraphs struct{}

func (tableParagraphs) Transform(para *ast.Paragraph, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	lines := para.Lines()
	if lines.Len() < 2 {
		return
	}
	// The header is the line before the first delimiter row whose cell
	// count it matches.
	head := -1
	var aligns []cellAlign
	for i := 1; i < lines.Len(); i++ {
		seg := lines.At(i)
		if aligns = delimiterRow(seg.Value(src)); aligns == nil {
			continue
		}
		if len(splitRow(src, lines.At(i-1))) == len(aligns) {
			head = i - 1
			break
		}
	}
	if head < 0 {
		return
	}
	table := &tableNode{}
	table.AppendChild(table, newTableRow(splitRow(src, lines.At(head)), aligns, true))
	budget, padded, end := 0, 0, lines.Len()
	for i := head; i < lines.Len(); i++ {
		seg := lines.At(i)
		budget += seg.Len()
	}
	for i := head + 2; i < lines.Len(); i++ {
		cells := splitRow(src, lines.At(i))
		if n := len(cells); n < len(aligns) {
			if padded += len(aligns) - n; padded > budget {
				end = i
				break
			}
		}
		table.AppendChild(table, newTableRow(cells, aligns, false))
	}

	parent := para.Parent()
	if end < lines.Len() {
		rest := ast.NewParagraph()
		for i := end; i < lines.Len(); i++ {
			rest.Lines().Append(lines.At(i))
		}
		trimLastLine(rest, src)
		parent.InsertAfter(parent, para, rest)
	}
	if head == 0 {
		parent.ReplaceChild(parent, para, table)
		return
	}
	parent.InsertAfter(parent, para, table)
	kept := text.NewSegments()
	for i := range head {
		kept.Append(lines.At(i))
	}
	para.SetLines(kept)
}

// trimLastLine drops the line end of a paragraph's last line, as
// goldmark does when it closes one.
func trimLastLine(p *ast.Paragraph, src []byte) {
	n := p.Lines().Len()
	last := p.Lines().At(n - 1)
	p.Lines().Set(n-1, last.TrimRightSpace(src))
}

func newTableRow(cells []text.Segment, aligns []cellAlign, header bool) *tableRowNode {
	row := &tableRowNode{header: header}
	for i, a := range aligns {
		cell := &tableCellNode{header: header, align: a}
		if i < len(cells) && !cells[i].IsEmpty() {
			cell.Lines().Append(cells[i])
		}
		row.AppendChild(row, cell)
	}
	return row
}

// splitRow returns the segments of a row's cells, trimmed of spaces: the
// line is split at every '|' not after a backslash, without the empty
// cells before a leading and after a trailing '|'.
func splitRow(src []byte, line text.Segment) []text.Segment {
	start, stop := line.Start, line.Stop
	for start < stop && util.IsSpace(src[start]) {
		start++
	}
	for stop > start && util.IsSpace(src[stop-1]) {
		stop--
	}
	if start < stop && src[start] == '|' {
		start++
	}
	if stop > start && src[stop-1] == '|' && (stop-2 < start || src[stop-2] != '\\') {
		stop--
	}
	cells := make([]text.Segment, 0, 1+bytes.Count(src[start:stop], []byte("|")))
	from := start
	for i := start; i <= stop; i++ {
		if i < stop && (src[i] != '|' || (i > start && src[i-1] == '\\')) {
			continue
		}
		s := text.NewSegment(from, i)
		s = s.TrimLeftSpace(src)
		s = s.TrimRightSpace(src)
		cells = append(cells, s)
		from = i + 1
	}
	return cells
}

// delimiterRow returns the alignments of a delimiter row's cells, or nil
// when line is not one.
func delimiterRow(line []byte) []cellAlign {
	line = bytes.TrimSpace(line)
	if bytes.IndexByte(line, '|') < 0 {
		return nil
	}
	line = bytes.TrimPrefix(line, []byte("|"))
	line = bytes.TrimSuffix(line, []byte("|"))
	var aligns []cellAlign
	for cell := range bytes.SplitSeq(line, []byte("|")) {
		cell = bytes.TrimSpace(cell)
		left := bytes.HasPrefix(cell, []byte(":"))
		right := len(cell) > 1 && bytes.HasSuffix(cell, []byte(":"))
		dashes := bytes.TrimSuffix(bytes.TrimPrefix(cell, []byte(":")), []byte(":"))
		if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
			return nil
		}
		switch {
		case left && right:
			aligns = append(aligns, alignCenter)
		case left:
			aligns = append(aligns, alignLeft)
		case right:
			aligns = append(aligns, alignRight)
		default:
			aligns = append(aligns, alignNone)
		}
	}
	return aligns
}

// codePipes drops the backslash of every "\|" in the code spans of table
// cells: there it only kept the pipe from splitting the row, and a code
// span would otherwise show it.
type codePipes struct{}

func (codePipes) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch {
		case !entering:
			return ast.WalkContinue, nil
		case n.Kind() == kindTableCell:
			_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
				if entering && c.Kind() == ast.KindCodeSpan {
					unescapePipes(c, src)
					return ast.WalkSkipChildren, nil
				}
				return ast.WalkContinue, nil
			})
			return ast.WalkSkipChildren, nil
		case n.Type() == ast.TypeInline:
			return ast.WalkSkipChildren, nil // tables are blocks: none below
		}
		return ast.WalkContinue, nil
	})
}

// unescapePipes splits the text segments of a code span around the
// backslash of each "\|".
func unescapePipes(code ast.Node, src []byte) {
	for c := code.FirstChild(); c != nil; {
		next := c.NextSibling()
		t, ok := c.(*ast.Text)
		if !ok {
			c = next
			continue
		}
		seg := t.Segment
		from := seg.Start
		for i := seg.Start + 1; i < seg.Stop; i++ {
			if src[i] != '|' || src[i-1] != '\\' {
				continue
			}
			piece := ast.NewRawTextSegment(text.NewSegment(from, i-1))
			code.InsertBefore(code, t, piece)
			from = i
		}
		if from != seg.Start {
			t.Segment = text.NewSegment(from, seg.Stop)
		}
		c = next
	}
}

type tableRenderer struct{}

func (tableRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindTable, renderTable)
	reg.Register(kindTableRow, renderTableRow)
	reg.Register(kindTableCell, renderTableCell)
}

func renderTable(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString("<table>\n")
		return ast.WalkContinue, nil
	}
	if n.ChildCount() > 1 {
		_, _ = w.WriteString("</tbody>\n")
	}
	_, _ = w.WriteString("</table>\n")
	return ast.WalkContinue, nil
}

func renderTableRow(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*tableRowNode)
	if entering {
		switch {
		case n.header:
			_, _ = w.WriteString("<thead>\n")
		case n.PreviousSibling().(*tableRowNode).header:
			_, _ = w.WriteString("<tbody>\n")
		}
		_, _ = w.WriteString("<tr>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("</tr>\n")
	if n.header {
		_, _ = w.WriteString("</thead>\n")
	}
	return ast.WalkContinue, nil
}

func renderTableCell(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*tableCellNode)
	tag := "td"
	if n.header {
		tag = "th"
	}
	if entering {
		_ = w.WriteByte('<')
		_, _ = w.WriteString(tag)
		_, _ = w.WriteString(n.align.attr())
		_ = w.WriteByte('>')
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("</")
	_, _ = w.WriteString(tag)
	_, _ = w.WriteString(">\n")
	return ast.WalkContinue, nil
}
