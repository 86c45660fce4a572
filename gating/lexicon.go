package gating

import (
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// class is what a lexicon phrase counts as.
type class uint8

const (
	clNone class = iota
	clHedge
	clModal
	clBooster
	clClaim
	clContrast
	clConditional
	clUnknown
	clAlternative
	clCommitment
	clReversal
	clFailure
	clDismissal
	numClasses
)

// classFiles maps each lexicon file to its class.
var classFiles = sync.OnceValue(func() map[string]class {
	return map[string]class{
		"hedges.txt": clHedge, "modals.txt": clModal, "boosters.txt": clBooster, "claims.txt": clClaim,
		"contrast.txt": clContrast, "conditionals.txt": clConditional, "unknown.txt": clUnknown,
		"alternatives.txt": clAlternative, "commitment.txt": clCommitment, "reversal.txt": clReversal,
		"failures.txt": clFailure, "dismissals.txt": clDismissal,
		"neutral.txt": clNone,
	}
})

var classByName = sync.OnceValue(func() map[string]class {
	return map[string]class{
		"none": clNone, "hedge": clHedge, "booster": clBooster, "unknown": clUnknown,
	}
})

// lexEntry is one phrase of a lexicon.
type lexEntry struct {
	words []string
	class class
	neg   class // the class when negated
	// negSet says the phrase names its negated class (neg=…): the negator
	// then belongs to the cue's text.
	negSet bool
	fp     bool // first-person eligible
}

// lexicon indexes phrases by their first word, longest first.
type lexicon map[string][]lexEntry

//go:embed lexicon/*.txt
var lexiconFiles embed.FS

// lex is the gate's lexicon, loaded from the embedded files on first use; a broken
// file is a programming error caught by the tests.
var lex = sync.OnceValue(mustLoadLexicon)

func mustLoadLexicon() lexicon {
	l, err := loadLexicon()
	if err != nil {
		panic(err)
	}
	return l
}

func loadLexicon() (lexicon, error) {
	l := lexicon{}
	names := make([]string, 0, len(classFiles()))
	for n := range classFiles() {
		names = append(names, n)
	}
	sort.Strings(names)
	seen := map[string]string{}
	for _, name := range names {
		data, err := lexiconFiles.ReadFile("lexicon/" + name)
		if err != nil {
			return nil, err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if j := strings.Index(line, "#"); j >= 0 {
				line = line[:j]
			}
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			e := lexEntry{class: classFiles()[name]}
			e.neg = e.class
			for len(f) > 0 {
				last := f[len(f)-1]
				switch {
				case last == "fp":
					e.fp = true
				case strings.HasPrefix(last, "neg="):
					c, ok := classByName()[strings.TrimPrefix(last, "neg=")]
					if !ok {
						return nil, fmt.Errorf("lexicon/%s:%d: unknown class %q", name, i+1, last)
					}
					e.neg, e.negSet = c, true
				default:
					goto phrase
				}
				f = f[:len(f)-1]
			}
		phrase:
			if len(f) == 0 {
				return nil, fmt.Errorf("lexicon/%s:%d: no phrase", name, i+1)
			}
			for _, w := range f {
				if w != strings.ToLower(w) {
					return nil, fmt.Errorf("lexicon/%s:%d: %q is not lower case", name, i+1, w)
				}
			}
			key := strings.Join(f, " ")
			if prev, dup := seen[key]; dup {
				return nil, fmt.Errorf("lexicon/%s:%d: %q is already in %s", name, i+1, key, prev)
			}
			seen[key] = name
			e.words = f
			l[f[0]] = append(l[f[0]], e)
		}
	}
	for k, es := range l {
		sort.SliceStable(es, func(i, j int) bool { return len(es[i].words) > len(es[j].words) })
		l[k] = es
	}
	return l, nil
}

// negators are the words that negate a phrase within three words after
// them; any word ending in n't is one too.
var negators = lazySet(func() map[string]bool {
	return map[string]bool{
		"not": true, "no": true, "never": true, "without": true, "hardly": true, "barely": true,
		"nor": true, "neither": true, "cannot": true, "none": true, "nothing": true, "zero": true, "0": true,
	}
})

func isNegator(w string) bool {
	return negators()[w] || strings.HasSuffix(w, "n't")
}

// firstPerson are the words that make a phrase first-person.
var firstPerson = lazySet(func() map[string]bool {
	return map[string]bool{
		"i": true, "i'm": true, "i've": true, "i'd": true, "i'll": true, "me": true, "my": true, "myself": true,
		"we": true, "we're": true, "we've": true, "we'd": true, "our": true, "us": true,
	}
})
