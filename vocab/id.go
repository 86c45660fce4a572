package vocab

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
)

var idRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9]{8}-(spec|plan|verify)-[a-z0-9]+(-[a-z0-9]+)*-[a-z2-7]{6}$`)
})

// NewID returns a debate id that reads well in a listing:
// <yyyymmdd>-<layer>-<slug of the topic, ≤32>-<6 random base32>.
func NewID(now time.Time, l Layer, topic string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	suffix := strings.ToLower(base32.StdEncoding.EncodeToString(b[:]))[:6]
	return fmt.Sprintf("%s-%s-%s-%s", now.UTC().Format("20060102"), l, SlugOr(topic, 32), suffix)
}

// ValidateID checks a debate id against the id pattern before it names a
// directory; the error wraps ErrInvalidID.
func ValidateID(id string) error {
	if len(id) > 64 || !idRE().MatchString(id) {
		return fmt.Errorf("%w: %.60q", ErrInvalidID, id)
	}
	return nil
}
