package debate

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// translit spells letters that do not decompose into ASCII.
var translit = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ø': "o", 'Ø': "o", 'ł': "l", 'Ł': "l",
	'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d", 'þ': "th", 'Þ': "th", 'ı': "i", 'ħ': "h", 'Ħ': "h",
	// Cyrillic
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e", 'ж': "zh", 'з': "z",
	'и': "i", 'й': "i", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r",
	'с': "s", 'т': "t", 'у': "u", 'ф': "f", 'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch",
	'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "iu", 'я': "ia", 'є': "ie", 'і': "i", 'ї': "i", 'ґ': "g",
	// Greek
	'α': "a", 'β': "v", 'γ': "g", 'δ': "d", 'ε': "e", 'ζ': "z", 'η': "i", 'θ': "th", 'ι': "i",
	'κ': "k", 'λ': "l", 'μ': "m", 'ν': "n", 'ξ': "x", 'ο': "o", 'π': "p", 'ρ': "r", 'σ': "s",
	'ς': "s", 'τ': "t", 'υ': "y", 'φ': "f", 'χ': "ch", 'ψ': "ps", 'ω': "o",
}

// Slug turns text into lower-case ASCII letters, digits and single hyphens,
// at most max characters, cut at a word boundary where possible. Accented
// Latin, Cyrillic and Greek letters are transliterated; other characters
// separate words. Text with nothing transliterable slugs to "" (callers pick
// a fallback, see SlugOr).
func Slug(text string, max int) string {
	var b strings.Builder
	hyphen := false
	for _, r := range norm.NFKD.String(text) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		var piece string
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			piece = string(unicode.ToLower(r))
		default:
			t, ok := translit[unicode.ToLower(r)]
			if !ok {
				hyphen = b.Len() > 0
				continue
			}
			piece = t
		}
		if piece == "" {
			continue
		}
		if hyphen {
			b.WriteByte('-')
			hyphen = false
		}
		b.WriteString(piece)
	}
	s := b.String()
	if len(s) > max {
		s = s[:max]
		if i := strings.LastIndexByte(s, '-'); i > max/2 {
			s = s[:i]
		}
		s = strings.Trim(s, "-")
	}
	return s
}

// SlugOr is Slug, falling back to "topic-" and the first 8 hex digits of
// the text's SHA-256 when nothing of the text survives.
func SlugOr(text string, max int) string {
	if s := Slug(text, max); s != "" {
		return s
	}
	sum := sha256.Sum256([]byte(text))
	return "topic-" + hex.EncodeToString(sum[:4])
}

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
		return fmt.Errorf("%w: %q", ErrInvalidID, clip(id))
	}
	return nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
