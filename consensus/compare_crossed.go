package consensus

import (
	"maps"
	"slices"
)

// maxCrossedWords bounds the words compareCrossed tries in pairs.
const maxCrossedWords = 200

// compareCrossed finds two things that trade what is said of them: "a
// keeper feeds the birds while a volunteer guide gives the commentary"
// against "the volunteer guide feeds the birds, the keeper gives the
// commentary"; "scheduled by the site lead and approved by the asset
// manager" against "scheduled by the asset manager and approved by the
// site lead". Each side is cut into stretches (a clause, a condition, an
// item after "and" or "or"); two words x and y that stand in two
// stretches on both sides, p beside x and q beside y on one side, q
// beside x and p beside y on the other, have traded places. A word moved
// alone ("the plan X writes" → "X writes; Y approves the plan") trades
// nothing. Every word of the four is said once on each side, not
// negated, so that the stretch it stands in is its own.
func compareCrossed(a, b *analysis) []string {
	lx := theLexicon()
	// The words that can trade: a number too ("two blasts call
	// archers to the line, one blast starts shooting").
	specific := func(t term) bool {
		return !lx.generic[t.w] && !lx.light[t.w] && !lx.stop[t.w] && !t.reason
	}
	// pair is two words in either order: "dog or cat" is "cat or dog".
	pair := func(v, w string) [2]string {
		if v > w {
			v, w = w, v
		}
		return [2]string{v, w}
	}
	// joined are the pairs of words x joins with "and" or "or".
	joined := func(x *analysis) map[[2]string]bool {
		out := map[[2]string]bool{}
		for k := 1; k < len(x.terms); k++ {
			if t := x.terms[k]; t.afterConj && x.terms[k-1].clause == t.clause {
				out[pair(x.terms[k-1].w, t.w)] = true
			}
		}
		return out
	}
	ja, jb := joined(a), joined(b)
	// stretches maps each word said once (and not negated) to the
	// stretch it stands in.
	stretches := func(x *analysis, other map[[2]string]bool) map[string]int {
		seen := map[string]int{}
		for _, t := range x.terms {
			seen[t.w]++
		}
		out := map[string]int{}
		s := 0
		for k, t := range x.terms {
			if k > 0 {
				p := x.terms[k-1]
				// A clause, a condition ("while a volunteer guide …")
				// and each item after "and" or "or" ("… and approved by
				// the asset manager") stand apart; but not the items of
				// a list both sides say ("blades and nacelles", "by
				// letter or SMS"), whatever the words around them.
				if p.clause != t.clause || p.cond != t.cond || t.afterConj && !other[pair(p.w, t.w)] {
					s++
				}
			}
			if seen[t.w] == 1 && !t.neg && specific(t) {
				out[t.w] = s
			}
		}
		return out
	}
	sa, sb := stretches(a, jb), stretches(b, ja)
	var shared []string
	for _, t := range a.terms {
		if _, ok := sa[t.w]; ok {
			if _, ok := sb[t.w]; ok {
				shared = append(shared, t.w)
			}
		}
	}
	if len(shared) < 4 || len(shared) > maxCrossedWords {
		// Two things and a word beside each are four words; a text of
		// hundreds of words: its parts are not read pairwise.
		return nil
	}
	inShared := set(shared)
	// The rank of each shared word's clause among the clauses that hold
	// a shared word: two parts next to each other, whatever the clauses
	// of other words between them ("…, if there is no answer, …").
	rank := func(x *analysis) map[string]int {
		clause := map[string]int{}
		held := map[int]bool{}
		for _, t := range x.terms {
			if inShared[t.w] {
				clause[t.w] = t.clause
				held[t.clause] = true
			}
		}
		cs := slices.Sorted(maps.Keys(held))
		out := map[string]int{}
		for w, c := range clause {
			out[w] = slices.Index(cs, c)
		}
		return out
	}
	ca, cb := rank(a), rank(b)
	for i, x := range shared {
		for _, y := range shared[i+1:] {
			if sa[x] == sa[y] || sb[x] == sb[y] {
				continue
			}
			if max(ca[x], ca[y])-min(ca[x], ca[y]) > 1 || max(cb[x], cb[y])-min(cb[x], cb[y]) > 1 {
				continue // parts far apart: keys of a config, rules of their own
			}
			var p, q string
			for _, w := range shared {
				switch {
				case w == x || w == y:
				case sa[w] == sa[x] && sb[w] == sb[y] && p == "":
					p = w // beside x on one side, beside y on the other
				case sa[w] == sa[y] && sb[w] == sb[x] && q == "":
					q = w
				}
			}
			if p != "" && q != "" && exchanged(shared, sa, sb, sa[x], sa[y], sb[x], sb[y]) {
				return []string{a.say(x) + " ↔ " + a.say(y)}
			}
		}
	}
	return nil
}

// exchanged reports whether the shared words standing in stretches a1
// and a2 of one side are the ones standing in b1 and b2 of the other:
// two parts of the rule that traded words between them, not words strewn
// over many parts ("collect_at: check_in" among the keys of a config). A
// word standing on one side in a stretch of no other word of the two
// parts is a label of its own ("fyi invoices: …").
func exchanged(shared []string, sa, sb map[string]int, a1, a2, b1, b2 int) bool {
	inA := func(w string) bool { return sa[w] == a1 || sa[w] == a2 }
	inB := func(w string) bool { return sb[w] == b1 || sb[w] == b2 }
	// The stretches of each side that hold a word of the two parts on
	// both sides.
	heldA, heldB := map[int]bool{}, map[int]bool{}
	for _, v := range shared {
		if inA(v) && inB(v) {
			heldA[sa[v]], heldB[sb[v]] = true, true
		}
	}
	for _, w := range shared {
		if !inA(w) && inB(w) && heldA[sa[w]] || inA(w) && !inB(w) && heldB[sb[w]] {
			return false
		}
	}
	return true
}
