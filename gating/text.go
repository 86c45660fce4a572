package gating

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The analysed text of a self-critique is its reasoning, critique and final
// answer, in that order, separated by blank lines. The question and the
// initial answer are not the agent's hesitation and are left out (the
// initial answer only takes part in the answer-flip features).
type field uint8

const (
	fieldReasoning field = iota
	fieldCritique
	fieldFinal
	numFields
)

// span is a range of the analysed text that fired a cue.
type span struct{ start, end int32 }

// token is one word of the masked, lower-cased text.
type token struct {
	s          string // lower case; ’ written as '
	start, end int32
	brk        bool  // a clause break (punctuation, newline) stands before it
	sent       int32 // the sentence it belongs to (index into analysis.sents)
}

// analysis is everything the features are computed from.
type analysis struct {
	doc    string // the analysed text as written
	fields [numFields]span

	words, sentences, longSentences int
	letters, syllables              int
	finalWords                      int

	tokens    []token
	sents     []span // sentence extents, in order
	questions []span
	// desc are hedge, failure and dismissal words used descriptively
	// ("unknown fields are refused", "may retry up to 3 times", "the
	// regression suite", "receivers MUST ignore it"); they count as none.
	desc []span
	// settled are doubts raised and then settled by a stated check: the
	// doubt and its check. Their hedges and questions count as none.
	settled []span
	// specific is specific evidence: file:line refs, test names, commands,
	// command output, counts and measurements.
	specific []span
	// numbers are numbers written outside specific evidence.
	numbers []span
	// ackWord is where the reasoning or critique says the answer was
	// changed on purpose (an offset into doc), or -1.
	ackWord  int32
	hits     [numClasses][]span
	fpu, fpc []span
	checks   []span // checks stated in the first person or as a sentence's first word
	// overruled is a reported failure the text still gives a success
	// verdict over.
	overruled []span
	contra    []span
	refs      []span // evidence references written in the text
}

// longSentence is the length above which a sentence counts as long.
const longSentence = 25

// analyse assembles, masks, tokenises and scans the text of sc.
func analyse(sc *SelfCritique) *analysis {
	a := &analysis{}
	var b strings.Builder
	b.Grow(len(sc.Reasoning) + len(sc.Critique) + len(sc.FinalAnswer) + 4)
	for i, s := range [numFields]string{sc.Reasoning, sc.Critique, sc.FinalAnswer} {
		if i > 0 {
			b.WriteString("\n\n")
		}
		a.fields[i].start = int32(b.Len())
		b.WriteString(collapseRepeats(s))
		a.fields[i].end = int32(b.Len())
	}
	a.doc = b.String()
	sc2 := scratchPool.Get().(*scratch)
	m := append(sc2.m[:0], a.doc...)
	for _, f := range a.fields {
		maskQuotedAndCode(m[f.start:f.end])
	}
	lowerASCII(m)
	a.tokens = sc2.tokens[:0]
	a.tokenise(string(m))
	a.scanLexicon()
	a.scanContradictions()
	a.scanRefs()
	a.scanSpecific()
	a.dropAnswerFigures(sc)
	a.settleDoubts()
	a.scanOverruled()
	a.ackWord = -1
	if strings.TrimSpace(sc.InitialAnswer) != "" && strings.TrimSpace(sc.FinalAnswer) != "" {
		a.ackWord = a.findAcknowledgement()
	}
	// The tokens are scratch: the features keep offsets into a.doc only.
	sc2.m, sc2.tokens = m[:0], a.tokens[:0]
	a.tokens = nil
	scratchPool.Put(sc2)
	return a
}

// scratch holds the buffers one analysis needs only while it runs.
type scratch struct {
	m      []byte
	tokens []token
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// fieldOf returns the field an offset lies in.
func (a *analysis) fieldOf(off int32) field {
	for i := numFields - 1; i > 0; i-- {
		if off >= a.fields[i].start {
			return i
		}
	}
	return fieldReasoning
}

func lowerASCII(b []byte) {
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// blank replaces b[i:j] with spaces, keeping line breaks.
func blank(b []byte, i, j int) {
	for k := i; k < j; k++ {
		if b[k] != '\n' {
			b[k] = ' '
		}
	}
}

// maxQuote bounds how far a quotation may run before its closing mark; an
// opening mark with no close within it (or before a blank line) is taken
// literally.
const maxQuote = 600

// maskQuotedAndCode blanks out what the agent quotes or shows as code, so
// that no cue fires inside it: fenced code blocks, block-quote lines,
// `code spans`, "double", “curly” and ‘single’ quotations, and 'straight
// single' quotations that open after a space.
func maskQuotedAndCode(b []byte) {
	// Line pass: fences and block quotes.
	fence := byte(0)
	fenceLen := 0
	for ls := 0; ls < len(b); {
		le := ls
		for le < len(b) && b[le] != '\n' {
			le++
		}
		line := b[ls:le]
		t := 0
		for t < len(line) && (line[t] == ' ' || line[t] == '\t') {
			t++
		}
		rest := line[t:]
		run := 0
		for run < len(rest) && (rest[run] == '`' || rest[run] == '~') && rest[run] == rest[0] {
			run++
		}
		switch {
		case fence != 0:
			closes := run >= fenceLen && rest[0] == fence && len(strings.Trim(string(rest), string(fence)+" \t")) == 0
			blank(b, ls, le)
			if closes {
				fence = 0
			}
		case run >= 3:
			fence, fenceLen = rest[0], run
			blank(b, ls, le)
		case len(rest) > 0 && rest[0] == '>':
			blank(b, ls, le)
		}
		ls = le + 1
	}
	// Inline pass.
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '`':
			n := 0
			for i+n < len(b) && b[i+n] == '`' {
				n++
			}
			if j := closingTicks(b, i+n, n); j >= 0 {
				blank(b, i, j+n)
				i = j + n
				continue
			}
			i += n
			continue
		case c == '"':
			if j := closeQuote(b, i+1, i+1+maxQuote, "\""); j >= 0 {
				blank(b, i, j+1)
				i = j + 1
				continue
			}
		case c == 0xe2 && i+2 < len(b) && b[i+1] == 0x80 && b[i+2] == 0x9c: // “
			if j := closeQuote(b, i+3, i+3+maxQuote, "\u201d"); j >= 0 {
				blank(b, i, j+3)
				i = j + 3
				continue
			}
		case c == 0xe2 && i+2 < len(b) && b[i+1] == 0x80 && b[i+2] == 0x98: // ‘
			if j := closeSingle(b, i+3, "\u2019"); j >= 0 {
				blank(b, i, j+3)
				i = j + 3
				continue
			}
		case c == '\'' && (i == 0 || strings.IndexByte(" \t\n([", b[i-1]) >= 0) && i+1 < len(b) && b[i+1] != ' ' && b[i+1] != '\n':
			if j := closeSingle(b, i+1, "'"); j >= 0 {
				blank(b, i, j+1)
				i = j + 1
				continue
			}
		}
		i++
	}
}

// maxCodeSpan bounds how far a code span may run before its closing
// backticks; an opening run with no close within it (or before a blank
// line) is taken literally. The bound keeps masking linear on hostile input.
const maxCodeSpan = 4096

// closingTicks finds the next run of exactly n backticks at or after i,
// within maxCodeSpan bytes and before a blank line.
func closingTicks(b []byte, i, n int) int {
	lim := min(len(b), i+maxCodeSpan)
	for i < lim {
		if b[i] != '`' {
			if b[i] == '\n' && i+1 < len(b) && b[i+1] == '\n' {
				return -1
			}
			i++
			continue
		}
		m := 0
		for i+m < len(b) && b[i+m] == '`' {
			m++
		}
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// closeQuote finds the closing mark of a quotation opened before i: before
// lim and before a blank line.
func closeQuote(b []byte, i, lim int, mark string) int {
	lim = min(len(b), lim)
	for j := i; j < lim; j++ {
		if b[j] == '\n' && j+1 < len(b) && b[j+1] == '\n' {
			return -1
		}
		if b[j] == mark[0] && bytes.HasPrefix(b[j:], []byte(mark)) {
			return j
		}
	}
	return -1
}

// closeSingle is closeQuote for single quotes, whose closing mark doubles as
// an apostrophe: it must not be followed by a letter ("don't"). The search
// stays within maxQuote bytes of the opening mark.
func closeSingle(b []byte, i int, mark string) int {
	lim := i + maxQuote
	for {
		j := closeQuote(b, i, lim, mark)
		if j < 0 {
			return -1
		}
		k := j + len(mark)
		if k >= len(b) || !isWordByte(b, k) {
			if j > 0 && b[j-1] != ' ' {
				return j
			}
		}
		i = j + len(mark)
	}
}

func isWordByte(b []byte, k int) bool {
	c := b[k]
	if c < utf8.RuneSelf {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	r, _ := utf8.DecodeRune(b[k:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isWordRune reports whether r belongs in a word.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// tokenise splits the masked text m (same offsets as a.doc) into words,
// counting sentences, letters and syllables as it goes.
func (a *analysis) tokenise(m string) {
	if a.tokens == nil {
		a.tokens = make([]token, 0, len(m)/5)
	}
	sentWords := 0
	var sentStart, sentEnd int32
	endSentence := func() {
		if sentWords > 0 {
			a.sents = append(a.sents, span{sentStart, sentEnd})
			a.sentences++
			if sentWords > longSentence {
				a.longSentences++
			}
		}
		sentWords = 0
	}
	brk := true
	fi := 0 // the field the scan is in
	for i := 0; i < len(m); {
		for fi < int(numFields)-1 && int32(i) >= a.fields[fi+1].start {
			endSentence()
			brk = true
			fi++
		}
		r, size := rune(m[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(m[i:])
		}
		if !isWordRune(r) {
			switch c := m[i]; c {
			case ',', ';', '(', ')', '[', ']', '\n':
				brk = true
				if c == '\n' && (i+1 < len(m) && (m[i+1] == '\n' || listStart(m[i+1:]))) {
					endSentence()
				}
			case '.', '!', '?', ':':
				brk = true
				if c != ':' && (i+1 == len(m) || m[i+1] == ' ' || m[i+1] == '\n' || m[i+1] == '\t' || m[i+1] == '"' || m[i+1] == ')') {
					if c == '?' && sentWords > 0 {
						a.questions = append(a.questions, span{sentStart, int32(i + 1)})
					}
					endSentence()
				}
			default:
				if r == '—' || r == '–' {
					brk = true
				}
			}
			i += size
			continue
		}
		start := i
		hasCurly := false
		for i < len(m) {
			if c := m[i]; c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') {
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(m[i:])
			if isWordRune(r) {
				i += size
				continue
			}
			// An apostrophe or hyphen inside a word keeps it whole.
			if r == '\'' || r == '’' || r == '-' {
				if i+size < len(m) {
					if r2, _ := utf8.DecodeRuneInString(m[i+size:]); isWordRune(r2) {
						hasCurly = hasCurly || r == '’'
						i += size
						continue
					}
				}
			}
			break
		}
		s := m[start:i]
		if hasCurly {
			s = strings.ReplaceAll(s, "’", "'")
		}
		a.tokens = append(a.tokens, token{s: s, start: int32(start), end: int32(i), brk: brk, sent: int32(a.sentences)})
		sentEnd = int32(i)
		brk = false
		if sentWords == 0 {
			sentStart = int32(start)
		}
		sentWords++
		a.words++
		if fi == int(fieldFinal) {
			a.finalWords++
		}
		l, syl := letterStats(s)
		a.letters += l
		a.syllables += syl
	}
	endSentence()
}

// listStart reports whether s starts a Markdown list item or heading.
func listStart(s string) bool {
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return false
	}
	switch s[0] {
	case '-', '*', '+':
		return len(s) > 1 && s[1] == ' '
	case '#':
		return true
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')')
}

// letterStats counts the letters of a word and estimates its syllables
// (vowel groups, a silent final e dropped, at least one).
func letterStats(w string) (letters, syllables int) {
	prevVowel := false
	ascii := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			letters, syllables, ascii = 0, 0, false
			break
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			prevVowel = false
			continue
		}
		letters++
		v := c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'
		if v && !prevVowel {
			syllables++
		}
		prevVowel = v
	}
	if ascii {
		if letters == 0 {
			return 0, 0
		}
		if syllables > 1 && w[len(w)-1] == 'e' && !strings.HasSuffix(w, "le") {
			syllables--
		}
		return letters, max(1, syllables)
	}
	prevVowel = false
	for _, r := range w {
		if !unicode.IsLetter(r) {
			prevVowel = false
			continue
		}
		letters++
		if r >= utf8.RuneSelf {
			ascii = false
		}
		v := strings.ContainsRune("aeiouy", r)
		if v && !prevVowel {
			syllables++
		}
		prevVowel = v
	}
	if letters == 0 {
		return 0, 0
	}
	if !ascii {
		return letters, max(1, (letters+2)/3)
	}
	if syllables > 1 && strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "le") {
		syllables--
	}
	return letters, max(1, syllables)
}

// clauseBack returns the indexes of the up to n words before token i in the
// same clause, nearest first.
func (a *analysis) clauseBack(i, n int, yield func(k int) bool) {
	for k := i - 1; k >= 0 && k >= i-n; k-- {
		if a.tokens[k+1].brk {
			return
		}
		if !yield(k) {
			return
		}
	}
}

// negatedBy returns the index of the negator that negates token i, or -1.
func (a *analysis) negatedBy(i int) int {
	found := -1
	a.clauseBack(i, 3, func(k int) bool {
		if isNegator(a.tokens[k].s) {
			found = k
			return false
		}
		return true
	})
	return found
}

// firstPersonBefore returns the index of an I/we word before token i in the
// same clause (up to four words back), or -1.
func (a *analysis) firstPersonBefore(i int) int {
	found := -1
	a.clauseBack(i, 4, func(k int) bool {
		if firstPerson()[a.tokens[k].s] {
			found = k
			return false
		}
		return true
	})
	return found
}

// scanLexicon matches the lexicon, longest phrase first, applying negation
// and first-person rules.
func (a *analysis) scanLexicon() {
	t := a.tokens
	for i := 0; i < len(t); {
		n := a.matchAt(i)
		if n == 0 {
			i++
			continue
		}
		i += n
	}
}

func (a *analysis) matchAt(i int) int {
	t := a.tokens
	for _, e := range lex()[t[i].s] {
		j := i + len(e.words)
		if j > len(t) {
			continue
		}
		ok := true
		for k := 1; k < len(e.words); k++ {
			if t[i+k].s != e.words[k] || t[i+k].brk {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		cls := e.class
		start := t[i].start
		neg := -1
		if e.negSet {
			neg = a.negatedBy(i)
		}
		if neg >= 0 {
			cls = e.neg
			start = t[neg].start
		}
		sp := span{start, t[j-1].end}
		if (cls == clHedge || cls == clModal || cls == clUnknown) && neg < 0 && a.descriptive(i, j, cls) ||
			cls == clDismissal && a.dismissalAnswered(i) ||
			cls == clFailure && neg < 0 && j < len(t) && !t[j].brk && testNouns()[t[j].s] ||
			cls == clUnknown && neg < 0 && a.labelledNone(j) {
			a.desc = append(a.desc, sp)
			return len(e.words)
		}
		if cls != clNone {
			a.hits[cls] = append(a.hits[cls], sp)
		}
		if e.fp && cls != clNone {
			fp := a.firstPersonBefore(i)
			elided := neg >= 0 && t[neg].brk // "Not sure it holds."
			if fp >= 0 || elided {
				if fp >= 0 && t[fp].start < sp.start {
					sp.start = t[fp].start
				}
				switch cls {
				case clHedge, clUnknown:
					a.fpu = append(a.fpu, sp)
				case clBooster, clClaim:
					a.fpc = append(a.fpc, sp)
				}
			}
			if cls == clClaim && (fp >= 0 || t[i].sent != t[max(i-1, 0)].sent || i == 0) {
				// "I ran …", "Ran the suite …": a check the agent states.
				a.checks = append(a.checks, sp)
			}
		}
		return len(e.words)
	}
	return 0
}

// auxiliaries introduce a predicate whose polarity a negator flips.
var auxiliaries = lazySet(func() map[string]bool {
	return map[string]bool{
		"is": true, "are": true, "was": true, "were": true, "does": true, "do": true, "did": true,
		"will": true, "can": true, "has": true, "have": true, "should": true,
	}
})

// stopwords are never the subject or predicate of a statement.
var stopwords = lazySet(func() map[string]bool {
	return map[string]bool{
		"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true,
		"it": true, "its": true, "they": true, "there": true, "which": true, "what": true, "who": true,
		"and": true, "or": true, "but": true, "to": true, "of": true, "in": true, "on": true, "for": true,
		"with": true, "as": true, "at": true, "by": true, "from": true, "be": true, "been": true, "so": true,
		"if": true, "then": true, "than": true, "also": true, "only": true, "just": true, "all": true,
		"any": true, "some": true, "each": true, "more": true, "most": true, "very": true, "now": true,
		"here": true, "one": true, "still": true, "really": true, "actually": true, "always": true,
		"not": true, "no": true, "i": true, "we": true, "you": true, "he": true, "she": true, "is": true,
		"are": true, "was": true, "were": true, "does": true, "do": true, "did": true, "will": true,
		"can": true, "has": true, "have": true, "should": true, "would": true, "could": true, "might": true,
		"may": true, "must": true, "why": true, "how": true, "when": true, "where": true, "yes": true,
	}
})

// articles are skipped between an auxiliary and its predicate.
var articles = lazySet(func() map[string]bool {
	return map[string]bool{"a": true, "an": true, "the": true, "any": true, "really": true, "actually": true, "always": true, "still": true, "also": true, "fully": true}
})

// stem strips a plural or third-person s so that "holds" meets "hold".
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

type claimKey struct{ subj, pred string }

// scanContradictions finds a subject asserted with both polarities of the
// same predicate: "the cache is safe" … "the cache is not safe", "the
// migration holds the lock" … "the migration does not hold the lock".
func (a *analysis) scanContradictions() {
	t := a.tokens
	// The statements seen so far, with bit 1 for positive and bit 2 for
	// negative; a text has few, so a slice beats a map.
	type claim struct {
		key  claimKey
		bits uint8
	}
	var seen []claim
	var index map[claimKey]int
	for k := 0; k+2 < len(t); k++ {
		subj, w := t[k].s, t[k+1].s
		if t[k+1].brk || len(subj) < 3 || len(w) < 2 || !(auxiliaries()[w] || w[len(w)-1] == 's' || strings.HasSuffix(w, "n't")) {
			continue
		}
		if stopwords()[subj] || firstPerson()[subj] || !isAlpha(subj) {
			continue
		}
		p, neg := k+1, false
		switch {
		case auxiliaries()[w]:
			p++
			if p < len(t) && !t[p].brk && isNegator(t[p].s) {
				neg = true
				p++
			}
		case strings.HasSuffix(w, "n't") && len(w) > 3:
			neg = true
			p++
		case isNegator(w):
			continue
		case len(w) > 3 && strings.HasSuffix(w, "s") && !stopwords()[w] && !strings.HasSuffix(w, "ss"):
			// a third-person verb: "holds", "passes"
		default:
			continue
		}
		for p < len(t) && !t[p].brk && articles()[t[p].s] {
			p++
		}
		if p >= len(t) || t[p].brk || stopwords()[t[p].s] || !isAlpha(t[p].s) {
			continue
		}
		key := claimKey{stem(subj), stem(t[p].s)}
		bit := uint8(1)
		if neg {
			bit = 2
		}
		j := -1
		if index != nil {
			if at, ok := index[key]; ok {
				j = at
			}
		} else {
			for at := range seen {
				if seen[at].key == key {
					j = at
					break
				}
			}
		}
		if j < 0 {
			j = len(seen)
			seen = append(seen, claim{key: key})
			if index != nil {
				index[key] = j
			} else if len(seen) > 32 {
				// A long text: index the statements so the scan stays linear.
				index = make(map[claimKey]int, 2*len(seen))
				for at, c := range seen {
					index[c.key] = at
				}
			}
		}
		prev := seen[j].bits
		seen[j].bits = prev | bit
		if prev != 0 && prev&bit == 0 && prev != 3 {
			a.contra = append(a.contra, span{t[k].start, t[p].end})
		}
	}
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c == '-' || c == '\'') {
			return false
		}
	}
	return true
}

// scanRefs finds evidence references written in the text (code spans
// included): [[wiki pages]], URLs, and file paths with an extension,
// optionally with :line or :from-to.
func (a *analysis) scanRefs() {
	d := a.doc
	for i := 0; i < len(d); i++ {
		switch {
		case d[i] == '[' && strings.HasPrefix(d[i:], "[["):
			if j := strings.Index(d[i:min(len(d), i+200)], "]]"); j > 2 {
				a.refs = append(a.refs, span{int32(i), int32(i + j + 2)})
				i += j + 1
			}
		case d[i] == 'h' && (strings.HasPrefix(d[i:], "https://") || strings.HasPrefix(d[i:], "http://")) && (i == 0 || !isPathByte(d[i-1])):
			j := i
			for j < len(d) && d[j] > ' ' && d[j] != ')' && d[j] != '`' && d[j] != '"' {
				j++
			}
			a.refs = append(a.refs, span{int32(i), int32(j)})
			i = j
		case isPathByte(d[i]) && (i == 0 || !isPathByte(d[i-1])):
			j := i
			for j < len(d) && isPathByte(d[j]) {
				j++
			}
			// A sentence's full stop after a path is not part of it.
			if p := strings.TrimRight(d[i:j], "."); isPath(p) {
				end := i + len(p)
				if end < len(d) && d[end] == ':' && end+1 < len(d) && d[end+1] >= '0' && d[end+1] <= '9' {
					end++
					for end < len(d) && (d[end] >= '0' && d[end] <= '9' || d[end] == '-') {
						end++
					}
				}
				a.refs = append(a.refs, span{int32(i), int32(end)})
			}
			i = j - 1
		}
	}
}

func isPathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/'
}

// isPath accepts "dir/file.ext" and "file.ext" with a 1–5 letter extension
// whose name part has a letter; "e.g", "0.8" and "v1.2" are not paths.
func isPath(s string) bool {
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || dot == len(s)-1 || len(s)-dot-1 > 5 {
		return false
	}
	ext := s[dot+1:]
	for i := 0; i < len(ext); i++ {
		if !(ext[i] >= 'a' && ext[i] <= 'z') {
			return false
		}
	}
	name := s[:dot]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	hasLetter := false
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			hasLetter = true
		}
	}
	if !hasLetter || len(name) < 2 && !strings.Contains(s, "/") {
		return false
	}
	return strings.Contains(s, "/") || knownExt()[ext]
}

// knownExt are the extensions a bare file name must have to count as a
// reference (so that "e.g" or "i.e" never do).
var knownExt = lazySet(func() map[string]bool {
	return map[string]bool{
		"go": true, "md": true, "json": true, "jsonl": true, "yaml": true, "yml": true, "toml": true,
		"sql": true, "py": true, "ts": true, "js": true, "rs": true, "java": true, "txt": true, "log": true,
		"sh": true, "proto": true, "html": true, "css": true, "c": true, "h": true, "rb": true, "kt": true,
		"csv": true, "mod": true, "sum": true, "cfg": true, "ini": true, "tf": true,
	}
})
