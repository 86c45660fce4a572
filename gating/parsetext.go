package gating

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/debate"
)

// section is a part of a text self-critique.
type section int

const (
	secNone section = iota
	secQuestion
	secInitial
	secReasoning
	secCritique
	secFinal
	secEvidence
)

// sectionNames maps a normalised heading or label to its section. A heading
// matches when it equals a name or starts with one followed by a space
// ("Self-critique (round 2)").
var sectionNames = []struct {
	name string
	sec  section
}{
	{"question", secQuestion}, {"task", secQuestion}, {"prompt", secQuestion},
	{"initial answer", secInitial}, {"initial response", secInitial}, {"draft answer", secInitial},
	{"first answer", secInitial}, {"proposed answer", secInitial}, {"answer", secInitial},
	{"reasoning", secReasoning}, {"rationale", secReasoning}, {"justification", secReasoning},
	{"self critique", secCritique}, {"selfcritique", secCritique}, {"critique", secCritique},
	{"self review", secCritique}, {"self assessment", secCritique}, {"self reflection", secCritique},
	{"reflection", secCritique},
	{"final answer", secFinal}, {"revised answer", secFinal}, {"final response", secFinal},
	{"final position", secFinal},
	{"evidence references", secEvidence}, {"evidence refs", secEvidence}, {"evidence", secEvidence},
	{"references", secEvidence},
}

func lookupSection(label string) section {
	n := normLabel(label)
	for _, s := range sectionNames {
		if n == s.name || strings.HasPrefix(n, s.name+" ") {
			return s.sec
		}
	}
	return secNone
}

// normLabel lower-cases a heading, turns - and _ into spaces, drops
// punctuation at the ends and collapses white space.
func normLabel(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', '–', '—':
			return ' '
		case '*', '`':
			return -1
		}
		return r
	}, s)
	s = strings.Trim(s, " \t:.#")
	return strings.Join(strings.Fields(s), " ")
}

// ParseText reads a Markdown or plain-text self-critique. Sections start at
// an ATX heading ("## Self-critique"), a bold line ("**Final answer:**") or
// a label line ("Final answer: yes, it holds."); the recognised names are
// Question, Initial answer (or Answer), Reasoning, Self-critique (or
// Critique), Final answer and Evidence. Lines "Confidence: 0.8" or
// "Final confidence: 80%" state a confidence; a bare "Confidence:" line is
// the initial confidence inside the question, initial-answer and reasoning
// sections and the final confidence elsewhere. "Layer: verify" states the
// layer. Evidence-section lines become evidence refs. Text before the first
// section is ignored when there are sections; a text with no section at all
// is the critique. Lines inside fenced code blocks are never headings.
func ParseText(data []byte) (SelfCritique, error) {
	data, err := checkText(data)
	if err != nil {
		return SelfCritique{}, err
	}
	var (
		sc             SelfCritique
		parts          [secEvidence + 1]strings.Builder
		cur            = secNone
		sawSection     bool
		fence          string
		initLine, fine int
	)
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i, raw := range lines {
		lineNo := i + 1
		line := strings.TrimRight(raw, " \t\r")
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
			appendLine(&parts[cur], line)
			continue
		}
		if f := fenceOpen(trimmed); f != "" {
			fence = f
			appendLine(&parts[cur], line)
			continue
		}
		label, rest, isLabel := splitLabel(trimmed)
		if isLabel {
			n := normLabel(label)
			if kind, ok := confidenceLabel(n); ok {
				c, err := parseConfidence(rest)
				if err != nil {
					return SelfCritique{}, fmt.Errorf("line %d: %w", lineNo, err)
				}
				if kind == "" {
					kind = "final"
					if cur == secQuestion || cur == secInitial || cur == secReasoning {
						kind = "initial"
					}
				}
				slot, at := &sc.FinalConfidence, &fine
				if kind == "initial" {
					slot, at = &sc.InitialConfidence, &initLine
				}
				if *slot != nil {
					return SelfCritique{}, fmt.Errorf("%w: line %d states the %s confidence again (first on line %d)", ErrMalformed, lineNo, kind, *at)
				}
				*slot, *at = &c, lineNo
				continue
			}
			if n == "layer" {
				l, err := debate.ParseLayer(rest)
				if err != nil {
					return SelfCritique{}, fmt.Errorf("%w: line %d: %v", ErrMalformed, lineNo, err)
				}
				sc.Layer = l
				continue
			}
			if s := lookupSection(label); s != secNone {
				cur, sawSection = s, true
				if rest != "" {
					appendLine(&parts[cur], rest)
				}
				continue
			}
		}
		appendLine(&parts[cur], line)
	}
	text := func(s section) string { return strings.TrimSpace(parts[s].String()) }
	sc.Question, sc.InitialAnswer, sc.Reasoning = text(secQuestion), text(secInitial), text(secReasoning)
	sc.Critique, sc.FinalAnswer = text(secCritique), text(secFinal)
	if !sawSection {
		sc.Critique = text(secNone)
	}
	for _, l := range strings.Split(parts[secEvidence].String(), "\n") {
		if ref := evidenceLine(l); ref != "" {
			sc.EvidenceRefs = append(sc.EvidenceRefs, ref)
		}
	}
	if err := sc.Validate(); err != nil {
		return SelfCritique{}, err
	}
	return sc, nil
}

func appendLine(b *strings.Builder, line string) {
	b.WriteString(line)
	b.WriteByte('\n')
}

// fenceOpen returns the fence (``` or ~~~, at least three) that line opens.
func fenceOpen(trimmed string) string {
	for _, c := range []string{"`", "~"} {
		n := 0
		for n < len(trimmed) && trimmed[n] == c[0] {
			n++
		}
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// splitLabel recognises a heading line and returns its label and the text
// after it: "## Final answer" → ("Final answer", ""); "**Critique:** text"
// → ("Critique", "text"); "- Confidence: 80%" → ("Confidence", "80%").
func splitLabel(trimmed string) (label, rest string, ok bool) {
	s := trimmed
	if strings.HasPrefix(s, "#") {
		h := strings.TrimLeft(s, "#")
		if len(s)-len(h) <= 6 && (h == "" || h[0] == ' ' || h[0] == '\t') {
			h = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#"))
			if l, r, found := strings.Cut(h, ":"); found && validLabel(l) {
				return l, strings.TrimSpace(r), true
			}
			return h, "", validLabel(h)
		}
		return "", "", false
	}
	for _, p := range []string{"- ", "* ", "+ "} {
		s = strings.TrimPrefix(s, p)
	}
	for _, b := range []string{"**", "__"} {
		if strings.HasPrefix(s, b) {
			inner, after, found := strings.Cut(s[len(b):], b)
			if !found {
				return "", "", false
			}
			inner = strings.TrimSpace(inner)
			after = strings.TrimSpace(after)
			if strings.HasSuffix(inner, ":") {
				return strings.TrimSuffix(inner, ":"), after, validLabel(strings.TrimSuffix(inner, ":"))
			}
			if strings.HasPrefix(after, ":") {
				return inner, strings.TrimSpace(after[1:]), validLabel(inner)
			}
			if after == "" {
				return inner, "", validLabel(inner)
			}
			return "", "", false
		}
	}
	l, r, found := strings.Cut(s, ":")
	if !found || !validLabel(l) {
		return "", "", false
	}
	return l, strings.TrimSpace(r), true
}

// validLabel accepts short labels made of letters, spaces, hyphens and
// parentheses: what a heading looks like, not a sentence.
func validLabel(l string) bool {
	l = strings.TrimSpace(l)
	if l == "" || len(l) > 48 {
		return false
	}
	for _, r := range l {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" -_()'’", r)) {
			return false
		}
	}
	return true
}

// confidenceLabel recognises "confidence", "initial confidence",
// "final confidence", "stated confidence" and "confidence (initial)".
func confidenceLabel(n string) (kind string, ok bool) {
	switch n {
	case "confidence", "stated confidence", "self confidence":
		return "", true
	case "initial confidence", "confidence (initial)", "prior confidence":
		return "initial", true
	case "final confidence", "confidence (final)", "revised confidence", "posterior confidence":
		return "final", true
	}
	return "", false
}

// evidenceLine turns a line of an Evidence section into a ref: list markers
// and backticks are stripped; a blank line gives "".
func evidenceLine(l string) string {
	l = strings.TrimSpace(l)
	for _, p := range []string{"- ", "* ", "+ "} {
		l = strings.TrimPrefix(l, p)
	}
	if i := strings.IndexByte(l, '.'); i > 0 && i <= 3 && strings.Trim(l[:i], "0123456789") == "" {
		l = strings.TrimSpace(l[i+1:])
	}
	return strings.TrimSpace(strings.Trim(l, "`"))
}
