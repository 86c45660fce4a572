package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/internal/termsafe"
)

// Permissions of what a vault writes (SPEC §3).
const (
	DirPerm  fs.FileMode = 0o700
	FilePerm fs.FileMode = 0o600
)

// Vault is an Obsidian-style vault directory. Open one with Open or Create;
// close it with Close. It is safe for concurrent use.
type Vault struct {
	dir  string
	root *os.Root
	fs   durable.FS
	log  *slog.Logger

	mu     sync.Mutex // guards names and builds
	names  *nameIndex // built on first Resolve; nil until then
	builds int        // walks of the vault for names, for tests
}

// Option configures Open and Create.
type Option func(*Vault)

// WithLogger logs skipped pages and resolution rebuilds to l (default:
// nowhere).
func WithLogger(l *slog.Logger) Option { return func(v *Vault) { v.log = l } }

// WithFS wraps the filesystem that pages are written through, for tests
// that inject faults (see durable.FaultFS).
func WithFS(wrap func(durable.FS) durable.FS) Option {
	return func(v *Vault) { v.fs = wrap(v.fs) }
}

// Open opens an existing vault directory.
func Open(dir string, opts ...Option) (*Vault, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open vault: %w", err)
	}
	v := &Vault{dir: abs, root: root, fs: durable.Root(root), log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(v)
	}
	if v.log == nil {
		v.log = slog.New(slog.DiscardHandler)
	}
	return v, nil
}

// Create opens a vault directory, creating it (0700) first if needed.
func Create(dir string, opts ...Option) (*Vault, error) {
	if err := os.MkdirAll(dir, DirPerm); err != nil {
		return nil, fmt.Errorf("create vault: %w", err)
	}
	return Open(dir, opts...)
}

// Close releases the vault's directory handle.
func (v *Vault) Close() error { return v.root.Close() }

// Path is the vault's absolute directory.
func (v *Vault) Path() string { return v.dir }

// Page is a vault page as read from disk.
type Page struct {
	// Path is the slash path relative to the vault ("wiki/consensus/x.md").
	Path string
	// Meta is the decoded frontmatter; nil when the page has none.
	Meta map[string]any
	// Body is the Markdown after the frontmatter.
	Body []byte
	// Invalid is why the frontmatter does not parse, for a page read by a
	// Lenient query (Meta is then nil and Body what follows the
	// frontmatter, as Obsidian shows such a page); nil otherwise.
	Invalid error
	Size    int64
	ModTime time.Time
}

// Name is the page's file name without ".md", the name wikilinks use.
func (p *Page) Name() string { return strings.TrimSuffix(path.Base(p.Path), ".md") }

// Type is the frontmatter's "type" ("" if none or not a string).
func (p *Page) Type() string {
	s, _ := p.Meta["type"].(string)
	return s
}

// Tags are the frontmatter's tags (a list or a single string), without a
// leading '#'.
func (p *Page) Tags() []string {
	var out []string
	add := func(v any) {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimPrefix(strings.TrimSpace(s), "#"))
		}
	}
	switch x := p.Meta["tags"].(type) {
	case []any:
		for _, t := range x {
			add(t)
		}
	default:
		add(x)
	}
	return out
}

// Links returns the page's wikilinks: those in frontmatter string values
// (such as related: ["[[x]]"]) and those in the body.
func (p *Page) Links() []Link {
	var out []Link
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			s := strings.TrimSpace(x)
			if strings.HasPrefix(s, "[[") && strings.HasSuffix(s, "]]") {
				if l, err := ParseLink(s); err == nil {
					out = append(out, l)
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		}
	}
	walk(p.Meta)
	return append(out, LinksIn(p.Body)...)
}

// ParsePage parses a page's bytes. A page without frontmatter is valid (Meta
// is nil); frontmatter that is not a YAML mapping is an error wrapping
// ErrFrontmatter. It never panics.
func ParsePage(p string, data []byte) (*Page, error) {
	page := &Page{Path: p, Size: int64(len(data))}
	var meta map[string]any
	body, err := DecodeFrontmatter(data, &meta)
	switch {
	case errors.Is(err, ErrNoFrontmatter):
		page.Body = data
		return page, nil
	case err != nil:
		return nil, &PageError{Op: "parse", Path: p, Err: err}
	}
	if meta == nil {
		meta = map[string]any{}
	}
	page.Meta = normalizeYAML(meta).(map[string]any)
	page.Body = body
	return page, nil
}

// ReadPage reads the page at a slash path relative to the vault. The file
// must be a regular file inside the vault: a path with "..", or a symbolic
// link that leads out of the vault, fails (os.Root refuses it); so does a
// page over MaxPageBytes (ErrTooLarge).
func (v *Vault) ReadPage(p string) (*Page, error) { return v.read(p, false) }

// readLenient is ReadPage that reads a page whose frontmatter does not
// parse as Obsidian shows it: Meta nil, Invalid the reason, Body what
// follows the frontmatter block.
func (v *Vault) readLenient(p string) (*Page, error) { return v.read(p, true) }

func (v *Vault) read(p string, lenient bool) (*Page, error) {
	if err := validRead(p); err != nil {
		return nil, err
	}
	data, info, err := readFile(v.root, p, false)
	if err != nil {
		return nil, &PageError{Op: "read", Path: p, Err: err}
	}
	page, err := ParsePage(p, data)
	if lenient && errors.Is(err, ErrFrontmatter) {
		_, body, _ := SplitFrontmatter(data)
		page = &Page{Path: p, Body: body, Invalid: err, Size: int64(len(data))}
	} else if err != nil {
		return nil, err
	}
	page.ModTime = info.ModTime()
	return page, nil
}

// Page reads the page a wikilink or a path names: "spec-x", "[[spec-x]]",
// "debates/<id>", "wiki/consensus/spec-x.md".
func (v *Vault) Page(name string) (*Page, error) {
	p, err := v.Resolve(name)
	if err != nil {
		return nil, err
	}
	return v.ReadPage(p)
}

// WritePage atomically writes a page (frontmatter, then body) at a slash
// path relative to the vault, replacing any previous content and creating
// missing folders (0700). Readers see the old page or the new one, never a
// mix. The path must be local, of names made of letters, digits, '_', '-'
// and '.', not starting with '.', and end in ".md" (ErrInvalidPath).
func (v *Vault) WritePage(p string, fm Frontmatter, body []byte) error {
	return v.write(p, fm, body, false)
}

// CreatePage is WritePage that never replaces: when p exists it fails with
// an error satisfying errors.Is(err, fs.ErrExist). Of two concurrent
// callers exactly one succeeds.
func (v *Vault) CreatePage(p string, fm Frontmatter, body []byte) error {
	return v.write(p, fm, body, true)
}

var segRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`) })

// ValidPath reports whether p is a path WritePage accepts.
func ValidPath(p string) error {
	if len(p) > 1024 || !strings.HasSuffix(p, ".md") || !filepath.IsLocal(filepath.FromSlash(p)) {
		return fmt.Errorf("%w: %q", ErrInvalidPath, clip.Runes(p, 81))
	}
	for _, seg := range strings.Split(p, "/") {
		if !segRE().MatchString(seg) || seg == ".." {
			return fmt.Errorf("%w: %q", ErrInvalidPath, clip.Runes(p, 81))
		}
	}
	return nil
}

// validRead is the looser check for reading: any local path (the vault may
// hold pages with spaces and Unicode in their names).
func validRead(p string) error {
	if p == "" || len(p) > 4096 || strings.ContainsRune(p, 0) || strings.Contains(p, `\`) || !filepath.IsLocal(filepath.FromSlash(p)) {
		return &PageError{Op: "read", Path: clip.Runes(p, 81), Err: ErrInvalidPath}
	}
	return nil
}

func (v *Vault) write(p string, fm Frontmatter, body []byte, exclusive bool) error {
	if err := ValidPath(p); err != nil {
		return err
	}
	head, err := fm.Marshal()
	if err != nil {
		return &PageError{Op: "write", Path: p, Err: err}
	}
	// A page never stores a control character (an escape sequence an
	// agent wrote would run in the terminal of whoever cats the page), a
	// bidi override or a line separator: each becomes U+FFFD.
	if bytes.ContainsFunc(body, func(r rune) bool { return termsafe.Unsafe(r) && r != '\n' && r != '\t' }) {
		body = []byte(termsafe.Clean(string(body), "\n\t"))
	}
	data := make([]byte, 0, len(head)+len(body))
	data = append(append(data, head...), body...)
	if len(data) > MaxPageBytes {
		return &PageError{Op: "write", Path: p, Err: fmt.Errorf("%w: page is %d bytes, the limit is %d", ErrTooLarge, len(data), MaxPageBytes)}
	}
	if dir := path.Dir(p); dir != "." {
		if err := v.root.MkdirAll(dir, DirPerm); err != nil {
			return &PageError{Op: "write", Path: p, Err: err}
		}
	}
	if exclusive {
		err = durable.CreateFile(v.fs, p, data, FilePerm)
	} else {
		err = durable.WriteFile(v.fs, p, data, FilePerm)
	}
	if err != nil {
		return &PageError{Op: "write", Path: p, Err: err}
	}
	v.mu.Lock()
	if v.names != nil {
		v.names.add(p)
	}
	v.mu.Unlock()
	return nil
}

// Query selects pages in Pages. Zero fields match everything.
type Query struct {
	Under string // only pages under this folder ("wiki/consensus")
	Type  string // frontmatter type
	Tag   string // a tag the page carries (without '#')
	// Lenient reads a page whose frontmatter does not parse (a key
	// written twice, a quote left open: Obsidian still shows the page and
	// follows its links) with Page.Invalid set, instead of skipping it.
	Lenient bool
}

// Pages walks the vault (skipping hidden folders such as .obsidian and
// .trash) and returns the pages the query selects, sorted by path. A page
// that cannot be read or parsed is skipped and logged; it never fails the
// walk. Symbolic links are not followed. It holds every page in memory:
// to read a large vault, use EachPage.
func (v *Vault) Pages(ctx context.Context, q Query) ([]*Page, error) {
	var out []*Page
	err := v.EachPage(ctx, q, func(p *Page) error {
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// EachPage is Pages that calls fn with each page, in path order, instead
// of returning them all: the walk keeps no page, so a vault of any size is
// read in the memory of its largest page and whatever fn keeps. An error
// from fn stops the walk and is returned.
func (v *Vault) EachPage(ctx context.Context, q Query, fn func(*Page) error) error {
	start := "."
	if q.Under != "" {
		if err := validRead(q.Under); err != nil {
			return err
		}
		start = path.Clean(q.Under)
	}
	return fs.WalkDir(v.root.FS(), start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			v.log.Warn("vault: skipped", "path", p, "err", err)
			return nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if p != start && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		read := v.ReadPage
		if q.Lenient {
			read = v.readLenient
		}
		page, err := read(p)
		if err != nil {
			v.log.Warn("vault: skipped page", "path", p, "err", err)
			return nil
		}
		if q.Type != "" && page.Type() != q.Type {
			return nil
		}
		if q.Tag != "" && !slices.Contains(page.Tags(), strings.TrimPrefix(q.Tag, "#")) {
			return nil
		}
		return fn(page)
	})
}

// readFile reads a file under root, bounded by MaxPageBytes. With strict
// set, only a regular file that is not a symbolic link is read (the lstat
// and the opened file must be the same file). Without it, os.Root still
// refuses links that lead out of the root.
func readFile(root *os.Root, name string, strict bool) ([]byte, fs.FileInfo, error) {
	var linfo fs.FileInfo
	if strict {
		var err error
		if linfo, err = root.Lstat(name); err != nil {
			return nil, nil, err
		}
		if !linfo.Mode().IsRegular() {
			return nil, nil, notPage(linfo.Mode())
		}
	}
	// A named pipe in a page's place must not block the reader in open(2)
	// waiting for a writer: regfile refuses it.
	f, info, err := regfile.Open(root.OpenFile, name)
	if nr := (*regfile.NotRegularError)(nil); errors.As(err, &nr) {
		return nil, nil, notPage(nr.Mode)
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if linfo != nil && !os.SameFile(linfo, info) {
		return nil, nil, notPage(info.Mode())
	}
	if info.Size() > MaxPageBytes {
		return nil, nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, info.Size(), MaxPageBytes)
	}
	r := io.LimitReader(f, MaxPageBytes+1)
	data := make([]byte, 0, info.Size()+1)
	for {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if len(data) > MaxPageBytes {
			break
		}
		if len(data) == cap(data) { // the file grew since the stat
			data = append(data, 0)[:len(data)]
		}
	}
	if len(data) > MaxPageBytes {
		return nil, nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, MaxPageBytes)
	}
	return data, info, nil
}

// RemoveStaleStaging removes from the vault folder dir (a slash path, such
// as "wiki/consensus") the staging files of page writes (the exact names
// durable.StagingName makes) older than durable.StaleStaging, that a
// writer killed mid-write left, and returns how many it removed. Nothing
// else is touched: not the pages, not a symbolic link with a staging name,
// not the folders below dir.
func (v *Vault) RemoveStaleStaging(dir string, now time.Time) (int, error) {
	if err := validRead(dir); err != nil {
		return 0, err
	}
	return durable.RemoveStale(v.root, dir, now.Add(-durable.StaleStaging))
}
