package consensus

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// stopwords are English words too common to rank by (built on first use).
var stopwords = wordSet(`a an and are as at be but by can do does for from had has have he her his how i if in into is it its
		itself me my no nor not of on or our she should so than that the their them then there these they this those to too
		was we were what when where which while who whom why will with would you your it's we'll must may`)

// tokenize splits text into search terms: letters and digits, lower case,
// accents removed, English stopwords and one-letter words dropped, and a
// plural "s"/"ies" folded, so that "Keys" finds "key".
func tokenize(text string, emit func(string)) {
	ascii := true
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		text = stripMarks(text)
	}
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := text[start:end]
		start = -1
		if len(w) < 2 && w[0] < utf8.RuneSelf {
			return
		}
		w = strings.ToLower(w)
		if stopwords()[w] {
			return
		}
		emit(foldPlural(w))
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
}

func foldPlural(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// stripMarks removes combining marks after canonical decomposition
// ("café" → "cafe").
func stripMarks(s string) string {
	d := norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
