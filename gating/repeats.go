package gating

import "strings"

// maxRepeatUnit is the longest unit, in words, whose back-to-back
// repetition collapseRepeats folds.
const maxRepeatUnit = 48

// collapseRepeats returns s with every run of one unit of words said three
// or more times back to back (a word, a clause, a sentence, a line of up to
// maxRepeatUnit words: "probably probably probably …", "I am not sure; I
// am not sure; …", a pasted line pasted again and again) cut to its first
// saying. Words compare case-folded (ASCII) and without trailing
// punctuation, so "Not sure. not sure; NOT SURE" is one unit said three
// times. Saying a thing again does not add a doubt, a check or a detail:
// the features are of what was said, not of how often. A unit said twice
// ("very very", a line quoted then answered) is left alone. Runs in linear
// time in the number of words (times maxRepeatUnit).
func collapseRepeats(s string) string {
	type word struct {
		start, end int
		h          uint64 // of the word's key: case-folded (ASCII), trailing punctuation cut
	}
	ws := make([]word, 0, len(s)/6+1)
	for i := 0; i < len(s); {
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && !isSpaceByte(s[j]) {
			j++
		}
		ws = append(ws, word{start: i, end: j, h: keyHash(repeatKey(s[i:j]))})
		i = j
	}
	if len(ws) < 3 {
		return s
	}
	same := func(a, b int) bool {
		return ws[a].h == ws[b].h && strings.EqualFold(repeatKey(s[ws[a].start:ws[a].end]), repeatKey(s[ws[b].start:ws[b].end]))
	}
	var b strings.Builder
	pos := 0 // bytes of s before pos are written (or cut)
	for i := 0; i < len(ws); {
		cut := false
		for p := 1; p <= maxRepeatUnit && i+3*p <= len(ws); p++ {
			if ws[i].h != ws[i+p].h {
				continue // the common case, decided without a call
			}
			r := 1 // how many times ws[i:i+p] is said back to back
			for i+(r+1)*p <= len(ws) && unitRepeats(i, p, r, same) {
				r++
			}
			if r < 3 {
				continue
			}
			if pos == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[pos:ws[i+p-1].end])
			last := i + r*p - 1
			pos = ws[last].end
			i = last + 1
			cut = true
			break
		}
		if !cut {
			i++
		}
	}
	if pos == 0 {
		return s
	}
	b.WriteString(s[pos:])
	return b.String()
}

// repeatKey is a word as collapseRepeats compares it: without trailing
// punctuation (unless it is all punctuation).
func repeatKey(w string) string {
	if t := strings.TrimRight(w, ".,;:!?…"); t != "" {
		return t
	}
	return w
}

// keyHash is FNV-1a of a key with ASCII letters folded to lower case, so
// that keys equal under strings.EqualFold (in ASCII) hash alike.
func keyHash(k string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// unitRepeats reports whether the words i+r·p … i+r·p+p−1 say again the
// unit i … i+p−1.
func unitRepeats(i, p, r int, same func(a, b int) bool) bool {
	for k := range p {
		if !same(i+k, i+r*p+k) {
			return false
		}
	}
	return true
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
