package consensus

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// basisRE matches a number counted per something: "EUR 25 per rental",
// "25 euros per booking", "3 visits per patient". Group 1 is the number,
// group 2 the word after "per".
var basisRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(\d+(?:[.,]\d+)?)(?:\s*[%€$£]|\s+[a-z€$£]+\.?){0,2}\s+per\s+([a-z]+)`)
})

// basis is the word a number is counted per: folded, and as written.
type basis struct{ w, said string }

// bases maps each number of text that is counted per something to the
// word it is counted per.
func bases(text string) map[string]basis {
	text = readPart(text)
	if !strings.Contains(text, "per ") && !strings.Contains(text, "PER ") && !strings.Contains(text, "Per ") {
		return nil
	}
	lx := theLexicon()
	out := map[string]basis{}
	for _, m := range basisRE().FindAllStringSubmatch(text, 16) {
		w := strings.ToLower(m[2])
		if lx.stop[stem(w)] {
			continue // "per the contract": according to it
		}
		n := strings.ReplaceAll(m[1], ",", "")
		if _, ok := out[n]; !ok {
			out[n] = basis{lx.fold(stem(w)), w}
		}
	}
	return out
}

// compareBasis finds a number both positions give, counted per one thing
// on one side and per another on the other: "EUR 25 per rental" against
// "EUR 25 per day" charges every day of the rental. A number counted per
// something on one side only ("25 euros" against "25 euros per booking")
// is left to the rest of the comparison: a rewording often leaves the
// basis unsaid. So is a basis each side names somewhere ("at most 6
// tickets per event for each account" against "6 per event per account").
func compareBasis(a, b *analysis, filed, position string) []string {
	ba := bases(filed)
	if len(ba) == 0 {
		return nil
	}
	bb := bases(position)
	lx := theLexicon()
	sa, sb := set(a.words()), set(b.words())
	var out []string
	for n, x := range ba {
		y, ok := bb[n]
		if !ok || y.w == x.w || lx.units[x.w].dim == "time" && lx.units[y.w].dim == "time" {
			continue // "per day → per week": a number of its own (compareQuantities)
		}
		if sa[y.w] && sb[x.w] {
			continue // "6 per event for each account" → "6 per event per account": both said
		}
		out = append(out, n+" per "+x.said+" → "+n+" per "+y.said)
	}
	slices.Sort(out) // the same order whatever the order of a map
	return out
}
