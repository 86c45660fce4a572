package vocab

import (
	"fmt"
	"path/filepath"
	"strconv"
	"unicode/utf8"
)

// MaxNameLen is the longest agent name accepted (pi-messenger's limit).
const MaxNameLen = 50

// nameOK is the allowlist ^[a-zA-Z0-9_][a-zA-Z0-9_-]*$, written out so
// that the send path compiles no regular expression.
func nameOK(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case c == '-' && i > 0:
		default:
			return false
		}
	}
	return name != ""
}

// ValidateName checks an agent name against the allowlist: 1 to MaxNameLen
// letters, digits, '_' or '-', not starting with '-'. It is the one gate
// every name passes before it reaches the filesystem or the network; the
// error wraps ErrInvalidName.
func ValidateName(name string) error {
	if len(name) == 0 || len(name) > MaxNameLen || !nameOK(name) || !filepath.IsLocal(name) {
		return fmt.Errorf("%w: %s (use 1-%d letters, digits, '_' or '-', not starting with '-')", ErrInvalidName, quoteName(name), MaxNameLen)
	}
	return nil
}

// quotedNameLen bounds how much of a refused name its error quotes (in
// runes): a name pasted by mistake can be a whole paragraph.
const quotedNameLen = 60

// quoteName is name as a refusal quotes it: whole when it is short, else
// its first runes and "…" inside the quotes, so that the reader sees it
// goes on. It cuts as internal/clip.Runes does, which vocab, a leaf that
// imports no parley package, cannot call.
func quoteName(name string) string {
	if utf8.RuneCountInString(name) <= quotedNameLen {
		return strconv.Quote(name)
	}
	i, count := 0, 0
	for i = range name {
		if count == quotedNameLen-1 {
			break
		}
		count++
	}
	return strconv.Quote(name[:i] + "…")
}
