package consensus

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Labels a writer puts before what they say: "Handoff:", "Week 6 log:".
// A label names the kind of note, not a part of the rule, and read as
// words it adds a name or a number the filed rule never said.

// maxLabelWords is how long a label may be (and how many words a label
// of ruleText may add to its preamble); a colon ends it.
const maxLabelWords = 3

// dropLabel drops the label that opens position when none of its words
// is a word of the filed position or of the record's topic (nil when
// the question was asked of no record): "Week 6 log: coated screens dry
// 12 hours" says what "Coated screens dry for 12 hours" says. A label
// whose words the filed rule uses ("Drivers: hi-vis in the yard") is a
// part of the rule and stays, and so does one followed by fewer than
// four words ("Weekends: closed"). Labels inside the text stay: there
// they as often name a condition ("Peak season: full gallery within 10
// weeks").
func dropLabel(position string, filed, topic *analysis) string {
	if strings.IndexByte(position, ':') < 0 {
		return position
	}
	label, after, ok := openingLabel(position)
	if !ok {
		return position
	}
	if len(analyze(label).words()) == 0 || framesRule(label, filed, topic) {
		return position
	}
	return after
}

// reportVerbs are the verbs of a report that frames what it reports:
// "the clerk reported that …", "the docstring should say …". Verbs that
// are as often the rule's own action ("the tenant notes any damage",
// "the secretary states the result") are not among them, and "noted",
// "stated" and "explained" frame only before "that" (thatVerbs).
var reportVerbs = [][]string{{"reported"}, {"said"}, {"says"}, {"mentioned"}, {"wrote"}, {"noted"}, {"stated"}, {"explained"}, {"should", "say"}, {"should", "read"}}

// thatVerbs are the reportVerbs that frame a report only before "that".
var thatVerbs = []string{"noted", "stated", "explained"}

// negatingWords are the words that deny a report ("nobody said that …",
// "legal never said …"): a report denied is no frame to set aside.
var negatingWords = []string{"never", "nobody", "no", "not", "none", "nothing", "noone", "neither", "nor", "hardly", "barely"}

// notReporters are words that cannot name who reports: a scope or a
// condition before a participle ("only reported incidents", "anything
// said in meetings", "if reported before noon").
var notReporters = []string{"only", "every", "all", "any", "anything", "anyone", "everything", "everyone", "each", "some", "most", "few",
	"if", "when", "unless", "once", "whatever", "whoever", "what", "as", "so"}

// dropReport drops the report that opens position ("the clerk reported
// that …", "docstring should say …": one or two words naming who
// reports, a verb of reportVerbs, and "that") when none of its words is
// a word of the filed position or of the record's topic and at least
// four words follow it. "The pilot said that …" keeps its words when the
// filed rule is about the pilot, and a report denied ("nobody said …")
// is kept whole.
func dropReport(position string, filed, topic *analysis) string {
	// At most three words for who reports, two for the verb, "that",
	// and four after: the rest of the position is never split.
	f := leadFields(position, 10)
	if len(f) < 6 {
		return position
	}
	start := 0
	if w := strings.ToLower(f[0]); w == "the" || w == "our" || w == "your" {
		start = 1
	}
	for k := start + 1; k <= start+2; k++ {
		if w := strings.ToLower(f[k-1]); !isLetters(w) || slices.Contains(negatingWords, w) || slices.Contains(notReporters, w) {
			return position // "Drains: ", "the 2 vans": no name of who reports; "nobody said": no report; "only reported incidents": a scope
		}
		for _, v := range reportVerbs {
			if k+len(v) > len(f) || !slices.EqualFunc(f[k:k+len(v)], v, strings.EqualFold) {
				continue
			}
			end := k + len(v)
			if end < len(f) && strings.EqualFold(f[end], "that") {
				end++
			} else if len(v) == 1 && slices.Contains(thatVerbs, v[0]) {
				return position
			}
			if len(f)-end < 4 || framesRule(strings.Join(f[:end], " "), filed, topic) {
				return position
			}
			return afterFields(position, end)
		}
	}
	return position
}

// leadFields are the first n whitespace-separated fields of s, or all of
// them when s has fewer.
func leadFields(s string, n int) []string {
	out := make([]string, 0, n)
	for len(out) < n {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			break
		}
		k := strings.IndexFunc(s, unicode.IsSpace)
		if k < 0 {
			out = append(out, s)
			break
		}
		out, s = append(out, s[:k]), s[k:]
	}
	return out
}

// afterFields is s after its first n fields and the space that follows
// them, the rest as written (its line breaks kept).
func afterFields(s string, n int) string {
	for range n {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if k := strings.IndexFunc(s, unicode.IsSpace); k >= 0 {
			s = s[k:]
		} else {
			s = ""
		}
	}
	return strings.TrimLeftFunc(s, unicode.IsSpace)
}

// framesRule reports whether a frame's words (a label, a report) are
// words of the filed position or of the record's topic: a part of the
// rule, not a frame around it.
func framesRule(frame string, filed, topic *analysis) bool {
	known := set(filed.words())
	if topic != nil {
		for _, w := range topic.words() {
			known[w] = true
		}
	}
	return slices.ContainsFunc(analyze(frame).words(), func(w string) bool { return known[w] })
}

// labelEnd is where a label that starts at s[from:] ends: the first
// colon after from, with at most maxWords words before it and no
// sentence's punctuation, not right after a digit ("from 23:00" is no
// label). It is -1 when s has none there.
func labelEnd(s string, from, maxWords int) int {
	k := strings.IndexByte(s, ':')
	if k <= from || len(strings.Fields(s[from:k])) > maxWords || strings.ContainsAny(s[from:k], ",;.!?") || isDigit(s[k-1]) {
		return -1
	}
	return k
}

// openingLabel splits a text that opens with a label ("Week 6 log: …")
// into the label and what follows its colon. The label (labelEnd) is
// words of letters and digits, ends in a letter, and at least four words
// follow it.
func openingLabel(s string) (label, after string, ok bool) {
	t := strings.TrimLeft(s, " \t\n")
	k := labelEnd(t, 0, maxLabelWords)
	if k <= 0 {
		k = numberedLabelEnd(t)
	}
	if k <= 0 || k > 40 || len(strings.Fields(t[k+1:])) < 4 {
		return "", "", false
	}
	label = t[:k]
	for _, r := range label {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' && r != '-' && r != '.' {
			return "", "", false
		}
	}
	if r, _ := utf8.DecodeLastRuneInString(label); !unicode.IsLetter(r) && !numberedLabel(label) {
		return "", "", false
	}
	return label, strings.TrimLeft(t[k+1:], " \t"), true
}

// numberedLabelEnd is where a label that numbers a note ends: "Minute
// 4:", "App 6.3 notes:", "Changelog v4.2:", "Release 2.4.1 notes:". Its
// colon is followed by a space ("from 23:00" is no label), and the label
// is numberedLabel. It is -1 when t opens with none.
func numberedLabelEnd(t string) int {
	k := strings.IndexByte(t, ':')
	if k <= 0 || k+2 >= len(t) || t[k+1] != ' ' || isDigit(t[k+2]) || !numberedLabel(t[:k]) {
		return -1
	}
	return k
}

// numberedLabel reports whether label is a word of letters followed by
// at most two more words, at least one of them a number of a note, a
// version or a section ("4", "6.3", "v4.2"): what the dot of a number
// may join, not a sentence's full stop.
func numberedLabel(label string) bool {
	f := strings.Fields(label)
	if len(f) < 2 || len(f) > maxLabelWords || !isLetters(strings.ToLower(f[0])) {
		return false
	}
	numbered := false
	for _, w := range f[1:] {
		switch {
		case isLetters(strings.ToLower(w)):
		case sectionNumber(strings.TrimPrefix(w, "v")):
			numbered = true
		default:
			return false
		}
	}
	return numbered
}

// sectionNumber reports whether w is digits, or digits joined by single
// dots ("4", "6.3", "2.4.1").
func sectionNumber(w string) bool {
	for _, part := range strings.Split(w, ".") {
		if part == "" || strings.TrimLeft(part, "0123456789") != "" {
			return false
		}
	}
	return w != ""
}
