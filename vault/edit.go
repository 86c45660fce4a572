package vault

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"reflect"
	"slices"
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
		// A comment at the end of a one-line value is the person's: it
		// stays at the end of the new value.
		comment := ""
		if k.comment != "" && stop == k.line+1 && strings.HasPrefix(k.comment, "#") && !strings.ContainsAny(k.comment, "\r\n") {
			comment = " " + k.comment
		}
		rendered[k.line] = []byte(strings.TrimSuffix(string(line), "\n") + comment + eol)
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
	// The result must still parse, to the new value for every key set and
	// to the same value for every other: proof that nothing else moved.
	edited := out.Bytes()[len(lines[0]) : out.Len()-len(bytes.Join(lines[end:], nil))]
	if err := sameButSet(block, edited, set); errors.Is(err, ErrFrontmatter) {
		return nil, err
	} else if err != nil {
		return nil, fmt.Errorf("%w: the edit would %v", ErrFrontmatter, err)
	}
	return out.Bytes(), nil
}

// sameButSet checks that the frontmatter block after an edit says what
// the one before said, but for the keys of set, which say their new
// values.
func sameButSet(before, after []byte, set Frontmatter) error {
	var was, is map[string]any
	if err := yaml.Unmarshal(before, &was); err != nil {
		// The page's own frontmatter does not decode (a key given twice):
		// nothing to do with the edit.
		return fmt.Errorf("%w: %s", ErrFrontmatter, yamlProblem(err))
	}
	if err := yaml.Unmarshal(after, &is); err != nil {
		return fmt.Errorf("%w: the edit would break the frontmatter: %s", ErrFrontmatter, yamlProblem(err))
	}
	for _, f := range set {
		line, err := Frontmatter{f}.marshalFields()
		if err != nil {
			return err
		}
		var want map[string]any
		if err := yaml.Unmarshal(line, &want); err != nil {
			return err
		}
		if got, ok := is[f.Key]; !ok || !reflect.DeepEqual(got, want[f.Key]) {
			return fmt.Errorf("not set %s (the block's layout hides it)", f.Key)
		}
	}
	for k, v := range was {
		if _, ok := fieldOf(set, k); !ok && !reflect.DeepEqual(is[k], v) {
			return fmt.Errorf("change %s", k)
		}
	}
	if len(is) != len(was)+len(newKeys(was, set)) {
		return fmt.Errorf("add a key it was not asked to")
	}
	return nil
}

// newKeys are the keys of set that m lacks.
func newKeys(m map[string]any, set Frontmatter) []string {
	var out []string
	for _, f := range set {
		if _, ok := m[f.Key]; !ok && !slices.Contains(out, f.Key) {
			out = append(out, f.Key)
		}
	}
	return out
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
	name    string
	line    int    // 0-based line of the key within the block
	comment string // the comment at the end of the key's line ("# …"), if any
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
		return nil, fmt.Errorf("%w: %s", ErrFrontmatter, yamlProblem(err))
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
		comment := k.LineComment
		if v := m.Content[i+1]; comment == "" && v.Line == k.Line {
			comment = v.LineComment
		}
		keys = append(keys, keyLine{name: k.Value, line: k.Line - 1, comment: comment})
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
