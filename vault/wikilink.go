package vault

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/parleyhq/parley/internal/clip"
)

// MaxLinkBytes bounds the text between "[[" and "]]".
const MaxLinkBytes = 1024

// Link is a parsed [[wikilink]]: [[Target#Heading|Alias]].
type Link struct {
	// Target is the page named, as written: a file name without ".md"
	// ("spec-idempotency-key-design") or a path ("debates/<id>"). Empty for
	// a link to a heading of the same page ("[[#Rationale]]").
	Target string
	// Heading is the part after '#', without it ("" if none). A block
	// reference keeps its '^' ("^abc123").
	Heading string
	// Alias is the text shown instead of the target ("" if none).
	Alias string
	// Embed is set for an embed, "![[Target]]": Obsidian shows the page or
	// file in place, and counts it as a link like any other.
	Embed bool
}

// Text is what a reader sees: the alias, else the target (and heading).
func (l Link) Text() string {
	switch {
	case l.Alias != "":
		return l.Alias
	case l.Heading == "":
		return l.Target
	case l.Target == "":
		return l.Heading
	}
	return l.Target + " > " + l.Heading
}

// String writes the link back as [[Target#Heading|Alias]] (an embed as
// ![[…]]).
func (l Link) String() string {
	var b strings.Builder
	if l.Embed {
		b.WriteByte('!')
	}
	b.WriteString("[[")
	b.WriteString(l.Target)
	if l.Heading != "" {
		b.WriteByte('#')
		b.WriteString(l.Heading)
	}
	if l.Alias != "" {
		b.WriteByte('|')
		b.WriteString(l.Alias)
	}
	b.WriteString("]]")
	return b.String()
}

// Linkable reports whether a [[wikilink]] can name the page of file name
// name (without ".md") and reach it: Obsidian reads a '#' or '^' in a
// link as the start of a heading or block, a '|' as the start of the
// alias, and a bracket, a backslash, a control character or a line break
// ends or breaks the link, so a [[link]] to "ADR #12" names "ADR " and a
// heading of it. Obsidian never gives a page such a name; a person or
// another program can.
func Linkable(name string) bool {
	if strings.TrimSpace(name) == "" || strings.ContainsAny(name, "#^|[]\\") {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFFFD' {
			return false
		}
	}
	return true
}

// ParseLink parses a wikilink, given either whole ("[[a#b|c]]") or as the
// text between the brackets ("a#b|c"). The alias starts at the first '|'
// (an escaped "\|", as written inside Markdown tables, counts as one); the
// heading at the first '#' of what precedes it. Spaces around each part are
// trimmed. It fails with ErrInvalidLink on brackets or line breaks inside
// the link, control characters, an empty link or one over MaxLinkBytes.
// It never panics.
func ParseLink(s string) (Link, error) {
	inner := s
	if strings.HasPrefix(inner, "[[") && strings.HasSuffix(inner, "]]") && len(inner) >= 4 {
		inner = inner[2 : len(inner)-2]
	}
	if len(inner) > MaxLinkBytes {
		return Link{}, fmt.Errorf("%w: longer than %d bytes", ErrInvalidLink, MaxLinkBytes)
	}
	for _, r := range inner {
		if r == '[' || r == ']' || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFFFD' {
			return Link{}, fmt.Errorf("%w: %q", ErrInvalidLink, clip.Runes(s, 81))
		}
	}
	var l Link
	target := inner
	if i := strings.IndexByte(inner, '|'); i >= 0 {
		target, l.Alias = inner[:i], strings.TrimSpace(inner[i+1:])
		target = strings.TrimSuffix(strings.TrimSpace(target), `\`)
	}
	if i := strings.IndexByte(target, '#'); i >= 0 {
		target, l.Heading = target[:i], strings.TrimSpace(target[i+1:])
	}
	l.Target = strings.TrimSpace(target)
	if l.Target == "" && l.Heading == "" {
		return Link{}, fmt.Errorf("%w: empty link %q", ErrInvalidLink, clip.Runes(s, 81))
	}
	// A target ending in a backslash names no file, and written back
	// before a '|' it would read as the table escape "\|" and vanish.
	if strings.HasSuffix(l.Target, `\`) {
		return Link{}, fmt.Errorf("%w: the target ends in a backslash: %q", ErrInvalidLink, clip.Runes(s, 81))
	}
	return l, nil
}

// LinksIn returns the wikilinks of a Markdown text, embeds ("![[x]]")
// included, in order, as a reader
// of the rendered page would see them: links inside code spans, code
// blocks, Obsidian %%comments%% and $math$ do not count, and neither does
// text that only looks like a link.
func LinksIn(markdown []byte) []Link {
	return collectLinks(markdown)
}
