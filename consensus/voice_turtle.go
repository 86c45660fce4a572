package consensus

import (
	"regexp"
	"strings"
	"sync"
)

// A rule kept as linked data is written in Turtle: ":ParentsEvening
// :subjectTeacherSlotMinutes 5 ; :bookingChannel \"online\" ." names a
// thing, then each of its properties with its value, ";" between them and
// "." at the end; "[ … ]" is a thing of its own with properties. This file
// rewrites such a text as keys and values ("subjectTeacherSlotMinutes: 5,
// bookingChannel: online"), which the configuration reader then reads
// (configValues).

// turtleName matches a prefixed name: ":slotMinutes", "ex:Grade4".
var turtleName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_]*:[A-Za-z_][A-Za-z0-9_-]*$`)
})

// turtleValues rewrites a Turtle text as keys and values; any other text
// is returned as it is. A text is read as Turtle when it opens with a
// prefixed name and names at least two properties.
func turtleValues(s string) string {
	t := strings.TrimSpace(s)
	if len(t) < 4 || strings.Count(t, ":") < 3 || !strings.Contains(t, " ;") && !strings.HasSuffix(t, ".") {
		return s
	}
	toks := turtleTokens(t)
	if len(toks) < 4 || !turtleName().MatchString(toks[0]) {
		return s
	}
	names := 0
	for _, tok := range toks {
		if turtleName().MatchString(tok) {
			names++
		}
	}
	if names < 3 {
		return s
	}
	bare := func(name string) string { return name[strings.IndexByte(name, ':')+1:] }
	var b strings.Builder
	subject, pred, open := true, false, false // open: the subject's properties are being read
	for _, tok := range toks {
		switch {
		case tok == ";" || tok == ",":
			b.WriteString(", ")
			pred = tok == ";"
		case tok == "[":
			b.WriteString("{")
			pred = true
		case tok == "]":
			b.WriteString("} ")
			pred = false
		case tok == ".":
			if open {
				b.WriteString("}")
				open = false
			}
			b.WriteString(". ")
			subject, pred = true, false
		case subject && turtleName().MatchString(tok):
			b.WriteString(keyWords(bare(tok)) + " {")
			subject, pred, open = false, true, true
		case pred && tok == "a":
			b.WriteString("is a ") // rdf:type
			pred = false
		case pred && turtleName().MatchString(tok):
			b.WriteString(bare(tok) + ": ")
			pred = false
		case turtleName().MatchString(tok):
			b.WriteString(keyWords(bare(tok)) + " ")
		default:
			b.WriteString(tok + " ")
			subject, pred = false, false
		}
	}
	if open {
		b.WriteString("}")
	}
	return strings.TrimSpace(b.String())
}

// turtleTokens splits a Turtle text into names, values and the marks
// ";", ",", "[", "]" and the "." that ends a statement; a quoted string
// is one value.
func turtleTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				out = append(out, s[i:])
				return out
			}
			out = append(out, s[i:i+j+2])
			i += j + 2
		case c == ';' || c == ',' || c == '[' || c == ']':
			out = append(out, string(c))
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r;,[]\"", rune(s[j])) {
				j++
			}
			tok := s[i:j]
			if len(tok) > 1 && strings.HasSuffix(tok, ".") {
				out = append(out, tok[:len(tok)-1], ".")
			} else {
				out = append(out, tok)
			}
			i = j
		}
	}
	return out
}
