package consensus

import (
	"math"
	"sort"
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
// builds a new one. search reuses scratch buffers, so calls must not overlap
// (the Store's mutex serializes them).
type bm25 struct {
	docs     []*entry
	lens     []float32
	avgLen   float64
	postings map[string][]posting

	acc     []float64 // scratch: score per document
	touched []int32   // scratch: documents with a score
}

type posting struct {
	doc int32
	tf  uint32
}

func buildBM25(docs []*entry) *bm25 {
	ix := &bm25{docs: docs, lens: make([]float32, len(docs)), postings: map[string][]posting{}, acc: make([]float64, len(docs))}
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
		ix.lens[i] = float32(n)
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

// minIDF drops query terms found in nearly every document (idf below it,
// about 82% of them): they cost a pass over every document and barely move
// a ranking. A query made only of such terms keeps them.
const minIDF = 0.2

// search ranks the documents that share a term with the query, best first;
// keep filters documents (nil keeps all); at most limit are returned.
func (ix *bm25) search(query string, limit int, keep func(*entry) bool) []scored {
	if ix == nil || len(ix.docs) == 0 || limit <= 0 {
		return nil
	}
	limit = min(limit, len(ix.docs)) // top is allocated for limit hits
	n := float64(len(ix.docs))
	type qterm struct {
		ps  []posting
		idf float64
	}
	var terms []qterm
	seen := map[string]bool{}
	tokenize(query, func(t string) {
		if seen[t] {
			return
		}
		seen[t] = true
		if ps := ix.postings[t]; len(ps) > 0 {
			df := float64(len(ps))
			terms = append(terms, qterm{ps, math.Log(1 + (n-df+0.5)/(df+0.5))})
		}
	})
	common := 0
	for _, t := range terms {
		if t.idf < minIDF {
			common++
		}
	}
	for _, t := range terms {
		if t.idf < minIDF && common < len(terms) {
			continue
		}
		for _, p := range t.ps {
			f := float64(p.tf)
			if ix.acc[p.doc] == 0 {
				ix.touched = append(ix.touched, p.doc)
			}
			ix.acc[p.doc] += t.idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(ix.lens[p.doc])/ix.avgLen))
		}
	}
	// Keep the best limit in a small sorted slice (limit is small).
	better := func(a, b scored) bool {
		if a.score != b.score {
			return a.score > b.score
		}
		return ix.docs[a.doc].Name < ix.docs[b.doc].Name
	}
	top := make([]scored, 0, limit+1)
	for _, d := range ix.touched {
		sc := scored{doc: int(d), score: ix.acc[d]}
		ix.acc[d] = 0
		if len(top) == limit && !better(sc, top[limit-1]) {
			continue
		}
		if keep != nil && !keep(ix.docs[d]) {
			continue
		}
		i := sort.Search(len(top), func(i int) bool { return better(sc, top[i]) })
		top = append(top, scored{})
		copy(top[i+1:], top[i:])
		top[i] = sc
		if len(top) > limit {
			top = top[:limit]
		}
	}
	ix.touched = ix.touched[:0]
	return top
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
