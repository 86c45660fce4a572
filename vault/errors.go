package vault

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/parleyhq/parley/internal/regfile"
)

var (
	// ErrTooLarge means a page or its frontmatter exceeds MaxPageBytes or
	// MaxFrontmatterBytes.
	ErrTooLarge = errors.New("too large")
	// ErrFrontmatter means a page's frontmatter is not valid YAML, or not
	// a mapping, or a value parley writes cannot be encoded.
	ErrFrontmatter = errors.New("invalid frontmatter")
	// ErrNoFrontmatter means a page that must have frontmatter has none.
	ErrNoFrontmatter = errors.New("no frontmatter")
	// ErrInvalidPath means a page path that is not a local, slash-separated
	// path of allowed names ending in ".md".
	ErrInvalidPath = errors.New("invalid page path")
	// ErrNotPage means the path names something other than a regular file
	// (a directory, a symbolic link, a device).
	ErrNotPage = errors.New("not a regular page file")
	// ErrInvalidLink means text that is not a well-formed [[wikilink]].
	ErrInvalidLink = errors.New("invalid wikilink")
	// ErrNotFound means no page matches a wikilink.
	ErrNotFound = errors.New("page not found")
	// ErrOutside means a folder of the vault is a symbolic link to a
	// place out of the vault, where nothing is read or written.
	ErrOutside = errors.New("a symbolic link leads out of the vault")
	// ErrNotFolder means a file stands where a folder of the vault must be.
	ErrNotFolder = errors.New("not a folder")
	// ErrAmbiguous means several pages match a wikilink that names no
	// folder; qualify it with a path ("[[debates/x]]").
	ErrAmbiguous = errors.New("ambiguous wikilink")
)

// PageError records a failure on one page.
type PageError struct {
	Op   string // read, parse, write, resolve
	Path string // slash path relative to the vault
	Err  error
}

func (e *PageError) Error() string { return fmt.Sprintf("%s %s: %v", e.Op, e.Path, e.Err) }
func (e *PageError) Unwrap() error { return e.Err }

// notPage is ErrNotPage for a file of type m, saying in words what it is
// ("not a regular page file: it is a named pipe").
func notPage(m fs.FileMode) error {
	return fmt.Errorf("%w: it is %s", ErrNotPage, regfile.Kind(m.Type()))
}
