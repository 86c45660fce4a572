package vault

import (
	"strings"
	"unicode"
)

// mdSpecial are the characters EscapeInline escapes: those that would
// start emphasis, code, links and wikilinks, HTML, tables, Obsidian tags,
// highlights, math, comments or embeds.
const mdSpecial = "\\`*_[]|#~=$%^{}!"

// EscapeInline makes text that parley did not write (an agent's topic,
// position or argument) safe on one line of a vault page: white space
// (line breaks included) collapses to single spaces, control characters
// are dropped, and every Markdown and Obsidian syntax character is
// escaped (a backslash, or an HTML entity for '<', '>' and '&'), so
// "[[page]]" is no link, "#word" no tag, "<b>" no HTML and "---" no
// frontmatter fence or rule. Obsidian and CommonMark
// show the text as written.
func EscapeInline(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case unicode.IsControl(r): // C0, DEL and C1 (a terminal reads U+009B as CSI)
			continue
		case r == '<':
			b.WriteString("&lt;")
			continue
		case r == '>':
			b.WriteString("&gt;")
			continue
		case r == '&':
			b.WriteString("&amp;")
			continue
		case strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
		case i == 0 && (r == '-' || r == '+'):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// EscapeLines is EscapeInline for text whose line breaks matter (an
// argument quoted on a page): each line is escaped on its own, and the
// lines are returned without their line ends.
func EscapeLines(s string) []string {
	var out []string
	for line := range strings.Lines(s) {
		out = append(out, EscapeInline(line))
	}
	return out
}
