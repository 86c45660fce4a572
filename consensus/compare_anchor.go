package consensus

import (
	"slices"
	"strings"
)

// anchorWords bounds the words that anchor a number: the nearest content
// words before it in its sentence.
const anchorWords = 4

// maxAnchored bounds the numbers compareAnchors pairs: a rule states a
// few; a text with more is a table, and pairing them is quadratic.
const maxAnchored = 24

// compareAnchors finds two numbers of one kind that traded the things they
// are said of between two positions worded apart: "sustained wind above 10
// m/s or gusts above 15 m/s" against "sustained wind past 15 m/s or gusts
// past 10 m/s", "16 visitors with 1 guide; 8 visitors with 2 guides"
// against the guides swapped. Each number is anchored by the nearest
// content words before it in its sentence, other numbers passed over. A
// swap is read only when each number's own words (those the other
// number's anchor lacks) stand before the other number in the position,
// and none of them before its own: a rewording that reorders its clauses
// keeps each number with its words.
func compareAnchors(a, b *analysis) []string {
	if len(a.qty) > 2*maxAnchored || len(b.qty) > 2*maxAnchored {
		return nil // a table of numbers, not a rule: pairing them all costs too much
	}
	ka, kb := onceQuantities(a), onceQuantities(b)
	var keys []string
	for k := range ka {
		if _, ok := kb[k]; ok {
			keys = append(keys, k)
		}
	}
	if len(keys) > maxAnchored {
		return nil // a table of numbers, not a rule: pairing them all costs too much
	}
	slices.Sort(keys)
	// The words just before each number; when those do not tell two
	// apart ("16 visitors with 1 guide; 8 visitors with 2 guides"), the
	// first words of their sentences too. Each read once.
	type anchors struct{ near, head []string }
	anchored := func(x *analysis, i int) anchors { return anchors{anchorOf(x, i, false), anchorOf(x, i, true)} }
	aa, ba := map[string]anchors{}, map[string]anchors{}
	for _, k := range keys {
		aa[k], ba[k] = anchored(a, ka[k]), anchored(b, kb[k])
	}
	var out []string
	for i, x := range keys {
		for _, y := range keys[i+1:] {
			if quantityKind(x) != quantityKind(y) {
				continue
			}
			var ax, ay, bx, by, dx, dy []string
			for _, head := range []bool{false, true} {
				ax, ay, bx, by = aa[x].near, aa[y].near, ba[x].near, ba[y].near
				if head {
					ax, ay, bx, by = aa[x].head, aa[y].head, ba[x].head, ba[y].head
				}
				if dx, dy = minus(ax, ay), minus(ay, ax); len(dx) > 0 && len(dy) > 0 {
					break
				}
			}
			if len(dx) == 0 || len(dy) == 0 {
				continue
			}
			if overlap(dx, by) > 0 && overlap(dy, bx) > 0 && overlap(dx, bx) == 0 && overlap(dy, by) == 0 {
				out = append(out, a.terms[ka[x]].text+" ↔ "+a.terms[ka[y]].text)
			}
		}
	}
	return out
}

// compareConditioned finds two numbers of one kind that traded places
// between the rule and its condition: "between 4 and 8 sheep per
// hectare, except during lambing, when up to 12" against "4 to 12 per
// hectare normally, and up to 8 during lambing". A number is under a
// condition when it is said in one (after "when", "if", "except") or in a
// clause that names one ("up to 8 during lambing"). A swap is read only
// when one number went under the condition and the other came out of it:
// a rewording that moves the condition keeps each number on its side.
func compareConditioned(a, b *analysis) []string {
	if len(a.conds) == 0 || len(b.conds) == 0 || len(a.qty) > 2*maxAnchored || len(b.qty) > 2*maxAnchored {
		return nil
	}
	ka, kb := onceQuantities(a), onceQuantities(b)
	var in, out []string // under a condition in b only; in a only
	for k, i := range ka {
		j, ok := kb[k]
		if !ok {
			continue
		}
		switch ca, cb := conditioned(a, i), conditioned(b, j); {
		case cb && !ca:
			in = append(in, k)
		case ca && !cb:
			out = append(out, k)
		}
	}
	if len(in) != 1 || len(out) != 1 || quantityKind(in[0]) != quantityKind(out[0]) {
		return nil
	}
	// The same condition on both sides: the number that came out of it
	// in a and the one that went under it in b are said under words of
	// one condition ("lambing"), not under two conditions of their own.
	if overlap(conditionWords(a, ka[out[0]]), conditionWords(b, kb[in[0]])) == 0 {
		return nil
	}
	return []string{a.terms[ka[out[0]]].text + " ↔ " + a.terms[ka[in[0]]].text}
}

// conditionWords are the words of the conditions term i of x is said
// under: its own, and those of its clause and of the clause before it in
// its sentence ("except during lambing, when up to 12").
func conditionWords(x *analysis, i int) []string {
	c := x.terms[i].clause
	var out []string
	for k, cd := range x.conds {
		if k == x.terms[i].cond || cd.clause == c || cd.clause == c-1 && x.sentence(cd.clause) == x.sentence(c) {
			out = append(out, cd.terms...)
		}
	}
	return out
}

// conditioned reports whether term i of x is said under a condition: in
// one, or in a clause that names one.
func conditioned(x *analysis, i int) bool {
	if x.terms[i].cond >= 0 {
		return true
	}
	for _, t := range x.terms {
		if t.clause == x.terms[i].clause && t.cond >= 0 {
			return true
		}
	}
	return false
}

// onceQuantities are the numbers x states once, by key, with their term.
func onceQuantities(x *analysis) map[string]int {
	m, seen := map[string]int{}, map[string]int{}
	for i, t := range x.terms {
		if strings.HasPrefix(t.w, "#") && t.text != "" {
			seen[t.w]++
			m[t.w] = i
		}
	}
	for k, n := range seen {
		if n > 1 {
			delete(m, k)
		}
	}
	return m
}

// quantityKind is the unit a number key is written in ("#600time" is of
// time), "" for a bare count.
func quantityKind(key string) string {
	return strings.TrimLeft(key, "#0123456789.e+-")
}

// anchorOf are the words a number is said of: the content words before
// term i back to the number before it in its sentence (at most
// anchorWords), and, with head and a number before it there, the first
// words of the sentence too ("the standard tour takes 16 visitors with 1
// guide": standard tour, visitors).
func anchorOf(x *analysis, i int, head bool) []string {
	s := x.sentence(x.terms[i].clause)
	lx := theLexicon()
	// A bound ("at least", "above") is the number's, not what it is said of.
	skip := func(t term) bool { return lx.negBound[t.w] != "" || lx.stop[t.w] }
	var out []string
	first := true
	for k := i - 1; k >= 0; k-- {
		t := x.terms[k]
		if x.sentence(t.clause) != s {
			break
		}
		if strings.HasPrefix(t.w, "#") {
			first = false
			break
		}
		if !skip(t) && len(out) < anchorWords {
			out = append(out, t.w)
		}
	}
	if first || !head {
		return out
	}
	start := i
	for start > 0 && x.sentence(x.terms[start-1].clause) == s {
		start--
	}
	n := 0
	for k := start; k < i && n < 3; k++ {
		if t := x.terms[k]; !strings.HasPrefix(t.w, "#") && !skip(t) {
			out = append(out, t.w)
			n++
		}
	}
	return out
}

// compareNumberParts finds two numbers of one kind that traded the things they
// are said of when each is said in a part of its own, whichever side of
// the number its words stand on: "£8 for adults and £12 for families"
// against "adult_fee: 12, family_fee: 8", "2 staff on weekdays and 1 on
// weekends" against "weekend: 2 staff, weekday: 1". A part is a clause or
// an item after "and" or "or"; a part that holds no number and is
// followed by a part opening with one is that number's label
// ("weekend: 2"). The words of each number's part that the other's lacks
// must stand beside the other number in the position, and none beside
// its own: a rewording that reorders the parts ("for families it's £12,
// adults pay £8") keeps each number with its words.
func compareNumberParts(a, b *analysis) []string {
	if len(a.qty) > 2*maxAnchored || len(b.qty) > 2*maxAnchored {
		return nil
	}
	ka, kb := onceQuantities(a), onceQuantities(b)
	// A number of the position with its unit unsaid is the filed one
	// with it: "adult_fee: 12" for "£12".
	bare := map[string]string{}
	for k := range kb {
		if quantityKind(k) == "" {
			bare[k] = k
		}
	}
	var keys []string
	in := map[string]string{} // the key in b of each key in a
	for k := range ka {
		if _, ok := kb[k]; ok {
			in[k] = k
		} else if n, ok := bare[strings.TrimSuffix(k, quantityKind(k))]; ok {
			in[k] = n
		} else {
			continue
		}
		keys = append(keys, k)
	}
	if len(keys) < 2 || len(keys) > maxAnchored {
		return nil
	}
	slices.Sort(keys)
	pa, pb := numberParts(a), numberParts(b)
	var out []string
	for i, x := range keys {
		for _, y := range keys[i+1:] {
			if quantityKind(x) != quantityKind(y) || in[x] == in[y] {
				continue
			}
			sx, sy := pa.part[ka[x]], pa.part[ka[y]]
			tx, ty := pb.part[kb[in[x]]], pb.part[kb[in[y]]]
			if sx == sy || tx == ty {
				continue // one part says both: "1 adult per 4 children"
			}
			ax, ay, bx, by := pa.words[sx], pa.words[sy], pb.words[tx], pb.words[ty]
			dx, dy, ex, ey := minus(ax, ay), minus(ay, ax), minus(bx, by), minus(by, bx)
			// Words of each number's own went to the other, and all the
			// own words of one of them: words that open the text ("the
			// front desk needs 2 staff") may stay with the first.
			if overlap(dx, ey) > 0 && overlap(dy, ex) > 0 && (overlap(dx, ex) == 0 || overlap(dy, ey) == 0) {
				out = append(out, a.terms[ka[x]].text+" ↔ "+a.terms[ka[y]].text)
			}
		}
	}
	return out
}

// numParts are the parts of a text compareNumberParts reads: the part of each
// term, and the specific words of each part (a negated one marked:
// "non-members").
type numParts struct {
	part  []int
	words [][]string
}

// numberParts cuts x into the parts compareNumberParts reads.
func numberParts(x *analysis) numParts {
	lx := theLexicon()
	isNum := func(t term) bool { return strings.HasPrefix(t.w, "#") }
	p := numParts{part: make([]int, len(x.terms))}
	s := 0
	hasNum, cond := map[int]bool{}, map[int]bool{}
	opens := map[int]bool{} // parts whose first term is a number
	for k, t := range x.terms {
		if k > 0 {
			q := x.terms[k-1]
			if q.clause != t.clause || q.cond != t.cond || t.afterConj {
				s++
			}
		}
		if k == 0 || p.part[k-1] != s {
			opens[s] = isNum(t)
		}
		p.part[k] = s
		cond[s] = t.cond >= 0
		if isNum(t) {
			hasNum[s] = true
		}
	}
	// A part with no number before a part that opens with one is its
	// label: "weekend: 2 staff"; but a condition after a number is as
	// often that number's own ("every 30 seconds while the ignition is
	// on and every 6 hours …").
	merged := make([]int, s+1)
	for i := range merged {
		merged[i] = i
	}
	for i := s - 1; i >= 0; i-- {
		if !hasNum[i] && opens[i+1] && !(cond[i] && i > 0 && hasNum[i-1]) {
			merged[i] = merged[i+1]
		}
	}
	p.words = make([][]string, s+1)
	for k, t := range x.terms {
		m := merged[p.part[k]]
		p.part[k] = m
		if isNum(t) || lx.generic[t.w] || lx.light[t.w] || lx.stop[t.w] || t.reason {
			continue
		}
		w := t.w
		if t.neg {
			w = "!" + w
		}
		p.words[m] = append(p.words[m], w)
	}
	return p
}
