package sendcheck

import (
	"regexp"
	"strings"
	"testing"
)

// The hand-written message type check agrees with the allowlist as the
// send command's error states it: ^[a-z][a-z0-9_]{0,63}$.
func TestTypeOKAgreesWithTheAllowlist(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	alphabet := []string{"a", "z", "0", "9", "_", "A", "-", " ", ".", "é", "\x00", "`", "{", "/"}
	types := []string{"", strings.Repeat("a", 64), strings.Repeat("a", 65), "a" + strings.Repeat("_", 63), "text\n"}
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		types = append(types, prefix)
		if depth > 0 {
			for _, c := range alphabet {
				gen(prefix+c, depth-1)
			}
		}
	}
	gen("", 3)
	for _, typ := range types {
		if got, want := TypeOK(typ), re.MatchString(typ); got != want {
			t.Errorf("TypeOK(%q) = %v, want %v", typ, got, want)
		}
	}
}
