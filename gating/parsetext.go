package gating

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/vocab"
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
	// secAnswer is a bare "Answer" label: the initial answer before any
	// critique, the final answer after one.
	secAnswer
	numSections
)

var sectionNames = [numSections]string{
	secNone: "", secQuestion: "question", secInitial: "initial_answer", secReasoning: "reasoning",
	secCritique: "critique", secFinal: "final_answer", secEvidence: "evidence", secAnswer: "answer",
}

// Parsed says how a self-critique was read: its form, the sections found
// (with the label as written and how it was marked), the confidences read
// and anything inferred. It travels with the decision so that a user can
// see what the gate took the text to say.
type Parsed struct {
	// Form is "json" or "text".
	Form        string             `json:"form"`
	Sections    []ParsedSection    `json:"sections,omitempty"`
	Confidences []ParsedConfidence `json:"confidences,omitempty"`
	// Notes say what was inferred or left unread ("no critique section:
	// the whole text is the critique").
	Notes []string `json:"notes,omitempty"`
}

// ParsedSection is one section found in a text self-critique.
type ParsedSection struct {
	Section string `json:"section"` // question, initial_answer, reasoning, critique, final_answer, evidence
	Label   string `json:"label"`   // as written, shortened
	Line    int    `json:"line"`
	How     string `json:"how"` // heading, bold, label, tag, underline
}

// ParsedConfidence is one confidence read from a text self-critique.
type ParsedConfidence struct {
	Slot  string  `json:"slot"` // initial or final
	Value float64 `json:"value"`
	Line  int     `json:"line"`
	How   string  `json:"how"`
}

// phraseLabels are labels of several words recognised as a whole.
var phraseLabels = sync.OnceValue(func() map[string]section {
	return map[string]section{
		"what could be wrong": secCritique, "what could go wrong": secCritique, "where i could be wrong": secCritique,
		"where i might be wrong": secCritique, "what might be wrong": secCritique, "sanity check": secCritique,
		"double check": secCritique, "second look": secCritique, "second pass": secCritique, "second thoughts": secCritique,
		"devil's advocate": secCritique, "devils advocate": secCritique, "red team": secCritique, "red teaming": secCritique,
		"self check": secCritique, "self critique": secCritique, "self review": secCritique, "self reflection": secCritique,
		"self assessment": secCritique, "self evaluation": secCritique, "self audit": secCritique,
		"thought process": secReasoning, "chain of thought": secReasoning, "how i got there": secReasoning,
		"what i did": secReasoning, "bottom line": secFinal, "tl dr": secFinal, "tl;dr": secFinal, "tldr": secFinal,
		"in short": secFinal, "the ask": secQuestion, "q": secQuestion, "a": secAnswer,
	}
})

// labelWords classify a label by its first word that means something.
var labelWords = sync.OnceValue(func() map[string]section {
	return map[string]section{
		// question/task/ask
		"question": secQuestion, "task": secQuestion, "ask": secQuestion, "prompt": secQuestion, "problem": secQuestion,
		"query": secQuestion, "request": secQuestion, "topic": secQuestion, "claim": secQuestion,
		// reasoning
		"reasoning": secReasoning, "rationale": secReasoning, "analysis": secReasoning, "steps": secReasoning,
		"step": secReasoning, "thinking": secReasoning, "thoughts": secReasoning, "justification": secReasoning,
		"explanation": secReasoning, "working": secReasoning, "workings": secReasoning, "approach": secReasoning,
		"method": secReasoning, "derivation": secReasoning, "argument": secReasoning, "why": secReasoning,
		"findings": secReasoning, "observations": secReasoning, "investigation": secReasoning, "background": secReasoning,
		"think": secReasoning, "plan": secReasoning,
		// critique/self-check/reflection/review/double-check/verification
		"critique": secCritique, "selfcritique": secCritique, "selfcheck": secCritique, "check": secCritique,
		"checks": secCritique, "checking": secCritique, "checked": secCritique, "verification": secCritique, "verify": secCritique,
		"verifying": secCritique, "reflection": secCritique, "reflections": secCritique, "reflect": secCritique,
		"review": secCritique, "reviewing": secCritique, "doublecheck": secCritique, "audit": secCritique,
		"assessment": secCritique, "evaluation": secCritique, "scrutiny": secCritique, "caveats": secCritique,
		"caveat": secCritique, "concerns": secCritique, "doubts": secCritique, "risks": secCritique,
		"limitations": secCritique, "weaknesses": secCritique, "objections": secCritique, "counterarguments": secCritique,
		"uncertainties": secCritique, "uncertainty": secCritique, "hesitations": secCritique, "criticism": secCritique,
		"introspection": secCritique, "retrospective": secCritique, "pushback": secCritique, "challenge": secCritique,
		"crosscheck": secCritique, "cross": secCritique, "validation": secCritique, "selfreview": secCritique,
		// final/revised/answer/conclusion
		"conclusion": secFinal, "conclusions": secFinal, "verdict": secFinal, "summary": secFinal,
		"recommendation": secFinal, "decision": secFinal,
		// bare answers
		"answer": secAnswer, "response": secAnswer, "reply": secAnswer, "position": secAnswer, "take": secAnswer,
		"solution": secAnswer, "proposal": secAnswer, "attempt": secAnswer, "pass": secAnswer, "guess": secAnswer,
		// evidence
		"evidence": secEvidence, "references": secEvidence, "refs": secEvidence, "sources": secEvidence,
		"citations": secEvidence,
	}
})

// qualifiers turn a bare answer (or stand alone) into an initial or final one.
var qualifiers = sync.OnceValue(func() map[string]section {
	return map[string]section{
		"initial": secInitial, "draft": secInitial, "first": secInitial, "original": secInitial,
		"preliminary": secInitial, "proposed": secInitial, "tentative": secInitial, "provisional": secInitial,
		"prior": secInitial, "starting": secInitial, "opening": secInitial, "naive": secInitial, "quick": secInitial,
		"gut": secInitial, "candidate": secInitial, "early": secInitial,
		"final": secFinal, "revised": secFinal, "updated": secFinal, "corrected": secFinal, "amended": secFinal,
		"refined": secFinal, "definitive": secFinal, "new": secFinal, "improved": secFinal, "last": secFinal,
		"settled": secFinal, "reconsidered": secFinal,
	}
})

// fillerWords are skipped when classifying a label.
var fillerWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"my": true, "the": true, "our": true, "a": true, "an": true, "of": true, "to": true, "self": true,
		"i": true, "we": true, "on": true, "and": true, "for": true, "your": true, "this": true, "short": true,
		"brief": true, "quick-": true, "part": true, "section": true, "stage": true, "phase": true, "round": true,
	}
})

// classifyLabel returns the section a normalised label means, or secNone.
func classifyLabel(n string) section {
	if s, ok := phraseLabels()[n]; ok {
		return s
	}
	words := strings.Fields(n)
	if len(words) == 0 || len(words) > 6 {
		return secNone
	}
	for _, k := range []int{3, 2} {
		if len(words) >= k {
			if s, ok := phraseLabels()[strings.Join(words[:k], " ")]; ok {
				return s
			}
		}
	}
	for i, w := range words {
		if fillerWords()[w] || isDigits(w) {
			continue
		}
		if q, ok := qualifiers()[w]; ok {
			// "Final answer", "Draft", "Revised response", "First pass".
			return q
		}
		s, ok := labelWords()[w]
		if !ok {
			if i == 0 || len(words) <= 2 {
				return secNone
			}
			continue
		}
		if s == secAnswer {
			for _, rest := range words[i+1:] {
				if q, ok := qualifiers()[rest]; ok {
					return q // "Answer (revised)"
				}
				if labelWords()[rest] == secCritique {
					return secCritique // "Answer check"
				}
			}
		}
		return s
	}
	return secNone
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// normLabel lower-cases a label, turns punctuation into spaces (keeping
// apostrophes and ;) and collapses white space: "**Self-Check (round 2):**"
// → "self check round 2".
func normLabel(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		switch {
		case r == '\'' || r == '’':
			b.WriteByte('\'')
			space = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
			space = false
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimSpace(b.String())
}

// confidenceSlot recognises a confidence label by meaning: it names
// confidence or certainty ("Confidence", "Certainty", "Confidence level",
// "How sure"), optionally qualified as initial or final.
func confidenceSlot(n string) (slot string, ok bool) {
	words := strings.Fields(n)
	if len(words) == 0 || len(words) > 5 {
		return "", false
	}
	for i, w := range words {
		switch w {
		case "confidence", "certainty", "conf":
			ok = true
		case "sure", "confident":
			ok = i > 0 && words[i-1] == "how"
		case "initial", "before", "prior", "starting", "first", "draft", "original", "pre":
			slot = "initial"
		case "final", "after", "revised", "updated", "now", "post", "end", "new", "current":
			slot = "final"
		case "my", "the", "level", "self", "stated", "how", "overall", "in", "answer", "score", "estimate":
		default:
			if !isDigits(w) {
				return "", false
			}
		}
	}
	return slot, ok
}

// confidenceWords are the words read as a confidence where they are the
// whole value.
var confidenceWords = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{
		"very high": 0.9, "high": 0.8, "fairly high": 0.75, "medium": 0.6, "moderate": 0.6,
		"medium high": 0.7, "medium low": 0.45, "low": 0.3, "very low": 0.15,
	}
})

// readConfidences reads a confidence value: one number ("0.8", "80%",
// "8/10", "about 0.8 (tests pass)"), a word ("high"), or an initial and a
// final one ("0.72 -> 0.8", "60% → 85%", "from 0.6 to 0.9"). It returns
// one or two values in [0, 1], or none when the text does not say one.
func readConfidences(s string) (vals []float64, how string) {
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	for _, arrow := range []string{"->", "→", "=>", "⇒", "-->", "⟶"} {
		if a, b, ok := strings.Cut(low, arrow); ok {
			x, okx := readOne(a)
			y, oky := readOne(b)
			if okx && oky {
				return []float64{x, y}, "a -> b"
			}
			return nil, ""
		}
	}
	if rest, ok := strings.CutPrefix(low, "from "); ok {
		if a, b, ok := strings.Cut(rest, " to "); ok {
			x, okx := readOne(a)
			y, oky := readOne(b)
			if okx && oky {
				return []float64{x, y}, "from a to b"
			}
		}
	}
	if v, ok := readOne(low); ok {
		return []float64{v}, "number"
	}
	w := strings.Trim(strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return r
		}
		return ' '
	}, low)), " "), " ")
	for _, cut := range []string{" confidence", " certainty"} {
		w = strings.TrimSuffix(w, cut)
	}
	if v, ok := confidenceWords()[w]; ok {
		return []float64{v}, "word " + strconv.Quote(w)
	}
	return nil, ""
}

// readOne reads a single confidence at the start of s: a number in [0, 1],
// a percentage, or a fraction of 5, 10 or 100; "about", "~" and similar
// may come first and words may follow. A number that goes on ("1e-1",
// "0,8") is not read.
func readOne(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	for _, p := range []string{"about", "around", "roughly", "approximately", "approx.", "approx", "~", "≈", "circa", "maybe", "c."} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	s = strings.TrimLeft(s, "*_`(")
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.') {
		end++
	}
	num := strings.TrimRight(s[:end], ".")
	if num == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !finite(v) {
		return 0, false
	}
	after := strings.TrimLeft(s[len(num):], " \t*_`")
	switch {
	case strings.HasPrefix(after, "%"):
		if v >= 0 && v <= 100 {
			return v / 100, true
		}
		return 0, false
	case strings.HasPrefix(after, "/"):
		d, _ := readInt(strings.TrimSpace(after[1:]))
		if (d == 5 || d == 10 || d == 100 || d == 1) && v <= float64(d) {
			return v / float64(d), true
		}
		return 0, false
	case strings.HasPrefix(after, "out of "):
		d, _ := readInt(strings.TrimSpace(after[len("out of "):]))
		if (d == 5 || d == 10 || d == 100) && v <= float64(d) {
			return v / float64(d), true
		}
		return 0, false
	}
	if after != "" {
		r, _ := utf8.DecodeRuneInString(after)
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == ',' && len(after) > 1 && after[1] >= '0' && after[1] <= '9' {
			return 0, false
		}
	}
	if v >= 0 && v <= 1 {
		return v, true
	}
	return 0, false
}

func readInt(s string) (int, bool) {
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	return n, err == nil
}

// confRead is one confidence found while reading a text.
type confRead struct {
	vals []float64
	slot string // "initial", "final" or "" (from the label)
	sec  section
	line int
	how  string
}

// ParseText reads a Markdown or plain-text self-critique; only empty input
// is refused (besides binary and oversized input, see checkText).
//
// Sections are recognised by meaning in Markdown headings ("## Self-check"),
// underlined headings, bold labels ("**Draft answer:**"), tag lines
// ("<reflection>") and "Label:" lines, in any case: question/task/ask;
// initial/draft/first answer; reasoning/rationale/analysis/steps;
// critique/self-check/reflection/review/double-check/verification;
// final/revised answer/conclusion; evidence. A bare "Answer" is the
// initial answer before any critique and the final one after.
// Confidences are read from lines labelled confidence or certainty in any
// common form (0–1, percent, 8/10, high/medium/low, "a -> b" for initial
// and final); of several unqualified confidence lines the first is the
// initial and the last the final one; a single one is initial inside the
// question, initial answer or reasoning and final elsewhere. "Layer: verify"
// states the layer. Text with no recognisable section is all critique; a
// text with sections but no critique takes its unlabelled text (or, failing
// that, all its text) as the critique. What was inferred is in Parsed.
func ParseText(data []byte) (SelfCritique, error) {
	data, err := checkText(data)
	if err != nil {
		return SelfCritique{}, err
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return SelfCritique{}, fmt.Errorf("%w: the input is empty", ErrNoCritique)
	}
	p := &Parsed{Form: "text"}
	var (
		sc         SelfCritique
		parts      [numSections]strings.Builder
		all        strings.Builder // every non-confidence line, for a critique of last resort
		cur        = secNone
		sawSection bool
		sawCrit    bool
		seen       [numSections]bool
		fence      string
		confs      []confRead
		// bareAnswer is the index in p.Sections of a bare "Answer" read
		// as the initial answer (-1 if none); namedInitial says an
		// "Initial/Draft answer" label was seen.
		bareAnswer  = -1
		namedAnswer bool
		// bareAnswers counts bare "Answer"/"A:" sections; reopened says a
		// question label came again after a section, and dialogue that a
		// bare answer followed it: Q/A turns, not a draft and a revision.
		bareAnswers        int
		reopened, dialogue bool
	)
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		lineNo := i + 1
		line := strings.TrimRight(lines[i], " \t\r")
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
			appendLine(&parts[cur], line)
			appendLine(&all, line)
			continue
		}
		if f := fenceOpen(trimmed); f != "" {
			fence = f
			appendLine(&parts[cur], line)
			appendLine(&all, line)
			continue
		}
		label, rest, how := splitLabel(trimmed)
		if how == "" && i+1 < len(lines) && underline(lines[i+1]) && validLabel(trimmed) {
			label, rest, how = trimmed, "", "underline"
		}
		if how == "tag-close" {
			continue
		}
		if how != "" {
			n := normLabel(label)
			if slot, ok := confidenceSlot(n); ok {
				if vals, vhow := readConfidences(rest); len(vals) > 0 {
					confs = append(confs, confRead{vals: vals, slot: slot, sec: cur, line: lineNo, how: vhow})
					if how == "underline" {
						i++
					}
					continue
				}
				// What the agent wrote instead of a number is its own
				// words about its certainty: they belong to the critique.
				p.Notes = append(p.Notes, fmt.Sprintf("line %d: confidence %q not read as a number (write 0.8, 80%% or 0.6 -> 0.8); its words count as critique", lineNo, clip.Line(rest, 41)))
				appendLine(&parts[secCritique], rest)
				appendLine(&all, rest)
				continue
			} else if n == "layer" {
				if l, err := vocab.ParseLayer(strings.Trim(rest, "*_` .")); err == nil {
					sc.Layer = l
				} else {
					p.Notes = append(p.Notes, fmt.Sprintf("line %d: layer %q not known (spec, plan or verify)", lineNo, clip.Line(rest, 41)))
				}
				continue
			} else if s := classifyLabel(n); s != secNone && accept(s, how, rest, seen) {
				if s == secAnswer {
					s = secInitial
					if sawCrit || seen[secInitial] {
						s = secFinal
					} else {
						bareAnswer = len(p.Sections)
					}
					bareAnswers++
					if reopened {
						dialogue = true
					}
				} else if s == secInitial || s == secFinal {
					namedAnswer = true
				}
				cur, sawSection, seen[s] = s, true, true
				if s == secCritique {
					sawCrit = true
				}
				p.Sections = append(p.Sections, ParsedSection{Section: sectionNames[s], Label: clip.Line(label, 41), Line: lineNo, How: how})
				if before, c, ok := trailingConfidence(rest); ok {
					// "Verdict: fixed. Confidence 0.92"
					c.sec, c.line = cur, lineNo
					confs = append(confs, c)
					rest = before
				}
				if rest != "" {
					rest = unquoteValue(rest)
					appendLine(&parts[cur], rest)
					appendLine(&all, rest)
				}
				if how == "underline" {
					i++
				}
				continue
			}
		}
		if how != "" && classifyLabel(normLabel(label)) == secQuestion && sawSection {
			// "Q: …" again after an answer: the text asks and answers
			// itself, turn by turn.
			reopened = true
		}
		if c, ok := inlineConfidence(trimmed); ok {
			c.sec, c.line = cur, lineNo
			confs = append(confs, c)
			continue
		}
		if before, c, ok := trailingConfidence(line); ok {
			c.sec, c.line = cur, lineNo
			confs = append(confs, c)
			line = before
		}
		appendLine(&parts[cur], line)
		appendLine(&all, line)
	}
	if dialogue && !namedAnswer {
		// A self-interrogation (Q: … A: … Q: … A: …): its answers are
		// turns of the critique, none of them the initial or final answer.
		parts[secInitial], parts[secFinal] = strings.Builder{}, strings.Builder{}
		seen[secInitial], seen[secFinal] = false, false
		kept := p.Sections[:0]
		for _, ps := range p.Sections {
			if ps.Section != sectionNames[secInitial] && ps.Section != sectionNames[secFinal] {
				kept = append(kept, ps)
			}
		}
		p.Sections = kept
		for k := range confs {
			if confs[k].sec == secInitial || confs[k].sec == secFinal {
				confs[k].sec = secCritique
			}
		}
		p.Notes = append(p.Notes, fmt.Sprintf("questions and answers in turns (%d answers): read as critique, with no initial or final answer", bareAnswers))
	} else if bareAnswer >= 0 && !namedAnswer && !sawCrit && !seen[secFinal] {
		// One bare answer and no critique after it (a chain of thought
		// then <answer>, a Question / Answer note): the answer the text
		// ends on is its final answer.
		parts[secFinal], parts[secInitial] = parts[secInitial], strings.Builder{}
		seen[secFinal], seen[secInitial] = true, false
		p.Sections[bareAnswer].Section = sectionNames[secFinal]
		for k := range confs {
			if confs[k].sec == secInitial {
				confs[k].sec = secFinal
			}
		}
		p.Notes = append(p.Notes, "one answer and no critique after it: read as the final answer")
	}
	get := func(s section) string { return strings.TrimSpace(parts[s].String()) }
	sc.Question, sc.InitialAnswer, sc.Reasoning = get(secQuestion), get(secInitial), get(secReasoning)
	sc.Critique, sc.FinalAnswer = get(secCritique), get(secFinal)
	pre := get(secNone)
	switch {
	case !sawSection:
		sc.Critique = pre
		if sc.Critique != "" {
			p.Notes = append(p.Notes, "no sections: the whole text is the critique")
		}
	case sc.Critique != "":
		if pre != "" {
			p.Notes = append(p.Notes, "text before the first section was left out")
		}
	default:
		// No critique section: the agent argues somewhere else (in its
		// answer, under a numbered "claim"): all its text is the critique.
		sc.Critique, sc.Reasoning = strings.TrimSpace(all.String()), ""
		p.Notes = append(p.Notes, "no critique section: the whole text is the critique")
	}
	if sc.Critique == "" {
		// Only confidence or layer lines.
		sc.Critique = strings.TrimSpace(text)
		p.Notes = append(p.Notes, "nothing but confidence lines: the whole text is the critique")
	}
	for _, l := range strings.Split(parts[secEvidence].String(), "\n") {
		if ref := evidenceLine(l); ref != "" {
			sc.EvidenceRefs = append(sc.EvidenceRefs, ref)
		}
	}
	assignConfidences(&sc, p, confs)
	sc.Parsed = p
	if err := sc.Validate(); err != nil {
		return SelfCritique{}, err
	}
	return sc, nil
}

// unquoteValue strips the quotes of a labelled value written as one quoted
// string (YAML, TOML: doubts: "Could X fail? I checked …"): they are the
// format's, not a quotation, so the words inside are the agent's own.
func unquoteValue(rest string) string {
	if len(rest) > 2 && rest[0] == '"' && rest[len(rest)-1] == '"' && !strings.Contains(rest[1:len(rest)-1], "\"") {
		return rest[1 : len(rest)-1]
	}
	return rest
}

// accept says whether a label line starts a section. A "Question:" label
// (plain or bold) after the sections it would reopen is a sentence of the
// critique ("**Question:** could the lock be held twice?"), and so is a
// plain bare "Answer:" line after the final answer; headings and tags
// always start a section.
func accept(s section, how, rest string, seen [numSections]bool) bool {
	if how == "heading" || how == "underline" || how == "tag" {
		return true
	}
	switch s {
	case secQuestion:
		for k := secInitial; k < numSections; k++ {
			if seen[k] {
				return false
			}
		}
	case secAnswer:
		return how != "label" || rest == "" || !seen[secFinal]
	}
	return true
}

// inlineConfidence reads a line that states a confidence without a colon:
// "Confidence 0.8", "(confidence: 0.9)", "I'd put my confidence at 70%".
func inlineConfidence(trimmed string) (confRead, bool) {
	if len(trimmed) > 80 {
		return confRead{}, false
	}
	low := strings.ToLower(strings.Trim(trimmed, "()[]*_ .-"))
	word := "confidence"
	i := strings.Index(low, word)
	if i < 0 {
		if word = "conf"; strings.HasPrefix(low, "conf ") {
			i = 0
		}
	}
	if i < 0 || strings.Count(low, " ") > 10 {
		return confRead{}, false
	}
	head := strings.TrimSpace(low[:i])
	for _, w := range strings.Fields(head) {
		switch w {
		case "my", "overall", "final", "initial", "i'd", "id", "put", "stated", "self", "revised", "updated":
		default:
			return confRead{}, false
		}
	}
	slot := ""
	if strings.Contains(head, "initial") {
		slot = "initial"
	} else if strings.Contains(head, "final") || strings.Contains(head, "revised") || strings.Contains(head, "updated") {
		slot = "final"
	}
	rest := strings.TrimSpace(low[i+len(word):])
	for _, p := range []string{"is at", "is", "at", "of", "=", "level"} {
		rest = strings.TrimSpace(strings.TrimPrefix(rest, p))
	}
	vals, how := readConfidences(rest)
	if len(vals) == 0 || how != "number" && how != "a -> b" {
		return confRead{}, false
	}
	return confRead{vals: vals, slot: slot, how: how + " (inline)"}, true
}

// trailingConfidence reads a confidence that ends a line of text: "…
// was red before the patch. conf 0.9", "… it's standard (confidence: 80%)".
// It returns the line without it.
func trailingConfidence(line string) (before string, c confRead, ok bool) {
	lb := []byte(line)
	lowerASCII(lb) // same offsets as line
	low := string(lb)
	i := strings.LastIndex(low, "conf")
	if i <= 0 || len(low)-i > 40 || isWordByte(lb, i-1) {
		return "", confRead{}, false
	}
	rest := low[i:]
	j := 0
	for j < len(rest) && rest[j] >= 'a' && rest[j] <= 'z' {
		j++
	}
	if w := rest[:j]; w != "conf" && w != "confidence" {
		return "", confRead{}, false
	}
	v := strings.TrimRight(strings.TrimSpace(strings.TrimLeft(rest[j:], " :=")), ").]")
	// The value must be all that follows: "conf 0.9", not "conf 0.9 for X".
	for _, r := range v {
		if unicode.IsLetter(r) {
			return "", confRead{}, false
		}
	}
	vals, how := readConfidences(v)
	if len(vals) == 0 {
		return "", confRead{}, false
	}
	return strings.TrimRight(line[:i], " (,;["), confRead{vals: vals, how: how + " (end of line)"}, true
}

// assignConfidences places the confidences read: labelled ones in their
// slot, "a -> b" as initial and final, and unlabelled ones by order (first
// initial, last final) or, when there is one, by the section it is in.
func assignConfidences(sc *SelfCritique, p *Parsed, confs []confRead) {
	set := func(slot string, v float64, c confRead, how string) {
		ptr := &sc.FinalConfidence
		if slot == "initial" {
			ptr = &sc.InitialConfidence
		}
		if *ptr != nil {
			p.Notes = append(p.Notes, fmt.Sprintf("line %d: a later %s confidence replaces an earlier one", c.line, slot))
		}
		v = math.Round(v*1e6) / 1e6
		*ptr = &v
		p.Confidences = append(p.Confidences, ParsedConfidence{Slot: slot, Value: v, Line: c.line, How: how})
	}
	var loose []confRead
	for _, c := range confs {
		switch {
		case len(c.vals) == 2:
			set("initial", c.vals[0], c, c.how)
			set("final", c.vals[1], c, c.how)
		case c.slot != "":
			set(c.slot, c.vals[0], c, "labelled "+c.slot+", "+c.how)
		default:
			loose = append(loose, c)
		}
	}
	switch {
	case len(loose) == 1:
		c := loose[0]
		slot := "final"
		if c.sec == secQuestion || c.sec == secInitial || c.sec == secReasoning {
			slot = "initial"
		}
		// A single line fills the slot no labelled line took.
		if slot == "final" && sc.FinalConfidence != nil && sc.InitialConfidence == nil {
			slot = "initial"
		} else if slot == "initial" && sc.InitialConfidence != nil && sc.FinalConfidence == nil {
			slot = "final"
		}
		set(slot, c.vals[0], c, "only confidence line, in "+orNone(sectionNames[c.sec])+", "+c.how)
	case len(loose) >= 2:
		first, last := loose[0], loose[len(loose)-1]
		if sc.InitialConfidence == nil {
			set("initial", first.vals[0], first, fmt.Sprintf("first of %d confidence lines, %s", len(loose), first.how))
		}
		if sc.FinalConfidence == nil {
			set("final", last.vals[0], last, fmt.Sprintf("last of %d confidence lines, %s", len(loose), last.how))
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "no section"
	}
	return s
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

// underline reports whether line underlines the one above it (a Markdown
// setext heading: === or ---).
func underline(line string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= 3 && (strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "")
}

// tableLabel reads a Markdown table row whose first cell names an answer
// ("| Initial | 10 per host | 0.8 |", "| Final answer | yes |") as that
// label, with the other cells as its text. Other rows are ordinary lines:
// a table of checks stays one block of critique.
func tableLabel(row string) (label, rest, how string) {
	row = strings.TrimSpace(row)
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	cells := strings.Split(row, "|")
	if len(cells) < 2 {
		return "", "", ""
	}
	l := strings.Trim(strings.TrimSpace(cells[0]), "*_` ")
	if !validLabel(l) {
		return "", "", ""
	}
	switch classifyLabel(normLabel(l)) {
	case secInitial, secFinal, secAnswer:
	default:
		return "", "", ""
	}
	var parts []string
	for _, c := range cells[1:] {
		if c = strings.TrimSpace(c); c != "" {
			parts = append(parts, c)
		}
	}
	return l, strings.Join(parts, " | "), "table"
}

// splitLabel recognises a line that may hold a label and returns the label,
// the text after it and how it was marked: "heading" ("## Final answer"),
// "bold" ("**Critique:** text", "__Review__"), "tag" ("<reflection>"),
// "tag-close" ("</reflection>"), "label" ("Final answer: yes" — also after
// a list marker or a number), or "" for an ordinary line.
func splitLabel(trimmed string) (label, rest, how string) {
	s := trimmed
	if strings.HasPrefix(s, "#") {
		h := strings.TrimLeft(s, "#")
		if len(s)-len(h) <= 6 && (h == "" || h[0] == ' ' || h[0] == '\t') {
			h = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(h), "#"))
			h = stripNumbering(h)
			if l, r, found := cutLabel(h); found && validLabel(l) {
				return l, r, "heading"
			}
			if validLabel(strings.Trim(h, "*_ ")) {
				return strings.Trim(h, "*_ "), "", "heading"
			}
		}
		return "", "", ""
	}
	if strings.HasPrefix(s, "|") {
		return tableLabel(s)
	}
	if strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">") && len(s) < 40 {
		inner := s[1 : len(s)-1]
		if strings.HasPrefix(inner, "/") {
			if validLabel(inner[1:]) {
				return "", "", "tag-close"
			}
			return "", "", ""
		}
		if validLabel(inner) {
			return inner, "", "tag"
		}
		return "", "", ""
	}
	for _, p := range []string{"- ", "* ", "+ ", "> "} {
		s = strings.TrimPrefix(s, p)
	}
	s = stripNumbering(s)
	if strings.HasPrefix(s, "[") {
		if inner, after, found := strings.Cut(s[1:], "]"); found && validLabel(inner) {
			return inner, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(after), ":")), "bold"
		}
	}
	for _, b := range []string{"**", "__"} {
		if strings.HasPrefix(s, b) {
			inner, after, found := strings.Cut(s[len(b):], b)
			if !found {
				return "", "", ""
			}
			inner = strings.TrimSpace(inner)
			after = strings.TrimSpace(after)
			if strings.HasSuffix(inner, ":") {
				l := strings.TrimSpace(strings.TrimSuffix(inner, ":"))
				if validLabel(l) {
					return l, after, "bold"
				}
				return "", "", ""
			}
			if l, r, found := cutLabel(inner); found && validLabel(l) && after == "" {
				return l, r, "bold" // "**Confidence: 0.8**"
			}
			if strings.HasPrefix(after, ":") || strings.HasPrefix(after, "—") || strings.HasPrefix(after, "–") {
				_, r, _ := strings.Cut(after, after[:1])
				if strings.HasPrefix(after, "—") || strings.HasPrefix(after, "–") {
					r = strings.TrimLeft(after, "—– ")
				}
				if validLabel(inner) {
					return inner, strings.TrimSpace(r), "bold"
				}
				return "", "", ""
			}
			if after == "" && validLabel(inner) {
				return inner, "", "bold"
			}
			return "", "", ""
		}
	}
	l, r, found := cutLabel(s)
	if !found || !validLabel(l) {
		return "", "", ""
	}
	return l, r, "label"
}

// cutLabel splits "Label: text" or "Label — text" at the first separator.
func cutLabel(s string) (label, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	j := strings.Index(s, " — ")
	if j < 0 {
		j = strings.Index(s, " – ")
	}
	switch {
	case i >= 0 && (j < 0 || i < j):
		if i+1 < len(s) && s[i+1] == '/' {
			return "", "", false // a URL
		}
		return s[:i], strings.TrimSpace(s[i+1:]), true
	case j >= 0:
		_, r, _ := strings.Cut(s[j+1:], " ")
		return s[:j], strings.TrimSpace(r), true
	}
	return "", "", false
}

// stripNumbering drops "1.", "2)", "Step 3:"-free numbering at the start of
// a heading or label ("3. Self-check" → "Self-check").
func stripNumbering(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return strings.TrimSpace(s[i+1:])
	}
	return s
}

// validLabel accepts short labels made of letters, digits, spaces and a
// little punctuation: what a heading looks like, not a sentence.
func validLabel(l string) bool {
	l = strings.TrimSpace(l)
	if l == "" || len(l) > 48 || strings.Count(l, " ") > 5 {
		return false
	}
	for _, r := range l {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" -_()'’/&;*", r)) {
			return false
		}
	}
	return true
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
