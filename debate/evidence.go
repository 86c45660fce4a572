package debate

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/vocab"
)

// PageIndex tells whether a vault page exists; package vault implements it.
// Names are as written between [[ and ]], without alias or heading.
type PageIndex interface {
	PageExists(ctx context.Context, name string) (bool, error)
}

// PageFunc adapts a function to PageIndex.
type PageFunc func(ctx context.Context, name string) (bool, error)

// PageExists calls f.
func (f PageFunc) PageExists(ctx context.Context, name string) (bool, error) { return f(ctx, name) }

// EvidenceChecker checks the evidence references of turns (SPEC §5.3):
// paths and line ranges under a workspace directory, opened through an
// os.Root so that neither ".." nor a symbolic link leads out of it; wiki
// pages in a vault; URLs recorded as unchecked. It is safe for concurrent
// use. The zero value checks nothing but the form of each reference.
type EvidenceChecker struct {
	root  *os.Root
	pages PageIndex
}

// lineCount is a file's line count, and whether the whole file was read.
type lineCount struct {
	n        int
	complete bool
}

// NewEvidenceChecker checks paths under workspace (none when empty) and
// pages in pages (none when nil). Close releases the workspace.
func NewEvidenceChecker(workspace string, pages PageIndex) (*EvidenceChecker, error) {
	c := &EvidenceChecker{pages: pages}
	if workspace != "" {
		r, err := os.OpenRoot(workspace)
		if err != nil {
			return nil, fmt.Errorf("open the workspace: %w", err)
		}
		c.root = r
	}
	return c, nil
}

// Close releases the workspace directory.
func (c *EvidenceChecker) Close() error {
	if c == nil || c.root == nil {
		return nil
	}
	return c.root.Close()
}

// MaxEvidenceBytes bounds how much of a file is read to count its lines;
// a line beyond it is recorded as unchecked.
const MaxEvidenceBytes = 16 << 20

var (
	schemeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://`) })
	lineRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?):([0-9]+)(?:-([0-9]+))?$`) })
)

// Check checks every reference, in order. Once ctx is done the remaining
// references are recorded as unchecked. A file's line count is read once
// per call (a turn citing one file a hundred times reads it once), never
// remembered from an earlier call: a spec or plan edited between two turns
// is counted as it is now.
func (c *EvidenceChecker) Check(ctx context.Context, refs []string) []EvidenceCheck {
	if len(refs) == 0 {
		return nil
	}
	out := make([]EvidenceCheck, 0, len(refs))
	counted := map[string]lineCount{}
	for _, ref := range refs {
		if ctx.Err() != nil {
			out = append(out, EvidenceCheck{Ref: clip.Runes(ref, 61), Kind: "unknown", Status: EvidenceUnchecked, Detail: "no time left to check it"})
			continue
		}
		out = append(out, c.checkOne(ctx, ref, counted))
	}
	return out
}

// CheckOne checks one reference:
//   - "[[page]]", "[[page|alias]]", "[[page#heading]]": the page exists in
//     the vault (kind wiki);
//   - "scheme://…": recorded as unchecked (kind url);
//   - "path", "path:line", "path:from-to": the file exists under the
//     workspace and the lines are within it (kinds path, line, range);
//
// anything else is invalid. The file is read as it is now.
func (c *EvidenceChecker) CheckOne(ctx context.Context, ref string) EvidenceCheck {
	return c.checkOne(ctx, ref, nil)
}

// checkOne is CheckOne, taking and adding line counts to counted (by
// cleaned path) when it is not nil.
func (c *EvidenceChecker) checkOne(ctx context.Context, ref string, counted map[string]lineCount) EvidenceCheck {
	ref = strings.TrimSpace(ref)
	switch {
	case ref == "" || len(ref) > 4096 || strings.ContainsRune(ref, 0):
		return EvidenceCheck{Ref: clip.Runes(ref, 61), Kind: "unknown", Status: EvidenceInvalid, Detail: "empty, too long or not text"}
	case strings.HasPrefix(ref, "[[") && strings.HasSuffix(ref, "]]"):
		return c.checkPage(ctx, ref)
	case schemeRE().MatchString(ref):
		if u, err := url.Parse(ref); err != nil || u.Host == "" && u.Scheme != "file" {
			return EvidenceCheck{Ref: ref, Kind: "url", Status: EvidenceInvalid, Detail: "not a URL"}
		}
		return EvidenceCheck{Ref: ref, Kind: "url", Status: EvidenceUnchecked, Detail: "URLs are recorded, not fetched"}
	}
	return c.checkPath(ref, counted)
}

func (c *EvidenceChecker) checkPage(ctx context.Context, ref string) EvidenceCheck {
	ec := EvidenceCheck{Ref: ref, Kind: "wiki"}
	name := ref[2 : len(ref)-2]
	if i := strings.IndexAny(name, "|#"); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, "[]") {
		ec.Status, ec.Detail = EvidenceInvalid, "empty or malformed page name"
		return ec
	}
	if c == nil || c.pages == nil {
		ec.Status, ec.Detail = EvidenceUnchecked, "no vault to check against"
		return ec
	}
	ok, err := c.pages.PageExists(ctx, name)
	switch {
	case err != nil:
		ec.Status, ec.Detail = EvidenceInvalid, clip.Line(err.Error(), 201)
	case ok:
		ec.Status = EvidenceOK
	default:
		ec.Status, ec.Detail = EvidenceMissing, "no such page in the vault"
	}
	return ec
}

func (c *EvidenceChecker) checkPath(ref string, counted map[string]lineCount) EvidenceCheck {
	p, from, to := ref, 0, 0
	kind := "path"
	if m := lineRE().FindStringSubmatch(ref); m != nil {
		var err1, err2 error
		p = m[1]
		from, err1 = strconv.Atoi(m[2])
		to, err2 = from, error(nil)
		kind = "line"
		if m[3] != "" {
			to, err2 = strconv.Atoi(m[3])
			kind = "range"
		}
		if err1 != nil || err2 != nil || from < 1 || to < from {
			return EvidenceCheck{Ref: ref, Kind: kind, Status: EvidenceInvalid, Detail: "lines must be 1 ≤ from ≤ to"}
		}
	}
	ec := EvidenceCheck{Ref: ref, Kind: kind}
	name := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p)))
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		ec.Status, ec.Detail = EvidenceOutside, "not a relative path inside the workspace"
		return ec
	}
	if c == nil || c.root == nil {
		ec.Status, ec.Detail = EvidenceUnchecked, "no workspace to check against"
		return ec
	}
	// O_NONBLOCK: a named pipe in the workspace opens at once instead of
	// waiting for a writer (it is then found not to be a file).
	f, err := c.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		ec.Status, ec.Detail = pathStatus(err)
		if file := c.fileIn(p); ec.Status == EvidenceMissing && file != "" {
			// "spec.md#L10-L20", "spec.md:12:5": a file of the workspace
			// cited in a form parley does not read, not a file that is not
			// there.
			ec.Status, ec.Detail = EvidenceInvalid, fmt.Sprintf("%s is a file of the workspace, but lines are cited as path:line or path:from-to", file)
		}
		return ec
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		ec.Status, ec.Detail = EvidenceInvalid, clip.Line(err.Error(), 201)
		return ec
	}
	if kind == "path" {
		ec.Status = EvidenceOK
		return ec
	}
	if !st.Mode().IsRegular() {
		ec.Status, ec.Detail = EvidenceInvalid, "lines of something that is not a file"
		return ec
	}
	lc, err := count(counted, name, f, st.Size())
	if err != nil {
		ec.Status, ec.Detail = EvidenceInvalid, clip.Line(err.Error(), 201)
		return ec
	}
	switch {
	case to <= lc.n:
		ec.Status = EvidenceOK
		if _, err := f.Seek(0, io.SeekStart); err == nil {
			if h, err := HashLines(f, from, to); err == nil {
				ec.Hash = h
			}
		}
	case !lc.complete:
		ec.Status, ec.Detail = EvidenceUnchecked, fmt.Sprintf("beyond the first %d MiB of the file, which is all parley reads", MaxEvidenceBytes>>20)
	default:
		ec.Status, ec.Detail = EvidenceOutOfRange, "the file has "+vocab.Count(lc.n, "line")
	}
	return ec
}

// count returns the line count of the file name, read from f unless
// counted (when not nil) already holds it; it adds what it reads there.
func count(counted map[string]lineCount, name string, f io.Reader, size int64) (lineCount, error) {
	if lc, ok := counted[name]; ok {
		return lc, nil
	}
	n, err := countLines(f)
	if err != nil {
		return lineCount{}, err
	}
	lc := lineCount{n: n, complete: size <= MaxEvidenceBytes}
	if counted != nil {
		counted[name] = lc
	}
	return lc, nil
}

// fileIn is the file of the workspace that p, not found as it is, names
// before a "#" (a GitHub-style "#L10-L20") or a ":" (a "line:column"),
// "" when there is none.
func (c *EvidenceChecker) fileIn(p string) string {
	for _, sep := range []string{"#", ":"} {
		i := strings.Index(p, sep)
		if i <= 0 {
			continue
		}
		name := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p[:i])))
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			continue
		}
		if st, err := c.root.Stat(name); err == nil && st.Mode().IsRegular() {
			return name
		}
	}
	return ""
}

func pathStatus(err error) (EvidenceStatus, string) {
	if errors.Is(err, fs.ErrNotExist) {
		return EvidenceMissing, "no such file in the workspace"
	}
	// os.Root refuses a path that escapes it, through ".." or a link.
	if strings.Contains(err.Error(), "escapes") {
		return EvidenceOutside, "leads out of the workspace"
	}
	return EvidenceInvalid, clip.Line(err.Error(), 201)
}

// ErrLinesOutOfRange means a file has fewer lines than a ref cites.
var ErrLinesOutOfRange = errors.New("the file has fewer lines than cited")

// HashLines is the hex SHA-256 of lines from to to (1-based, inclusive,
// each with its line end as in the file) of r, read up to
// MaxEvidenceBytes. It fails with ErrLinesOutOfRange when r ends first.
func HashLines(r io.Reader, from, to int) (string, error) {
	if from < 1 || to < from {
		return "", ErrLinesOutOfRange
	}
	br := bufio.NewReaderSize(io.LimitReader(r, MaxEvidenceBytes), 64<<10)
	h := sha256.New()
	for n := 1; n <= to; n++ {
		line, err := br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			if n >= from {
				h.Write(line)
			}
			line, err = br.ReadSlice('\n')
		}
		if n >= from {
			h.Write(line)
		}
		if err == io.EOF {
			if len(line) == 0 || n < to {
				return "", ErrLinesOutOfRange
			}
			break
		}
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// countLines counts lines as an editor numbers them: a last line without a
// newline still counts.
func countLines(r io.Reader) (int, error) {
	br := bufio.NewReaderSize(io.LimitReader(r, MaxEvidenceBytes), 64<<10)
	n, last := 0, byte('\n')
	buf := make([]byte, 64<<10)
	for {
		k, err := br.Read(buf)
		for _, c := range buf[:k] {
			if c == '\n' {
				n++
			}
		}
		if k > 0 {
			last = buf[k-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}

// Redacted is what a reader who may not learn about the workspace (an
// untrusted MCP client over HTTP) is told of a check: for a file reference
// only whether it was found under the workspace ("ok") or not ("missing"),
// never a line count, and nothing that tells a path outside the workspace
// from one that does not exist; for any reference, no detail.
func (ec EvidenceCheck) Redacted() EvidenceCheck {
	out := EvidenceCheck{Ref: ec.Ref, Kind: ec.Kind, Status: ec.Status}
	switch ec.Kind {
	case "path", "line", "range":
		if ec.Status != EvidenceOK {
			out.Status = EvidenceMissing
		}
	}
	return out
}

// RedactTurns returns turns with every evidence check Redacted (a copy;
// turns is not changed).
func RedactTurns(turns []TurnRecord) []TurnRecord {
	out := make([]TurnRecord, len(turns))
	for i, t := range turns {
		out[i] = t
		if len(t.Evidence) > 0 {
			out[i].Evidence = make([]EvidenceCheck, len(t.Evidence))
			for j, ec := range t.Evidence {
				out[i].Evidence[j] = ec.Redacted()
			}
		}
	}
	return out
}
