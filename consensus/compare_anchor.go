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
