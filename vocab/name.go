package vocab

import (
	"fmt"
	"path/filepath"
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
		return fmt.Errorf("%w: %.60q (use 1-%d letters, digits, '_' or '-', not starting with '-')", ErrInvalidName, name, MaxNameLen)
	}
	return nil
}
