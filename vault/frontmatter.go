package vault

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/parleyhq/parley/internal/termsafe"
)

// Size limits, checked when a page is written and enforced with an
// io.LimitReader when it is read.
const (
	// MaxPageBytes bounds a whole page file.
	MaxPageBytes = 1 << 20
	// MaxFrontmatterBytes bounds the YAML between the "---" lines.
	MaxFrontmatterBytes = 64 << 10
)

// unmarshalYAML bounds the frontmatter and decodes it: into a nil map
// through fastFrontmatter when that reads it, else with yaml.v3, whose
// panics on hostile input become errors.
func unmarshalYAML(data []byte, v any) error {
	if len(data) > MaxFrontmatterBytes {
		return fmt.Errorf("%w: frontmatter is larger than %d bytes", ErrTooLarge, MaxFrontmatterBytes)
	}
	if m, ok := v.(*map[string]any); ok && *m == nil {
		if fm, ok := fastFrontmatter(data); ok {
			*m = fm
			return nil
		}
	}
	return decodeYAML(data, v)
}

// decodeYAML decodes with yaml.v3, dates and times as their text.
func decodeYAML(data []byte, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: yaml: %v", ErrFrontmatter, r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%w: %s", ErrFrontmatter, yamlProblem(err))
	}
	if len(doc.Content) == 0 { // an empty block: nothing to set
		return nil
	}
	timestampsAsText(&doc)
	if err := doc.Decode(v); err != nil {
		return fmt.Errorf("%w: %s", ErrFrontmatter, yamlProblem(err))
	}
	return nil
}

// yamlProblem is a yaml.v3 error on one line: it lists several problems
// on lines of their own ("yaml: unmarshal errors:\n  line 21: …"), which
// a one-line report (transcripts verify, a warning) would show mangled.
func yamlProblem(err error) string {
	head, rest, _ := strings.Cut(err.Error(), "\n")
	var more []string
	for l := range strings.Lines(rest) {
		if l = strings.TrimSpace(l); l != "" {
			more = append(more, l)
		}
	}
	if len(more) == 0 {
		return head
	}
	return head + " " + strings.Join(more, "; ")
}

// timestampsAsText retags the plain scalars YAML resolves to timestamps
// ("date: 2026-12-01") as strings, so that they decode as the text the
// page holds, not as a time.Time: a page's values, and the content hash a
// seal records of them, are what was written (as parley has always read
// them), whatever time zone or layout a decoder would give a time.
func timestampsAsText(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!timestamp" && n.Style&(yaml.TaggedStyle) == 0 {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		timestampsAsText(c)
	}
}

// DecodeFrontmatter decodes the YAML frontmatter at the start of a page into
// v (a pointer to a struct with yaml tags, or to a map) and returns the body
// that follows it. A page without frontmatter yields ErrNoFrontmatter; YAML
// that does not decode into v yields an error wrapping ErrFrontmatter; a
// block over MaxFrontmatterBytes one wrapping ErrTooLarge. It never panics.
// The block is split as SplitFrontmatter says and read as YAML 1.2
// (yaml.v3): "yes" and "no" are strings, and a key given twice is an error.
func DecodeFrontmatter(page []byte, v any) (body []byte, err error) {
	if len(page) > MaxPageBytes {
		return nil, fmt.Errorf("%w: page is larger than %d bytes", ErrTooLarge, MaxPageBytes)
	}
	head, body, ok := SplitFrontmatter(page)
	if !ok {
		return nil, ErrNoFrontmatter
	}
	if err := unmarshalYAML(head, v); err != nil {
		return nil, err
	}
	return body, nil
}

// SplitFrontmatter returns the YAML of a page's frontmatter and the body
// after it; ok is false when the page has none. The frontmatter opens
// with a "---" line (or "---yaml"), after an optional UTF-8 byte-order
// mark and blank lines, and closes at the next line that is "---" from
// its first column: an indented "---" is text of a block scalar. Lines
// may end in "\n" or "\r\n", and spaces after either fence are allowed.
// A page whose frontmatter never closes has none (its first line is
// then a thematic break). Only YAML is read: "+++" (TOML) and "{" (JSON)
// open nothing. SplitFrontmatter looks at each byte once.
func SplitFrontmatter(page []byte) (yaml, body []byte, ok bool) {
	rest := bytes.TrimPrefix(page, []byte(bom))
	for {
		line, next, found := cutLine(rest)
		switch {
		case isBlank(line) && found:
			rest = next
			continue
		case !opensFrontmatter(line):
			return nil, nil, false
		}
		rest = next
		break
	}
	for at := 0; at < len(rest); {
		line, next, _ := cutLine(rest[at:])
		if closesFrontmatter(line) {
			return rest[:at], next, true
		}
		at = len(rest) - len(next)
	}
	return nil, nil, false
}

// What a page's frontmatter block is, for the reader (SplitFrontmatter)
// and the editor (EditFrontmatter) alike: after a byte-order mark and
// blank lines, a line "---" (or "---yaml"), and the block up to the next
// line "---"; spaces around a fence are not a change.
const bom = "\ufeff"

func isBlank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

func opensFrontmatter(line []byte) bool {
	open := string(bytes.TrimSpace(line))
	return open == "---" || open == "---yaml"
}

func closesFrontmatter(line []byte) bool { return string(bytes.TrimRight(line, " \t\r\n")) == "---" }

// cutLine returns the first line of b without its "\n", what follows it,
// and whether there was a "\n".
func cutLine(b []byte) (line, rest []byte, found bool) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:], true
	}
	return b, b[len(b):], false
}

// Frontmatter is an ordered list of keys and values, written as YAML in the
// order given. Values may be string, Date, []string, int, int64, bool or nil
// (written as an empty value, which YAML reads as null).
type Frontmatter []Field

// Field is one frontmatter key and its value.
type Field struct {
	Key   string
	Value any
}

// Date is a calendar date (YYYY-MM-DD). It is written unquoted, as the seed
// template and Obsidian's date properties have it; anything else is quoted.
type Date string

var (
	keyRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })
	dateRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`) })
)

// Get returns the value of key, or nil.
func (fm Frontmatter) Get(key string) any {
	for _, f := range fm {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// Marshal writes the frontmatter block, "---" lines included. Every string
// is double-quoted and escaped, so that no value can end the block, start a
// new YAML document or change type (a topic "no", "1.0", "---" or one with
// quotes, colons, newlines or control characters reads back as the same
// string). Keys must match [A-Za-z_][A-Za-z0-9_-]* and appear once.
func (fm Frontmatter) Marshal() ([]byte, error) {
	var b []byte
	b = append(b, "---\n"...)
	seen := make(map[string]bool, len(fm))
	for _, f := range fm {
		if !keyRE().MatchString(f.Key) {
			return nil, fmt.Errorf("%w: key %q", ErrFrontmatter, f.Key)
		}
		if seen[f.Key] {
			return nil, fmt.Errorf("%w: key %q twice", ErrFrontmatter, f.Key)
		}
		seen[f.Key] = true
		b = append(b, f.Key...)
		b = append(b, ':')
		var err error
		if b, err = appendValue(b, f.Value); err != nil {
			return nil, fmt.Errorf("%w: key %q: %v", ErrFrontmatter, f.Key, err)
		}
		b = append(b, '\n')
	}
	b = append(b, "---\n"...)
	if len(b) > MaxFrontmatterBytes {
		return nil, fmt.Errorf("%w: frontmatter is %d bytes, the limit is %d", ErrTooLarge, len(b), MaxFrontmatterBytes)
	}
	return b, nil
}

func appendValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return b, nil
	case string:
		return append(append(b, ' '), Quote(x)...), nil
	case Date:
		if dateRE().MatchString(string(x)) {
			return append(append(b, ' '), x...), nil
		}
		return append(append(b, ' '), Quote(string(x))...), nil
	case []string:
		b = append(b, " ["...)
		for i, s := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, Quote(s)...)
		}
		return append(b, ']'), nil
	case int:
		return strconv.AppendInt(append(b, ' '), int64(x), 10), nil
	case int64:
		return strconv.AppendInt(append(b, ' '), x, 10), nil
	case bool:
		return strconv.AppendBool(append(b, ' '), x), nil
	}
	return nil, fmt.Errorf("unsupported value type %T", v)
}

// Quote returns s as a YAML double-quoted scalar on one line. Invalid UTF-8
// becomes U+FFFD; line breaks (including NEL, LS and PS, which YAML would
// fold), control characters, DEL, C1 controls, the byte-order mark and the
// non-characters U+FFFE/U+FFFF are escaped. Everything else is kept as is.
func Quote(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if termsafe.Unsafe(r) || r == 0xfeff || r == 0xfffe || r == 0xffff {
				fmt.Fprintf(&b, `\u%04X`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// normalizeYAML turns the map[interface{}]interface{} values the YAML
// decoder gives mappings with keys that are not all strings into
// map[string]any, so callers and JSON encoders see one kind of map.
func normalizeYAML(v any) any {
	switch x := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, val := range x {
			m[fmt.Sprint(k)] = normalizeYAML(val)
		}
		return m
	case map[string]any:
		for k, val := range x {
			x[k] = normalizeYAML(val)
		}
		return x
	case []any:
		for i := range x {
			x[i] = normalizeYAML(x[i])
		}
		return x
	case string:
		if !utf8.ValidString(x) {
			return strings.ToValidUTF8(x, "\uFFFD")
		}
	}
	return v
}
