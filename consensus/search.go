package consensus

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25 is an inverted index over the records' search text. It is built
// from the entries at one moment and never changed; a change to the records
// builds a new one.
type bm25 struct {
	docs     []*entry
	lens     []float64
	avgLen   float64
	postings map[string][]posting
}

type posting struct {
	doc int32
	tf  uint32
}

func buildBM25(docs []*entry) *bm25 {
	ix := &bm25{docs: docs, lens: make([]float64, len(docs)), postings: map[string][]posting{}}
	var total float64
	tf := map[string]uint32{}
	for i, e := range docs {
		clear(tf)
		n := 0
		tokenize(e.Text, func(t string) {
			tf[t]++
			n++
		})
		for t, c := range tf {
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(i), tf: c})
		}
		ix.lens[i] = float64(n)
		total += float64(n)
	}
	if len(docs) > 0 {
		ix.avgLen = total / float64(len(docs))
	}
	return ix
}

// scored is one ranked document.
type scored struct {
	doc   int
	score float64
}

// search ranks the documents that share a term with the query, best first;
// keep filters documents (nil keeps all); at most limit are returned.
func (ix *bm25) search(query string, limit int, keep func(*entry) bool) []scored {
	if ix == nil || len(ix.docs) == 0 || limit <= 0 {
		return nil
	}
	terms := map[string]bool{}
	tokenize(query, func(t string) { terms[t] = true })
	scores := map[int32]float64{}
	n := float64(len(ix.docs))
	for t := range terms {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			f := float64(p.tf)
			norm := f + bm25K1*(1-bm25B+bm25B*ix.lens[p.doc]/ix.avgLen)
			scores[p.doc] += idf * f * (bm25K1 + 1) / norm
		}
	}
	out := make([]scored, 0, min(len(scores), 4*limit))
	for d, s := range scores {
		if keep != nil && !keep(ix.docs[d]) {
			continue
		}
		out = append(out, scored{doc: int(d), score: s})
	}
	slices.SortFunc(out, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(ix.docs[a.doc].Name, ix.docs[b.doc].Name)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// stopwords are English words too common to rank by.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by can do does for from had has have he her his how i if in into is it its
		itself me my no nor not of on or our she should so than that the their them then there these they this those to too
		was we were what when where which while who whom why will with would you your it's we'll must may`) {
		stopwords[w] = true
	}
}

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
		if stopwords[w] {
			return
		}
		emit(stem(w))
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

func stem(w string) string {
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
