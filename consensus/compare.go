package consensus

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// TopicThreshold is the score from which a topic is taken to ask the same
// question as a record's topic (see TopicScore).
const TopicThreshold = 0.6

// nearWeight is how much a word near in meaning to one of the other
// topic counts against a shared word.
const nearWeight = 0.75

// genericWeight is how much a generic word ("policy", "use") counts
// against a specific one.
const genericWeight = 0.3

// TopicScore tells, from 0 to 1, how surely two topics ask the same
// question. Both are reduced to their content words (stemmed, synonyms
// folded, numbers written as words read as numbers, stop words and
// question words dropped), so word order, question form and rewording
// within the curated synonyms do not matter. Generic words ("policy",
// "approach") weigh little. A near-miss, where each topic has a specific
// word the other lacks in the same place ("hero image format" and
// "thumbnail image format", "/search" and "/orders" endpoints) or two
// options of one choice, scores below TopicThreshold.
//
// a is the question asked and b the record's topic: a question that adds a
// specific word ("idempotency key rotation" against "idempotency key
// design") asks something narrower and scores lower than one that leaves
// a word out. An acronym one topic spells out in the other ("DLQ" and
// "dead letter queue") reads as its words.
func TopicScore(a, b string) float64 {
	qa, qb, _ := spelledTopics(questionText(a), questionText(b))
	return topicScore(analyze(qa), analyze(qb))
}

func topicScore(a, b *analysis) float64 {
	lx := theLexicon()
	wa, wb := askLimit(topicWords(a), b), topicWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	sa, sb := set(wa), set(wb)
	weight := func(w string) float64 {
		if lx.generic[w] {
			return genericWeight
		}
		return 1
	}
	var common, total float64
	for w := range sa {
		total += weight(w)
		if sb[w] {
			common += 2 * weight(w)
		}
	}
	for w := range sb {
		total += weight(w)
	}
	onlyA, onlyB := specificOnly(wa, sb), specificOnly(wb, sa)
	// A word near in meaning to one the other topic has (looseGroups:
	// "connection" and "pool") counts for most of a shared one.
	hasNear := func(w string) bool { return len(lx.loose[w]) > 0 }
	// So does another word of its family that the stemmer leaves apart
	// (kin: "eligible" and "eligibility", "drivers" and "who may drive"),
	// but for the words a topic keeps as they are (production is no
	// product).
	family := func(x, y string) bool {
		return (kin(x, y) || kin(y, x)) && !lx.topicKeeps(x) && !lx.topicKeeps(y)
	}
	for _, x := range slices.Sorted(maps.Keys(onlyA)) {
		for _, y := range slices.Sorted(maps.Keys(onlyB)) {
			if hasNear(x) && lx.near(x, y) || family(x, y) {
				common += 2 * nearWeight
				delete(onlyA, x)
				delete(onlyB, y)
				break
			}
		}
	}
	score := common / total
	if topicClash(a, b) {
		// "Minimum rider height" against "Maximum rider height", "daily
		// rest" against "weekly rest": the same words, not the same
		// question.
		score *= clashFactor
	}
	if qualifierMiss(wa, wb, sa, sb, onlyA, onlyB) {
		// "Warranty for new devices" against "Warranty for refurbished
		// devices".
		score *= 0.5
	}
	switch {
	case len(onlyA) > 0 && len(onlyB) > 0:
		score *= 0.85
		if nearMiss(wa, wb, onlyA, onlyB) {
			score *= 0.6
		}
	case len(onlyA) > 0:
		// The question names something specific the record's topic does
		// not: a narrower question ("key rotation" under "key design").
		score *= 0.8
	}
	return score
}

// ticketRE matches a ticket reference at the start or the end of a
// question ("A11Y-77:", "[HR-88]", "LIB-42 ", "(OPS-9)"): capitals (digits
// after the first), a dash and digits, set off by brackets, a colon or a
// dash, or by a space when the number has two digits or more.
var ticketRE = sync.OnceValue(func() *regexp.Regexp {
	const id = ticketPattern
	return regexp.MustCompile(`^\s*(?:[\[(]` + id + `[\])]\s*[:—–-]?|` + id + `\s*(?:[:—–]|\s-\s)|` + ticketPattern2 + `\s)` +
		`|[\[(]` + id + `[\])]\s*$`)
})

// ticketPattern is a ticket reference in a regular expression: two
// capitals or more (digits after the first), a dash and digits;
// ticketPattern2, one whose number has two digits or more.
const (
	ticketPattern  = `[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*-[0-9]+`
	ticketPattern2 = `[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*-[0-9]{2,}`
)

// notTickets are the names that look like a ticket reference but name
// what a question is about: algorithms, standards, versions.
var notTickets = []string{"AES", "SHA", "RSA", "ISO", "RFC", "UTF", "HTTP", "TLS", "SSL", "CVE", "IPV", "EC", "MD", "GPT", "IEEE", "PCI", "SOC"}

// questionText is a topic without the ticket references that name no part
// of the question asked ("A11Y-77: min contrast for text?").
func questionText(topic string) string {
	re := ticketRE()
	for range 2 {
		loc := re.FindStringIndex(topic)
		if loc == nil {
			break
		}
		ref := strings.TrimLeft(topic[loc[0]:loc[1]], " \t[(")
		name, _, _ := strings.Cut(ref, "-")
		if slices.Contains(notTickets, name) {
			break
		}
		rest := topic[:loc[0]] + " " + topic[loc[1]:]
		if strings.TrimSpace(rest) == "" {
			break
		}
		topic = rest
	}
	return topic
}

// topicWords are the words of a topic, a bound read as the limit it
// sets: "maximum upload size" asks what "upload size limit" asks, an
// "e" joined to the word after it ("e-book", "ebook"), and each word as
// a topic reads it (topicFold: "auto" is "automatic", "attendance" is
// "attend").
func topicWords(a *analysis) []string {
	lx := theLexicon()
	ws := placeWords(a)
	out := ws[:0]
	for i := 0; i < len(ws); i++ {
		w := lx.topicFold(ws[i])
		switch {
		case w == "atmost" || w == "atleast" || w == "oldest":
			w = "limit"
		case w == "e" && i+1 < len(ws) && !strings.HasPrefix(ws[i+1], "#"):
			// "e-book" is "ebook", "e-mail" "email".
			w += ws[i+1]
			i++
		}
		out = append(out, w)
	}
	return out
}

// placeWords are a topic's words with each ordinal read as the place it
// names, whether or not the analysis counts with it, in words or in
// figures: "sixth form", "the sixth form" and "6th form" are "#6th
// form". A place is no count: the third shift is not three shifts, the
// fourth quarter not four quarters. ("first" and "second" order or
// measure as often as they count: "shut first", "a second".) The lookup
// index stores a record's topic in these words.
func placeWords(a *analysis) []string {
	ws := a.words()
	for i, w := range ws {
		o := ordinalOf(w)
		if o == 0 && strings.HasPrefix(w, "#") && i < len(a.terms) && a.terms[i].text != "" {
			o = ordinalOf(strings.ToLower(a.terms[i].text))
		}
		if o >= 3 {
			ws[i] = "#" + strconv.FormatFloat(o, 'g', -1, 64) + "th"
		}
	}
	return ws
}

// boundsClash reports whether one topic asks for a lower limit and the
// other for an upper one only ("minimum" and "maximum", "earliest" and
// "latest"), or is about what lies above a number and the other about
// what lies below ("jumpers aged 18 and over", "jumpers under 18").
func boundsClash(a, b *analysis) bool {
	lx := theLexicon()
	above, below := lx.fold(stem("above")), lx.fold(stem("below"))
	bounds := func(x *analysis) (least, most bool) {
		for _, t := range x.terms {
			least = least || t.w == "atleast" || t.w == "oldest" || t.w == above // "earliest" too
			most = most || t.w == "atmost" || t.w == "latest" || t.w == below
		}
		return least, most
	}
	la, ma := bounds(a)
	lb, mb := bounds(b)
	return la && !ma && mb && !lb || ma && !la && lb && !mb
}

// clashFactor scales the score of two topics that clash (topicClash).
const clashFactor = 0.5

// topicClash reports whether two topics that share their words still
// ask different questions, read from their full analyses: a lower limit
// against an upper one (boundsClash), one period against another
// ("daily rest" and "weekly rest"), or a word against its antonym
// ("closing time" and "opening time").
func topicClash(a, b *analysis) bool {
	return boundsClash(a, b) || periodClash(a, b) || antonymClash(a, b) || antonymClash(b, a) || prefixClash(a, b) || prefixClash(b, a)
}

// prefixClash: a word a negates by its own prefix and puts right before
// another ("non-controlled medicines", "unaccompanied minors") b says
// plainly right before the same word ("controlled medicines",
// "accompanied minors"): another kind of the same thing. A word negated
// by "no", "not", "without" or "missing", or one said of no word after it
// ("non-cultivation of plots"), may ask the same question, as
// antonymClash says.
func prefixClash(a, b *analysis) bool {
	for i, t := range a.terms[:max(0, len(a.terms)-1)] {
		next := a.terms[i+1]
		if !t.prefixed || next.neg || next.at != t.to+1 {
			continue
		}
		if slices.ContainsFunc(a.terms, func(u term) bool { return u.w == t.w && !u.neg }) {
			continue // "urgent and non-urgent repairs" names both kinds
		}
		for j, u := range b.terms[:max(0, len(b.terms)-1)] {
			// A topic as the index keeps it (wordsOnly) says nothing of
			// negation, nor where its words stand.
			if u.w == t.w && u.at > 0 && !u.neg && b.terms[j+1].w == next.w && b.terms[j+1].at == u.to+1 {
				return true
			}
		}
	}
	return false
}

// periodClash: both topics recur, at no period in common.
func periodClash(a, b *analysis) bool {
	periods := func(x *analysis) []float64 {
		var out []float64
		for _, q := range x.qty {
			if q.every && q.dim == "time" && recurring()[q.value] {
				out = append(out, q.value)
			}
		}
		return out
	}
	pa, pb := periods(a), periods(b)
	return len(pa) > 0 && len(pb) > 0 && !slices.ContainsFunc(pa, func(v float64) bool { return slices.Contains(pb, v) })
}

// antonymClash: a word a says by its antonym ("closing" for not
// "open") b says plainly, and never so.
func antonymClash(a, b *analysis) bool {
	lx := theLexicon()
	for _, t := range a.terms {
		if !t.neg {
			continue
		}
		if _, antonym := lx.negVerb[stem(strings.ToLower(t.text))]; !antonym {
			// Not an antonym: a negation said apart ("no reads", "missing
			// reads") or a prefix ("non-cultivation") may ask the same
			// question.
			continue
		}
		if saidPlainly(b, t.w) {
			return true
		}
	}
	return false
}

// saidPlainly reports whether x says w, and never negated.
func saidPlainly(x *analysis, w string) bool {
	plain, negated := false, false
	for _, u := range x.terms {
		if u.w == w {
			plain, negated = plain || !u.neg, negated || u.neg
		}
	}
	return plain && !negated
}

// recurring are the periods, in seconds, that a period word names
// ("hourly", "daily", "weekly", "monthly", "yearly", "fortnightly").
var recurring = sync.OnceValue(func() map[float64]bool {
	m := map[float64]bool{}
	for _, u := range periodWords() {
		m[units()[u].scale] = true
	}
	return m
})

// askLimit reads "how many" in question words ws as "limit" when the
// record's topic r names a limit: "How many GPUs may a team use?" asks
// what "GPU quota per team" answers, while "How many approvals does a PR
// need?" asks no limit of "Code review approvals".
func askLimit(ws []string, r *analysis) []string {
	lx := theLexicon()
	if !slices.Contains(topicWords(r), "limit") {
		return ws
	}
	for i, w := range ws {
		if w == lx.quantity {
			ws[i] = "limit"
		}
	}
	return ws
}

// without2 is the set m less the words of other.
func without2(m, other map[string]bool) map[string]bool {
	for w := range other {
		delete(m, w)
	}
	return m
}

// coverFloor is the TopicScore from which a question is also scored by
// its cover (coverOf); coverCandidates is for how many of the closest
// (each costs an analysis of the record's position).
const (
	coverFloor      = 0.12
	coverCandidates = 3
)

// backedScore is the similarity (contentScore) from which a question's
// position is taken to speak of what a record's final position speaks
// of; then the question is scored by the geometric mean of its cover
// rather than their product. From strongScore the position is taken to
// state the record's rule: a word of the question that the record
// does not name, standing where the record's topic has one the question
// does not name, is then read as a rewording ("barcode symbology",
// "barcode format") unless the question's position names it too (an
// admin workstation asked about, and said, is another object than a
// kiosk terminal).
const (
	backedScore = 0.6
	strongScore = 0.7
)

// questionCover is how far a question and a record speak of the same
// things (coverOf).
type questionCover struct {
	// q is the share of the question topic's specific words the record
	// names anywhere (its topic or its final position), r the share of
	// the record topic's specific words the question names anywhere.
	q, r float64
	// clash: each topic names, in the same place, a specific word the
	// other side never names (or two options of one choice): the marks
	// of a near miss. restated: a word of the question's side of the
	// clash is in the question's position too.
	clash, restated bool
	// foreign: each side names, in its topic and again in its position,
	// a specific word the other never names ("memory" asked and said,
	// "disk" filed and said): they speak of two objects.
	foreign bool
	// numbers is the share of the record's final position's numbers
	// (at least minNumbers of them) that the question's position says
	// too: a rule's numbers are its fingerprint.
	numbers float64
	// reworded: the question's position is not an edit of the record's
	// final position (set by the caller, which has both texts, when
	// foreign). known: each side's own words (foreign) include a word the
	// lexicon has a meaning for ("memory", "disk"): two things it tells
	// apart, not one named twice.
	reworded, known bool
}

// minNumbers is how many numbers a record's final position must have for
// them to be its fingerprint (one number, "2 minutes", fits many rules).
const minNumbers = 2

// coverOf tells how far a question and its position (q, qp) and a
// record's topic and its final position (r, rf) speak of the same
// things. "What format do commit messages follow?" names
// "format", which "Commit message convention" does not but its position
// does. A word one side has and the other's position names is no sign
// of another object ("tenant" asked, "per tenant" in the record).
func coverOf(q, qp, r, rf *analysis) questionCover {
	wq, wr := askLimit(topicWords(q), r), topicWords(r)
	sq, sr := set(wq), set(wr)
	wqp, wrp := topicWords(qp), append(topicWords(rf), wr...)
	onlyQ, onlyR := without2(specificOnly(wq, sr), set(wrp)), without2(specificOnly(wr, sq), set(wqp))
	lx := theLexicon()
	if sched := lx.fold(stem("schedule")); onlyQ[sched] && slices.ContainsFunc(rf.qty, func(x quantity) bool { return x.every || x.per == "time" }) {
		// "How often do kids' wheelchairs get reassessed?" asks what a
		// rule that says every how long answers.
		delete(onlyQ, sched)
	}
	// A word near in meaning to one the other has ("schedule" and
	// "interval") names no other object.
	for _, x := range slices.Sorted(maps.Keys(onlyQ)) {
		for _, y := range slices.Sorted(maps.Keys(onlyR)) {
			if lx.near(x, y) {
				delete(onlyQ, x)
				delete(onlyR, y)
				break
			}
		}
	}
	var c questionCover
	if qualifierMiss(wq, wr, sq, sr, onlyQ, onlyR) {
		c.clash, c.restated = true, true
	}
	if len(onlyQ) > 0 && len(onlyR) > 0 && nearMiss(wq, wr, onlyQ, onlyR) {
		c.clash = true
		inQP := set(wqp)
		for w := range onlyQ {
			// A number said again ("one order", "one coupon") names no
			// object; a word said again in another form of it ("weight",
			// "weighs") does.
			c.restated = c.restated || !strings.HasPrefix(w, "#") &&
				(inQP[w] || slices.ContainsFunc(wqp, func(v string) bool { return compound(w, v) }))
		}
	}
	c.q, c.r = coverShare(wq, wr, wrp), coverShare(wr, wq, wqp)
	c.numbers = numberShare(rf, qp)
	ownQ, ownR := ownWords(wq, wqp, append(wr, wrp...)), ownWords(wr, topicWords(rf), append(wq, wqp...))
	c.foreign = len(ownQ) > 0 && len(ownR) > 0
	c.known = slices.ContainsFunc(ownQ, lx.known) && slices.ContainsFunc(ownR, lx.known)
	return c
}

// ownWords are the specific words of a topic that its position says
// again and the other side never names (none near in meaning): the
// object one side speaks of throughout.
func ownWords(topic, position, other []string) []string {
	lx := theLexicon()
	said, seen := set(position), set(other)
	var out []string
	for w := range set(topic) {
		if !said[w] || seen[w] || lx.generic[w] || strings.HasPrefix(w, "#") {
			continue
		}
		if !slices.ContainsFunc(other, func(v string) bool { return lx.near(w, v) || compound(w, v) }) {
			out = append(out, w)
		}
	}
	return out
}

// numberShare is the share of the distinct numbers of a that b has, 0
// when a has fewer than minNumbers.
func numberShare(a, b *analysis) float64 {
	var nums []string
	for _, w := range a.words() {
		if strings.HasPrefix(w, "#") && !slices.Contains(nums, w) {
			nums = append(nums, w)
		}
	}
	if len(nums) < minNumbers {
		return 0
	}
	in := set(b.words())
	n := 0
	for _, w := range nums {
		if in[w] {
			n++
		}
	}
	return float64(n) / float64(len(nums))
}

// coverShare is the share of the specific words of ws that the other
// word lists name, as themselves, as a word near in meaning
// (looseGroups), or as the head of a compound ("match" in "matchmaking").
func coverShare(ws []string, in ...[]string) float64 {
	lx := theLexicon()
	all := map[string]bool{}
	for _, x := range in {
		for _, w := range x {
			all[w] = true
		}
	}
	// Words that have near meanings or can head a compound: few, so that
	// the check stays cheap.
	var nearby, heads []string
	for w := range all {
		if len(lx.loose[w]) > 0 {
			nearby = append(nearby, w)
		}
		if len(w) >= compoundHead-1 && !strings.HasPrefix(w, "#") {
			heads = append(heads, w)
		}
	}
	n, of := 0, 0
	for w := range set(ws) {
		if lx.generic[w] || strings.HasPrefix(w, "#") {
			continue
		}
		of++
		if all[w] || slices.ContainsFunc(nearby, func(v string) bool { return lx.near(w, v) }) ||
			slices.ContainsFunc(heads, func(v string) bool { return compound(w, v) }) {
			n++
		}
	}
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// compoundHead is the length from which a word can head a compound.
const compoundHead = 5

// compound reports whether one of two words is the other with more
// letters after it ("match" and "matchmak"; "pay" is too short to head
// "payday"), or with an "e" after it ("leav" and "leave"): a compound of
// it, or a form the stemmer left apart.
func compound(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(b) > len(a) && strings.HasPrefix(b, a) && (len(a) >= compoundHead || b == a+"e")
}

// positionScore is the score a question earns from its cover and from
// its position's similarity ps to the record's final position (0 when
// the record binds none): the product of the cover's shares; their
// geometric mean when the positions say much the same (backedScore);
// and when they state the same rule (strongScore), the record topic's
// share (or the share of its numbers the question's position says) with
// the similarity in place of the question's share, since a question in
// other words says more or other words than a topic ("How long do we keep
// old chat messages around?"). A clash scores nothing, unless the
// position states the record's rule and does not name the question's own
// object; two sides that each name their own object throughout (foreign)
// score nothing, unless the position restates the record's rule in words
// of its own (restatesRule).
func positionScore(c questionCover, ps float64) float64 {
	if c.foreign && !c.restatesRule(ps) || c.clash && (c.restated || ps < strongScore) || c.q == 0 || c.r == 0 {
		// A question that names nothing of the record's topic, or whose
		// topic the record does not speak of (a topic of stop words), is
		// not found by its position alone.
		return 0
	}
	sc := c.q * c.r
	if ps >= backedScore {
		sc = math.Sqrt(c.q * c.r)
	}
	if ps >= strongScore {
		sc = max(sc, math.Sqrt(max(c.r, c.numbers)*max(c.q, ps)))
	}
	return sc
}

// restatesRule reports whether a question whose side and the record's
// each name a word of their own throughout (foreign) is still the
// record's question: its position states the record's rule (strongScore),
// every number of it, in other words than the filed sentence, and the
// lexicon knows no meaning of the words that would tell two objects
// apart ("Linkspan hinge lubrication frequency" asked of "ferry ramp hinge
// greasing interval"). A position that keeps the filed sentence and puts
// its own object in it ("Depot service vans must go through the wash …"
// for "Buses must …") is the same rule for another object.
func (c questionCover) restatesRule(ps float64) bool {
	return c.reworded && !c.known && ps >= strongScore && c.numbers == 1
}

// specificOnly are the non-generic words of ws missing from other.
func specificOnly(ws []string, other map[string]bool) map[string]bool {
	lx := theLexicon()
	out := map[string]bool{}
	for _, w := range ws {
		if !other[w] && !lx.generic[w] {
			out[w] = true
		}
	}
	return out
}

// qualifierWords are generic words that still tell one object from
// another when they stand where the other topic has a specific word ("new
// devices", "refurbished devices"; "default page size", "maximum page
// size"). Written before stemming.
const qualifierWords = `new current existing default`

var qualifiers = sync.OnceValue(func() map[string]bool {
	lx := theLexicon()
	m := map[string]bool{}
	for _, w := range strings.Fields(qualifierWords) {
		m[lx.fold(stem(w))] = true
	}
	return m
})

// qualifierMiss reports whether a qualifier one topic has and the other
// lacks stands where the other has a specific word of its own (onlyA,
// onlyB): a near miss that generic words would hide.
func qualifierMiss(wa, wb []string, sa, sb, onlyA, onlyB map[string]bool) bool {
	q := qualifiers()
	only := func(ws []string, other map[string]bool) map[string]bool {
		out := map[string]bool{}
		for _, w := range ws {
			if q[w] && !other[w] {
				out[w] = true
			}
		}
		return out
	}
	if qa := only(wa, sb); len(qa) > 0 && len(onlyB) > 0 && nearMiss(wa, wb, qa, onlyB) {
		return true
	}
	qb := only(wb, sa)
	return len(qb) > 0 && len(onlyA) > 0 && nearMiss(wa, wb, onlyA, qb)
}

// nearMiss reports whether a word only a has and a word only b has stand
// in the same place (the same neighbour before or after them) or are two
// options of one choice: the topics ask about different objects.
func nearMiss(wa, wb []string, onlyA, onlyB map[string]bool) bool {
	lx := theLexicon()
	for x := range onlyA {
		for y := range onlyB {
			if g := lx.altGroup[x]; g != 0 && g == lx.altGroup[y] {
				return true
			}
		}
	}
	ctx := func(ws []string, only map[string]bool) map[string]bool {
		out := map[string]bool{}
		for i, w := range ws {
			// A word that relates things ("before", "after") names no
			// other object.
			if !only[w] || lx.directed[w] || lx.relational[w] {
				continue
			}
			if i > 0 && !only[ws[i-1]] {
				out["<"+ws[i-1]] = true
			}
			if i+1 < len(ws) && !only[ws[i+1]] {
				out[">"+ws[i+1]] = true
			}
			if i == len(ws)-1 {
				out[">$"] = true
			}
		}
		return out
	}
	ca, cb := ctx(wa, onlyA), ctx(wb, onlyB)
	for k := range ca {
		if cb[k] {
			return true
		}
	}
	return false
}

func set(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// Agreement is how a position compares with a filed one.
type Agreement string

// The answers of ComparePositions.
const (
	Agree    Agreement = "consistent"
	Disagree Agreement = "conflict"
	Unsure   Agreement = "unclear"
)

// Comparison is what ComparePositions found.
type Comparison struct {
	Agreement Agreement `json:"agreement"`
	// Score is how much of the two positions' content is shared, 0 to 1.
	Score float64 `json:"score"`
	// Differences say what changed from the filed position to the new one,
	// one short phrase each ("5 minutes → 10 minutes", "webp → avif",
	// "condition dropped: unless the error is permanent").
	Differences []string `json:"differences,omitempty"`
}

// consistentScore is the similarity from which two positions with no
// difference that changes the rule are taken to say the same thing.
const consistentScore = 0.42

// ComparePositions compares a position with a filed one by what carries
// their meaning: the numbers with their units, negation, the options of a
// choice, and the conditions and exceptions, then the content words.
// Another number or unit, a negated rule, the other option of a choice, a
// dropped or added condition or exception, or one word swapped for another
// in an otherwise identical sentence is a conflict. No such difference and
// enough shared content is consistent. Anything else (a number given on
// one side only, little shared content) is unclear: a model or a person
// has to decide.
func ComparePositions(filed, position string) Comparison {
	return ComparePositionsOn("", filed, position)
}

// ComparePositionsOn is ComparePositions for a position asked about the
// record of recordTopic (its question was matched to that record): an
// edit that names the record's object in other words ("profile pictures"
// for the "avatar uploads" of "Avatar upload size limit") is no change of
// the rule.
func ComparePositionsOn(recordTopic, filed, position string) Comparison {
	if filed == position {
		return Comparison{Agreement: Agree, Score: 1}
	}
	c, read := comparePositionsAs(recordTopic, filed, position, analyze)
	if c.Agreement != Agree && (read[0].subjectBound || read[1].subjectBound) {
		// "No fee above 50 dollars may be charged" says both "fees above
		// 50 dollars are not charged" and "fees charged are at most 50
		// dollars": a position that agrees with either reading agrees.
		if d, read := comparePositionsAs(recordTopic, filed, position, analyzeAsLimit); d.Agreement == Agree && !boundsTurned(read[0], read[1]) {
			return d
		}
	}
	if c.Agreement != Agree {
		// An acronym one side spells out in the other's words reads as
		// those words: "before they sign the TOB" says "before the client
		// signs the terms of business" (spellOutRule).
		p2 := spellOutRule(position, filed)
		if f2 := spellOutRule(filed, p2); p2 != position || f2 != filed {
			if d, _ := comparePositionsAs(recordTopic, f2, p2, analyze); d.Agreement == Agree {
				return d
			}
		}
	}
	return c
}

// comparePositionsAs is ComparePositionsOn with the two texts read by
// read (analyze, or analyzeAsLimit); it returns the two texts as read,
// before either is read against the other.
func comparePositionsAs(recordTopic, filed, position string, read func(string) *analysis) (c Comparison, sides [2]*analysis) {
	filed, position = cronWords(ruleText(filed)), cronWords(ruleText(position))
	a := read(filed)
	var rt *analysis // the record's topic, read once
	if recordTopic != "" {
		rt = analyze(recordTopic)
	}
	position = dropReport(dropLabel(position, a, rt), a, rt)
	b := read(position)
	sides = [2]*analysis{a, b}
	a, b = optionalBoth(a, b, filed, position)
	if c := asException(a, b); c != nil {
		a = c
	}
	if c := asException(b, a); c != nil {
		b = c
	}
	a2, b2 := onlyIfBoth(a, b)
	sa, sb := newSide(filed, b.only), newSide(position, a.only)
	al := alignTokens(sa.text, sb.text, sa.toks, sb.toks)
	if a2 != a || b2 != b {
		// "not paid unless" read as "paid only when": the words that say
		// it differ where the rule does not, so no edit of the filed
		// sentence is read from them.
		a, b = a2, b2
		al.edit, al.changes, al.swaps, al.another, al.rephrased, al.rephrasedSwaps = false, nil, nil, nil, nil, nil
	}
	if recordTopic != "" {
		al.changes = withoutObjectRenamed(al.changes, al.swaps, al.another, recordTopic)
		al.rephrased = withoutObjectRenamed(al.rephrased, al.rephrasedSwaps, nil, recordTopic)
	}
	// What carries meaning whatever the wording: a name of a choice
	// changed, counting per thing turned into counting across all.
	strong := compareNames(sa, sb)
	strong = append(strong, compareCounting(sa.text, sb.text, sa.toks, sb.toks)...)
	strong = append(strong, compareOnlyAny(sa, sb)...)
	// A condition set aside, a rule made a recommendation, two things
	// trading what is said of them: they change the rule when the two
	// positions speak of the same things.
	al.hard = append(compareDisregard(a, b, filed, position), compareStrength(filed, position)...)
	al.hard = append(al.hard, compareRemoval(a, position)...)
	al.hard = append(al.hard, compareSwitch(a, position)...)
	al.hard = append(al.hard, compareBasis(a, b, filed, position)...)
	al.hard = append(al.hard, compareDays(filed, position)...)
	kt := &kindTexts{filed: filed, position: position} // their words read once for the readings of kinds
	al.hard = append(al.hard, compareWidened(kt)...)
	if len(al.hard) == 0 {
		// A kind the filed rule names, dropped beside an aside that
		// covers every kind ("all subscribers, whatever country").
		al.hard = append(al.hard, compareScopeAside(kt)...)
	}
	if len(al.hard) == 0 {
		// A kind joined to the rule's ("student or staff card"), unless
		// a reading above named the change already.
		al.hard = append(al.hard, compareKindJoined(kt)...)
	}
	al.hard = append(al.hard, compareListSplit(kt)...)
	al.hard = append(al.hard, compareListWidened(kt)...)
	al.hard = append(al.hard, compareNotOnly(kt)...)
	al.hard = append(al.hard, compareButNot(kt)...)
	al.hard = append(al.hard, compareAnyOther(kt)...)
	al.hard = append(al.hard, compareOutOfScope(kt)...)
	al.hard = append(al.hard, compareSameCase(filed, position)...)
	if !al.edit {
		al.hard = append(al.hard, compareOnlyOr(sa, sb)...) // an edit names the thing added itself
		al.hard = append(al.hard, compareOnlyNarrowed(sa, sb)...)
		al.hard = append(al.hard, compareOnlyWhen(a, b, sa, sb)...)
		al.hard = append(al.hard, compareButOnly(sa, sb)...)
	}
	al.hard = append(al.hard, compareScopeOpened(sa, sb)...)
	if len(al.exchanges) == 0 {
		al.hard = append(al.hard, compareBindings(sa, sb)...)
	}
	if !al.edit {
		al.hard = append(al.hard, compareSlots(sa, sb)...) // an edit names the slot's words itself
	}
	if rt != nil {
		al.topic = set(rt.words())
		for _, q := range rt.qty {
			al.topic[qtyKey(q)] = true // "nightly" of "Batch size for the nightly sync"
		}
	}
	return comparePositions(a, b, al, strong), sides
}

// onlyIfBoth reads the side that says "not … unless" as "only if" when
// the other says "only if" (or "only when") and no "unless": "a claim is
// paid only when the receipt is attached" is "a claim is not paid
// unless it is". Each side is left as written otherwise, as an
// exception that leaves some out ("no dogs upstairs except assistance
// dogs") is read on both sides alike.
func onlyIfBoth(a, b *analysis) (*analysis, *analysis) {
	onlyIf := func(x *analysis) bool {
		return x.only && slices.ContainsFunc(x.conds, func(c condition) bool { return c.kind == "if" && c.clause == x.onlyAt }) &&
			!slices.ContainsFunc(x.conds, func(c condition) bool { return c.kind == "unless" })
	}
	switch {
	case onlyIf(a) && !b.only:
		if c := asOnlyIf(b); c != nil {
			return a, c
		}
	case onlyIf(b) && !a.only:
		if c := asOnlyIf(a); c != nil {
			return c, b
		}
	}
	return a, b
}

// preambles are the labels a position may open with that say nothing of
// the rule: "Bottom line:", "TL;DR", "Reminder:". Lower case; each is
// read only when a colon, a comma or a dash follows it (or, for tl;dr
// and fyi, a space).
var preambles = []string{"bottom line", "tl;dr", "tldr", "tl dr", "in short", "short answer", "long story short", "in a nutshell", "in summary",
	"summary", "to summarise", "to summarize", "to sum up", "to be clear", "for the record", "reminder", "remember", "note", "key rule", "main rule", "fyi", "update", "decision",
	"answer", "the answer", "agreed", "rule", "the rule", "our rule", "rule of thumb", "heads up", "just to confirm", "to confirm",
	"quick reminder", "friendly reminder", "just a reminder", "a reminder", "please note", "kindly note", "so", "basically", "ok", "okay", "yes", "yep", "yup", "yeah", "correct", "right"}

// leadTicketRE matches a ticket reference that opens a position
// ("HR-88:", "[OPS-12]", "LIC-3 -"), as ticketRE reads one in a question.
var leadTicketRE = sync.OnceValue(func() *regexp.Regexp {
	const id = ticketPattern
	return regexp.MustCompile(`^(?:[\[(]` + id + `[\])]\s*[:—–-]?|` + id + `\s*(?:[:—–]|\s-\s|\s*->)|` + ticketPattern2 + `\s)`)
})

// ruleText is a position without what opens it and names no part of the
// rule: a ticket reference ("HR-88:", "[OPS-12]") and a label ("Bottom
// line:", "tl;dr"). The text is returned unchanged when nothing else
// would be left.
func ruleText(text string) string {
	for range 3 {
		t := trimMarkers(text)
		if loc := leadTicketRE().FindStringIndex(t); loc != nil {
			name, _, _ := strings.Cut(strings.TrimLeft(t[:loc[1]], " \t[("), "-")
			if !slices.Contains(notTickets, name) {
				t = trimMarkers(t[loc[1]:])
			}
		}
		low := strings.ToLower(t[:min(len(t), 40)])
		for _, p := range preambles {
			if !strings.HasPrefix(low, p) || len(t) <= len(p) {
				continue
			}
			next := t[len(p)]
			if next == ':' || next == ',' || next == '-' || next == '.' || next == '!' || (next == ' ' && (p == "tl;dr" || p == "tldr" || p == "fyi" || p == "yep" || p == "yup")) {
				t = t[len(p)+1:]
				break
			}
			// "Summary for leadership:", "Update from ops:": a label of a
			// few more words, ended by a colon.
			if k := labelEnd(low, len(p), maxLabelWords); next == ' ' && k > len(p) {
				t = t[k+1:]
				break
			}
		}
		if strings.TrimSpace(t) == "" || t == text {
			break
		}
		text = t
	}
	return text
}

// trimMarkers drops the spaces and list markers ("-", "*", "•", ">") that
// open text, but not the minus sign of a number ("-16 LUFS").
func trimMarkers(text string) string {
	for text != "" {
		r, n := utf8.DecodeRuneInString(text)
		if !(strings.IndexByte(" \t\n-*>", text[0]) >= 0 || r == '•' || r == '\ufe0f' || r > 0x2000 && unicode.Is(unicode.So, r)) {
			break // "📌", "☐", "✅": a mark, no word
		}
		if text[0] == '-' && len(text) > 1 && isDigit(text[1]) {
			break
		}
		text = text[n:]
	}
	return text
}

// cronRE matches a five-field cron schedule whose day of month and month
// are any: "30 3 * * *", "0 7 * * 2", "*/15 * * * *".
var cronRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(^|[\s"':=(\x60])(?:(?:cron|crontab|schedule)\s*[:=]\s*["'\x60]?)?([0-9]{1,2}|\*/[0-9]{1,2}|\*) ([0-9]{1,2}|\*/[0-9]{1,2}|\*) \* \* ([0-7]|[0-7]-[0-7]|\*|mon|tue|wed|thu|fri|sat|sun)["'\x60]?($|[\s"';,)\x60])`)
})

// cronDays are the days of the week as cron numbers them.
var cronDays = sync.OnceValue(func() map[string]string {
	return map[string]string{"0": "Sunday", "1": "Monday", "2": "Tuesday", "3": "Wednesday", "4": "Thursday", "5": "Friday", "6": "Saturday", "7": "Sunday",
		"sun": "Sunday", "mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday", "fri": "Friday", "sat": "Saturday"}
})

// cronWords writes a cron schedule in a position as the words it means,
// without the key that labels it: "30 3 * * *" is "every day at 03:30",
// `cron: "0 7 * * 2"` "every Tuesday at 07:00", "*/15 * * * *" "every
// 15 minutes". Other schedules are left as they are.
func cronWords(text string) string {
	if !strings.Contains(text, "* *") {
		return text
	}
	return cronRE().ReplaceAllStringFunc(text, func(m string) string {
		sm := cronRE().FindStringSubmatch(m)
		pre, min, hour, dow, post := sm[1], sm[2], sm[3], strings.ToLower(sm[4]), sm[5]
		var when string
		switch {
		case strings.HasPrefix(min, "*/") && hour == "*" && dow == "*":
			when = "every " + min[2:] + " minutes"
		case isNumber(min) && strings.HasPrefix(hour, "*/") && dow == "*":
			when = "every " + hour[2:] + " hours"
		case isNumber(min) && hour == "*" && dow == "*":
			when = "every hour"
		case isNumber(min) && isNumber(hour):
			at := fmt.Sprintf("at %02s:%02s", hour, min)
			switch {
			case dow == "*":
				when = "every day " + at
			case cronDays()[dow] != "":
				when = "every " + cronDays()[dow] + " " + at
			case dow == "1-5":
				when = "Monday to Friday " + at
			default:
				return m
			}
		default:
			return m
		}
		return pre + when + post
	})
}

// keysOf are the folded words of ts.
func keysOf(ts []surfaceTok) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.key
	}
	return out
}

func comparePositions(a, b *analysis, al alignment, strong []string) Comparison {
	c := Comparison{Score: round2(contentScore(a, b))}
	var hard, weak []string
	h, dropped, added := compareQuantities(a, b, al.topic)
	// A number changed in its own unit ("25 minutes → half an hour")
	// says the rule changed whatever else the wording changed.
	strong = append(strong, sameDimension(a, b, h)...)
	w := append(dropped, added...)
	switch {
	case len(h) == 0 && c.Score >= sameSentenceScore:
		// Sentences otherwise the same: a number said on one side only
		// ("at twice the last peak" → "at the last peak") is an edit of
		// the rule, not a rewording.
		h, w = w, nil
	case len(dropped) > 0 && len(b.qty) > 0 && c.Score >= editScore:
		// A number of the filed rule left out by a position that keeps
		// its others ("above 85% for 10 minutes" → "above 85%"): the rule
		// loosened. A number only added stays unsure.
		h, w = append(h, dropped...), added
	default:
		// A number only a rewording says is detail the filed rule
		// does not speak to ("a warning at the 4:00 mark", "ROUTE-77")
		// unless the filed rule states a measure of its kind: "runs
		// nightly" beside "keys expire after 90 days" may set what the
		// filed rule sets.
		w = dropped
		if al.edit {
			w = append(w, added...) // "Retry failed jobs 3 times."
		} else {
			w = append(w, measured(added, a, b)...)
		}
	}
	hard, weak = append(hard, h...), append(weak, w...)
	hard = append(hard, ownRuleTraded(a, b)...)
	hard = append(hard, compareOptions(a, b, al.edit)...)
	// A word negated on one side only and a condition said on one side
	// only are found in rewordings too: a negation said by a word of its
	// own ("exempt", "zero grace", "false") or a condition folded into
	// the rule. Alone, between positions that share little, they leave
	// the rule unsure rather than changed (see softOnly).
	negs, conds := compareNegation(a, b), compareConditions(a, b, al.topic)
	hard = append(hard, negs...)
	hard = append(hard, conds...)
	var soft []string
	if a.only == b.only && widened(a) == widened(b) {
		// "only when a slow query shows the need", "use Zoom for every
		// call", "always the light theme": a condition added with "only"
		// or dropped for "every" or "always" on one side changed the
		// rule's reach; otherwise it may be said in other words.
		soft = append(soft, conds...)
	}
	if !verbTurned(a, b) && !verbTurned(b, a) && !withoutTurned(b, a) && !barDone(a, b) {
		// "never delete" against "delete" turned the rule, and so did
		// "without an escort" against "only with a trained escort", and
		// "flies on the same plane" against "never travel on the same
		// flight"; a noun said under a negation of another word ("no
		// binding -1", "except the BI warehouse", "unless the vault owner
		// rejects") may only have moved.
		soft = append(soft, negs...)
	}
	hard = append(hard, compareMeans(a, b)...)
	aside := compareInstead(a, b)
	hard = append(hard, aside...)
	if al.edit {
		hard = append(hard, compareConditionParts(a, b)...)
	}
	hard = append(hard, compareEvenCovered(a, b)...)
	hard = append(hard, al.hard...)
	hard = append(hard, al.exchanges...)
	if al.edit {
		// Ordinary words swapped count only in an edit of the filed
		// sentence; a rewording swaps them freely.
		hard = append(hard, compareSwaps(a, b, c.Score, al.topic)...)
	}
	hard = append(hard, anchorsUnlessEdit(a, b, al.edit)...)
	hard = append(hard, compareDirections(a, b)...)
	hard = append(hard, compareScope(a, b)...)
	hard = append(hard, compareUntilBefore(a, b)...)
	hard = append(hard, compareJoined(a, b)...)
	hard = append(hard, comparePartial(a, b)...)
	hard = append(hard, compareFree(a, b)...)
	hard = append(hard, compareModality(a, b)...)
	hard = append(hard, compareInclusion(a, b)...)
	hard = append(hard, compareCrossed(a, b)...)
	if len(hard) == 0 {
		hard = append(hard, compareItems(a, b, al.edit, al.topic)...)
	}
	if len(hard) == 0 {
		hard = append(hard, compareClauses(a, b, al.topic)...)
	}
	if len(hard) == 0 {
		// An edit of the filed sentence: whatever else it changed
		// changes the rule.
		hard = append(hard, al.changes...)
	}
	if len(hard) == 0 {
		// A long phrase of the filed sentence put another way, or
		// another thing put in its place: parley cannot tell which.
		weak = append(weak, al.rephrased...)
	}
	hard = append(strong, hard...)
	switch {
	case len(strong) > 0:
		c.Agreement, c.Differences = Disagree, dedupe(append(hard, weak...))
	case len(hard) > 0 && c.Score < unrelatedScore && !sharesQuantity(a, b):
		// So little in common that the differences found may be about
		// different things: parley cannot tell.
		c.Agreement, c.Differences = Unsure, append(hard, weak...)
	case len(hard) > 0 && len(weak) == 0 && !al.edit && c.Score < softScore && softOnly(hard, soft) && len(aside) == 0 && !wordsOf(b, a) && !allWordsOf(a, b) && !allWordsOf(b, a):
		// Only a negation or a condition said on one side, between two
		// positions worded apart: as often a rewording as a change. An
		// option one side sets aside that the other states ("pinned by
		// tag rather than digest" against "pinned by digest") changes
		// the rule in so many words.
		c.Agreement, c.Differences = Unsure, append(hard, weak...)
	case len(hard) > 0:
		c.Agreement, c.Differences = Disagree, append(hard, weak...)
	case len(weak) > 0:
		c.Agreement, c.Differences = Unsure, weak
	case c.Score >= consistentScore && (a.truncated || b.truncated):
		// Only the start of a long position was compared: what follows
		// may change the rule.
		c.Agreement = Unsure
		c.Differences = []string{fmt.Sprintf("too long to compare beyond the first %d bytes", maxAnalyzed)}
	case c.Score >= consistentScore || c.Score >= unrelatedScore && allQuantitiesSaid(a, b) || c.Score >= 0.33 && oneQuantitySaid(a, b):
		// Enough in common, or every number of the filed rule (two or
		// more) said again in other words with nothing changed.
		c.Agreement = Agree
	default:
		c.Agreement = Unsure
		c.Differences = []string{fmt.Sprintf("little in common (%.2f)", c.Score)}
	}
	return c
}

// sameDimension picks, from the changed numbers h of compareQuantities,
// the ones where both sides give a unit of the same dimension.
func sameDimension(a, b *analysis, h []string) []string {
	var out []string
	for _, d := range h {
		from, to, _ := strings.Cut(d, " → ")
		x, okA := quantityByText(a, from)
		y, okB := quantityByText(b, to)
		if okA && okB && x.dim != "" && x.dim == y.dim {
			out = append(out, d)
		}
	}
	return out
}

func quantityByText(x *analysis, text string) (quantity, bool) {
	for _, q := range x.qty {
		if q.text == text {
			return q, true
		}
	}
	return quantity{}, false
}

// allQuantitiesSaid reports whether a states two numbers or more and b
// says each of them again.
func allQuantitiesSaid(a, b *analysis) bool {
	n := 0
	for _, x := range a.qty {
		if bareOne(x) || enumerated(x, a.qty, b.qty) {
			continue
		}
		if !slices.ContainsFunc(b.qty, func(y quantity) bool { return sameQuantity(x, y) }) {
			return false
		}
		n++
	}
	return n >= 2
}

// oneQuantitySaid reports whether a states one number with its unit (or
// of two digits or more) and b says it again, with nothing else numbered.
func oneQuantitySaid(a, b *analysis) bool {
	var qs []quantity
	for _, x := range a.qty {
		if !bareOne(x) {
			qs = append(qs, x)
		}
	}
	if len(qs) != 1 || qs[0].dim == "" && qs[0].raw < 10 {
		return false
	}
	return slices.ContainsFunc(b.qty, func(y quantity) bool { return sameQuantity(qs[0], y) })
}

// sharesQuantity reports whether a number of a is said on b's side too:
// the two speak of the same thing, whatever their words.
func sharesQuantity(a, b *analysis) bool {
	for _, x := range a.qty {
		if !bareOne(x) && slices.ContainsFunc(b.qty, func(y quantity) bool { return sameQuantity(x, y) }) {
			return true
		}
	}
	return false
}

// dedupe drops repeated differences (up to case: a name and the option
// it is, "WebP → AVIF"), keeping the first.
func dedupe(ds []string) []string {
	var out []string
	for _, d := range ds {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, d) }) {
			out = append(out, d)
		}
	}
	return out
}

// softScore is the similarity below which a difference in negation or
// in conditions alone (softOnly) leaves two positions unsure: worded so
// far apart, a rewording turns them as often as a change does (on the
// sealed sets 10 to 15, before this rule, 34 of the 57 conflicts answered
// by such a difference alone below this score were agreeing rewordings).
const softScore = 0.75

// widened reports whether x opens its rule to every case: "all", "every",
// "any", "always".
func widened(x *analysis) bool {
	always := alwaysWord()
	return x.all || x.any || slices.ContainsFunc(x.terms, func(t term) bool { return t.w == always })
}

var alwaysWord = sync.OnceValue(func() string { return theLexicon().fold(stem("always")) })

// verbTurned reports whether x negates a word with "not" or "never" ("must
// never delete") that y says only as asserted ("delete documents on
// hold"): a rule that forbids what the other allows.
func verbTurned(x, y *analysis) bool {
	for _, t := range x.terms {
		if !t.neg || !t.verbal || t.reason {
			continue
		}
		if saidPlainly(y, t.w) {
			return true
		}
	}
	return false
}

// applyWord is "apply" as the lexicon folds it: "does not apply to" sets
// a case aside.
var applyWord = sync.OnceValue(func() string { return theLexicon().fold(stem("apply")) })

// barDone reports whether the filed rule a bars a thing with "not" or
// "never" that the position b says plainly as done, in the words of the
// object after the barred verb rather than the verb itself: "couriers
// never travel on the same flight as the object" against "flies with the
// object on the same plane". Read from the filed side only: a position's
// "do not turn up and you pay in full" is a case, not a bar.
func barDone(a, b *analysis) bool {
	for i, t := range a.terms {
		if t.neg && t.verbal && !t.reason && objectTurned(a, b, i) {
			return true
		}
	}
	return false
}

// objectTurned reports whether y says plainly the object of the verb x
// negates at i: the two words that stand right after it in its clause.
func objectTurned(x, y *analysis, i int) bool {
	lx := theLexicon()
	t := x.terms[i]
	if t.lifted || t.cond >= 0 || t.w == applyWord() {
		return false // "does not apply to online quizzes" sets a case aside, no action
	}
	// Each use of the object on y's side stands in a clause with no
	// negation of its own: "pupils are never driven in a personal car"
	// keeps the bar on "must not use personal cars".
	var negIn map[int]bool
	n := 0
	for j := i + 1; j < len(x.terms) && j <= i+2; j++ {
		u := x.terms[j]
		if u.clause != t.clause || u.cond >= 0 || lx.action[u.w] || lx.light[u.w] || lx.generic[u.w] || strings.HasPrefix(u.w, "#") || timeNames()[u.w] || u.afterAux {
			break
		}
		if !saidPlainly(y, u.w) {
			return false
		}
		if negIn == nil {
			negIn = map[int]bool{}
			for _, v := range y.terms {
				negIn[v.clause] = negIn[v.clause] || v.neg
			}
		}
		if slices.ContainsFunc(y.terms, func(v term) bool { return v.w == u.w && negIn[v.clause] }) {
			return false
		}
		n++
	}
	return n == 2
}

// withoutTurned reports whether the position y does "without" what the
// filed rule x asks for, said there only as asserted: "let clinicians
// book into the gap without going through the manager" against "only the
// clinic manager may book into that gap". A "without" of the filed rule
// itself ("without being flagged overdue") is often said again the
// other way round ("before the overdue flag") and stays unsure.
func withoutTurned(y, x *analysis) bool {
	lx := theLexicon()
	for i, t := range y.terms {
		if !t.neg || !t.afterWithout || t.reason || t.cond >= 0 {
			continue
		}
		if saidPlainly(x, t.w) {
			return true
		}
		// "without asking for approval": the verb after "without" with
		// what it asks for, which "needs approval from HR" names.
		if t.without && (lx.action[t.w] || lx.light[t.w] || t.w == askWord()) && i+1 < len(y.terms) {
			if u := y.terms[i+1]; u.clause == t.clause && u.cond < 0 && !lx.light[u.w] && !lx.generic[u.w] && !strings.HasPrefix(u.w, "#") && saidPlainly(x, u.w) {
				return true
			}
		}
	}
	return false
}

// wordsOf reports whether b says little but words of a: at least four
// in five of its content words are a's ("Never commit lockfiles" of
// "Commit lockfiles for applications, but not for libraries"), an edit of
// a rather than a rewording.
func wordsOf(b, a *analysis) bool {
	wb, wa := b.words(), set(a.words())
	in := 0
	for _, w := range wb {
		if wa[w] {
			in++
		}
	}
	return len(wb) > 0 && 5*in >= 4*len(wb)
}

// allWordsOf reports whether b says every content word of a, three or
// more: the whole of a, with a condition or a negation b adds ("borrow a
// laptop for 7 days" and "…, provided the library has signed off their
// induction"), an edit of a rather than a rewording.
func allWordsOf(a, b *analysis) bool {
	wa, wb := a.words(), set(b.words())
	return len(wa) >= 3 && !slices.ContainsFunc(wa, func(w string) bool { return !wb[w] })
}

// softOnly reports whether every difference of hard is one of soft, the
// differences in negation and conditions.
func softOnly(hard, soft []string) bool {
	return len(soft) > 0 && !slices.ContainsFunc(hard, func(d string) bool { return !slices.Contains(soft, d) })
}

// sameSentenceScore is the similarity from which two positions are the
// same sentence edited.
const sameSentenceScore = 0.9

// editScore is the similarity from which a number said on one side only is
// taken as an edit of the rule ("page when disk usage stays above 85% for
// 10 minutes" → "page as soon as disk usage goes above 85%") rather than
// something a rewording left out.
const editScore = 0.6

// compareModality finds a rule made optional on one side only: "load
// tests before major releases are optional" against "run a load test
// before every major release".
func compareModality(a, b *analysis) []string {
	lx := theLexicon()
	optional := func(x *analysis) bool {
		return slices.ContainsFunc(x.terms, func(t term) bool { return t.w == lx.optional && !t.neg })
	}
	switch oa, ob := optional(a), optional(b); {
	case !oa && ob:
		return []string{"required → optional"}
	case oa && !ob:
		return []string{"optional → required"}
	}
	return nil
}

// unrelatedScore is the similarity below which two positions are not taken
// to speak about the same things, so that a difference found between them
// proves nothing.
const unrelatedScore = 0.25

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// contentScore is the weighted Dice overlap of the two texts' content
// words (numbers and negated words included).
func contentScore(a, b *analysis) float64 {
	lx := theLexicon()
	sa, sb := set(a.words()), set(b.words())
	if len(sa) == 0 || len(sb) == 0 {
		return 0
	}
	var common, total float64
	for w := range sa {
		wt := 1.0
		if lx.generic[w] {
			wt = genericWeight
		}
		total += wt
		if sb[w] {
			common += 2 * wt
		}
	}
	for w := range sb {
		if lx.generic[w] {
			total += genericWeight
		} else {
			total++
		}
	}
	return common / total
}

// compareQuantities pairs the numbers of both sides by value and unit.
// Numbers left over on both sides changed the rule ("5 minutes → 10
// minutes"); a number on one side only is dropped or added, a weak
// difference unless comparePositions decides otherwise.
//
// A number of the filed rule that the record's topic states ("nightly" of
// "Batch size of the nightly sync") or that the filed rule says twice in
// two forms, once of them kept ("at most 5 times …; after the fifth
// failure"), is not dropped.
func compareQuantities(a, b *analysis, topic map[string]bool) (hard, dropped, added []string) {
	qa, qb := a.qty, b.qty
	usedB := make([]bool, len(qb))
	var ua []quantity
	for _, x := range qa {
		found := false
		for j, y := range qb {
			if !usedB[j] && sameQuantity(x, y) {
				usedB[j], found = true, true
				if x.wait != 0 && y.wait != 0 && x.wait != y.wait && !negatedAt(a, x.clause) && !negatedAt(b, y.clause) && sameClauseWords(a, x.clause, b, y.clause) {
					// "paid after 30 days" → "paid within 30 days": the
					// same length, the other side of it.
					hard = append(hard, waitText(x)+" → "+waitText(y))
				}
				break
			}
		}
		if !found {
			ua = append(ua, x)
		}
	}
	var ub []quantity
	for j, y := range qb {
		if !usedB[j] && !ordinalSaid(y, a) {
			ub = append(ub, y)
		}
	}
	ua = slices.DeleteFunc(ua, func(x quantity) bool { return ordinalSaid(x, b) || ordinalWordSaid(x, b) })
	ub = slices.DeleteFunc(ub, func(y quantity) bool { return ordinalWordSaid(y, a) || saidBack(y, qa) })
	ua = slices.DeleteFunc(ua, func(x quantity) bool { return saidBack(x, qb) })
	ua, ub = splitSaid(ua, ub, qb, b)
	ub, ua = splitSaid(ub, ua, qa, a)
	// Pair what is left: the same dimension first, then in order.
	pairedB := make([]bool, len(ub))
	var restA []quantity
	for _, x := range ua {
		best := -1
		for j, y := range ub {
			if pairedB[j] {
				continue
			}
			if x.dim == y.dim {
				best = j
				break
			}
			if best < 0 && (x.dim == "" || y.dim == "") && !(bareOne(x) && y.dim == "clock" || bareOne(y) && x.dim == "clock") &&
				!(bareOne(x) && aUnit(y) || bareOne(y) && aUnit(x)) &&
				!(x.every && ordinalText(y) || y.every && ordinalText(x)) {
				// A bare "one" is mostly an article ("in one shift"), never
				// a time of day, nor a unit said with "a" ("one is used on
				// a day with no lesson"); an ordinal ("the 18th") is no period
				// ("monthly") changed.
				// Two measures of different quantities ("2 years",
				// "500 MB") are no value changed into another.
				best = j
			}
		}
		if best < 0 && (money(x.dim) || x.dim == "percent") {
			// Unless an amount changed its currency, or an amount and a
			// share trade places: "€50" → "$50", "a 15 USD fee" → "a 15%
			// fee", "5% of the rent" → "a flat 50 dollars".
			best = slices.IndexFunc(ub, func(y quantity) bool {
				return (money(y.dim) || y.dim == "percent") && (money(x.dim) || money(y.dim)) && (y.raw == x.raw || x.dim != y.dim)
			})
			if best >= 0 && pairedB[best] {
				best = -1
			}
		}
		if best < 0 {
			restA = append(restA, x)
			continue
		}
		pairedB[best] = true
		if sameBound(a, x, b, ub[best]) {
			continue // "more than 2" is "3 or more"
		}
		if weekdaysPerWeek(x, a, ub[best]) || weekdaysPerWeek(ub[best], b, x) {
			continue // "every Tuesday and Friday" is "twice a week, Tuesdays and Fridays"
		}
		if withinBound(a, x, b, ub[best]) {
			// "wind 9 km/h" under "when the wind is below 15 km/h": a
			// case the rule allows, or another rule; parley cannot tell.
			added = append(added, x.text+" → "+ub[best].text)
			continue
		}
		if y := ub[best]; x.rel != y.rel && (over(x) || over(y)) {
			hard = append(hard, relText(x)+" → "+relText(y)) // "plus 25 % → 25 % of"
		} else {
			hard = append(hard, x.text+" → "+y.text)
		}
	}
	for _, x := range restA {
		if r, ok := windowRate(x, qa, qb, a); ok {
			if r.perVal != x.value {
				hard = append(hard, x.text+" → "+r.text) // "14 day → 3 per week"
			}
			continue // "3 nights in any 14-day period" is "3 nights per fortnight"
		}
		// The second one said as nothing is a number dropped all the same
		// ("cars and vans pay £5" → "cars pay £5; vans park free").
		if saidOnce(x, qb) && nothingClauses(b) <= nothingClauses(a) || topic[qtyKey(x)] || periodSaid(x, b) || echoed(x, qa, qb) || enumerated(x, qa, qb) || dailyAt(x, qa, qb) || wordSaid(x, b) || inName(x, b) || gluedName(x, a, b) || restatedAs(x, qb) || weekdaySaid(x, b) {
			continue
		}
		if w := wholeSaid(b, a, x); w != "" {
			hard = append(hard, x.text+" → "+w) // "50 % refund" → "refunded in full"
			continue
		}
		if !bareOne(x) && !x.pair && !(whole(x) && saysWhole(b)) && !now(x) && !ratePeriod(x, qb) {
			if exceptionOwnDropped(a, x, b) {
				// "except in January, when 5 working days is allowed"
				// against "January as well, no slack": the exception named,
				// its own rule left out.
				hard = append(hard, x.text+" → (not said)")
				continue
			}
			dropped = append(dropped, x.text+" → (not said)")
		}
	}
	for j, y := range ub {
		restated := saidOnce(y, qa)
		if r, ok := windowRate(y, qb, qa, b); ok && !pairedB[j] {
			if r.perVal != y.value {
				hard = append(hard, r.text+" → "+y.text) // "3 per fortnight → 7 day"
			}
			continue
		}
		if !pairedB[j] && !restated && !topic[qtyKey(y)] && !periodAdded(y, a) && !bareOne(y) && !y.pair && !(whole(y) && saysWhole(a)) && !now(y) && !ratePeriod(y, qa) && !wordSaid(y, a) && !inName(y, a) && !gluedName(y, b, a) && !restatedAs(y, qa) && !weekdaySaid(y, a) && !(dailyAt(y, qb, qa) && !onDaysNamed(a)) {
			if y.every && y.dim == "" && y.per == "" && y.raw >= 2 && a.all {
				// "after every third deploy" against "after each deploy".
				hard = append(hard, "each → every "+y.text)
				continue
			}
			if w := wholeSaid(a, b, y); w != "" {
				hard = append(hard, w+" → "+y.text) // "refunded in full" → "half your money back"
				continue
			}
			if bounded(b, y) {
				// "only for doses above 5 mL": a threshold the filed rule
				// does not set narrows it.
				hard = append(hard, "(not said) → "+y.text)
				continue
			}
			added = append(added, "(not said) → "+y.text)
		}
	}
	return hard, dropped, added
}

// windowRate finds, for a length of time w said beside a count on its
// side (counts: "3 nights in any 14-day period"), the same count said
// per a period on the other side (rates: "3 nights per fortnight", "3 a
// week"): the window said as the rate's period. The caller compares the
// period with the window.
func windowRate(w quantity, counts, rates []quantity, x *analysis) (quantity, bool) {
	if w.dim != "time" || w.per != "" || w.every || w.wait != 0 {
		return quantity{}, false
	}
	// A window that starts at an event ("in the 14 days after discharge",
	// "in the first 14 days") is said once, not in every such period.
	lx := theLexicon()
	after, following := lx.fold("after"), lx.fold(stem("following"))
	if slices.ContainsFunc(x.terms, func(t term) bool { return t.clause == w.clause && (t.w == after || t.w == following) }) ||
		slices.ContainsFunc(counts, func(c quantity) bool { return c.clause == w.clause && strings.EqualFold(c.text, "first") }) {
		return quantity{}, false
	}
	for _, r := range rates {
		if r.per != "time" || r.perVal <= 0 || r.dim != "" {
			continue // a count per a period, not an amount ("20 % per hour")
		}
		if slices.ContainsFunc(counts, func(c quantity) bool {
			return c.clause == w.clause && c.per == "" && !c.every && c.dim == "" && c.value == r.value
		}) {
			return r, true
		}
	}
	return quantity{}, false
}

// ownRuleTraded finds the number of an exception's own rule in a
// ("within 4 hours, except on weekends, when the limit is 8 hours") that
// b says of the rule while it gives the exception the rule's number ("8
// hours; 4 hours on weekends"): the two traded.
func ownRuleTraded(a, b *analysis) []string {
	var out []string
	for _, x := range a.qty {
		if x.cond < 1 || !a.conds[x.cond].ownRule || x.dim == "" {
			continue
		}
		exc := a.conds[x.cond-1]
		if exc.kind != "unless" || len(exc.terms) == 0 {
			continue
		}
		// The clauses of b that name the exception.
		named := map[int]bool{}
		for c, ws := range wordsByClause(b) {
			if overlapIn(exc.terms, set(ws)) >= 0.5 {
				named[c] = true
			}
		}
		if len(named) == 0 {
			continue
		}
		var there, elsewhere []quantity
		for _, y := range b.qty {
			if y.dim != x.dim {
				continue
			}
			if named[y.clause] {
				there = append(there, y)
			} else {
				elsewhere = append(elsewhere, y)
			}
		}
		if slices.ContainsFunc(there, func(y quantity) bool { return sameQuantity(x, y) }) ||
			!slices.ContainsFunc(elsewhere, func(y quantity) bool { return sameQuantity(x, y) }) {
			continue
		}
		for _, y := range there {
			if slices.ContainsFunc(a.qty, func(r quantity) bool { return r.cond < 0 && sameQuantity(r, y) }) {
				out = append(out, x.text+" ↔ "+y.text)
				break
			}
		}
	}
	return out
}

// saidOnce reports whether q, a number one side states twice, is said
// once among qs, the other side's numbers: "from 07:00 to 19:00 …
// every 20 minutes from 19:00" against "7 am to 7 pm, then every 20
// min", "above 25 EUR …; below that" against "over €25 …, under €25".
// It is no number dropped or added. Only the side that drops it is
// read for a second one said as nothing: the filed side's "never
// lengthen it" beside "org policy MAY reduce the 15 minutes but MUST
// NOT raise it" is the same rule.
func saidOnce(q quantity, qs []quantity) bool {
	return slices.ContainsFunc(qs, func(y quantity) bool { return sameQuantity(q, y) })
}

// nothingClauses counts the clauses of x that hold no number and are
// negated or say "free": "vans park free", "children don't pay".
func nothingClauses(x *analysis) int {
	free := freeWord()
	n := 0
	for c, ws := range wordsByClause(x) {
		if slices.ContainsFunc(x.qty, func(q quantity) bool { return q.clause == c }) {
			continue
		}
		if negatedAt(x, c) || slices.Contains(ws, free) {
			n++
		}
	}
	return n
}

// wordsByClause are the words of each clause of x.
func wordsByClause(x *analysis) map[int][]string {
	out := map[int][]string{}
	for _, t := range x.terms {
		out[t.clause] = append(out[t.clause], t.w)
	}
	return out
}

// negatedAt reports whether the clause c of x holds a negation: "not
// collected within 60 days" is "still not collected after 60 days".
func negatedAt(x *analysis, c int) bool {
	return slices.ContainsFunc(x.terms, func(t term) bool { return t.neg && t.clause == c })
}

// sameClauseWords reports whether the clause ca of a and cb of b say
// much the same words (two thirds of the shorter one's), numbers aside:
// "refunds are paid after 30 days" and "refunds are paid within 30 days",
// not "passwords expire after 90 days" and "passwords must be changed
// within 90 days" (another act).
func sameClauseWords(a *analysis, ca int, b *analysis, cb int) bool {
	after := theLexicon().fold("after")
	words := func(x *analysis, c int) map[string]bool {
		m := map[string]bool{}
		for _, t := range x.terms {
			if t.clause == c && !strings.HasPrefix(t.w, "#") && t.w != after {
				m[t.w] = true
			}
		}
		return m
	}
	wa, wb := words(a, ca), words(b, cb)
	if len(wb) < len(wa) {
		wa, wb = wb, wa
	}
	shared := 0
	for w := range wa {
		if wb[w] {
			shared++
		}
	}
	return shared > 0 && 3*shared >= 2*len(wa)
}

// waitText names a length of time, a time of day or a date with the
// bound it sets ("after 30 days", "within 30 days", "by 7:30 am").
func waitText(q quantity) string {
	switch {
	case q.wait == waitAfter:
		return "after " + q.text
	case q.dim == "clock" || q.dim == "":
		return "by " + q.text
	}
	return "within " + q.text
}

// exceptionOwnDropped reports whether the number x of a stands in an
// exception's own rule (condition.ownRule) whose exception b names again
// without the number: the exception's case kept, its rule gone.
func exceptionOwnDropped(a *analysis, x quantity, b *analysis) bool {
	if x.cond < 1 || !a.conds[x.cond].ownRule {
		return false
	}
	exc := a.conds[x.cond-1]
	if exc.kind != "unless" || len(exc.terms) == 0 {
		return false
	}
	return overlapIn(exc.terms, set(b.words())) >= 0.5
}

// qtyKey is the term analyze makes of q.
func qtyKey(q quantity) string {
	return "#" + strconv.FormatFloat(q.value, 'g', -1, 64) + q.dim + q.days
}

// echoed reports whether the number x of qa is another of qa said again
// ("5 times … the fifth failure", "days 1, 3 and 7 … the third retry")
// that qb keeps.
func echoed(x quantity, qa, qb []quantity) bool {
	for _, o := range qa {
		if o.text == x.text && o.clause == x.clause || o.raw != x.raw || x.raw <= 1 {
			continue
		}
		if slices.ContainsFunc(qb, func(y quantity) bool { return sameQuantity(o, y) }) {
			return true
		}
	}
	return false
}

// enumerated reports whether the count x of qa is the number of the
// values qa lists after it, each of them kept by qb: "3 sizes (320, 768
// and 1600 px)" against "widths 320, 768, 1600 px".
func enumerated(x quantity, qa, qb []quantity) bool {
	if x.dim != "" || x.per != "" || x.raw < 2 || x.raw != math.Trunc(x.raw) {
		return false
	}
	if x.raw >= float64(len(qa)) {
		return false
	}
	k := slices.IndexFunc(qa, func(q quantity) bool { return q.text == x.text && q.clause == x.clause })
	n := int(x.raw)
	if k < 0 || k+1+n > len(qa) {
		return false
	}
	for _, q := range qa[k+1 : k+1+n] {
		if !slices.ContainsFunc(qb, func(y quantity) bool { return sameQuantity(q, y) }) {
			return false
		}
	}
	return true
}

// ordinalNames are the ordinals a count may be said again as.
var ordinalNames = sync.OnceValue(func() map[float64][]string {
	return map[float64][]string{2: {"second", "2nd"}, 3: {"third", "3rd"}, 4: {"fourth", "4th"}, 5: {"fifth", "5th"}}
})

// ordinalSaid reports whether the count q ("fails twice", "3 times") is
// said by x as the ordinal of the time it happens ("after the second
// failed payment", "the 3rd retry").
func ordinalSaid(q quantity, x *analysis) bool {
	if q.dim != "" || q.per != "" || ordinalOf(strings.ToLower(q.text)) > 0 {
		return false // an ordinal itself: "the fifth business day"
	}
	names := ordinalNames()[q.value]
	return len(names) > 0 && slices.ContainsFunc(x.terms, func(t term) bool {
		return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(t.text, n) })
	})
}

// ordinalWordSaid reports whether q, an ordinal read as the count it
// makes ("the first reprint" counts one), is the ordinal x says without
// counting it: "your first replacement", "1st replacement", "for first
// time". Either side names the same one of them, unless a count is said
// beside the ordinal ("your first two requests").
func ordinalWordSaid(q quantity, x *analysis) bool {
	if q.dim != "" || q.per != "" {
		return false
	}
	low := strings.ToLower(q.text)
	if low != "first" && ordinalOf(low) == 0 {
		return false
	}
	for k, t := range x.terms {
		if strings.HasPrefix(t.w, "#") {
			continue
		}
		l := strings.ToLower(t.text)
		if (l != "first" || q.value != 1) && ordinalOf(l) != q.value {
			continue
		}
		// "your first two requests" counts two: the ordinal orders the
		// number said next to it.
		if k+1 < len(x.terms) && x.terms[k+1].clause == t.clause && strings.HasPrefix(x.terms[k+1].w, "#") {
			continue
		}
		return true
	}
	return false
}

// aUnit reports whether q is one of a unit said without a number of its
// own ("on a day with no lesson", "monthly", "the day of"): as a bare
// "one" mostly is an article, the two are no value changed ("one is used
// on a day"). "Day one" against "the first week", or "one further year"
// against "1 year", stay a length each.
func aUnit(q quantity) bool {
	if q.dim == "" || q.dim == "clock" || q.raw > 1 || strings.ContainsAny(q.text, "0123456789") {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(q.text)) {
		if w == "one" || w == "first" || w == "single" || w == "once" {
			return false
		}
	}
	return true
}

// splitSaid takes out of xs each rate or share that the other side (ys,
// of y) says in two pieces, each read apart: "4 hours per week" as "four
// booked hours a week", "5 day passes per calendar month" as "up to five
// in any calendar month", "3 out of every 4" as "three market days in
// every four". The count is the rate's own number, its period said
// beside it (a rate of the same period among all, the other side's
// numbers, says it too: "one fast day each week … fed on the other six");
// the pieces are dropped from ys with it.
func splitSaid(xs, ys, all []quantity, y *analysis) ([]quantity, []quantity) {
	bare := func(q quantity) bool { return q.dim == "" && q.per == "" && !q.back }
	gone := make([]bool, len(ys))
	xs = slices.DeleteFunc(xs, func(x quantity) bool {
		switch {
		case x.per == "time" && x.raw > 1 && x.raw == math.Trunc(x.raw) && x.dim != "clock":
			n := slices.IndexFunc(ys, func(q quantity) bool { return bare(q) && !q.every && q.raw == x.raw })
			if n < 0 || gone[n] {
				return false
			}
			p := slices.IndexFunc(ys, func(q quantity) bool {
				return q.dim == "time" && q.per == "" && q.raw <= 1 && math.Abs(q.value-x.perVal) <= calendarTolerance*x.perVal
			})
			if p < 0 && !unitNamed(x.perVal, y) && !slices.ContainsFunc(all, func(q quantity) bool { return q.per == "time" && q.perVal == x.perVal }) {
				return false
			}
			gone[n] = true
			if p >= 0 {
				gone[p] = true // "a week": the rate's period
			}
			return true
		case x.dim == "" && x.per == "" && x.value > 0 && x.value < 1 && strings.Contains(x.text, " out of "):
			for i, c := range ys {
				for j, w := range ys {
					if i != j && !gone[i] && !gone[j] && bare(c) && !c.every && w.dim == "" && w.per == "" && w.raw > c.raw && math.Abs(c.raw/w.raw-x.value) < 1e-9 {
						gone[i], gone[j] = true, true
						return true
					}
				}
			}
		}
		return false
	})
	var rest []quantity
	for i, q := range ys {
		if !gone[i] {
			rest = append(rest, q)
		}
	}
	return xs, rest
}

// unitNamed reports whether x names, without a number, the unit of time
// of the length v: "in any calendar month" for a month.
func unitNamed(v float64, x *analysis) bool {
	lx := theLexicon()
	for w, u := range units() {
		if u.dim == "time" && u.scale == v {
			f := lx.fold(stem(w))
			if slices.ContainsFunc(x.terms, func(t term) bool { return t.w == f && !t.neg }) {
				return true
			}
		}
	}
	return false
}

// saidBack reports whether q names again, as "the five" does, a number
// of things the other side states (qs): "5 loaves … none of the five"
// against "5 loaves … no single loaf". It is no number of its own to pair
// with another.
func saidBack(q quantity, qs []quantity) bool {
	return q.back && slices.ContainsFunc(qs, func(o quantity) bool { return sameQuantity(o, q) })
}

// periodSaid reports whether q, one of a unit of time said without a
// number ("monthly", "nightly", "every hour", "the day before"), is
// said by x as the unit itself: "the forecast for the month", "your
// normal day rate", "{:every :hour}", "day before". The one is the
// unit's, left implied on both sides.
func periodSaid(q quantity, x *analysis) bool { return periodNamed(q, x, true) }

// periodAdded reports whether q, one of a unit of time that only one
// side says ("in a day", "carry over monthly", "if you miss a week"), is
// said by x as the unit itself, once and not as a kind of days: "on a
// given day", "month to month", "a missed week". The plural names some
// days of the unit, not the unit: "every day" against "12 minutes on
// competition days" widens the rule to all days.
func periodAdded(q quantity, x *analysis) bool { return periodNamed(q, x, false) }

// periodNamed is periodSaid, read with or without the unit's plural.
func periodNamed(q quantity, x *analysis, plural bool) bool {
	if q.dim != "time" || q.raw > 1 || strings.ContainsAny(q.text, "0123456789") || strings.Contains(strings.ToLower(q.text), "one") {
		return false
	}
	lx := theLexicon()
	for w, u := range units() {
		if u.dim != "time" || u.scale != q.value {
			continue
		}
		names := []string{w}
		if w == "day" {
			names = append(names, "night") // "nightly", "the night before"
		}
		for _, n := range names {
			f := lx.fold(stem(n))
			if slices.ContainsFunc(x.terms, func(t term) bool {
				return t.w == f && !t.neg && (plural || !strings.HasSuffix(strings.ToLower(t.text), "s"))
			}) {
				return true
			}
		}
	}
	return false
}

// restatedAs reports whether the number q, said on one side only, says
// again what the numbers qs of the other side state in another form: a
// length of time given in seconds without a unit ("max-age=31536000" and
// "one year"), or a count a day that the times of day given make ("at
// 06:00 and 18:00" and "twice a day").
func restatedAs(q quantity, qs []quantity) bool {
	seconds := func(bare, length quantity) bool {
		return bare.dim == "" && bare.per == "" && bare.raw >= 60 && length.dim == "time" && length.per == "" && math.Abs(bare.raw-length.value) <= calendarTolerance*bare.raw
	}
	for _, o := range qs {
		if seconds(q, o) || seconds(o, q) {
			return true
		}
	}
	if q.dim == "" && q.per == "time" && q.perVal == units()["day"].scale && q.value >= 2 {
		n := 0
		for _, o := range qs {
			if o.dim == "clock" {
				n++
			}
		}
		return float64(n) == q.value
	}
	return false
}

// inName reports whether the number q is said by x inside a name written
// in one word: the 256 of "SHA-256" in "sha256".
func inName(q quantity, x *analysis) bool {
	if !digits(q.text) || len(q.text) < 2 {
		return false
	}
	return slices.ContainsFunc(x.terms, func(t term) bool {
		return !strings.HasPrefix(t.w, "#") && hasLetter(t.text) && strings.Contains(t.text, q.text)
	})
}

// gluedName reports whether the number q that a says after a word
// ("Level 2", "zone 3") is said by x glued to that word, as a key writes
// it ("freeBagsLevel2", "max_kmh_zone3"): the same name.
func gluedName(q quantity, a, x *analysis) bool {
	if !digits(q.text) {
		return false
	}
	for i, t := range a.terms {
		if t.text != q.text || t.clause != q.clause || !strings.HasPrefix(t.w, "#") {
			continue
		}
		if i == 0 || a.terms[i-1].clause != t.clause || !hasLetter(a.terms[i-1].text) {
			continue
		}
		name := a.terms[i-1].text + q.text
		if slices.ContainsFunc(x.terms, func(u term) bool { return strings.EqualFold(u.text, name) }) {
			return true
		}
	}
	return false
}

// wordSaid reports whether the number q, written as a word, is a word
// that x says without reading it as a number: "the second child" against
// "a second child".
func wordSaid(q quantity, x *analysis) bool {
	if digits(q.text) || strings.Contains(q.text, " ") {
		return false
	}
	return slices.ContainsFunc(x.terms, func(t term) bool { return !strings.HasPrefix(t.w, "#") && strings.EqualFold(t.text, q.text) })
}

// weekdaySaid reports whether q is the week of "every Tuesday" and x
// names the day without it ("on Tuesdays", "Tuesday, 7:30 to 9 pm"): a
// rule's day of the week recurs however it is said. Every other week
// ("every other Tuesday") is a period of its own.
func weekdaySaid(q quantity, x *analysis) bool {
	if !q.every || q.dim != "time" || q.value != units()["week"].scale {
		return false
	}
	f := strings.Fields(strings.ToLower(q.text))
	if len(f) == 0 || !weekdays()[strings.TrimSuffix(f[len(f)-1], "s")] {
		return false
	}
	day := theLexicon().fold(stem(strings.TrimSuffix(f[len(f)-1], "s")))
	return slices.ContainsFunc(x.terms, func(t term) bool { return t.w == day && !t.neg })
}

// weekdaysPerWeek reports whether q, "every Tuesday" read as weekly,
// names with the other weekdays of its clause in x as many days as y
// counts per week: "every Tuesday and Friday" is "twice a week".
func weekdaysPerWeek(q quantity, x *analysis, y quantity) bool {
	week := units()["week"].scale
	if !q.every || q.dim != "time" || q.value != week || y.dim != "" || y.per != "time" || y.perVal != week || y.value < 2 {
		return false
	}
	f := strings.Fields(strings.ToLower(q.text))
	if len(f) == 0 || !weekdays()[strings.TrimSuffix(f[len(f)-1], "s")] {
		return false
	}
	lx := theLexicon()
	days := map[string]bool{}
	for d := range weekdays() {
		days[lx.fold(stem(d))] = true
	}
	named := map[string]bool{}
	for _, t := range x.terms {
		if t.clause == q.clause && days[t.w] && !t.neg {
			named[t.w] = true
		}
	}
	return float64(len(named)) == y.value
}

// dailyAt reports whether x is "daily" or "nightly" said by qa with a
// time of day that qb keeps: "nightly at 02:00" against "at 02:00", and
// the other way round, a schedule's "every day at 22:00" ("0 22 * * *")
// against "between 22:00 and 06:00": a rule said at a time of day, with
// no day named, holds every day.
func dailyAt(x quantity, qa, qb []quantity) bool {
	if x.dim != "time" || x.value != units()["day"].scale || x.raw != 0 {
		return false
	}
	return slices.ContainsFunc(qa, func(q quantity) bool {
		return q.dim == "clock" && slices.ContainsFunc(qb, func(y quantity) bool { return sameQuantity(q, y) })
	})
}

// onDaysNamed reports whether x names the days its rule holds on ("on
// Fridays", "at weekends", "on competition days", "in December"): a time
// of day said on those days is not said every day.
func onDaysNamed(x *analysis) bool {
	return slices.ContainsFunc(x.terms, func(t term) bool { return dayNamingKeys()[t.w] })
}

// dayNamingKeys are the folded stems of the words that name the days a
// rule holds on (onDaysNamed).
var dayNamingKeys = sync.OnceValue(func() map[string]bool {
	lx := theLexicon()
	out := map[string]bool{}
	for _, w := range strings.Fields("day days night nights weekday weekdays weekend weekends working business school holiday holidays") {
		out[lx.fold(stem(w))] = true
	}
	for w := range weekdays() {
		out[lx.fold(stem(w))] = true
	}
	for w := range monthWords() {
		if w != "may" && w != "march" {
			out[lx.fold(stem(w))] = true // not the verbs
		}
	}
	return out
})

// ratePeriod reports whether q is a period said by a word alone
// ("annual") that a rate of qs counts by ("50,000 EUR in annual value"
// against "an annual value of EUR 50,000").
func ratePeriod(q quantity, qs []quantity) bool {
	return q.raw == 0 && q.dim == "time" && q.per == "" &&
		slices.ContainsFunc(qs, func(x quantity) bool { return x.per == "time" && x.perVal == q.value })
}

// sameBound reports whether two whole counts with their bounds say the
// same: "more than 6" and "at least 7", "under 3" and "at most 2".
func sameBound(a *analysis, x quantity, b *analysis, y quantity) bool {
	if x.dim != "" || y.dim != "" || x.per != "" || y.per != "" || x.value != math.Trunc(x.value) || y.value != math.Trunc(y.value) {
		return false
	}
	bx, by := boundOf(a, x), boundOf(b, y)
	lx := theLexicon()
	above, below, least, most := lx.fold(stem("above")), lx.fold(stem("below")), lx.fold("atleast"), lx.fold("atmost")
	switch {
	case bx == above && by == least || bx == most && by == below:
		return y.value == x.value+1
	case bx == least && by == above || bx == below && by == most:
		return y.value == x.value-1
	}
	return false
}

// boundsTurned reports whether a and b bound the same amount from two
// sides: "files of at most 10 MB" and "files above 10 MB". The limit
// reading ("files larger than 10 MB are not accepted" is "accepted up to
// 10 MB") agrees only where its bounds are not turned against the other
// side's.
func boundsTurned(a, b *analysis) bool {
	lx := theLexicon()
	side := func(w string) int {
		switch w {
		case lx.fold("atmost"), lx.fold(stem("below")):
			return 1
		case lx.fold("atleast"), lx.fold(stem("above")):
			return 2
		}
		return 0
	}
	sides := func(x *analysis) map[quantity]int {
		m := map[quantity]int{}
		for _, q := range x.qty {
			m[quantity{value: q.value, dim: q.dim, per: q.per}] |= side(boundOf(x, q))
		}
		return m
	}
	sa, sb := sides(a), sides(b)
	for k, s := range sa {
		if t := sb[k]; s != 0 && t != 0 && s|t == 3 && s != 3 && t != 3 {
			return true
		}
	}
	return false
}

// boundOf is the bound x sets q with, before it ("more than 2") or after
// it ("3 or more"), or "".
func boundOf(x *analysis, q quantity) string {
	lx := theLexicon()
	isBound := func(w string) bool {
		for _, b := range [...]string{"above", "below", "atleast", "atmost"} {
			if w == lx.fold(stem(b)) {
				return true
			}
		}
		return false
	}
	for i, t := range x.terms {
		if t.text != q.text || t.clause != q.clause || !strings.HasPrefix(t.w, "#") {
			continue
		}
		if i > 0 && x.terms[i-1].clause == t.clause && !x.terms[i-1].neg && isBound(x.terms[i-1].w) {
			return x.terms[i-1].w
		}
		if i+1 < len(x.terms) && x.terms[i+1].clause == t.clause && !x.terms[i+1].neg && isBound(x.terms[i+1].w) {
			return x.terms[i+1].w
		}
		return ""
	}
	return ""
}

// bounded reports whether x sets q as a bound: "above 5 mL", "at most
// 3", "under 2 kg".
func bounded(x *analysis, q quantity) bool {
	lx := theLexicon()
	for i, t := range x.terms {
		if t.text != q.text || t.clause != q.clause || !strings.HasPrefix(t.w, "#") || i == 0 {
			continue
		}
		p := x.terms[i-1]
		if p.clause != t.clause || p.neg {
			return false
		}
		for _, w := range [...]string{"above", "below", "atleast", "atmost"} {
			if p.w == lx.fold(stem(w)) {
				return true
			}
		}
		return false
	}
	return false
}

// now is "immediately" (after no time), said on one side only: "evict it
// at once" adds nothing to "evict it on update".
func now(q quantity) bool { return q.dim == "time" && q.value == 0 && q.per == "" }

// whole is 100%: what "every" or "all" says without a number.
func whole(q quantity) bool { return q.dim == "percent" && q.value == 100 }

// saysWhole reports whether x says a whole share in words: "all",
// "every", "each", or "full", "entire", "whole" ("a full refund" is a
// 100% refund).
func saysWhole(x *analysis) bool {
	return x.all || wholeWordSaid(x) != ""
}

// wholeSaid is how x says a whole share in a word ("full", "entire",
// "whole") where the other side, which says none, has a share q of less
// than all ("50%", "half") that x does not have: "" when it does not.
// "refunded in full" and "half your money back" are two refunds.
func wholeSaid(x, other *analysis, q quantity) string {
	share := q.dim == "percent" && q.value > 0 && q.value < 100 || q.dim == "" && q.per == "" && !q.every && q.value > 0 && q.value < 1
	if !share || slices.ContainsFunc(x.qty, func(r quantity) bool { return sameQuantity(q, r) }) {
		return ""
	}
	if wholeWordSaid(other) != "" {
		return ""
	}
	return wholeWordSaid(x)
}

// comparePartial finds a whole said in a word on one side ("refunded in
// full") and "partial" on the other ("a partial refund"), neither under
// a negation ("partial payments are not accepted" asks for the whole).
func comparePartial(a, b *analysis) []string {
	partial := func(x *analysis) string {
		for _, t := range x.terms {
			if t.w != partialWord() || t.neg || slices.ContainsFunc(x.terms, func(u term) bool { return u.neg && u.clause == t.clause }) {
				continue
			}
			return t.text
		}
		return ""
	}
	whole := func(x *analysis) string { return wholeWordSaid(x) }
	// Each side's subject ("Partial matches are flagged", "Full matches
	// are approved"): two kinds of a thing, each with a rule of its own.
	opens := func(x *analysis, w string) bool { return len(x.terms) > 0 && x.terms[0].w == w }
	if (opens(a, partialWord()) || opens(b, partialWord())) && slices.ContainsFunc(wholeWords(), func(w string) bool { return opens(a, w) || opens(b, w) }) {
		return nil
	}
	switch pa, pb, wa, wb := partial(a), partial(b), whole(a), whole(b); {
	case wa != "" && pb != "" && pa == "" && wb == "":
		return []string{wa + " → " + pb}
	case wb != "" && pa != "" && pb == "" && wa == "":
		return []string{pa + " → " + wb}
	}
	return nil
}

// ordinalText reports whether q is said as an ordinal ("the 25th", "25th
// each month", "the fifth").
func ordinalText(q quantity) bool {
	first, _, _ := strings.Cut(strings.ToLower(q.text), " ")
	return ordinalOf(first) > 0
}

// compareFree finds a thing one side gives free ("Orders over $50 ship
// free") that the other prices, with an amount the first never names ("for
// a flat $5 fee"), and says free nowhere itself.
func compareFree(a, b *analysis) []string {
	free := freeWord()
	says := func(x *analysis) string {
		for i, t := range x.terms {
			if t.w != free || t.neg || i > 0 && x.terms[i-1].to+1 == t.at && freeOfWords()[strings.ToLower(x.terms[i-1].text)] {
				continue // "gluten-free", "hands-free": without it, not at no cost
			}
			return t.text
		}
		return ""
	}
	priced := func(x, y *analysis) string {
		for _, q := range x.qty {
			if money(q.dim) && q.value > 0 && !slices.ContainsFunc(y.qty, func(r quantity) bool { return sameQuantity(q, r) }) &&
				!slices.ContainsFunc(x.terms, func(t term) bool { return t.neg && t.clause == q.clause }) { // not "won't cost a single lira"
				return q.text
			}
		}
		return ""
	}
	switch fa, fb := says(a), says(b); {
	case fa != "" && fb == "":
		if p := priced(b, a); p != "" {
			return []string{fa + " → " + p}
		}
	case fb != "" && fa == "":
		if p := priced(a, b); p != "" {
			return []string{p + " → " + fb}
		}
	}
	return nil
}

// freeOfWords are the words before "free" that it frees of them ("gluten
// free", "smoke free"; analyze reads them so when hyphened).
var freeOfWords = wordSet(`gluten sugar nut nuts dairy lactose alcohol fat latex lead smoke smoking hands error bug risk
		stress scent fragrance dust meat egg soy wheat fur plastic cruelty drug crime paper cash lock toll`)

// freeWord is "free" as the lexicon folds it.
var freeWord = sync.OnceValue(func() string { return theLexicon().fold(stem("free")) })

// partialWord is "partial" (and "partially", "partly") as the lexicon
// folds it.
var partialWord = sync.OnceValue(func() string { return theLexicon().fold(stem("partial")) })

// wholeWordSaid is how x says a whole share in a word ("in full", "the
// whole fee"), not under a negation, "" when it says none: not "full-time"
// or "full stop".
func wholeWordSaid(x *analysis) string {
	tm, stop := timeStopWords()
	for i, t := range x.terms {
		if !slices.Contains(wholeWords(), t.w) || t.neg {
			continue
		}
		if i+1 < len(x.terms) && x.terms[i+1].at == t.to+1 && (x.terms[i+1].w == tm || x.terms[i+1].w == stop || strings.ToLower(x.terms[i+1].text) == "stop") {
			continue // "full-time", "full stop"
		}
		return t.text
	}
	return ""
}

// timeStopWords are "time" and "stop" as the lexicon folds them: what
// "full" names in "full-time" and "full stop".
var timeStopWords = sync.OnceValues(func() (string, string) {
	lx := theLexicon()
	return lx.fold(stem("time")), lx.fold(stem("stop"))
})

// wholeWords are "full", "entire" and "whole" as the lexicon folds them.
var wholeWords = sync.OnceValue(func() []string {
	lx := theLexicon()
	return []string{lx.fold(stem("full")), lx.fold(stem("entire")), lx.fold(stem("whole"))}
})

// gluedMetres reports whether x, "3m" read as minutes (as configuration
// writes durations), is y's length in metres: "over_3m" against "over 3
// metres".
func gluedMetres(x, y quantity) bool {
	return x.dim == "time" && strings.HasSuffix(x.text, " m") && x.value == 60*x.raw && y.dim == "length" && y.value == x.raw && x.per == y.per
}

// clockAgainst returns a time of day and a bare count, when x and y are
// one of each: the count may be the hour said alone.
func clockAgainst(x, y quantity) (c, n quantity, ok bool) {
	bare := func(q quantity) bool { return q.dim == "" && q.per == "" && !q.every && q.days == "" }
	switch {
	case x.dim == "clock" && bare(y):
		return x, y, true
	case y.dim == "clock" && bare(x):
		return y, x, true
	}
	return quantity{}, quantity{}, false
}

// bareOne is a "one" with no unit, said on one side only: mostly an
// article in other words ("at least one", "a single one").
func bareOne(q quantity) bool { return q.value == 1 && q.dim == "" && q.per == "" }

func sameQuantity(x, y quantity) bool {
	x, y = centsOf(x, y), centsOf(y, x)
	if gluedMetres(x, y) || gluedMetres(y, x) {
		return true
	}
	if period(x, y) || period(y, x) {
		return true
	}
	if f, ok := relFactor(x, y); ok {
		// "plus 25%" is "x 1.25" and "125% of" it; "20% off" is "80% of".
		return f
	}
	if x.dim == "percent" && y.dim == "" && y.per == "" && y.value > 0 && y.value < 1 {
		y.value, y.dim = 100*y.value, "percent" // "half price" is 50% off
	} else if y.dim == "percent" && x.dim == "" && x.per == "" && x.value > 0 && x.value < 1 {
		x.value, x.dim = 100*x.value, "percent"
	}
	if x.dim == "percent" && y.counted || y.dim == "percent" && x.counted {
		return false // "5 students" are not "5% of students"
	}
	if x.dim == "percent" && y.dim == "" && multiplier(y) && x.per == y.per {
		y.value, y.dim = 100*y.value, "percent" // "1.5x the rate" is 150% of it
	} else if y.dim == "percent" && x.dim == "" && multiplier(x) && x.per == y.per {
		x.value, x.dim = 100*x.value, "percent"
	}
	if x.dim != "" && y.dim != "" && (x.dim != y.dim || x.days != y.days) {
		return false // "5 business days" are not 5 days
	}
	if p, o, ok := poundAgainst(x, y); ok {
		// "12 pounds" weighs or pays: as the other side's measure says.
		switch {
		case o.dim == "mass":
			return math.Abs(p.raw*measures()["lb"].scale-o.value) <= 0.01*o.value
		case money(o.dim):
			return o.dim == "gbp" && p.raw == o.raw
		}
	}
	if c, n, ok := clockAgainst(x, y); ok && c.value == math.Trunc(c.value) && n.raw > 1 && n.raw <= 12 && n.raw == math.Trunc(n.raw) && math.Mod(c.value, 12) == math.Mod(n.raw, 12) {
		// "at 7 pm" said again as "at seven": the hour, its part of the
		// day left to the reader.
		return true
	}
	if (x.dim == "") != (y.dim == "") && x.per == "" && y.per == "" {
		// A unit said on one side only: "over 21" is "21 years old"; a
		// one in digits too ("rollout_percent: [1, 10]" is "1%"); a
		// configuration value in a smaller unit left unsaid ("timeout:
		// 300" is 5 minutes, "validity: 730" 2 years).
		// A configuration's signed offset ("offset_months: -2") is the
		// "2 months earlier" of prose: the sign is no unit's.
		// A fraction written in digits on both sides is as plain: "below
		// 0.5 mg/L" is "under 0.5 ppm", "distance_m <= 0.5" is "within
		// 0.5 metres"; "half" in words is left to its other readings.
		return math.Abs(x.raw) == math.Abs(y.raw) && (math.Abs(x.raw) > 1 || x.raw == 1 && (digits(x.text) || digits(y.text)) || money(x.dim) || money(y.dim) || decimalDigits(x) && decimalDigits(y)) || elidedUnit(x, y) || elidedUnit(y, x)
	}
	if x.per != y.per && x.per != "" && y.per != "" || x.perVal != y.perVal && x.perVal != 0 && y.perVal != 0 {
		return false
	}
	if (x.dim == "") != (y.dim == "") && x.per != "" && x.per == y.per && x.perVal == y.perVal {
		// A rate whose unit one side says far from its number: "five
		// or more logged hours every week" is 5 hours a week; a fraction
		// in digits on both sides as well ("0.75% a month" is the
		// "0.75" of a "MONTHLY-RATE-PCT").
		return x.raw == y.raw && (x.raw > 1 || decimalDigits(x) && decimalDigits(y))
	}
	if x.dim == "clock" && y.dim == "clock" && math.Abs(x.value-y.value) == 12 && (eitherHalf(x) || eitherHalf(y)) {
		return true // "by 8:30" after "start at 8pm" is 20:30
	}
	if x.dim == "clock" && y.dim == "clock" && math.Abs(x.value-y.value) == 24 {
		return true // "until midnight" is "until 24:00"
	}
	tolerance := 1e-9
	switch {
	case x.dim == "time" && y.dim == "time" && weeksForMonths(x, y):
		// "4 weeks" is said for "a month", "8 weeks" for "two months".
		tolerance = weeksTolerance
	case x.dim == "time" && y.dim == "time":
		// Calendar lengths: 30 days is a month, 365 days a year.
		tolerance = calendarTolerance
	case x.dim == "speed" && y.dim == "speed":
		// A speed said again in another unit is rounded: "27 knots" for
		// "50 km/h", "30 mph" for "48 km/h".
		tolerance = speedTolerance
	}
	return math.Abs(x.value-y.value) <= tolerance*math.Max(1, math.Abs(x.value))
}

// weeksTolerance is how far a length said in whole weeks may be from one
// said in whole months and still be it: four weeks are 8% short of a
// month, as eight are of two.
const weeksTolerance = 0.09

// weeksForMonths reports whether one of x and y is said in weeks and the
// other in months, each a whole number and neither a rate nor a period
// ("4 weeks" and "a month"; not "every 4 weeks" and "monthly", which are
// 13 rounds a year against 12, nor "2 weeks" and "2 months", which the
// tolerance keeps apart).
func weeksForMonths(x, y quantity) bool {
	in := func(q quantity, unit string) bool {
		return q.per == "" && !q.every && q.raw >= 0 && q.raw == math.Trunc(q.raw) && strings.Contains(strings.ToLower(q.text), unit)
	}
	said := func(w, m quantity) bool {
		// The weeks said for the months: 4 for one, 8 for two, 13 for
		// three, 26 for six, 52 for twelve (52 weeks a year, rounded
		// down); not "9 weeks" for two months, nor any for a calendar
		// month.
		if w.raw <= 0 {
			return false
		}
		months := m.value / units()["month"].scale
		if math.Abs(months*2-math.Round(months*2)) > 1e-6 {
			return false
		}
		months = math.Round(months*2) / 2
		return !strings.Contains(strings.ToLower(m.text), "calendar") && w.raw == math.Floor(months*52/12+1e-9)
	}
	return in(x, "week") && in(y, "month") && said(x, y) || in(x, "month") && in(y, "week") && said(y, x)
}

// centsOf returns x, said in cents ("30 cents", read as a dollar's), as
// cents of the currency y is said in when that currency has cents:
// "30 cents a kilometre" against "0.30 EUR per kilometre".
func centsOf(x, y quantity) quantity {
	if x.dim != "usd" || !strings.Contains(strings.ToLower(x.text), "cent") {
		return x
	}
	switch y.dim {
	case "eur", "aud", "cad", "chf", "zar":
		x.dim = y.dim
	}
	return x
}

// poundAgainst returns, of x and y, the number said in pounds without a
// sign (no unit of its own: "pound" weighs as often as it pays) and the
// other, when the other has a unit.
func poundAgainst(x, y quantity) (pound, other quantity, ok bool) {
	inPounds := func(q quantity) bool {
		t := strings.ToLower(q.text)
		return q.dim == "" && q.per == "" && (strings.HasSuffix(t, " pound") || strings.HasSuffix(t, " pounds"))
	}
	switch {
	case inPounds(x) && y.dim != "":
		return x, y, true
	case inPounds(y) && x.dim != "":
		return y, x, true
	}
	return quantity{}, quantity{}, false
}

// eitherHalf reports whether the time of day q is written so that it may
// lie in either half of the day: an hour from 1 to 12 with no "am", "pm"
// or part of the day said, and no leading zero ("8:30", not "08:30").
func eitherHalf(q quantity) bool {
	return q.value >= 1 && q.value < 13 && !meridiem(q.text) && !strings.HasPrefix(strings.TrimSpace(q.text), "0")
}

// over reports whether q is a share more or less than an amount the rule
// names ("plus 25%", "20% off").
func over(q quantity) bool { return q.dim == "percent" && (q.rel == relOver || q.rel == relUnder) }

// relText is q as a difference names it when one side says more or less
// than the amount named and the other does not: "plus 25 %", "minus 10
// %", "25 % of" (a multiple says it already: "x 1.25", "1.5 times").
func relText(q quantity) string {
	switch {
	case q.rel == relOver && !strings.HasPrefix(q.text, "plus"):
		return "plus " + q.text
	case q.rel == relUnder && !strings.HasPrefix(q.text, "minus"):
		return "minus " + q.text
	case q.rel == relOf:
		return q.text + " of"
	}
	return q.text
}

// relFactor compares x and y as multiples of an amount the rule names,
// when one says more or less than it ("plus 25%", "20% off") and the
// other a share or a multiple of it ("125% of", "x 1.25", "0.8 times
// the"): ok is false when they do not say it so.
func relFactor(x, y quantity) (same, ok bool) {
	factor := func(q quantity) (float64, bool) {
		switch {
		case q.dim == "percent" && q.rel == relOver:
			return 1 + q.value/100, true
		case q.dim == "percent" && q.rel == relUnder:
			return 1 - q.value/100, true
		case q.dim == "percent" && q.rel == relOf:
			return q.value / 100, true
		case multiplier(q):
			return q.value, true
		}
		return 0, false
	}
	if !over(x) && !over(y) || x.per != y.per || over(x) && over(y) && x.rel == y.rel {
		return false, false
	}
	fx, okx := factor(x)
	fy, oky := factor(y)
	if !okx || !oky {
		return false, false
	}
	return math.Abs(fx-fy) <= 1e-9*math.Max(1, math.Abs(fx)), true
}

// multiplier reports whether q is a multiple of an amount: a number
// written with a times sign ("2x", "1.5×"), or read so (relTimes).
func multiplier(q quantity) bool {
	if q.rel == relTimes {
		return true
	}
	n, _, _ := strings.Cut(strings.ToLower(q.text), " ") // "1.5x hourly"
	t := strings.TrimSuffix(strings.TrimSuffix(n, "x"), "×")
	return q.dim == "" && t != n && t != "" && strings.Trim(t, "0123456789.") == ""
}

// money reports whether dim is a currency (measures): an amount of it
// is one however small ("0.25 EUR" is the configuration's 0.25).
func money(dim string) bool {
	u, ok := measures()[dim] // a currency is keyed by its own code ("usd")
	return ok && u.dim == dim
}

// digits reports whether s is a number written in digits alone.
// decimalDigits reports whether q is a fraction written in digits
// ("0.5", "0.25 mm"), not a word ("half") nor a whole number.
func decimalDigits(q quantity) bool {
	return q.raw != math.Trunc(q.raw) && q.text != "" && q.text[0] >= '0' && q.text[0] <= '9'
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.,") == ""
}

// period reports whether x is a period ("every 6 months", "every day")
// that the rate y states as a count per length of time ("twice a year",
// "7 days a week").
func period(x, y quantity) bool {
	if !x.every || x.dim != "time" || x.per != "" || y.per != "time" || y.value <= 0 {
		return false
	}
	if y.dim == "time" && y.raw == 1 && y.value == units()["day"].scale && strings.HasPrefix(strings.ToLower(x.text), "once ") {
		// "one day off a week" is off "once a week": a day is one
		// time of the week ("every week" alone says no day).
		return math.Abs(x.value-y.perVal) <= calendarTolerance*x.value
	}
	if y.dim == "time" && y.raw > 0 {
		// "7 days a week" is every day: as many of the unit as fit in
		// the period, the unit being the period of x.
		unit := y.value / y.raw
		return math.Abs(x.value-y.perVal/y.raw) <= calendarTolerance*x.value && math.Abs(unit-x.value) <= calendarTolerance*x.value
	}
	return y.dim == "" && math.Abs(x.value-y.perVal/y.value) <= calendarTolerance*x.value
}

// speedTolerance is how far two speeds may differ and still be one, said
// in two units and rounded.
const speedTolerance = 0.01

// calendarTolerance is how far two lengths of time may differ and still be
// one: a month is 30.4 days on average, and "30 days" means a month.
const calendarTolerance = 0.015

// compareOptions finds two options of one choice: the filed position names
// one (not negated) and the new one names another.
//
// A relation ("before", "after") turned in a rewording counts only when it
// stands beside one of the same things on both sides: "3 attempts before
// returning the parcel" is "back to the depot only after three tries".
func compareOptions(a, b *analysis, edit bool) []string {
	lx := theLexicon()
	pos := func(x *analysis) map[int][]string {
		m := map[int][]string{}
		for _, t := range x.terms {
			if g := lx.altGroup[t.w]; g != 0 && !t.neg && !slices.Contains(m[g], t.w) {
				m[g] = append(m[g], t.w)
			}
		}
		return m
	}
	pa, pb := pos(a), pos(b)
	groups := make([]int, 0, len(pa))
	for g := range pa {
		groups = append(groups, g)
	}
	sort.Ints(groups)
	var out []string
	// Uses of each option: "EU customers' data in EU regions" against "EU
	// customers' data in US regions" trades one EU for the US.
	uses := func(x *analysis) map[string]int {
		m := map[string]int{}
		for _, t := range x.terms {
			if !t.neg && lx.altGroup[t.w] != 0 {
				m[t.w]++
			}
		}
		return m
	}
	ua, ub := uses(a), uses(b)
	fewer := func(ws []string, own, other map[string]int) []string {
		var out []string
		for _, w := range ws {
			if own[w] > other[w] && other[w] > 0 {
				out = append(out, w)
			}
		}
		return out
	}
	for _, g := range groups {
		onlyA, onlyB := unsaid(minus(pa[g], pb[g]), b), unsaid(minus(pb[g], pa[g]), a)
		// An option said fewer times where another is said in its
		// place: in an edit, a rewording says an option again where it
		// leaves out another ("before reading their feedback" → "write
		// it before you peek at theirs"). Outside an edit, only among
		// three or more options (ways to pay, formats) named as often
		// on both sides: one of their uses traded for another ("a lost
		// ID card … at the card office, payable by card only" → "…, only
		// cash is accepted"), the others standing in names of things.
		// Two options ("accept", "reject"; "read", "write") are said in
		// turns of phrase.
		traded := edit || !lx.relational[pa[g][0]] && lx.altPair[pa[g][0]] == "" && sum(ua, pa[g]) == sum(ub, pb[g])
		if len(onlyA) == 0 && len(onlyB) > 0 && traded {
			onlyA = fewer(pa[g], ua, ub)
		}
		if len(onlyB) == 0 && len(onlyA) > 0 && traded {
			onlyB = fewer(pb[g], ub, ua)
		}
		if len(onlyA) == 1 && len(onlyB) == 1 && lx.relational[onlyA[0]] && reversed(a, onlyA[0], b, onlyB[0]) {
			continue // "merged after 2 approvals" is "2 approvals before merging"
		}
		if len(onlyA) == 1 && len(onlyB) == 1 && lx.relational[onlyA[0]] && (negatedRelation(a, onlyA[0]) != negatedRelation(b, onlyB[0])) {
			continue // "not before the inspection" is "only after" it
		}
		if len(onlyA) == 1 && len(onlyB) == 1 && lx.relational[onlyA[0]] && !edit && !kept(a, onlyA[0], b, onlyB[0]) {
			continue
		}
		if len(onlyA) > 0 && len(onlyB) > 0 {
			out = append(out, strings.Join(a.sayAll(onlyA), ", ")+" → "+strings.Join(b.sayAll(onlyB), ", "))
		}
	}
	return out
}

// sum is how many times a side says the words ws, by its uses.
func sum(uses map[string]int, ws []string) int {
	n := 0
	for _, w := range ws {
		n += uses[w]
	}
	return n
}

// compareScope finds a rule restricted with "only" on one side and opened
// to "any" on the other, with no "only" of its own: "only from these
// origins" → "from any origin".
func compareScope(a, b *analysis) []string {
	switch {
	case a.only && !b.only && b.any && !a.any && opened(a, b) && sameRule(a, a.onlyAt, b, b.anyAt):
		return []string{"only → any"}
	case b.only && !a.only && a.any && !b.any && opened(b, a) && sameRule(b, b.onlyAt, a, a.anyAt):
		return []string{"any → only"}
	case b.only && !b.onlyWhen && !a.only && a.every && !b.all && !b.any && sameRule(b, b.onlyAt, a, a.everyAt):
		return []string{"every → only"}
	case a.only && !a.onlyWhen && !b.only && b.every && !a.all && !a.any && sameRule(a, a.onlyAt, b, b.everyAt):
		return []string{"only → every"}
	}
	return nil
}

// compareUntilBefore finds a thing one side bars until an event ("the
// ambulance is not available until the checklist is signed off", "blocked
// from leaving the depot until the wheel is turned") and the other side
// allows before the same event ("can take calls before the checklist is
// signed off"): what waited for the event no longer does.
func compareUntilBefore(a, b *analysis) []string {
	lx := theLexicon()
	until, before := lx.fold(stem("until")), lx.fold(stem("before"))
	named := func(t term) bool {
		return !strings.HasPrefix(t.w, "#") && !lx.light[t.w] && !lx.generic[t.w]
	}
	// The words after the thing barred or allowed, in its clause: what is
	// done to (to the relation word: "the depot") and the event (from
	// it: "the wheel is turned"); the index of the relation word, -1 when
	// the clause has none.
	parts := func(x *analysis, i int, rel string) (object, event []string, at int) {
		at = -1
		for k := i + 1; k < len(x.terms) && x.terms[k].clause == x.terms[i].clause; k++ {
			t := x.terms[k]
			switch {
			case t.w == rel && at < 0:
				at = k
			case at < 0 && named(t) && !lx.action[t.w] && !timeNames()[t.w] && !timeNouns()[t.w] && !objectAdverbs()[t.w]:
				object = append(object, t.w) // not "still", nor "for one more day"
			case at >= 0 && named(t) && !t.neg:
				event = append(event, t.w)
			}
		}
		return object, event, at
	}
	// Every word of p said in q.
	within := func(p, q []string) bool {
		for _, w := range p {
			if !slices.ContainsFunc(q, func(v string) bool { return v == w || lx.near(v, w) }) {
				return false
			}
		}
		return true
	}
	// Every word of the shorter list said in the longer one.
	same := func(p, q []string) bool {
		if len(p) > len(q) {
			p, q = q, p
		}
		return within(p, q)
	}
	var out []string
	check := func(x, y *analysis, fromX bool) {
		ux, uy := untilLater(x), untilLater(y)
		for i, t := range x.terms {
			if !t.neg || t.lifted || t.own || t.prefixed || t.cond >= 0 || ux[i]&untilWord == 0 {
				continue
			}
			_, ex, _ := parts(x, i, until)
			// The words of the barred clause, its subject's too: "a
			// reactor batch is barred from discharging" names what
			// "operators may discharge a reactor batch" does.
			var ox []string
			for _, v := range x.terms {
				if v.clause == t.clause && named(v) {
					ox = append(ox, v.w)
				}
			}
			for j, u := range y.terms {
				if u.w != t.w || u.cond >= 0 || uy[j]&beforeWord == 0 {
					continue
				}
				oy, ey, at := parts(y, j, before)
				// Who or what is barred: the first thing named in the
				// barred clause ("Trainees may not drive" is not
				// "Supervisors may drive").
				var sx, cy []string
				for k, v := range x.terms {
					if k < i && v.clause == t.clause && named(v) && !lx.action[v.w] {
						sx = append(sx, v.w)
						break
					}
				}
				for k, v := range y.terms {
					if v.clause == u.clause && named(v) && (at < 0 || k < at) {
						cy = append(cy, v.w)
					}
				}
				after := lx.fold(stem("after"))
				if !within(sx, cy) || slices.ContainsFunc(x.terms[i:], func(v term) bool { return v.clause == t.clause && v.w == after }) {
					continue // "Staff may use the pool" for "Guests may not"; "until 24 hours after"
				}
				if at < 0 || len(ex) == 0 || len(ey) == 0 || !same(ex, ey) || !within(oy, ox) {
					// What is allowed before must be what was barred: not
					// "the induction" for "work", nor "the windows" for
					// "the gate".
					continue
				}
				// "is not allowed to be delivered before": barred too.
				if slices.ContainsFunc(y.terms[:at], func(v term) bool { return v.clause == u.clause && v.neg && !v.own && !v.prefixed }) {
					continue
				}
				d := "not " + t.text + " until → " + u.text + " before"
				if !fromX {
					d = u.text + " before → not " + t.text + " until"
				}
				out = append(out, d)
				return
			}
		}
	}
	check(a, b, true)
	check(b, a, false)
	return out
}

// opened reports whether y's "any" opens up what x's "only" restricts.
// Not an "any" with a bound of its own, which picks things out as "only"
// does ("anything over 8% goes out in a small glass" for "beers above 8%
// are served only in small glasses"), nor "all" of the things covered
// against an "only" that sets a time ("all doors closed" for "only after
// every door is shut").
//
// The "all" side must set a time of its own ("until all doors are
// closed"); "All contractors can use the lathe" against "only after
// induction" drops the condition.
func opened(x, y *analysis) bool {
	bound := y.anyBound && slices.ContainsFunc(x.qty, func(q quantity) bool { return q.raw == y.anyBoundNum })
	return !bound && !(y.anyAll && x.onlyWhen && setsTime(y) && sameTimeWords(x, y))
}

// sameTimeWords: most content words after x's "only" (its time: "after
// every hatch is shut") are said in y.
func sameTimeWords(x, y *analysis) bool {
	lx := theLexicon()
	n, said := 0, 0
	for _, t := range x.terms {
		if t.clause != x.onlyAt || t.at <= x.onlyWord || strings.HasPrefix(t.w, "#") || lx.light[t.w] || lx.generic[t.w] {
			continue
		}
		n++
		if slices.ContainsFunc(y.terms, func(u term) bool { return u.w == t.w || lx.near(u.w, t.w) }) {
			said++
		}
	}
	return 2*said > n
}

// setsTime reports whether x says when its rule holds: "until", "before",
// "after", "once", "when" or "if".
func setsTime(x *analysis) bool {
	if len(x.conds) > 0 {
		return true
	}
	lx := theLexicon()
	for _, w := range []string{"until", "before", "after", "once", "when"} {
		f := lx.fold(stem(w))
		if slices.ContainsFunc(x.terms, func(t term) bool { return t.w == f }) {
			return true
		}
	}
	return false
}

// compareJoined finds what a rule restricted with "only" ("read only by
// the course lead", "only managers") names again on the other side with
// something beside it in a list that the rule never names ("the course
// lead and the dean", "managers or team leads"): the rule covers more.
func compareJoined(a, b *analysis) []string {
	var out []string
	check := func(x, y *analysis) {
		if !x.only || x.onlyWhen || x.onlyWord == 0 {
			return
		}
		lx := theLexicon()
		// What "only" restricts: the words right after it in its clause
		// ("registered members", "the course lead").
		named := func(t term) bool { return !strings.HasPrefix(t.w, "#") && !t.neg && !lx.light[t.w] }
		k := slices.IndexFunc(x.terms, func(t term) bool { return t.at > x.onlyWord && t.clause == x.onlyAt })
		if k < 0 || !named(x.terms[k]) {
			return
		}
		only := []string{x.terms[k].w}
		for j := k + 1; j < len(x.terms) && len(only) < 2 && x.terms[j].at == x.terms[j-1].to+1 && x.terms[j].clause == x.onlyAt && named(x.terms[j]); j++ {
			only = append(only, x.terms[j].w)
		}
		// The rest of the restricted clause: what is done, and to what.
		var rest []string
		for _, t := range x.terms {
			if t.clause == x.onlyAt && !slices.Contains(only, t.w) && !strings.HasPrefix(t.w, "#") && !lx.generic[t.w] && !lx.light[t.w] && !t.neg {
				rest = append(rest, t.w)
			}
		}
		said := set(x.words())
		var texts string // for "SM" said of "the stage manager"
		for _, t := range x.terms {
			texts += " " + t.text
		}
		for i, t := range y.terms {
			r := slices.Index(only, t.w)
			if r < 0 || t.neg {
				continue
			}
			// The same rule: the other side says the rest of it in the
			// same clause ("Admins and mods can pin messages" is not
			// "only admins can delete channels").
			n := 0
			for _, w := range rest {
				if slices.ContainsFunc(y.terms, func(u term) bool { return u.clause == t.clause && (u.w == w || lx.near(u.w, w)) }) {
					n++
				}
			}
			if len(rest) > 0 && 4*n < 3*len(rest) {
				continue
			}
			// The words of the restricted phrase before this one right
			// before it too: "the course lead" in "the course lead and
			// the dean", not "expenses" of "only managers approve
			// expenses" in "travel and expenses".
			if r > i || slices.ContainsFunc(only[:r], func(w string) bool {
				k := i - r + slices.Index(only, w)
				return y.terms[k].w != w || y.terms[k+1].at != y.terms[k].to+1
			}) {
				continue
			}
			// Its neighbour in a list: "managers and team leads", "the
			// dean and the course lead".
			for _, j := range []int{i - 1, i + 1} {
				if j < 0 || j >= len(y.terms) {
					continue
				}
				u := y.terms[j]
				first, second := t, u
				if j < i {
					first, second = u, t
				}
				// The two with "and" or "or" between them, and an article
				// at most ("the course lead and the dean").
				if gap := second.at - first.to - 1; gap < 1 || gap > 2 {
					continue
				}
				if u.clause != t.clause || !first.listed || !second.listed || strings.HasPrefix(u.w, "#") || u.neg || lx.action[u.w] || lx.light[u.w] || said[u.w] || len(u.text) <= 4 && spelled(strings.ToUpper(u.text), texts) ||
					slices.ContainsFunc(x.terms, func(v term) bool { return lx.near(u.w, v.w) }) {
					continue
				}
				if j+1 < len(y.terms) && j+1 != i && slices.Contains(only, y.terms[j+1].w) && y.terms[j+1].at == u.to+1 {
					continue // "service dogs and guide dogs": a kind of what the rule names
				}
				if binomials()[strings.ToLower(first.text)+" "+strings.ToLower(second.text)] {
					continue // "bed and breakfast": one thing
				}
				out = append(out, "only "+strings.Join(x.sayAll(only), " ")+" → "+y.say(first.w)+" and "+y.say(second.w))
				return
			}
		}
	}
	check(a, b)
	check(b, a)
	return out
}

// binomials are pairs said with "and" that name one thing ("bed and
// breakfast"), as written, first word and last.
var binomials = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Split("bed breakfast,terms conditions,health safety,salt pepper,fish chips,q a,research development,"+
		"food drink,food beverage,arts crafts,wear tear,trial error,pros cons,bread butter,board lodging,room board,bits pieces,"+
		"odds ends,nuts bolts,pick mix,park ride,drag drop,plug play,sales marketing,hide seek,cut paste,copy paste", ",") {
		m[p] = true
	}
	return m
})

// sameRule reports whether clause ca of a and clause cb of b share a
// specific word: they state the same rule ("deploy only between 9 and 16"
// and "security fixes may go out any time" do not).
func sameRule(a *analysis, ca int, b *analysis, cb int) bool {
	lx := theLexicon()
	in := map[string]bool{}
	for _, t := range a.terms {
		if t.clause == ca && !lx.generic[t.w] && !strings.HasPrefix(t.w, "#") {
			in[t.w] = true
		}
	}
	shared := map[string]bool{}
	for _, t := range b.terms {
		if t.clause == cb && in[t.w] {
			shared[t.w] = true
		}
	}
	// Two words in common, or all the words of the shorter clause: one
	// word in common ("ballots counted only after polls close", "any
	// ballot lacking a signature") is two rules about one thing.
	return len(shared) >= 2 || len(shared) == 1 && len(in) == 1
}

// compareDirections finds a word that relates two things in one
// direction ("override", "before", "instead of") used once on each side
// with the things swapped: "env overrides the file" → "the file overrides
// env". A passive ("overridden by") is read the other way round.
func compareDirections(a, b *analysis) []string {
	lx := theLexicon()
	once := func(x *analysis, w string) (term, bool) {
		var found term
		n := 0
		for _, t := range x.terms {
			if t.w == w {
				found = t
				n++
			}
		}
		return found, n == 1 && !found.neg
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range a.terms {
		if !lx.directed[t.w] || seen[t.w] {
			continue
		}
		seen[t.w] = true
		ta, okA := once(a, t.w)
		tb, okB := once(b, t.w)
		if !okA || !okB {
			continue
		}
		pa, na := around(a, t.w, false)
		pb, nb := around(b, t.w, false)
		if ta.by {
			pa, na = na, pa
		}
		if tb.by {
			pb, nb = nb, pb
		}
		if slices.ContainsFunc([]string{pa, na, pb, nb}, func(w string) bool { return strings.HasPrefix(w, "#") }) {
			continue // "expire after 30 minutes", "30 minutes after it is sent": a delay, not an order
		}
		crossed := pa != "" && pa == nb || na != "" && na == pb
		kept := pa != "" && pa == pb || na != "" && na == nb
		if crossed && !kept {
			out = append(out, fmt.Sprintf("%s %s %s → %s %s %s", a.say(pa), a.say(t.w), a.say(na), b.say(pb), b.say(t.w), b.say(nb)))
		}
	}
	return out
}

// reversed reports whether a relation word (before, after, above, below)
// stands between the same two things in the other order on the other
// side: "x before y" and "y after x".
func reversed(a *analysis, x string, b *analysis, y string) bool {
	pa, na := around(a, x, true)
	pb, nb := around(b, y, true)
	return pa != "" && pa == nb || na != "" && na == pb
}

// kept reports whether a relation word x of a and y of b stand beside one
// of the same things on the same side.
func kept(a *analysis, x string, b *analysis, y string) bool {
	pa, na := around(a, x, true)
	pb, nb := around(b, y, true)
	return pa != "" && pa == pb || na != "" && na == nb
}

// around are the content words just before and after w in x. With
// bounds, numbers and bounds ("at least 6 months") are passed over: "x at
// least 6 months before y" relates x and y.
func around(x *analysis, w string, bounds bool) (prev, next string) {
	lx := theLexicon()
	skip := func(v string) bool {
		return lx.generic[v] || bounds && (strings.HasPrefix(v, "#") || v == "atleast" || v == "atmost")
	}
	for i, t := range x.terms {
		if t.w != w {
			continue
		}
		for j := i - 1; j >= 0 && prev == ""; j-- {
			if !skip(x.terms[j].w) {
				prev = x.terms[j].w
			}
		}
		for j := i + 1; j < len(x.terms) && next == ""; j++ {
			if !skip(x.terms[j].w) {
				next = x.terms[j].w
			}
		}
		return prev, next
	}
	return "", ""
}

// unmentioned are the words of ws that x does not name at all (negated
// or not): "squash-merge" against "rebase; no merge commits" swaps squash
// for rebase, and the negated merge is compareNegation's business.
func unmentioned(ws []string, x *analysis) []string {
	var out []string
	for _, w := range ws {
		if !slices.ContainsFunc(x.terms, func(t term) bool { return t.w == w }) {
			out = append(out, w)
		}
	}
	return out
}

// unsaid are the options of ws that x says neither as they are nor in a
// word near them in meaning: "every line logged" says what "every log
// line written" does (write), whatever else it reads.
func unsaid(ws []string, x *analysis) []string {
	lx := theLexicon()
	return slices.DeleteFunc(unmentioned(ws, x), func(w string) bool {
		return slices.ContainsFunc(x.terms, func(t term) bool { return !t.neg && t.w != w && lx.near(w, t.w) })
	})
}

func minus(a, b []string) []string {
	var out []string
	for _, w := range a {
		if !slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	return out
}

// pairedOpposite reports whether t is a word negated by itself listed
// beside its opposite in its clause ("at opening and at closing"): a
// span named by both its ends, which negates nothing else the clause
// says.
func pairedOpposite(x *analysis, t term) bool {
	if !t.own {
		return false
	}
	if t.listed && slices.ContainsFunc(x.terms, func(u term) bool { return u.w == t.w && u.clause == t.clause && !u.neg && u.listed }) {
		return true
	}
	// "opens at 6 am and closes at 10 pm": each end at its time, and one
	// closing only ("…, and closes at 1 on Fridays" is a rule of its own).
	i := slices.IndexFunc(x.terms, func(u term) bool { return u.at == t.at && u.w == t.w && u.neg })
	if !clockAfter(x, i) {
		return false
	}
	if slices.ContainsFunc(x.terms, func(u term) bool {
		return u.w == t.w && u.neg && u.at != t.at && x.sentence(u.clause) == x.sentence(t.clause)
	}) {
		return false
	}
	for j := range i {
		u := x.terms[j]
		if u.w == t.w && !u.neg && x.sentence(u.clause) == x.sentence(t.clause) && clockAfter(x, j) {
			return true
		}
	}
	return false
}

// clockAfter reports whether the term after x.terms[i] is a time of day
// in its clause, or a number ("opens at 6").
func clockAfter(x *analysis, i int) bool {
	return i >= 0 && i+1 < len(x.terms) && x.terms[i+1].clause == x.terms[i].clause && strings.HasPrefix(x.terms[i+1].w, "#")
}

// allowWord is "allow" as the lexicon folds it: what "forbid",
// "prohibit" and "ban" negate.
var allowWord = sync.OnceValue(func() string { return theLexicon().fold(stem("allow")) })

// askWord is "ask" as the lexicon folds it: "without asking for
// approval" negates the approval.
var askWord = sync.OnceValue(func() string { return theLexicon().fold(stem("ask")) })

// compareNegation finds a word one side negates and the other asserts.
func compareNegation(a, b *analysis) []string {
	// pol counts the asserted and the negated uses of each word; obj are
	// the words negated only as the object of a negated verb.
	pol := func(x, y *analysis) (pos, neg map[string]int, obj map[string]bool) {
		pos, neg, obj = map[string]int{}, map[string]int{}, map[string]bool{}
		// An exception the other side states with its own rule ("except
		// the BI warehouse, which suspends after an hour" against "the BI
		// one gets a full hour") or labels as one ("Exception: entrapment
		// releases are covered") is said again, not turned: its words
		// count on neither side.
		restated := map[int]bool{}
		for k, cd := range x.conds {
			if cd.kind == "unless" && restatedIn(x, cd, y) {
				restated[k] = true
			}
		}
		negClause, prefNegTo := map[int]bool{}, map[int]int{}
		for i, t := range x.terms {
			if t.neg && !pairedOpposite(x, t) {
				if t.own && t.prefixed {
					// A word negated by its prefix ("unread", "unsigned")
					// covers the words before it ("run unattended"); one
					// after it that the other side bars as a verb is said
					// as it is ("unread messages may be deleted" against
					// "do not delete unread messages").
					prefNegTo[t.clause] = i
					continue
				}
				negClause[t.clause] = true
			}
		}
		// The object of a negated verb is negated with it, up to the next
		// verb: "never split by row" does not split by row, "do not commit
		// notebooks with outputs" commits no notebook.
		lx := theLexicon()
		even, use, ask := lx.fold("even"), lx.fold("use"), askWord()
		objNeg := make([]bool, len(x.terms))
		until := untilLater(x)
		// The reading holds only when the other side names what the
		// exception or "without" asks for, as it is said there: "unless
		// a manager agrees" is no "only managers", "without the release
		// manager's sign-off" no "only with the CTO's".
		before := lx.fold(stem("before"))
		said := func(w string) bool {
			for i, u := range y.terms {
				if !sameWord(u.w, w) && sharedPrefix(u.w, w) < 6 {
					continue
				}
				// "may take off before the briefing is signed" names the
				// briefing as what has not happened yet.
				if !slices.ContainsFunc(y.terms[:i], func(v term) bool { return v.w == before && v.clause == u.clause }) {
					return true
				}
			}
			return false
		}
		// enough: more than half of the words that carry the case are
		// said on the other side.
		enough := func(idx []int) bool {
			n, m := 0, 0
			for _, k := range idx {
				w := x.terms[k].w
				elsewhere := false // said by the rule itself too ("never deploy … without the release manager's sign-off")
				for j, u := range x.terms {
					elsewhere = elsewhere || u.w == w && !slices.Contains(idx, j)
				}
				if !lx.light[w] && !elsewhere {
					n++
					if said(w) {
						m++
					}
				}
			}
			return 2*m > n
		}
		// yBars: the other side bars w as a verb ("do not delete").
		yBars := func(w string) bool {
			return slices.ContainsFunc(y.terms, func(u term) bool { return u.w == w && u.neg && u.verbal && !u.lifted && u.cond < 0 })
		}
		yNeg := func(w string) bool {
			return slices.ContainsFunc(y.terms, func(u term) bool { return u.w == w && u.neg })
		}
		unlessAny := unlessLater(x, nil)
		unlessOK := unlessLater(x, func(k int) bool {
			var idx []int
			for j, t := range x.terms {
				if t.cond == k {
					idx = append(idx, j)
				}
			}
			return enough(idx)
		})
		unless := make([]bool, len(x.terms))
		for i, t := range x.terms {
			// Against a side that bars the thing outright, the case
			// dropped shows as the bar turned.
			unless[i] = unlessOK[i] || unlessAny[i] && yNeg(t.w)
		}
		// Under a negated rule, what "unless" or "without" names is what
		// the rule needs: "no port-out goes through unless the PIN
		// matches", "never relabel a product without the shift lead" ask
		// for the PIN and the shift lead, as "only with" does, and the
		// thing is done then.
		need, withoutAfter := make([]bool, len(x.terms)), make([]bool, len(x.terms))
		for i, t := range x.terms {
			if !t.neg || !(t.verbal && !t.lifted) && !t.none || t.cond >= 0 {
				continue
			}
			if unlessAny[i] {
				// The case's own words are asserted even when the other
				// side names another case: the bar itself then turns.
				for j := i + 1; j < len(x.terms) && x.terms[j].clause-t.clause <= 1; j++ {
					if u := x.terms[j]; u.cond >= 0 && x.conds[u.cond].unless {
						need[j] = true
					}
				}
			}
			if !t.verbal || unlessAny[i] {
				continue // "don't approve without a receipt unless under £10": the "without" is lifted
			}
			for j := i + 1; j < len(x.terms) && x.terms[j].clause == t.clause; j++ {
				if !x.terms[j].afterWithout {
					continue
				}
				var idx []int // what "without" names, with its object ("without checking the item is unused")
				for k := j; k < len(x.terms) && x.terms[k].clause == t.clause && x.terms[k].cond < 0; k++ {
					idx = append(idx, k)
				}
				// The thing is done with it only when the other side says
				// so; what "without" names is asked for too when the other
				// side also names a case under its bar ("shall not perform
				// without the director's consent" against "do not sing,
				// unless the director agrees").
				withoutAfter[i] = enough(idx) || yNeg(t.w)
				if !withoutAfter[i] && !slices.ContainsFunc(y.conds, func(c condition) bool { return c.unless }) &&
					!slices.ContainsFunc(y.terms, func(u term) bool { return u.afterWithout }) {
					break
				}
				for k := j; k < len(x.terms) && x.terms[k].clause == t.clause && x.terms[k].neg && x.terms[k].cond < 0; k++ {
					need[k] = true
				}
				break
			}
		}
		onlyCase := make([]bool, len(x.terms))
		// "Master keys are not lent out except to the duty manager" says
		// what "master keys are lent only to the duty manager" says: a
		// bar with an exception is the thing done only in that case, when
		// the other side names the case beside its "only". The bar and
		// the case are then asserted, as "only" asserts them.
		for k, cd := range x.conds {
			if cd.kind != "unless" || cd.reason || cd.outcome || !onlySays(cd.terms, y) {
				continue
			}
			barred := barredBefore(x, k)
			if len(barred) == 0 {
				continue
			}
			for _, i := range barred {
				need[i], onlyCase[i] = true, true
			}
			for j, u := range x.terms {
				if u.cond == k && !u.neg {
					need[j] = true
				}
			}
		}
		// "If the lab collects them, none of this applies": the case's
		// words are what the rule does not cover, as an exception's are.
		// Read so only against a side that sets the case aside too.
		setAside := map[int]bool{}
		for k, cd := range x.conds {
			setAside[k] = cd.kind == "if" && setAsideUnder(x, cd) && plainException(y, cd)
		}
		for i, t := range x.terms {
			if lx.instead[t.w] {
				// "rather than by row", "rather than using SQLite or
				// mocks": the option set aside, past a verb, with the
				// items listed beside it.
				for j, n := i+1, 0; j < len(x.terms) && x.terms[j].clause == t.clause && n < 4; j++ {
					u := x.terms[j]
					if lx.action[u.w] || lx.light[u.w] {
						if n == 0 && (u.w == use || lx.light[u.w]) {
							continue
						}
						if n > 0 || lx.light[u.w] {
							break
						}
						// "instead of emailing": the action set aside.
					}
					objNeg[j] = true
					n++
					if !u.listed && !(j > i+1 && x.terms[j-1].listed) && n >= 3 {
						break
					}
				}
				continue
			}
			if !t.neg || !t.verbal && !(t.without && (lx.action[t.w] || lx.light[t.w] || t.w == ask)) || t.cond >= 0 || until[i] != 0 || unless[i] || withoutAfter[i] || onlyCase[i] {
				continue
			}
			for j, n := i+1, 0; j < len(x.terms) && n < 2; j, n = j+1, n+1 {
				u := x.terms[j]
				if u.clause != t.clause || u.neg || u.cond >= 0 || lx.action[u.w] || lx.light[u.w] || lx.generic[u.w] || strings.HasPrefix(u.w, "#") || timeNames()[u.w] || u.afterAux {
					break // "not opened from November to February": a time, not an object; "not been paid are chased": a verb of its own
				}
				objNeg[j] = true
			}
		}
		for i, t := range x.terms {
			if t.w == even || t.reason {
				continue // "not even encrypted" is "even encrypted" under a negation; a reason is no part of the rule
			}
			if x.otherwiseAt(t.cond) {
				continue // "if it isn't paid, …": the rule not met, not the rule turned
			}
			if need[i] {
				if t.neg && t.cond >= 0 {
					neg[t.w]++ // "unless the guard is closed", "unless nobody has opened it": said as it is
				} else {
					pos[t.w]++
				}
				continue
			}
			if t.unsaidFor && slices.ContainsFunc(y.terms, func(u term) bool { return u.w == t.w && u.cond >= 0 && y.conds[u.cond].kind == "unless" }) {
				// "any school that had one last year does not get it":
				// the case the other side's exception names ("unless the
				// school held one"), not a thing the rule asserts.
				neg[t.w]++
				continue
			}
			if t.neg && (t.verbal && !t.lifted || t.none) && until[i] != 0 ||
				t.neg && (t.verbal && !t.lifted || t.none) && unless[i] || t.neg && t.verbal && !t.lifted && withoutAfter[i] {
				// "No port-out goes through unless the PIN matches", "don't
				// reverse unless a crew member is banksman": the thing
				// happens under the condition, what "only if" says.
				// "does not reopen until the patrol has checked" reopens
				// after it: what "reopens only after" says; so does
				// "nothing leaves the bond until the duty has cleared",
				// and "no reopening before a patrol line check".
				pos[t.w]++
				continue
			}
			if k, ok := prefNegTo[t.clause]; (negClause[t.clause] || ok && (i < k || !yBars(t.w))) && !t.neg && !objNeg[i] {
				// A negation covers its clause: "permanent errors are
				// not retried" does not assert "permanent".
				continue
			}
			if t.cond >= 0 && restated[t.cond] {
				continue
			}
			// What an exception names is what the rule does not cover:
			// "but not for libraries" says what "libraries do not" says.
			if t.neg || objNeg[i] || t.cond >= 0 && (x.conds[t.cond].kind == "unless" || setAside[t.cond]) {
				neg[t.w]++
				obj[t.w] = objNeg[i] && !t.neg
			} else {
				pos[t.w]++
			}
		}
		// "The renewal fee is waived": no renewal fee, what "schools pay
		// no renewal fee" says; the words before "waived" in its clause
		// count as negated ("support cannot waive the lock" keeps it).
		waive := lx.fold(stem("waived"))
		yWaives := slices.ContainsFunc(y.terms, func(u term) bool { return u.w == waive })
		for i, t := range x.terms {
			if yWaives {
				break // both sides say the waiver ("we waive the call-out charge")
			}
			if t.w != waive || t.neg || t.cond >= 0 || t.reason || !strings.EqualFold(t.text, "waived") {
				continue // "cash buyers may waive searches": the buyers are no waiver
			}
			for j := i - 1; j >= 0 && x.terms[j].clause == t.clause; j-- {
				if u := x.terms[j]; !u.neg && u.cond < 0 && pos[u.w] > 0 {
					pos[u.w]--
					neg[u.w]++
				}
			}
		}
		return pos, neg, obj
	}
	posA, negA, objA := pol(a, b)
	posB, negB, objB := pol(b, a)
	// A negation in a reason given for the rule is none of the rule's.
	// Nor is a word that negates itself ("closed", "unpaid") that the
	// other side never names: it turns nothing the other side says. A
	// ban ("prohibited", "forbidden") is the rule's own negation, and
	// says what "never" says on the other side.
	ruleNegs := func(x, y *analysis) int {
		n := x.negs
		var said map[string]bool
		for _, t := range x.terms {
			if !t.neg {
				continue
			}
			if said == nil {
				said = set(y.words())
			}
			if t.reason || t.own && !said[t.w] && t.w != allowWord() {
				n--
			}
		}
		return n
	}
	if ruleNegs(a, b) == ruleNegs(b, a) {
		// As many negations on both sides: reworded, not reversed, unless
		// the negation moved from one thing to another ("through the
		// vendor portal, never to the local shop" → "to the local shop,
		// never through the vendor portal").
		if moved := movedNegation(a, b, posA, negA, posB, negB); len(moved) > 0 {
			return moved
		}
		return barLifted(a, b, posA, negA, posB, negB)
	}
	// A verb's object is named only when the verb itself did not turn:
	// "use → not use", not "client → not client" besides.
	var out, objects []string
	add := func(w, diff string) {
		if objA[w] || objB[w] {
			objects = append(objects, diff)
		} else {
			out = append(out, diff)
		}
	}
	seen := map[string]bool{}
	for _, t := range a.terms {
		w := t.w
		if seen[w] {
			continue
		}
		seen[w] = true
		// One use turned: negated on one side where the other asserts it
		// ("access tokens never expire; refresh tokens expire" against
		// both expiring).
		switch {
		case negA[w] > negB[w] && posB[w] > posA[w]:
			add(w, a.sayNot(w)+" → "+b.say(w))
		case posA[w] > posB[w] && negB[w] > negA[w]:
			add(w, a.say(w)+" → "+b.sayNot(w))
		}
	}
	if len(out) == 0 {
		return objects
	}
	return out
}

// setAside finds what x sets aside with "instead of" or "rather than"
// ("rather than using SQLite or mocks", "instead of the cache TTL"): the
// words of each phrase after the cue, past a light verb, up to the end of
// its clause (three words at most), and the word chosen before the cue.
func setAside(x *analysis) (phrases, chosen [][]string, at map[int]bool) {
	lx := theLexicon()
	use := lx.fold("use")
	for i, t := range x.terms {
		if !lx.instead[t.w] {
			continue
		}
		if at == nil {
			at = map[int]bool{}
		}
		var ph []string
		for j := i + 1; j < len(x.terms) && x.terms[j].clause == t.clause && len(ph) < 3; j++ {
			u := x.terms[j]
			if len(ph) == 0 && (u.w == use || lx.light[u.w]) {
				continue
			}
			if lx.instead[u.w] {
				break
			}
			ph = append(ph, u.w)
			at[j] = true
		}
		// The option chosen: the two words before the cue at most ("IP
		// address rather than account").
		var pick []string
		for k := i - 1; k >= 0 && x.terms[k].clause == t.clause && len(pick) < 2; k-- {
			u := x.terms[k]
			if u.neg || lx.light[u.w] || lx.action[u.w] || lx.generic[u.w] || strings.HasPrefix(u.w, "#") {
				if len(pick) > 0 {
					break
				}
				continue
			}
			pick = append([]string{u.w}, pick...)
		}
		if len(ph) > 0 {
			phrases, chosen = append(phrases, ph), append(chosen, pick)
		}
	}
	return phrases, chosen, at
}

// compareInstead finds an option one side sets aside ("I'll read the
// secrets from a file instead of environment variables") that the other
// states as its rule ("injected as environment variables"): every word
// of the phrase set aside asserted by the other side, outside a negated
// clause and outside what it sets aside itself. The difference names the
// option chosen in its place ("environment variables → file").
func compareInstead(a, b *analysis) []string {
	lx := theLexicon()
	setsAside := func(t term) bool { return lx.instead[t.w] }
	if !slices.ContainsFunc(a.terms, setsAside) && !slices.ContainsFunc(b.terms, setsAside) {
		return nil
	}
	asserted := func(x *analysis, aside map[int]bool) map[string]bool {
		negClause := map[int]bool{}
		for _, t := range x.terms {
			if t.neg && t.cond < 0 {
				// A negation inside a condition ("if we close the
				// tower", read "not open") leaves what the clause
				// asserts: "tickets are refunded in full".
				negClause[t.clause] = true
			}
		}
		m := map[string]bool{}
		for i, t := range x.terms {
			if !aside[i] && !t.neg && !t.reason && !negClause[t.clause] && (t.cond < 0 || x.conds[t.cond].kind == "if") {
				m[t.w] = true
			}
		}
		return m
	}
	var out []string
	check := func(x, y *analysis, fromX bool) {
		phrases, chosen, _ := setAside(x)
		if len(phrases) == 0 {
			return
		}
		phrasesY, _, asideY := setAside(y)
		inY, inX := asserted(y, asideY), set(y.words())
		for k, ph := range phrases {
			// Every word asserted, or all but the last of three: "to the
			// next person waiting" sets aside "passes to the next person
			// on the hold list".
			all, missed := true, 0
			for i, w := range ph {
				if inY[w] || nearAsserted(w, inY) {
					continue
				}
				missed++
				all = all && i == 2 && len(ph) == 3 && missed == 1
			}
			if !all || slices.ContainsFunc(phrasesY, func(p []string) bool { return overlap(ph, p) >= 0.5 }) {
				continue // not asserted, or set aside on both sides
			}
			if caseAside(x, y, ph, chosen[k]) {
				continue
			}
			said := strings.Join(y.sayAll(ph), " ")
			other := "not " + said
			said = strings.Join(slices.Compact(y.sayAll(ph)), " ")
			if c := chosen[k]; len(c) > 0 && !slices.ContainsFunc(c, func(w string) bool { return inX[w] }) {
				other = strings.Join(x.sayAll(c), " ")
			}
			if fromX {
				out = append(out, other+" → "+said)
			} else {
				out = append(out, said+" → "+other)
			}
		}
	}
	check(b, a, false) // the new position sets aside the filed option
	check(a, b, true)  // the filed rule sets aside what the position chooses
	return out
}

// nearAsserted reports whether a word near w in meaning or a form of it
// is among the asserted words m: "time off in lieu rather than pay" sets
// aside what "each paid at their normal daily rate" states.
func nearAsserted(w string, m map[string]bool) bool {
	if strings.HasPrefix(w, "#") {
		return false
	}
	for v := range m {
		if strings.HasPrefix(v, "#") {
			continue
		}
		short, long := w, v
		if len(short) > len(long) {
			short, long = long, short
		}
		if theLexicon().near(w, v) || len(short) >= 5 && strings.HasPrefix(long, short) {
			return true // "pay" and "paid", "notificat" and "notifi"
		}
	}
	return false
}

// caseAside reports whether x sets ph aside only for a case, as y does
// in words of its own: x states ph as its rule in another clause as well,
// and y says the option x picks in its place (pick) in a clause that
// does not state ph. "Run an audit on every contest; close ones get a
// hand recount instead of an audit" against "every contest is audited,
// except close ones, which are hand-counted instead"; "replaced rather
// than recalibrated" against "recalibrated …, unless under warranty, in
// which case it is replaced". "Deploy through Argo CD rather than
// kubectl" sets kubectl aside for good: it states it nowhere else.
func caseAside(x, y *analysis, ph, pick []string) bool {
	in := func(z *analysis, cl int) bool {
		return slices.ContainsFunc(z.terms, func(u term) bool { return u.clause == cl && !u.neg && slices.Contains(ph, u.w) })
	}
	_, _, at := setAside(x)
	stated := false
	for i, t := range x.terms {
		stated = stated || !at[i] && !t.neg && !t.reason && slices.Contains(ph, t.w) && !slices.ContainsFunc(x.terms, func(u term) bool {
			return u.clause == t.clause && theLexicon().instead[u.w]
		})
	}
	if !stated {
		return false
	}
	lx := theLexicon()
	for _, u := range y.terms {
		if !u.neg && slices.Contains(pick, u.w) && !lx.generic[u.w] && !lx.light[u.w] && !in(y, u.clause) {
			return true
		}
	}
	return false
}

// What follows a term in its clause (untilLater): "until", "before".
const (
	untilWord byte = 1 << iota
	beforeWord
)

// untilLater reports, for each term of x, whether "until" (untilWord) or
// "before" (beforeWord) follows it in its clause: "not … until" sets a
// time from which.
func untilLater(x *analysis) []byte {
	lx := theLexicon()
	until, before := lx.fold(stem("until")), lx.fold(stem("before"))
	out := make([]byte, len(x.terms))
	var seen byte
	clause := -1
	for i := len(x.terms) - 1; i >= 0; i-- {
		t := x.terms[i]
		if t.clause != clause {
			seen, clause = 0, t.clause
		}
		out[i] = seen
		switch t.w {
		case until:
			seen |= untilWord
		case before:
			seen |= beforeWord
		}
	}
	return out
}

// unlessLater reports, for each term of x, whether it is negated in the
// rule an exception sets aside, in the exception's clause or the one
// before, before the exception: in
// "No port-out goes through unless the PIN matches" the port-out goes
// through when the PIN matches.
func unlessLater(x *analysis, keep func(k int) bool) []bool {
	out := make([]bool, len(x.terms))
	for k, cd := range x.conds {
		if !cd.unless || cd.reason {
			continue // "dogs may not go upstairs, except assistance dogs": a thing set aside
		}
		if keep != nil && !keep(k) {
			continue
		}
		at := slices.IndexFunc(x.terms, func(t term) bool { return t.cond == k })
		if at < 0 {
			continue
		}
		c := x.terms[at].clause
		for i := at - 1; i >= 0 && c-x.terms[i].clause <= 1 && x.sentence(x.terms[i].clause) == x.sentence(c); i-- {
			if x.terms[i].w == "but" {
				break // "we don't do refunds but exchanges are fine unless …"
			}
			if x.terms[i].cond < 0 {
				out[i] = true
			}
		}
	}
	return out
}

// negatedRelation reports whether the relation word w of x stands in a
// clause with a negation: "not reopened prior to the inspection".
func negatedRelation(x *analysis, w string) bool {
	for _, t := range x.terms {
		if t.w == w {
			return slices.ContainsFunc(x.terms, func(u term) bool { return u.clause == t.clause && u.neg })
		}
	}
	return false
}

// movedNegation finds the words a negates and b asserts, and the words b
// negates and a asserts, when there are both.
func movedNegation(a, b *analysis, posA, negA, posB, negB map[string]int) []string {
	lx := theLexicon()
	turned := func(x *analysis, negX, posX, posY, negY map[string]int) []string {
		var out []string
		for _, t := range x.terms {
			w := t.w
			if negX[w] > 0 && posX[w] == 0 && posY[w] > 0 && negY[w] == 0 && !lx.generic[w] && !lx.light[w] && !strings.HasPrefix(w, "#") && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
		return out
	}
	fromA, fromB := turned(a, negA, posA, posB, negB), turned(b, negB, posB, posA, negA)
	if len(fromA) == 0 || len(fromB) == 0 {
		return nil
	}
	return []string{"not " + strings.Join(a.sayAll(fromA), " ") + " → not " + strings.Join(b.sayAll(fromB), " ")}
}

// barLifted finds, between sides with as many negations, an action one
// side bars with its verb ("a single carer must never operate the hoist
// alone") that the other says as done, with its verb and nowhere barred
// ("one carer may operate the hoist alone"), while its own negation falls
// on something else ("do not need two carers"): the bar lifted, not a
// negation moved in a rewording. The action must be asserted nowhere on
// the barring side, so a rule that bars it in one case and allows it in
// another ("never deploy on Fridays; deploy any other day") stays as said.
func barLifted(a, b *analysis, posA, negA, posB, negB map[string]int) []string {
	lx := theLexicon()
	lifted := func(x, y *analysis, negX, posX, posY, negY map[string]int) string {
		for i, t := range x.terms {
			w := t.w
			if !t.neg || !t.verbal || t.lifted || t.reason || t.cond >= 0 || t.own || negX[w] == 0 || posX[w] > 0 || negY[w] > 0 || posY[w] == 0 ||
				lx.generic[w] || lx.light[w] || strings.HasPrefix(w, "#") {
				continue
			}
			// The other side's own negation falls on a word this side
			// asserts, never negates and says apart from its bar (in
			// another clause, or more than two words away): it turned
			// something else. A word said only beside the bar ("not by
			// musicians" against "musicians don't wear them") is the bar
			// itself, worded around another word.
			apart := func(v string) bool {
				for j, u := range x.terms {
					if u.w == v && (u.clause != t.clause || j < i-2 || j > i+2) {
						return true
					}
				}
				return false
			}
			elsewhere := slices.ContainsFunc(y.terms, func(u term) bool {
				return u.neg && u.verbal && !u.own && !u.reason && u.cond < 0 && u.w != w && saidPlainly(x, u.w) && !lx.light[u.w] && !lx.generic[u.w] && apart(u.w)
			})
			// Each use of the action on the other side stands in a clause
			// with no negation of its own: "bells are worn by dancers, not
			// by musicians" keeps a bar on wearing.
			negIn := map[int]bool{}
			for _, u := range y.terms {
				negIn[u.clause] = negIn[u.clause] || u.neg
			}
			done := false
			for _, u := range y.terms {
				if u.w == w && !u.neg && u.cond < 0 && !u.reason {
					if negIn[u.clause] {
						done = false
						break
					}
					done = true
				}
			}
			if elsewhere && done {
				return w
			}
		}
		return ""
	}
	if w := lifted(a, b, negA, posA, posB, negB); w != "" {
		return []string{a.sayNot(w) + " → " + b.say(w)}
	}
	if w := lifted(b, a, negB, posB, posA, negA); w != "" {
		return []string{a.say(w) + " → " + b.sayNot(w)}
	}
	return nil
}

// compareConditions finds a condition or exception one side states and
// the other does not (not even in other words), or an "if" turned into an
// "unless". topic holds the words of the record's topic.
func compareConditions(a, b *analysis, topic map[string]bool) []string {
	var out []string
	check := func(x, y *analysis, verb string) {
		all := set(y.words())
		main := map[string]bool{}
		for _, t := range x.terms {
			if t.cond < 0 {
				main[t.w] = true
			}
		}
		for k, cd := range x.conds {
			if cd.reason {
				continue // a reason given for the rule, not a part of it
			}
			if cd.ownRule {
				continue // the exception's own rule: its numbers are read by compareQuantities
			}
			if freeChoice(cd) {
				continue // "whenever you like", "if they choose": a permission, not a condition
			}
			if cd.while && contrasted(x, k, y) {
				continue // "…, while email is type 1": a rule of its own, stated by the other side
			}
			if x.otherwiseAt(k) {
				continue // "…; if it isn't paid, the date is released": the rule's other side
			}
			if verb == "dropped" && framedBy(x, k, topic) {
				continue // "Mowing when the rain sensor triggers": the topic states the case the answer is given in
			}
			// What the condition adds to the rule: its words that the rule
			// itself does not say ("unless a service account" adds
			// "service" to a rule about accounts).
			terms := cd.terms
			if own := without(cd.terms, main); len(own) > 0 {
				terms = own
			}
			if len(terms) == 0 || !slices.ContainsFunc(terms, func(w string) bool { return !happenings()[w] }) &&
				!slices.ContainsFunc(x.qty, func(q quantity) bool { return q.cond == k }) && !cd.again {
				continue // "when it comes in", "once it reaches the desk": the rule's moment, no case of its own
			}
			if !slices.ContainsFunc(cd.terms, func(w string) bool { return !saidHolds()[w] }) && !slices.ContainsFunc(x.qty, func(q quantity) bool { return q.cond == k }) {
				continue // "when this is over", "only if all of this is met": what was said before, holding
			}
			in, of := 0, len(terms)
			// Another form of a word the other side says ("if you react"
			// and "any reaction") says it, when it says most words of the
			// condition so: not a form of the rule's own subject ("when
			// cleaning" in a rule about cleaners), nor a condition the
			// rule holds in anyway ("even if inducted"), nor one of whose
			// two words the other side says only one ("if the chair is
			// informed" against "informal meetings").
			even := slices.ContainsFunc(x.terms, func(t term) bool { return t.cond == k && t.even })
			kinned := 0
			for _, w := range terms {
				switch {
				case all[w]:
					in++
				case !even && !kinIn(w, main) && kinIn(w, all):
					kinned++
				}
			}
			if kinned > 0 && 2*(in+kinned) > len(terms) {
				in += kinned
			}
			// A measure of the condition ("within 3 km") said again by
			// the other side is a word of it said.
			for _, q := range x.qty {
				said := slices.ContainsFunc(y.qty, func(r quantity) bool { return sameQuantity(q, r) })
				switch {
				case q.cond != k || q.dim == "":
				case q.dim != "time" && q.dim != "clock":
					of++
					if said {
						in++
					}
				case said && len(terms) == 1 && !bareOne(q) && ageWords()[terms[0]] && !otherRole(q, k, x, y):
					// An age said again beside the one word of its
					// condition ("if he is younger than 16 years" against
					// "anyone under 16"); not a time the other side gives
					// another role ("if idle for 15 minutes" against
					// "sessions expire after 15 minutes").
					of, in = of+1, in+1
				case said && q.dim == "time" && !q.every && !otherRole(q, k, x, y):
					// A length of time of the condition said again in
					// the same role: "provided the goods leave unused
					// within five years" for "re-exported unused within
					// 5 years of import".
					of, in = of+1, in+1
				}
			}
			if float64(in)/float64(of) < 0.5 {
				if restated(x, k, y, all, verb == "dropped") {
					continue // said again without a cue: "on save of a rule", "at 1% methane"
				}
				kind := cd.kind
				if cd.outcome {
					kind = "unless" // counted as written (countKind)
				}
				others := countKind(y.conds, kind)
				if verb == "added" {
					others = openConds(y, kind, x)
				}
				if cd.kind == "if" && !cd.outcome && otherwiseAsIf(y, x, k) && (verb == "added" || otherwiseSaysOutcome(y, x, k)) {
					// "otherwise nobody is charged" said "if it falls short,
					// your card is never charged"; a filed case said so
					// too, when the "otherwise" says its outcome ("if they
					// arrive later, the starter is paid in the following
					// pay run" for "…, otherwise the joiner is paid in the
					// next pay run").
					others++
				}
				if countKind(x.conds, kind) <= others+implicitKind(y, kind)+negatedIfs(y, kind)+negatedExceptions(x, k, y)+elliptical(y, kind)+exceptedRefusals(y, kind)+namedExceptions(y, kind) {
					continue // the other side states a condition of its own: reworded
				}
				if verb == "added" && cd.kind == "if" && slices.ContainsFunc(y.conds, func(o condition) bool {
					return o.kind == "unless" && overlap(o.terms, cd.terms) >= 0.5 && ownOutcome(y, o, x, cd)
				}) {
					// "where the tenant is over 75 the cap rises to £600"
					// for "except tenants over 75, who may claim up to
					// £600": the exception, said as the case of its rule.
					continue
				}
				out = append(out, fmt.Sprintf("%s %s: %s %s", cd.label(), verb, cd.kind, cd.text))
				continue
			}
			// An exception whose words the other side states as part of
			// its rule, neither excepted nor negated: the exception is gone
			// ("but not for libraries" → "and for libraries").
			// Unless the other side states them as a condition of their
			// own ("only if it's travel, travel always needs one").
			if cd.kind == "unless" && verb == "dropped" && countKind(y.conds, "unless") == 0 && (plainIn(terms, main, y) || includedIn(terms, y)) && !inCondition(terms, y) && !labelled(terms, y) &&
				!ownRuleSaid(x, cd, y) && !(onlySays(cd.terms, y) && len(barredBefore(x, k)) > 0) {
				out = append(out, fmt.Sprintf("exception dropped: unless %s", cd.text))
				continue
			}
			// Stated on both sides: the same kind?
			for j, other := range y.conds {
				if cd.kind == "if" && refusedUnless(y, j) || cd.kind == "unless" && refusedUnless(x, k) {
					continue // "only when the leader invites them": "no child steps in unless the leader asks"
				}
				if other.kind != cd.kind && overlap(cd.terms, other.terms) >= 0.5 && verb == "dropped" && !ownOutcome(x, cd, y, other) && !cd.outcome && !other.outcome {
					out = append(out, fmt.Sprintf("%s %s → %s %s", cd.kind, cd.text, other.kind, other.text))
				}
			}
		}
	}
	check(a, b, "dropped")
	check(b, a, "added")
	return out
}

// framedBy reports whether the record's topic (its words) states the
// condition k of x: two of its words or more, half of them at least:
// "Mowing behaviour when the rain sensor triggers", "Isolating a
// compromised laptop" for "when EDR flags a laptop as compromised". A
// position given on that topic speaks in that case. Not a condition with
// a number of its own ("if it stays above 8 °C for 30 minutes"), a
// "while" ("while flour is being tipped"), which bound the rule more
// than they name its case, nor one said with a negation ("if no meter
// read is available"), which the rule may turn.
func framedBy(x *analysis, k int, topic map[string]bool) bool {
	cd := x.conds[k]
	if len(topic) == 0 || cd.kind != "if" || cd.while || negatedAround(x, k) || slices.ContainsFunc(x.qty, func(q quantity) bool { return q.cond == k }) {
		return false
	}
	lx := theLexicon()
	n, of := 0, 0
	for _, w := range cd.terms {
		if lx.generic[w] || lx.light[w] || strings.HasPrefix(w, "#") {
			continue
		}
		of++
		if topic[w] {
			n++
		}
	}
	return n >= 2 && 2*n >= of
}

// otherwiseAsIf reports whether the condition k of x may be the
// "otherwise" of y said as a case of its own: y states its rule's other
// side with "otherwise" at one end of a clause ("…; otherwise every
// pledge is cancelled and nobody is charged", "and in economy
// otherwise"), x says no "otherwise", and the clause of the condition, or
// the one after it, says a word of that other side ("if it falls short,
// your pledge is dropped", "if they split it stays an overvote"). Not an
// "otherwise" inside its clause ("when a chair would otherwise leave half
// empty"): a word of its rule.
func otherwiseAsIf(y, x *analysis, k int) bool {
	lx := theLexicon()
	other := lx.fold(stem("otherwise"))
	if slices.ContainsFunc(x.terms, func(t term) bool { return t.w == other }) {
		return false
	}
	side := map[string]bool{}
	for i, t := range y.terms {
		if t.w != other || t.cond >= 0 {
			continue
		}
		first := i == 0 || y.terms[i-1].clause != t.clause
		last := i == len(y.terms)-1 || y.terms[i+1].clause != t.clause
		if !first && !last {
			continue
		}
		for _, u := range y.terms {
			if u.clause == t.clause && u.w != other && !lx.generic[u.w] && !lx.light[u.w] && !lx.stop[u.w] && !strings.HasPrefix(u.w, "#") {
				side[u.w] = true
			}
		}
	}
	if len(side) == 0 {
		return false
	}
	c := x.conds[k].clause
	return slices.ContainsFunc(x.terms, func(t term) bool {
		return (t.clause == c || t.clause == c+1) && side[t.w]
	})
}

// otherwiseSaysOutcome reports whether y's "otherwise" clause says the
// outcome of the condition k of x: half the words of that outcome or more
// (the words of the condition's clause outside it, else those of the next
// clause), each as negated as in x. "otherwise the hours are not paid at
// all" does not say "if they come in later, the hours are paid in the
// next month's payroll", nor "otherwise the table is kept" "if not
// confirmed, the table is released to the waiting list".
func otherwiseSaysOutcome(y, x *analysis, k int) bool {
	lx := theLexicon()
	other := lx.fold(stem("otherwise"))
	plain := func(t term) bool {
		return t.w != other && !lx.generic[t.w] && !lx.light[t.w] && !lx.stop[t.w] && !strings.HasPrefix(t.w, "#")
	}
	side := map[string]bool{}
	for _, t := range y.terms {
		if t.w != other || t.cond >= 0 {
			continue
		}
		for _, u := range y.terms {
			if u.clause == t.clause && plain(u) {
				side[u.w] = u.neg
			}
		}
	}
	c := x.conds[k].clause
	var out []term
	for _, at := range []int{c, c + 1} {
		for _, t := range x.terms {
			if t.clause == at && t.cond != k && plain(t) {
				out = append(out, t)
			}
		}
		if len(out) > 0 {
			break
		}
	}
	n := 0
	for _, t := range out {
		if neg, ok := side[t.w]; ok && neg == t.neg {
			n++
		}
	}
	return len(out) > 0 && 2*n >= len(out)
}

// compareConditionParts finds, in an edit of the filed sentence, a
// condition that both sides state but one of them with a part of its own:
// "if they disagree" → "if they disagree and the example comes from the
// medical domain". The part is two specific words or more that the other
// side does not say at all.
func compareConditionParts(a, b *analysis) []string {
	lx := theLexicon()
	var out []string
	check := func(x, y *analysis, verb string) {
		all := set(y.words())
		for _, cd := range x.conds {
			if !slices.ContainsFunc(y.conds, func(o condition) bool { return o.kind == cd.kind && overlap(o.terms, cd.terms) >= 0.5 }) {
				continue
			}
			var own []string
			for _, w := range cd.terms {
				// A number the other side does not say is a part too
				// ("and older than a week").
				if !all[w] && !lx.generic[w] && !lx.light[w] && !lx.stop[w] && !slices.Contains(own, w) {
					own = append(own, w)
				}
			}
			if len(own) >= 2 {
				out = append(out, fmt.Sprintf("%s %s: %s %s", cd.label(), verb, cd.kind, cd.text))
			}
		}
	}
	check(a, b, "widened") // the filed condition's part left out
	check(b, a, "narrowed")
	return out
}

// restated reports whether the condition k of x is said again by y
// (whose words are all) without a cue of its own: most of its words, three or more, said by y
// ("when an admin saves a pricing rule" → "on save of a pricing rule"),
// or, for a condition of the filed rule (byNumber), a number of it said
// by y in the same clause as another of its words ("work stops if methane
// reaches 1%" → "at 1 percent methane all work stops"). A number changed
// is a difference of its own.
func restated(x *analysis, k int, y *analysis, all map[string]bool, byNumber bool) bool {
	cd := x.conds[k]
	if len(cd.terms) >= 3 && overlapIn(cd.terms, all) >= 0.7 {
		return true
	}
	if numbersRestated(x, k, y) {
		return true
	}
	for _, q := range x.qty {
		if !byNumber || q.cond != k || bareOne(q) {
			continue
		}
		for _, r := range y.qty {
			if !sameQuantity(q, r) {
				continue
			}
			if slices.ContainsFunc(y.terms, func(t term) bool {
				return t.clause == r.clause && !strings.HasPrefix(t.w, "#") && slices.Contains(cd.terms, t.w)
			}) {
				return true
			}
		}
	}
	return false
}

// overlapIn is the share of the distinct words of ws that are in m.
func overlapIn(ws []string, m map[string]bool) float64 {
	d := set(ws)
	if len(d) == 0 {
		return 0
	}
	in := 0
	for w := range d {
		if m[w] {
			in++
		}
	}
	return float64(in) / float64(len(d))
}

// labelled reports whether x states the words ws in a clause it labels
// an exception ("exception: migrations that drop a column") or exempt
// ("replicas used for handling: exempt"), not "not exempt".
func labelled(ws []string, x *analysis) bool {
	lx := theLexicon()
	exc, exempt := lx.fold("exception"), lx.fold(stem("exempt"))
	for _, t := range x.terms {
		if t.w != exc && (t.w != exempt || t.neg) {
			continue
		}
		n := 0
		for _, u := range x.terms {
			// The label's clause, or the one after it ("exception: …"),
			// or for "exempt" the one before it ("…: exempt").
			if (u.clause == t.clause || u.clause == t.clause+1 || t.w == exempt && u.clause == t.clause-1) && slices.Contains(ws, u.w) {
				n++
			}
		}
		if n*2 >= len(ws) {
			return true
		}
	}
	return false
}

// inCondition reports whether every word of ws stands in a condition of x.
func inCondition(ws []string, x *analysis) bool {
	for _, w := range ws {
		if !slices.ContainsFunc(x.conds, func(c condition) bool { return slices.Contains(c.terms, w) }) {
			return false
		}
	}
	return len(ws) > 0
}

// timeNames are the months and days, folded: a time a negated verb is
// set in, not its object. Not "may", a modal as often as a month.
var timeNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(monthNames + " " + weekdayNames + " weekend weekends") {
		if w != "may" {
			m[theLexicon().fold(stem(w))] = true
		}
	}
	return m
})

// compareEvenCovered finds an exception of the filed rule that the new
// one says the rule covers "even": "except for material breach" against
// "that applies even in the case of a material breach".
func compareEvenCovered(a, b *analysis) []string {
	if !b.even {
		return nil
	}
	covered := map[string]bool{}
	for _, t := range b.terms {
		if t.even && !t.neg {
			covered[t.w] = true
		}
	}
	var out []string
	insisted := insistsEven(b)
	for k, cd := range a.conds {
		if len(cd.terms) == 0 {
			continue
		}
		// An exception with an outcome of its own ("unless X, then B")
		// covered "even" loses its outcome just the same.
		excepted := cd.kind == "unless" || cd.outcome
		n, said := 0, 0
		for _, w := range cd.terms {
			if covered[w] {
				n++
			}
		}
		if !excepted && insisted && caseOnlyEven(a, k, b, covered) && ownCaseRule(a, k, b, covered) {
			// A case set down in a part of its own with its own outcome
			// ("…; the charge is waived when the app showed no free bay")
			// that the new rule insists it holds in "always", "even if
			// the app showed no free bay": the exception is dropped. Its
			// words the new rule says elsewhere count as said ("during a
			// declared emergency one operator's approval is enough"
			// against "2 operator approvals, always, not even in a
			// declared emergency").
			all := set(b.words())
			for _, w := range cd.terms {
				if !covered[w] && all[w] {
					said++
				}
			}
			excepted = true
		}
		if excepted && 2*(n+said) >= len(cd.terms) {
			out = append(out, "exception dropped: unless "+cd.text)
		}
	}
	return out
}

// insistsEven reports whether x says its rule holds in a case "even",
// insisting on it: "always" or a negation said before the clause of
// "even" ("charged $25, always, even if the app showed no free bay",
// "never orange, even if both captains agree"). A plain "even when it
// rains" widens a rule without setting aside a case of the other side.
func insistsEven(x *analysis) bool {
	at := -1
	for _, t := range x.terms {
		if t.even {
			at = t.clause
			break
		}
	}
	if at < 0 {
		return false
	}
	always := alwaysWord()
	return slices.ContainsFunc(x.terms, func(t term) bool {
		return !t.even && t.clause <= at && (t.w == always || t.neg)
	})
}

// caseOnlyEven reports whether y covers "even" a word of the condition k
// of x that y says nowhere outside that case ("declared" in "not even in
// a declared emergency"), where x does not itself say the case "even"
// ("not allowed on even when accompanied by an adult" is the rule held,
// not an exception). A word y's rule says as well ("bay" in "outside a
// bay >30 min") reads the rule, not the case.
func caseOnlyEven(x *analysis, k int, y *analysis, covered map[string]bool) bool {
	if slices.ContainsFunc(x.terms, func(t term) bool { return t.cond == k && t.even }) {
		return false
	}
	outside := map[string]bool{}
	for _, t := range y.terms {
		if !t.even {
			outside[t.w] = true
		}
	}
	return slices.ContainsFunc(x.conds[k].terms, func(w string) bool { return covered[w] && !outside[w] })
}

// ownCaseRule reports whether the condition k of x stands in a part of
// its own, away from the rule's first clause, and that part says the
// rule's matter again, a word y says outside the case it covers:
// "orange balls are used instead only if both captains agree" against
// "never orange, even if both captains agree" (not "if a backup fails,
// an alert is sent", an outcome y does not speak of).
func ownCaseRule(x *analysis, k int, y *analysis, covered map[string]bool) bool {
	first := -1
	for _, t := range x.terms {
		if t.cond < 0 {
			first = t.clause
			break
		}
	}
	cd := x.conds[k]
	if first < 0 || cd.clause <= first {
		return false
	}
	outside := map[string]bool{}
	for _, t := range y.terms {
		if !t.even && t.cond < 0 {
			outside[t.w] = true
		}
	}
	lx := theLexicon()
	// The part is the condition's clause, and the next one of its
	// sentence when the condition opens it ("when the renter bought the
	// fuel option, the car can come back empty").
	part := func(cl int) bool {
		return cl == cd.clause || cl == cd.clause+1 && cl < len(x.sentences) && x.sentences[cl] == x.sentences[cd.clause]
	}
	return slices.ContainsFunc(x.terms, func(t term) bool {
		return part(t.clause) && !covered[t.w] && outside[t.w] && !lx.generic[t.w] && !strings.HasPrefix(t.w, "#")
	})
}

// plainIn reports whether every word of ws stands in x's rule itself:
// outside any condition, not negated, and in a clause with a word of
// rule (a clause of its own, "security fixes may go out any time", is a
// permission that restates the exception).
func plainIn(ws []string, rule map[string]bool, x *analysis) bool {
	lx := theLexicon()
	own := set(ws)
	ruled, negated, negClause, foreign := map[int]bool{}, map[string]bool{}, map[int]bool{}, map[int]bool{}
	for _, u := range x.terms {
		if u.neg || u.unsaidFor {
			// "volunteers living nearby will not get it" says the
			// case set aside, as a negation of its words does.
			negated[u.w], negClause[u.clause] = true, true
		}
		if rule[u.w] && !own[u.w] && !lx.generic[u.w] && !strings.HasPrefix(u.w, "#") {
			ruled[u.clause] = true
		}
		if !rule[u.w] && !own[u.w] && !lx.generic[u.w] && !lx.light[u.w] && !lx.stop[u.w] && !strings.HasPrefix(u.w, "#") {
			foreign[u.clause] = true
		}
	}
	plain := map[string]bool{}
	for _, t := range x.terms {
		// A clause that says something the rule does not gives the
		// exception a rule of its own ("same-day orders jump the
		// queue"): the exception is restated, not dropped.
		if t.cond < 0 && !t.neg && ruled[t.clause] && !negClause[t.clause] && !foreign[t.clause] {
			plain[t.w] = true
		}
	}
	for _, w := range ws {
		if negated[w] || !plain[w] {
			return false
		}
	}
	return true
}

// includedIn reports whether x says the exception whose words are ws
// included in its rule: right after "including" or "even" ("including
// the refrigerated vans", "even the special exhibitions"), or right
// before a closing "included" ("pens and calendars included"), none of
// its words negated or in a condition. Not "X including Y" or "included
// in the headcount" (the words elsewhere in the clause), "even hours",
// nor a mark that goes on about an exception its sentence states in a
// clause of its own ("night staff skip it, even the night managers").
func includedIn(ws []string, x *analysis) bool {
	if len(ws) == 0 {
		return false
	}
	incl, even := theLexicon().fold(stem("included")), theLexicon().fold(stem("even"))
	says := func(ts []term) bool {
		return !slices.ContainsFunc(ws, func(w string) bool {
			return !slices.ContainsFunc(ts, func(t term) bool { return t.w == w && !t.neg && t.cond < 0 })
		})
	}
	// The clauses that state the whole exception, read once.
	var stated map[int]bool
	for i, m := range x.terms {
		if m.neg || !(m.w == incl || m.w == even && !x.even) { // "even for …": compareEvenCovered
			continue
		}
		if stated == nil {
			byClause := map[int][]term{}
			for _, t := range x.terms {
				byClause[t.clause] = append(byClause[t.clause], t)
			}
			stated = map[int]bool{}
			for c, ts := range byClause {
				stated[c] = says(ts)
			}
		}
		var before, after []term // the clause's other terms, in order
		restated := false
		for j, t := range x.terms {
			switch {
			case j != i && t.clause == m.clause && t.at > m.at:
				after = append(after, t)
			case j != i && t.clause == m.clause:
				before = append(before, t)
			case t.clause != m.clause && x.sentence(t.clause) == x.sentence(m.clause):
				restated = restated || stated[t.clause]
			}
		}
		if restated {
			continue
		}
		closing := strings.HasSuffix(strings.ToLower(m.text), "ed") // "included", not "including"
		if !closing && len(after) > 0 && after[0].at-m.to <= 3 && says(after[:min(len(after), len(ws)+2)]) {
			return true
		}
		if (closing || m.w == even) && len(after) == 0 && len(before) > 0 && m.at-before[len(before)-1].to <= 3 && says(before) {
			return true
		}
	}
	return false
}

// negatedIfs counts, for an exception, the conditions of x that say it
// with a negation: "as long as nobody else has reserved it" is "unless
// another reader has reserved it", and "no renewal if someone is
// waiting" is "renewed unless someone is waiting".
func negatedIfs(x *analysis, kind string) int {
	if kind != "unless" {
		return 0
	}
	n := 0
	for k, c := range x.conds {
		if c.kind == "if" && negatedAround(x, k) {
			n++
		}
	}
	return n
}

// exceptedRefusals counts, for a condition, the exceptions x opens with
// "unless" in a clause it negates: "no child steps into the circle
// unless the leader asks them in" says "children enter only when the
// leader invites them", a condition in other words.
func exceptedRefusals(x *analysis, kind string) int {
	if kind != "if" {
		return 0
	}
	n := 0
	for k := range x.conds {
		if refusedUnless(x, k) {
			n++
		}
	}
	return n
}

// namedExceptions counts, for an exception, the times x names one with
// the word itself outside any condition: "Exception: patients with a CI
// are booked for 60 minutes", "the only exception is if the courier ended
// up in hospital", "…; the shielded room is the only exception". Such a
// case is set aside as "unless" sets it, in other words. Not "no
// exceptions" nor "exceptions are never made", which say there is none.
func namedExceptions(x *analysis, kind string) int {
	if kind != "unless" {
		return 0
	}
	exc := theLexicon().fold("exception")
	n := 0
	for _, t := range x.terms {
		if t.w != exc || t.neg || t.cond >= 0 || slices.ContainsFunc(x.terms, func(u term) bool { return u.neg && u.clause == t.clause }) {
			continue
		}
		// The case it names, in its clause or the one after it
		// ("exception: …"): "exceptions are never made" names none.
		if slices.ContainsFunc(x.terms, func(u term) bool {
			return u.w != exc && !u.neg && (u.clause == t.clause || u.clause == t.clause+1)
		}) {
			n++
		}
	}
	return n
}

// refusedUnless reports whether the condition k of x is an "unless" in a
// clause x negates ("no child steps in unless the leader asks"), not an
// exception read onto a rule said before ("…must not park there; blue
// badge holders are exempt").
func refusedUnless(x *analysis, k int) bool {
	c := x.conds[k]
	if c.kind != "unless" || !c.unless || c.outcome || len(c.terms) == 0 {
		return false
	}
	at := slices.IndexFunc(x.terms, func(t term) bool { return t.cond == k })
	return at >= 0 && slices.ContainsFunc(x.terms, func(t term) bool { return t.neg && t.cond < 0 && t.clause == x.terms[at].clause })
}

// negatedAround reports whether the condition k of x, or the clause it
// stands in, holds a negation.
func negatedAround(x *analysis, k int) bool {
	return slices.ContainsFunc(x.terms, func(t term) bool { return t.neg && (t.cond == k || t.clause == x.conds[k].clause) })
}

// negatedExceptions is, for a condition k of x said with a negation ("if
// nobody has reserved it, you may extend"), the exceptions of y that say
// it the other way round ("renewed unless another member has a hold").
func negatedExceptions(x *analysis, k int, y *analysis) int {
	if x.conds[k].kind != "if" || !negatedAround(x, k) {
		return 0
	}
	return countKind(y.conds, "unless")
}

// setAsideWords say that a rule is set aside ("skip it if", "may deviate
// when", "waived if", "the limit is lifted when", "paging suppressed
// during", "bypassed if", "overridden when"), stemmed as written (the
// lexicon reads "skip" as "run" negated).
var setAsideWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"skip", "skipped", "deviate", "waive", "waived", "exempt", "exemption", "exception", "suspend", "suspended",
		"lift", "lifted", "override", "overridden", "suppress", "suppressed", "bypass", "bypassed", "excluded"} {
		m[stem(w)] = true
	}
	return m
})

// setAsideUnder reports whether x says its rule is set aside under its
// condition cd: a word that sets a rule aside in the condition's clause or
// the one before ("skip it only if", "exception if wearing", "the limit
// does not apply during").
func setAsideUnder(x *analysis, cd condition) bool {
	lx := theLexicon()
	apply := lx.fold(stem("apply"))
	// "If the lab collects them, none of this applies": the clause after
	// a condition that opens its sentence is its rule too.
	after := cd.clause > 0 && x.sentence(cd.clause-1) != x.sentence(cd.clause)
	if cd.clause == 0 {
		after = true
	}
	for _, t := range x.terms {
		if t.cond >= 0 || !(t.clause == cd.clause || t.clause+1 == cd.clause || after && t.clause == cd.clause+1 && x.sentence(t.clause) == x.sentence(cd.clause)) {
			continue
		}
		if setAsideWords()[stem(strings.ToLower(t.text))] || t.neg && (t.w == apply || neededWords()[t.w]) {
			return true
		}
	}
	return false
}

// plainException reports whether y sets aside the case cd names with an
// exception of its own ("except when the lab collects them") to a rule it
// does not negate before it: not "a team not checked in is forfeited,
// unless an admin approved a delay", which reads as "only if".
func plainException(y *analysis, cd condition) bool {
	for _, o := range y.conds {
		if o.kind != "unless" || overlap(o.terms, cd.terms) < 0.5 {
			continue
		}
		if !slices.ContainsFunc(y.terms, func(t term) bool {
			return t.neg && t.cond < 0 && t.clause <= o.clause && y.sentence(t.clause) == y.sentence(o.clause)
		}) {
			return true
		}
	}
	return false
}

// neededWords say that a rule is needed ("required", "necessary"): said
// negated under a condition ("not needed when the lab collects them"),
// the rule set aside there.
var neededWords = sync.OnceValue(func() map[string]bool {
	lx := theLexicon()
	m := map[string]bool{}
	for _, w := range append([]string{"need", "require"}, dutyWords...) {
		m[lx.fold(stem(w))] = true
	}
	return m
})

// ownOutcome reports whether y states the exception cd of x as a
// condition with an outcome of its own: "A4 for all customers except
// those with a US address, who get Letter" against "A4 for everybody;
// when the address is in the US we print on Letter". The condition of y
// (or the clause after it) says a word that x says of its exception
// only, in the clause after it, or it negates the rule the exception
// is taken from ("no renewal if someone is waiting"), or sets it aside
// ("skip it only if"; a filed "the charge is waived when" against
// "unless" is the same exception the other way round).
func ownOutcome(x *analysis, cd condition, y *analysis, other condition) bool {
	lx := theLexicon()
	if cd.kind == "if" && other.kind == "unless" && setAsideUnder(x, cd) {
		// "the charge is waived when the app showed no bay" against
		// "…, unless the app showed no bay".
		return true
	}
	if cd.kind != "unless" || other.kind != "if" {
		return false
	}
	region := map[string]bool{}
	for _, t := range y.terms {
		if t.clause == other.clause || t.clause == other.clause+1 {
			region[t.w] = true
		}
	}
	// A word x says of its exception only: not the rule's own verb
	// ("visitors sign in with the duty nurse" for "…, when they sign in
	// at the security lodge").
	rest := map[string]bool{}
	for _, t := range x.terms {
		if t.clause != cd.clause+1 {
			rest[t.w] = true
		}
	}
	for _, t := range x.terms {
		if t.clause == cd.clause+1 && !slices.Contains(cd.terms, t.w) && !lx.generic[t.w] && !lx.light[t.w] && region[t.w] && !rest[t.w] {
			return true
		}
	}
	// A measure said again in other words ("up to £300" and "three
	// hundred pounds").
	for _, q := range x.qty {
		if q.clause == cd.clause+1 && q.dim != "" && slices.ContainsFunc(y.qty, func(r quantity) bool {
			return (r.clause == other.clause || r.clause == other.clause+1) && sameQuantity(q, r)
		}) {
			return true
		}
	}
	// "Skip it only if the patient has an infection", "the limit does not
	// apply during live coverage": the rule set aside under the
	// condition, as "unless" sets it aside.
	if setAsideUnder(y, other) {
		return true
	}
	// "No refund if the item was used" against "refund unless the item
	// was used": the rule itself negated under the condition.
	for _, t := range y.terms {
		if t.neg && t.cond < 0 && t.clause == other.clause && slices.ContainsFunc(x.terms, func(u term) bool {
			return u.w == t.w && !u.neg && u.cond < 0 && u.clause == cd.clause
		}) {
			return true
		}
	}
	return outcomeFrees(x, cd, y, other)
}

// outcomeFrees reports whether what y's condition other leads to (its
// clause and the next) lifts the rule x sets aside with its exception cd:
// a word of x's rule negated there ("…, unless the restaurant moved the
// booking" against "if the restaurant moved the booking, we do not
// charge"), or a payment of x's rule made free ("a £5 monthly fee applies
// unless they play in the youth band" against "if they play in the youth
// band, no charge" or "then no need to pay").
func outcomeFrees(x *analysis, cd condition, y *analysis, other condition) bool {
	lx := theLexicon()
	free, pay, fee := lx.fold(stem("free")), lx.fold(stem("charge")), lx.fold(stem("fee"))
	rule := map[string]bool{}
	for _, t := range x.terms {
		if t.cond < 0 && !t.neg {
			rule[t.w] = true
		}
	}
	barred := map[string]bool{}
	for _, t := range x.terms {
		if t.cond < 0 && t.neg && t.clause == cd.clause-1 {
			barred[t.w] = true
		}
	}
	paid := rule[pay] || rule[fee] || slices.ContainsFunc(x.qty, func(q quantity) bool { return q.cond < 0 && money(q.dim) })
	for _, t := range y.terms {
		if t.clause != other.clause && t.clause != other.clause+1 || !t.neg && slices.Contains(cd.terms, t.w) {
			continue
		}
		if t.neg && rule[t.w] && !lx.generic[t.w] && !lx.light[t.w] || paid && (t.w == free && !t.neg || t.neg && (t.w == pay || t.w == fee)) {
			return true
		}
		// A bar of x's rule lifted under the condition: "pets are not
		// allowed, except assistance dogs" against "where a dog is an
		// assistance dog, it is allowed".
		if !t.neg && t.clause == other.clause+1 && barred[t.w] && !slices.ContainsFunc(cd.terms, func(w string) bool { return !slices.Contains(other.terms, w) }) {
			return true
		}
	}
	return false
}

// ownRuleSaid reports whether y states, as a rule of its own, what x
// says of its exception cd in the clause after it (cd.then): "any aid older than 5
// years is withdrawn, except children's aids, which are withdrawn after 3
// years" against "…; children's aids are withdrawn after 3 years". A
// clause of y names a word of the exception and says what x says only in
// that clause: its numbers, every one of them, when it has any ("after 2
// weeks" for "after 4 weeks" is the rule swapped, not restated); else one
// of its words.
func ownRuleSaid(x *analysis, cd condition, y *analysis) bool {
	if !cd.then {
		return false
	}
	lx := theLexicon()
	elsewhere := map[string]bool{}
	for _, t := range x.terms {
		if t.clause != cd.clause+1 {
			elsewhere[t.w] = true
		}
	}
	// The clause's words, and a condition opened there ("except during
	// a stock count, when 60 minutes inside is allowed").
	inOwn := func(t term) bool {
		return t.clause == cd.clause+1 && (t.cond < 0 || x.conds[t.cond].clause == cd.clause+1 && x.conds[t.cond].kind == "if") &&
			(!lx.generic[t.w] && !lx.light[t.w] || t.neg) && !slices.Contains(cd.terms, t.w)
	}
	// A word is said with its polarity: "on match days, guests are
	// allowed" does not say "when no guests are allowed".
	key := func(t term) string {
		if t.neg {
			return "!" + t.w
		}
		return t.w
	}
	var own, nums, every []string
	for _, t := range x.terms {
		if !inOwn(t) {
			continue
		}
		every = append(every, key(t))
		switch {
		case elsewhere[t.w] && !t.neg:
		case strings.HasPrefix(t.w, "#"):
			nums = append(nums, t.w)
		default:
			own = append(own, key(t))
		}
	}
	if len(nums) > 0 {
		own = nil
	}
	// Every word of the own rule said elsewhere too ("which may run with
	// 1 immunizer and 1 observer" beside "2 immunizers and 1 observer"):
	// all of them together say it.
	all := len(own)+len(nums) == 0
	if all {
		nums = every
		// with each number counting what it counts: "1 teacher and 2
		// assistants" is not "2 teachers and 1 assistant".
		for k, t := range x.terms {
			if inOwn(t) && strings.HasPrefix(t.w, "#") && k+1 < len(x.terms) && x.terms[k+1].clause == t.clause && !strings.HasPrefix(x.terms[k+1].w, "#") {
				nums = append(nums, t.w+">"+x.terms[k+1].w)
			}
		}
	}
	if len(own)+len(nums) == 0 {
		return false
	}
	// A clause with the clause after it in its sentence: "Dangerous-goods
	// wagons: stopped at 40 mm." says the rule of its thing after a colon.
	clauses := map[int]map[string]bool{}
	for _, t := range y.terms {
		for _, c := range []int{t.clause, t.clause - 1} {
			if c < 0 || y.sentence(c) != y.sentence(t.clause) {
				continue
			}
			if clauses[c] == nil {
				clauses[c] = map[string]bool{}
			}
			clauses[c][key(t)] = true
		}
	}
	for k, t := range y.terms {
		if !strings.HasPrefix(t.w, "#") || k+1 >= len(y.terms) || y.terms[k+1].clause != t.clause {
			continue
		}
		for _, c := range []int{t.clause, t.clause - 1} {
			if clauses[c] != nil && y.sentence(c) == y.sentence(t.clause) {
				clauses[c][t.w+">"+y.terms[k+1].w] = true
			}
		}
	}
	for _, ws := range clauses {
		if !slices.ContainsFunc(cd.terms, func(w string) bool { return ws[w] }) {
			continue
		}
		if len(nums) > 0 && !slices.ContainsFunc(nums, func(w string) bool { return !ws[w] }) {
			return true
		}
		// After "where" or "when" the clause is a case as much as a rule
		// ("where the registrar may waive the courier"): every word of it
		// said, not the registrar's part given to the conservator.
		said := func(w string) bool { return ws[w] }
		if cd.thenWord == "where" || cd.thenWord == "when" {
			if !slices.ContainsFunc(own, func(w string) bool { return !ws[w] }) {
				return true
			}
		} else if slices.ContainsFunc(own, said) {
			return true
		}
	}
	return false
}

// implicitKind counts the condition a rule states without a cue: a
// default ("50 items by default") is a rule with an exception.
func implicitKind(x *analysis, kind string) int {
	if kind == "unless" && slices.ContainsFunc(x.terms, func(t term) bool { return t.w == "default" }) {
		return 1
	}
	return 0
}

// without are the words of ws not in m.
func without(ws []string, m map[string]bool) []string {
	var out []string
	for _, w := range ws {
		if !m[w] {
			out = append(out, w)
		}
	}
	return out
}

func countKind(cs []condition, kind string) int {
	n := 0
	for _, c := range cs {
		// An exception with an outcome of its own ("unless X, in which
		// case …") is counted as the exception it was written as.
		if (c.kind == kind && !c.outcome || c.outcome && kind == "unless") && len(c.terms) > 0 {
			n++
		}
	}
	return n
}

func (cd condition) label() string {
	if cd.kind == "unless" {
		return "exception"
	}
	return "condition"
}

func overlap(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	sb := set(b)
	n := 0
	for _, w := range a {
		if sb[w] {
			n++
		}
	}
	return float64(n) / float64(min(len(a), len(b)))
}

// swapScore is the similarity from which a word swapped for another in an
// otherwise identical sentence changes the rule ("sort by price" / "sort
// by stock").
const swapScore = 0.7

// shortRule is how many specific words a position may have and still be
// short enough that one swapped word changes it at any similarity.
const shortRule = 3

// versionRE matches version labels ("v1"), which read as numbers.
var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v[0-9]+$`) })

// compareSwaps aligns the two positions' content words (longest common
// subsequence) and, in sentences that are otherwise nearly the same, finds
// a place where up to two specific words stand for others.
//
// A word of the record's topic that one side says and the other leaves
// out is passed over: the record says it ("Partition the events table by
// event date" → "partition key: event date").
func compareSwaps(a, b *analysis, score float64, topic map[string]bool) []string {
	lx := theLexicon()
	// An option of a choice (compareOptions' business) stays in the
	// alignment only as an anchor both sides name: "roll back first and
	// investigate later" → "investigate first and roll back later".
	keep := func(x *analysis, y map[string]bool) []string {
		var out []string
		for _, t := range x.terms {
			if topic[t.w] && !y[t.w] && !measureWord(t.w) {
				continue // but a unit stays: "respite nights" → "respite weeks" changes the measure
			}
			if !strings.HasPrefix(t.w, "#") && !versionRE().MatchString(t.w) && !lx.generic[t.w] && !lx.light[t.w] && !lx.instead[t.w] && (lx.altGroup[t.w] == 0 || y[t.w]) {
				out = append(out, t.w)
			}
		}
		return out
	}
	wa, wb := keep(a, set(b.words())), keep(b, set(a.words()))
	// A short rule (a few specific words) swaps one word as surely as a
	// long sentence that is otherwise the same.
	if score < swapScore && (len(wa) > shortRule || len(wb) > shortRule) {
		return nil
	}
	ca, cb := counts(wa), counts(wb)
	var out []string
	short := score < swapScore
	gaps := alignGaps(wa, wb, score >= openingScore || len(wa) <= shortRule && len(wb) <= shortRule)
	for _, g := range gaps {
		x, y := absent(g[0], ca, cb), absent(g[1], cb, ca)
		if len(x) == 0 || len(y) == 0 || len(x) > 2 || len(y) > 2 || short && (len(x) > 1 || len(y) > 1) {
			continue
		}
		if len(x) <= len(y) && loose(x, y) || len(y) <= len(x) && loose(y, x) {
			continue // "cache pages" and "keep pages" at the CDN; "files with HTTP 413" and "status 413"
		}
		out = append(out, strings.Join(a.sayAll(x), " ")+" → "+strings.Join(b.sayAll(y), " "))
	}
	// Two things trading places: "READ COMMITTED for web requests and
	// SERIALIZABLE for billing" → the other way round.
	for i, g := range gaps {
		for _, h := range gaps[i+1:] {
			if len(g[0]) <= 3 && len(g[1]) <= 3 && sameSet(g[0], h[1]) && sameSet(g[1], h[0]) && !sameSet(g[0], g[1]) {
				out = append(out, strings.Join(a.sayAll(g[0]), " ")+" ↔ "+strings.Join(a.sayAll(g[1]), " "))
			}
		}
	}
	return out
}

// openingScore is the similarity from which the words before the first
// shared one are compared too: in sentences this close, "Delete a test
// after…" against "Quarantine a test after…" swaps the verb. A short rule
// ("Use UUIDv7 keys" / "Use random keys") compares its opening at any
// similarity.
const openingScore = 0.85

func counts(ws []string) map[string]int {
	m := make(map[string]int, len(ws))
	for _, w := range ws {
		m[w]++
	}
	return m
}

func sameSet(a, b []string) bool {
	sa, sb := set(a), set(b)
	if len(sa) != len(sb) {
		return false
	}
	for w := range sa {
		if !sb[w] {
			return false
		}
	}
	return true
}

// absent are the words of ws that their side uses more often than the
// other: "EU customers' data only in US regions" has one "EU" fewer than
// "EU customers' data only in EU regions".
func absent(ws []string, own, other map[string]int) []string {
	var out []string
	for _, w := range ws {
		if own[w] > other[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// alignGaps returns the stretches between the common subsequence of a and
// b, as pairs (the words of a, the words of b), where both are non-empty.
func alignGaps(a, b []string, opening bool) [][2][]string {
	n, m := len(a), len(b)
	if n == 0 || m == 0 || n > 256 || m > 256 {
		return nil
	}
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out [][2][]string
	var ga, gb []string
	flush := func() {
		if len(ga) > 0 && len(gb) > 0 {
			out = append(out, [2][]string{ga, gb})
		}
		ga, gb = nil, nil
	}
	i, j := 0, 0
	anchored := false
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			if !anchored && !opening {
				// Words before the first shared one have nothing before
				// them to anchor a swap: an opening reworded.
				ga, gb = nil, nil
			}
			anchored = true
			flush()
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			ga = append(ga, a[i])
			i++
		default:
			gb = append(gb, b[j])
			j++
		}
	}
	ga = append(ga, a[i:]...)
	gb = append(gb, b[j:]...)
	flush()
	return out
}

// compareItems finds an item of a list ("email addresses or phone
// numbers", "the linter and the race detector") that one side names and
// the other leaves out while saying nothing the first does not: the rule
// covers fewer (or more) things.
//
// An item only added counts in an edit of the filed sentence: a rewording
// adds detail ("raw translation keys"). An item the record's topic names
// (topic) is what the question is about: a position may leave it to the
// topic ("Suits and dresses dropped off before 10:00 …" under "Turnaround
// for suits and dresses", answered "In before 10:00, …").
func compareItems(a, b *analysis, edit bool, topic map[string]bool) []string {
	lx := theLexicon()
	specific := func(t term) bool {
		return !strings.HasPrefix(t.w, "#") && !lx.generic[t.w] && !lx.light[t.w]
	}
	var out []string
	check := func(x, y *analysis, verb string) {
		sy, sx := set(y.words()), set(x.words())
		// An exception says what a negation says: "fixed-tariff customers
		// are exempt" is "are not asked to".
		fewerNegs := x.negs > y.negs+countKind(y.conds, "unless")
		for _, t := range y.terms {
			if specific(t) && !sx[t.w] {
				return // y says something x does not: reworded, not cut
			}
		}
		var gone []string
		for i, t := range x.terms {
			// An item of a list said again by its next word: "payment
			// card numbers" as "card numbers", "and replays the first
			// response" as "gets the first response back".
			if t.listed && !t.neg && i+1 < len(x.terms) && x.terms[i+1].clause == t.clause && !x.terms[i+1].listed &&
				specific(x.terms[i+1]) && sy[x.terms[i+1].w] {
				continue
			}
			// An item of a list, or a negated word when the other side
			// negates less ("API keys are not accepted" left out).
			if salutationCues()[t.w] {
				continue // "Ladies and gentlemen, …": a greeting, no item of the rule
			}
			if (t.listed && specific(t) && !lx.action[t.w] || t.neg && fewerNegs && !strings.HasPrefix(t.w, "#")) && !t.reason && !sy[t.w] && !topic[t.w] && !slices.Contains(gone, t.w) {
				gone = append(gone, t.w)
			}
		}
		if len(gone) > 0 {
			out = append(out, fmt.Sprintf("%s %s", strings.Join(x.sayAll(gone), ", "), verb))
		}
	}
	check(a, b, "dropped")
	if edit {
		check(b, a, "added")
	}
	return out
}

// loose reports whether every word of x has a near meaning among y's
// (looseGroups): swapping them rewords the rule.
func loose(x, y []string) bool {
	lx := theLexicon()
	for _, w := range x {
		if !slices.ContainsFunc(y, func(v string) bool { return lx.near(w, v) || shortFor(w, v) || shortFor(v, w) }) {
			return false
		}
	}
	return true
}

// shortFor reports whether x is y shortened: "dec" for "december",
// "repo" for "repositori".
func shortFor(x, y string) bool {
	return len(x) >= 3 && len(y) > len(x) && strings.HasPrefix(y, x)
}

// measureWord reports whether the folded word w is a unit of measure, or
// the night a stay is counted in: a word the record's topic names that
// an edit changes for another ("respite nights" → "respite weeks")
// changes the measure, not the name of the topic's object.
func measureWord(w string) bool {
	lx := theLexicon()
	_, unit := lx.units[w]
	return unit || w == lx.fold(stem("night"))
}

// salutationCues open or close a message: a clause that holds one and
// otherwise only courtesies or names is no part of a rule.
var salutationCues = foldedWordSet("hi hello hey dear greetings thanks thank regards cheers sincerely ladies gentlemen")

// courtesies are the words a greeting or a sign-off is made of besides
// its cue and a name: "thanks for your ticket", "warm regards", "dear
// colleagues".
var courtesies = foldedWordSet(`best warm kind many all team everyone there folks colleagues friends
		ticket message email mail note question touch raising reaching getting asking contacting writing patience`)

// dayGreetings are the parts of the day a greeting names ("Good
// morning all"), folded as terms are.
var dayGreetings = foldedWordSet("morning afternoon evening good")

// messageLabels are the words of a label that opens a message ("small
// reminder:", "quick update", "heads up"), folded as terms are.
var messageLabels = foldedWordSet("reminder small quick friendly gentle heads up fyi psa announcement notice info")

// salutation reports whether the clause order[i] (its terms byClause)
// greets or signs off a message: at the start, a greeting ("Hi Dave",
// "Dear colleagues") or the thanks after it ("thanks for your ticket");
// in the last two clauses, a sign-off ("Kind regards") or the name after
// one ("Box Office"). A greeting or a sign-off holds a salutation cue and
// at most two words other than courtesies (a name).
func salutation(ts []term, i int, order []int, byClause map[int][]term) bool {
	greeting := func(ts []term) bool {
		cue, dayCue, other := false, false, 0
		for _, t := range ts {
			switch {
			case salutationCues()[t.w]:
				cue = true
			case courtesies()[t.w]:
			case dayGreetings()[t.w]:
				dayCue = true
			case strings.HasPrefix(t.w, "#"):
				return false
			default:
				other++
			}
		}
		// "Morning everyone", "Good afternoon all": a part of the day
		// with courtesies only ("Morning shift" is none).
		return cue && other <= 2 || dayCue && other == 0
	}
	// "small reminder:", "quick update": a label of the message after its
	// greeting, or opening it.
	label := func(ts []term) bool {
		for _, t := range ts {
			if !courtesies()[t.w] && !messageLabels()[t.w] {
				return false
			}
		}
		return len(ts) > 0
	}
	switch {
	case i <= 1 && greeting(ts):
		return i == 0 || greeting(byClause[order[0]])
	case i == 1 && label(ts) && greeting(byClause[order[0]]), i == 0 && len(order) > 1 && label(ts) && slices.ContainsFunc(ts, func(t term) bool { return messageLabels()[t.w] }):
		return true
	case i >= len(order)-2 && greeting(ts):
		return true
	case i == len(order)-1 && i > 0 && len(ts) <= 3 && greeting(byClause[order[i-1]]):
		return true // the name under a sign-off
	}
	return false
}

// maxQtyPairs bounds the pairs of numbers compareClauses tries for tying a
// clause to the other side.
const maxQtyPairs = 4096

// clauseWords is how many specific words a clause needs for leaving it out
// to change the rule: "larger jobs need approval from the platform team"
// is a part of the rule, "please" or "always" is not.
const clauseWords = 2

// compareClauses finds a clause of the filed position (a part of the rule:
// "…; larger jobs need approval from the platform team") that the new
// one leaves out, none of its specific words said, while saying nothing
// the filed one does not: the rule lost a part. And the other way round:
// a part added. A condition that the record's topic states (topic, its
// words) is no part left out: the position speaks in that case.
func compareClauses(a, b *analysis, topic map[string]bool) []string {
	lx := theLexicon()
	specific := func(t term) bool {
		return !strings.HasPrefix(t.w, "#") && !lx.generic[t.w] && !lx.light[t.w] && !lx.stop[t.w]
	}
	var out []string
	sa, sb := set(a.words()), set(b.words())
	check := func(x, y *analysis, sx, sy map[string]bool, verb string) {
		for _, t := range y.terms {
			if specific(t) && !sx[t.w] {
				return // y says something x does not: reworded, not cut
			}
		}
		byClause := map[int][]term{}
		var order []int
		for _, t := range x.terms {
			if t.reason {
				continue // a reason given for the rule is no part of it
			}
			if _, ok := byClause[t.clause]; !ok {
				order = append(order, t.clause)
			}
			byClause[t.clause] = append(byClause[t.clause], t)
		}
		inc := lx.fold(stem("include"))
		saidQty := map[int]bool{}
		for _, q := range x.qty {
			if len(x.qty)*len(y.qty) > maxQtyPairs {
				break // a text of hundreds of numbers: no clause is tied by one
			}
			if !saidQty[q.clause] && !bareOne(q) && slices.ContainsFunc(y.qty, func(p quantity) bool { return sameQuantity(q, p) }) {
				saidQty[q.clause] = true
			}
		}
		for i, c := range order {
			ts := byClause[c]
			if slices.ContainsFunc(ts, func(t term) bool { return t.w == inc }) {
				continue // "including health checks" restates the scope (compareInclusion)
			}
			if salutation(ts, i, order, byClause) {
				continue // "Hi Dave", "thanks for your ticket", "Kind regards, Box Office": the message's, not the rule's
			}
			if k := ts[0].cond; verb == "dropped" && k >= 0 && !slices.ContainsFunc(ts, func(t term) bool { return t.cond != k }) && framedBy(x, k, topic) {
				continue // "When a company phone is reported stolen," on the topic "Locking a stolen company phone"
			}
			// A number of the clause that the other side states in other
			// words ("once an hour" for "every 60 minutes").
			n, said := 0, saidQty[c]
			for _, t := range ts {
				if specific(t) {
					n++
				}
				// A number the other side names ties the clause to it:
				// "access JWTs are valid for 900 s" is "access tokens
				// expire after 15 minutes".
				said = said || sy[t.w] && (specific(t) || strings.HasPrefix(t.w, "#"))
			}
			if n < clauseWords || said {
				continue
			}
			words := make([]string, len(ts))
			for i, t := range ts {
				words[i] = strings.ToLower(t.text)
			}
			out = append(out, fmt.Sprintf("%s %s", strings.Join(words, " "), verb))
		}
	}
	check(a, b, sa, sb, "dropped")
	check(b, a, sb, sa, "added")
	return out
}

// compareInclusion finds a thing the filed position names that the new
// one says is "included" in a rule that leaves out something the filed
// one says: "use READ COMMITTED for everything, billing jobs included"
// against "READ COMMITTED for web requests and SERIALIZABLE for billing
// jobs"; "delete the data within 30 days, invoices included" against
// "… but keep invoices for 10 years". The thing was treated apart. A
// thing the filed position never names, said to be included where a word
// of the filed rule is left out, widens the rule: "x-rays of all
// patients, children included" against "x-rays of adult patients".
//
// apart reports whether x treats w apart: in a clause, a negation or an
// exception of its own ("no photos in temporary exhibitions", "…; keep
// invoices for 10 years"), or beside a specific word that the words sb
// leave out ("SERIALIZABLE for billing jobs"). A thing named in the rule
// with nothing of its own ("with a machine-readable code field") or said
// to be covered ("even encrypted") is not.
func apart(x *analysis, w string, sb map[string]bool) bool {
	lx := theLexicon()
	even := lx.fold("even")
	first := -1
	if len(x.terms) > 0 {
		first = x.terms[0].clause
	}
	for k, t := range x.terms {
		if t.w != w {
			continue
		}
		if k > 0 && x.terms[k-1].w == even {
			continue // "even encrypted": said to be covered already
		}
		if t.clause != first || t.neg || t.cond >= 0 {
			return true // a clause, a negation or an exception of its own
		}
		for _, u := range x.terms {
			if u.clause == t.clause && u.w != w && (u.neg || !sb[u.w] && !lx.generic[u.w] && !lx.light[u.w] && !lx.stop[u.w]) {
				return true
			}
		}
	}
	return false
}

// ownClause reports whether x says w only outside its first clause and
// its conditions, or under a negation or an exception: kept apart from
// the rule, not named in it.
func ownClause(x *analysis, w string, named bool) bool {
	if len(x.terms) == 0 {
		return false
	}
	first := x.terms[0].clause
	for _, t := range x.terms {
		if t.w != w {
			continue
		}
		if t.neg || t.cond >= 0 && x.conds[t.cond].kind == "unless" {
			return true
		}
		if t.clause == first || t.cond >= 0 {
			return named && keptOut(x, t)
		}
	}
	return true
}

// keptOut reports whether the clause of t says it is left out of what
// the rule covers: a negated verb before it ("does not cover the
// museum") or a word that sets it apart ("charged separately", "on top
// of", "extra", "excluded", "skipped").
func keptOut(x *analysis, t term) bool {
	cues := keptOutCues()
	for _, u := range x.terms {
		if u.clause != t.clause || u.cond != t.cond {
			continue
		}
		if u.neg && u.verbal || cues[u.w] {
			return true
		}
	}
	return false
}

// keptOutCues are the words, folded, that set a thing apart from what
// a rule covers (keptOut).
var keptOutCues = sync.OnceValue(func() map[string]bool {
	return foldedSet("separately", "extra", "top", "exclude", "excluded", "additional", "skip", "skipped")
})

// objectAdverbs, folded, are no part of what a rule allows or bars
// (compareUntilBefore): "can still leave the depot".
var objectAdverbs = sync.OnceValue(func() map[string]bool {
	return foldedSet("still", "also", "even", "just", "already", "always", "then", "now", "yet", "straight", "away")
})

// wordSet is the set of the whitespace-separated words of fields, built
// on first use.
func wordSet(fields string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(fields) {
			m[w] = true
		}
		return m
	})
}

// foldedWordSet is wordSet for words stemmed and folded as terms are:
// built on first use.
func foldedWordSet(fields string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool { return foldedSet(strings.Fields(fields)...) })
}

// happenings are the verbs of a condition that only say a thing reaches
// the rule ("when it comes in", "once the box reaches the desk").
var happenings = foldedWordSet("come came reach hold tell told receive happen go goes get")

// saidHolds are the words of a condition that says only that what was
// said before holds or has run its course ("when this is over", "if all
// of that is met", "once that's done").
var saidHolds = foldedWordSet("over met done finished fulfilled satisfied true")

// foldedSet is the set of the words, stemmed and folded as terms are.
func foldedSet(ws ...string) map[string]bool {
	lx := theLexicon()
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[lx.fold(stem(w))] = true
	}
	return m
}

func compareInclusion(a, b *analysis) []string {
	lx := theLexicon()
	inc := lx.fold(stem("include"))
	if a.even || slices.ContainsFunc(a.terms, func(t term) bool { return t.w == inc }) {
		return nil // the filed position includes things itself
	}
	specific := func(t term) bool {
		return !strings.HasPrefix(t.w, "#") && !lx.generic[t.w] && !lx.light[t.w] && t.w != inc
	}
	sa, sb := set(a.words()), set(b.words())
	lost := false
	for w := range sa {
		if !sb[w] && !lx.generic[w] && !lx.light[w] {
			lost = true
			break
		}
	}
	if !lost {
		return nil
	}
	var out []string
	for i, t := range b.terms {
		if t.w != inc || t.neg {
			continue
		}
		// "Route plans must include a daily rest", "the first tasting
		// includes up to 4 flavours": what a thing holds, the rule
		// itself. What it names is a case said to be covered only where
		// the filed rule keeps it apart in a clause, a negation or an
		// exception of its own ("the day rate covers lunch; drinks are
		// charged separately"), not beside other words of its first
		// clause or in a condition. (A setting that opens with it,
		// "include lab samples: true", is a case covered.)
		low := strings.ToLower(t.text)
		finite := (low == "include" || low == "includes") && i > 0 && b.terms[i-1].clause == t.clause
		// The things next to the cue: "billing jobs included",
		// "including the invoices".
		for j := max(0, i-2); j < min(len(b.terms), i+3); j++ {
			u := b.terms[j]
			if j != i && u.clause == t.clause && specific(u) && (!sa[u.w] || apart(a, u.w, sb) && (!finite || ownClause(a, u.w, j > i))) {
				out = append(out, b.say(u.w)+" included")
				break
			}
		}
	}
	return out
}

// otherwiseBranches reports, for each condition of x (analyze reads them
// once: analysis.otherwise), whether it is the
// rule not met: an "if" whose words the rule itself says (or words near
// them), negated there ("paid within 7 days; if it isn't paid, the date
// is released"), as "…, or the date is released" says it.
func otherwiseBranches(x *analysis) []bool {
	out := make([]bool, len(x.conds))
	if len(x.conds) == 0 {
		return out
	}
	lx := theLexicon()
	main := map[string]bool{}
	for _, t := range x.terms {
		if t.cond < 0 {
			main[t.w] = true
		}
	}
	var nearby []string // the rule's words that have near ones
	for w := range main {
		if len(lx.loose[w]) > 0 {
			nearby = append(nearby, w)
		}
	}
	neg := make([]bool, len(x.conds))
	said := make([]bool, len(x.conds)) // a word of it, and every word of it said by the rule
	for k := range said {
		said[k] = x.conds[k].kind == "if"
	}
	seen := make([]bool, len(x.conds))
	for _, t := range x.terms {
		k := t.cond
		if k < 0 || !said[k] || lx.generic[t.w] || lx.light[t.w] {
			continue
		}
		if !main[t.w] && !slices.ContainsFunc(nearby, func(m string) bool { return lx.near(t.w, m) }) {
			said[k] = false
			continue
		}
		neg[k] = neg[k] || t.neg
		seen[k] = true
	}
	for k := range out {
		out[k] = said[k] && seen[k] && neg[k]
	}
	return out
}

// anchorsUnlessEdit is compareAnchors for a position worded apart: an
// edit finds numbers that traded places as an exchange. Numbers that
// traded the parts they are said in are read in either
// (compareNumberParts): an edit that turns "2 evenings a week" into
// "juniors: 3 evenings/week" trades no stretch of the filed sentence.
func anchorsUnlessEdit(a, b *analysis, edit bool) []string {
	if edit {
		return compareNumberParts(a, b)
	}
	out := append(compareAnchors(a, b), compareConditioned(a, b)...)
	if len(out) == 0 {
		out = compareNumberParts(a, b)
	}
	return out
}

// kinIn reports whether m holds a word of w's family that the stemmer
// leaves apart: "react" and "reaction", "inspect" and "inspection",
// "fact" and "factual", "play" and "player".
func kinIn(w string, m map[string]bool) bool {
	if len(w) < 4 || strings.HasPrefix(w, "#") || !isLetters(w) {
		return false
	}
	for v := range m {
		if kin(w, v) || kin(v, w) {
			return true
		}
	}
	return false
}

// kin reports whether long is short with a suffix that makes a word of
// the same family ("collect" + "ion", "fact" + "ual"), or the two end in
// the endings of a verb and its noun or an adjective and its noun after
// one stem (derivedEndings: "extend" and "extension", "describe" and
// "description", "compliant" and "compliance").
func kin(short, long string) bool {
	if len(short) < 4 || !isLetters(long) {
		return false
	}
	if derived(short, long) {
		return true
	}
	if len(long) <= len(short) {
		return false
	}
	// The stem as it is, or without the vowel it may end in ("allergi"
	// and "allergic").
	for _, root := range [...]string{short, strings.TrimRight(short, "eiy")} {
		if len(root) < 4 || !strings.HasPrefix(long, root) {
			continue
		}
		switch long[len(root):] {
		case "ion", "ive", "iv", "ual", "al", "er", "or", "ant", "ent", "ance", "ence", "ency", "ist", "ity", "iti", "ibiliti", "abiliti", "ship", "ful", "ic", "ical", "ment":
			return true
		}
	}
	return false
}

// derived reports whether x and y end in the two endings of one line of
// derivedEndings after the same stem: three letters before endings five
// letters long together ("tenant" and "tenancy", "weigh" and "weight"),
// four before shorter ones.
func derived(x, y string) bool {
	if len(x) < 4 || len(y) < 4 || x[:3] != y[:3] {
		return false
	}
	ends := func(x, y, ex, ey string) bool {
		base := len(x) - len(ex)
		return (base >= 4 || base == 3 && len(ex)+len(ey) >= 5) && len(y) == base+len(ey) &&
			strings.HasSuffix(x, ex) && strings.HasSuffix(y, ey) && x[:base] == y[:base]
	}
	for _, e := range derivedEndings() {
		if ends(x, y, e[0], e[1]) || ends(y, x, e[0], e[1]) {
			return true
		}
	}
	return false
}

// derivedEndings are the endings, as stem leaves them, of a verb and its
// noun or of an adjective and its noun that share the letters before
// them: "respond" and "response", "suspend" and "suspension", "submit"
// and "submission", "supervise" and "supervision", "prescribe" and
// "prescription", "explain" and "explanation", "publish" and
// "publication", "frequent" and "frequency", "tenant" and "tenancy",
// "enter" and "entry", "recover" and "recovery", "complain" and
// "complaint", "receive" and "receipt".
var derivedEndings = sync.OnceValue(func() [][2]string {
	return [][2]string{
		{"d", "s"}, {"d", "sion"}, {"t", "ssion"}, {"z", "sion"}, {"b", "ption"}, {"b", "pt"},
		{"ain", "anat"}, {"ain", "enanc"}, {"ain", "en"}, {"ain", "aint"}, {"ish", "icat"}, {"et", "etit"},
		{"ent", "enc"}, {"ent", "enci"}, {"ant", "anc"}, {"ant", "anci"}, {"er", "ri"}, {"er", "eri"}, {"gh", "ght"}, {"iv", "ipt"},
	}
})

// restatedIn reports whether y says x's exception cd again: it labels
// that very thing an exception (every word of it, not negated, in the
// label's clause, or in the next one after a bare "Exception:"), or it
// states the exception's own rule (ownRuleSaid) without labelling a
// sibling instead ("Exception: club seniors run free" for "except club
// juniors, who run free").
func restatedIn(x *analysis, cd condition, y *analysis) bool {
	lx := theLexicon()
	exc := lx.fold("exception")
	ws := set(cd.terms)
	sibling := false
	for _, t := range y.terms {
		if t.w != exc || t.neg {
			continue
		}
		c := t.clause
		if !slices.ContainsFunc(y.terms, func(u term) bool { return u.clause == c && u.w != exc && !lx.generic[u.w] && !lx.light[u.w] }) {
			c++ // "Exception: entrapment releases are covered"
		}
		got := map[string]bool{}
		for _, u := range y.terms {
			if u.clause == c && !u.neg && ws[u.w] {
				got[u.w] = true
			}
		}
		switch {
		case len(ws) > 0 && len(got) == len(ws):
			return true
		case len(got) > 0:
			sibling = true
		}
	}
	return !sibling && ownRuleSaid(x, cd, y)
}

// ageWords are the words that compare an age, as analyze folds them:
// "older", "younger", "aged", "over", "under".
var ageWords = sync.OnceValue(func() map[string]bool {
	lx := theLexicon()
	m := map[string]bool{}
	for _, w := range strings.Fields("older younger old young aged age over under above below") {
		m[lx.fold(stem(w))] = true
	}
	return m
})

// otherRole reports whether the quantities of y that say x's quantity q
// (of its condition k) are a period ("every 30 days") or one x also
// states outside that condition: the same time in another role.
func otherRole(q quantity, k int, x, y *analysis) bool {
	return slices.ContainsFunc(y.qty, func(r quantity) bool {
		return sameQuantity(q, r) && (r.every || slices.ContainsFunc(x.qty, func(o quantity) bool { return o.cond != k && sameQuantity(o, r) }))
	})
}

// sharedPrefix is the length of the prefix a and b share.
func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// onlySays reports whether y says more than half of the words ws of an
// exception, asserted, beside its "only": in the few words after it
// ("lent only to the duty manager", "Only the keepers handle them") or
// just before it ("prod deploys: Tuesday release window only"). "Not
// only" is no "only" (analysis.only).
func onlySays(ws []string, y *analysis) bool {
	if !y.only || y.onlyWord == 0 || y.onlyWhen || y.onlyApart {
		return false
	}
	lx := theLexicon()
	n, m := 0, 0
	for _, w := range ws {
		if lx.light[w] || lx.generic[w] || strings.HasPrefix(w, "#") {
			continue
		}
		n++
		if slices.ContainsFunc(y.terms, func(u term) bool { return sameWord(u.w, w) && u.neg }) {
			return false // "use it alone only, never with a member": the case barred
		}
		if slices.ContainsFunc(y.terms, func(u term) bool {
			return sameWord(u.w, w) && !u.neg && u.clause == y.onlyAt && u.at > y.onlyWord-5 && u.at <= y.onlyWord+6 && u.at != y.onlyWord
		}) {
			m++
		}
	}
	return n > 0 && 2*m > n
}

// barredBefore lists the terms of x a negation bars before its exception
// k, in the exception's clause or the one before it and in its sentence:
// "lent" in "master keys are not lent out except to the duty manager",
// "visitor" in "no visitor goes onto the ward except at visiting hours".
// Only a bar counts, not a duty lifted ("need not").
func barredBefore(x *analysis, k int) []int {
	at := slices.IndexFunc(x.terms, func(t term) bool { return t.cond == k })
	if at < 0 {
		return nil
	}
	c := x.terms[at].clause
	var out []int
	for i := at - 1; i >= 0 && c-x.terms[i].clause <= 1 && x.sentence(x.terms[i].clause) == x.sentence(c); i-- {
		if t := x.terms[i]; t.cond < 0 && t.neg && (t.verbal && !t.lifted || t.none) && !t.own && !t.reason {
			out = append(out, i)
		}
	}
	return out
}
