package vocab

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// translit spells letters that do not decompose into ASCII; built on
// first use.
var translit = sync.OnceValue(func() map[rune]string {
	return map[rune]string{
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
})

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
			t, ok := translit()[unicode.ToLower(r)]
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

// SlugLoses reports whether Slug(text, …) leaves out letters, digits or
// symbols of text that it cannot spell (Japanese, Korean, Arabic, an
// emoji): two texts that differ only in those slug alike, so a caller that
// names things by slug must tell them apart another way.
func SlugLoses(text string) bool {
	for _, r := range norm.NFKD.String(text) {
		if r < unicode.MaxASCII || unicode.Is(unicode.Mn, r) {
			continue
		}
		if !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsSymbol(r)) {
			continue
		}
		if _, ok := translit()[unicode.ToLower(r)]; !ok {
			return true
		}
	}
	return false
}
