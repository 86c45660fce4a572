package vault

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/parleyhq/parley/internal/durable"
	"gopkg.in/yaml.v3"
)

// EditFrontmatter changes the keys of set in a page's frontmatter and keeps
// every other byte of the page: the other keys with their values exactly as
// written (nested mappings, aliases and anchors, comments, block scalars,
// quoting), their order, and the body. A key of set that the page has is
// replaced where it stands (its value lines and nothing else); a key it
// lacks is added at the end of the block; a nil value in set writes an
// empty value (YAML null), it does not remove the key. Only top-level keys
// can be set. The page must start with a YAML frontmatter block
// (ErrNoFrontmatter otherwise) that is a mapping (ErrFrontmatter); the
// result must stay within MaxFrontmatterBytes and MaxPageBytes
// (ErrTooLarge).
//
// It is the one way parley rewrites a page it did not just render: the keys
// parley owns (status, superseded_by, updated, seal keys …) change, a
// user's own keys never do.
func EditFrontmatter(page []byte, set Frontmatter) ([]byte, error) {
	if len(page) > MaxPageBytes {
		return nil, fmt.Errorf("%w: page is larger than %d bytes", ErrTooLarge, MaxPageBytes)
	}
	// The lines before the block (a byte-order mark, blank lines, the
	// opening fence) are kept as they are, as one.
	lines := splitLinesKeep(page)
	open := -1
	for i, l := range lines {
		if i == 0 {
			l = bytes.TrimPrefix(l, []byte(bom))
		}
		if isBlank(l) {
			continue
		}
		if opensFrontmatter(l) {
			open = i
		}
		break
	}
	if open < 0 {
		return nil, ErrNoFrontmatter
	}
	lines = append([][]byte{bytes.Join(lines[:open+1], nil)}, lines[open+1:]...)
	end := -1
	for i := 1; i < len(lines); i++ {
		if closesFrontmatter(lines[i]) {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, fmt.Errorf("%w: the frontmatter block is not closed", ErrFrontmatter)
	}
	block := bytes.Join(lines[1:end], nil)
	if len(block) > MaxFrontmatterBytes {
		return nil, fmt.Errorf("%w: frontmatter is larger than %d bytes", ErrTooLarge, MaxFrontmatterBytes)
	}
	keys, err := topLevelKeys(block)
	if err != nil {
		return nil, err
	}
	eol := "\n"
	if bytes.HasSuffix(lines[0], []byte("\r\n")) {
		eol = "\r\n"
	}
	// Lines of the block (0-based within lines[1:end]) each set key
	// replaces: from its key line to the line before the next key,
	// leaving the comment and blank lines just above the next key to it.
	body := lines[1:end]
	replace := map[int]int{} // first line → line after the last
	done := map[string]bool{}
	rendered := map[int][]byte{}
	for i, k := range keys {
		f, ok := fieldOf(set, k.name)
		if !ok || done[k.name] {
			continue
		}
		done[k.name] = true
		stop := len(body)
		if i+1 < len(keys) {
			stop = keys[i+1].line
		}
		for stop-1 > k.line && isCommentOrBlank(body[stop-1]) {
			stop--
		}
		line, err := Frontmatter{f}.marshalFields()
		if err != nil {
			return nil, err
		}
		replace[k.line] = stop
		rendered[k.line] = []byte(strings.TrimSuffix(string(line), "\n") + eol)
	}
	var out bytes.Buffer
	out.Grow(len(page) + 256)
	out.Write(lines[0])
	for i := 0; i < len(body); {
		if stop, ok := replace[i]; ok {
			out.Write(rendered[i])
			i = stop
			continue
		}
		out.Write(body[i])
		i++
	}
	if n := out.Len(); n > 0 && out.Bytes()[n-1] != '\n' {
		out.WriteString(eol)
	}
	for _, f := range set {
		if done[f.Key] {
			continue
		}
		done[f.Key] = true
		line, err := Frontmatter{f}.marshalFields()
		if err != nil {
			return nil, err
		}
		out.WriteString(strings.TrimSuffix(string(line), "\n") + eol)
	}
	if out.Len()-len(lines[0]) > MaxFrontmatterBytes {
		return nil, fmt.Errorf("%w: frontmatter would be larger than %d bytes", ErrTooLarge, MaxFrontmatterBytes)
	}
	for _, l := range lines[end:] {
		out.Write(l)
	}
	if out.Len() > MaxPageBytes {
		return nil, fmt.Errorf("%w: page would be %d bytes, the limit is %d", ErrTooLarge, out.Len(), MaxPageBytes)
	}
	// The result must still parse, and to the same mapping for every key
	// not set: a cheap proof that nothing else moved.
	if _, err := topLevelKeys(out.Bytes()[len(lines[0]) : out.Len()-len(bytes.Join(lines[end:], nil))]); err != nil {
		return nil, fmt.Errorf("%w: the edit would break the frontmatter: %v", ErrFrontmatter, err)
	}
	return out.Bytes(), nil
}

// UpdateFrontmatter applies EditFrontmatter to the page at p, atomically
// (readers see the old page or the new one). The page must be a regular
// Markdown file inside the vault; its name may be any the vault holds
// (spaces and all, as Obsidian names a renamed note), not only one parley
// would give a page it creates.
func (v *Vault) UpdateFrontmatter(p string, set Frontmatter) error {
	if err := validRead(p); err != nil {
		return err
	}
	if !strings.HasSuffix(p, ".md") {
		return &PageError{Op: "edit", Path: p, Err: ErrInvalidPath}
	}
	data, _, err := readFile(v.root, p, true)
	if err != nil {
		return &PageError{Op: "read", Path: p, Err: err}
	}
	out, err := EditFrontmatter(data, set)
	if err != nil {
		return &PageError{Op: "edit", Path: p, Err: err}
	}
	if err := durable.WriteFile(v.fs, p, out, FilePerm); err != nil {
		return &PageError{Op: "write", Path: p, Err: err}
	}
	v.mu.Lock()
	if v.names != nil {
		v.names.add(path.Clean(p))
	}
	v.mu.Unlock()
	return nil
}

type keyLine struct {
	name string
	line int // 0-based line of the key within the block
}

// topLevelKeys parses a frontmatter block and returns its top-level keys
// with their lines, in order. It fails on YAML that does not parse or is
// not a mapping, and on a key that is not a plain scalar.
func topLevelKeys(block []byte) (keys []keyLine, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: yaml: %v", ErrFrontmatter, r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(block, &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFrontmatter, err)
	}
	if doc.Kind == 0 { // empty block
		return nil, nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: not a mapping", ErrFrontmatter)
	}
	m := doc.Content[0]
	if m.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%w: a flow mapping cannot be edited in place", ErrFrontmatter)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%w: a key that is not a scalar", ErrFrontmatter)
		}
		keys = append(keys, keyLine{name: k.Value, line: k.Line - 1})
	}
	return keys, nil
}

func fieldOf(fm Frontmatter, key string) (Field, bool) {
	for _, f := range fm {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// marshalFields writes the fields as Marshal does, without the "---" lines.
func (fm Frontmatter) marshalFields() ([]byte, error) {
	b, err := fm.Marshal()
	if err != nil {
		return nil, err
	}
	return b[len("---\n") : len(b)-len("---\n")], nil
}

func splitLinesKeep(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

func isCommentOrBlank(b []byte) bool {
	s := strings.TrimSpace(string(b))
	return s == "" || strings.HasPrefix(s, "#")
}
