package consensus

import (
	"regexp"
	"strings"
	"sync"
)

// This file compares the days of the week a rule holds on, said as ranges
// ("Monday to Thursday", "Mon–Thu", "Tuesday through Saturday") or as
// "weekdays", less the days it rules out ("no deploys on Fridays",
// "weekends are off-limits"). "Mon-Thu; Fridays and weekends are
// off-limits" holds on the days "Monday to Thursday" does; "Monday to
// Friday" does not.

// dayNames are the names of the days, full and short, by their number
// (Monday 0).
var dayNames = []string{
	`monday|mon`, `tuesday|tues|tue`, `wednesday|weds|wed`, `thursday|thurs|thur|thu`,
	`friday|fri`, `saturday|sat`, `sunday|sun`,
}

// dayShort are the days' names as a difference says them.
var dayShort = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

// dayPatterns holds the expressions the comparison reads: a range of days,
// one day by its full name, and the words for groups of days; and what
// rules a day out: negBefore, the words that do so before the day in its
// clause, negAfter, after it in its part of the clause; clauseEnd ends the
// clause a day is said in, partEnd the part a negation after it reaches.
type dayPatterns struct {
	rng, day, group, whole                  *regexp.Regexp
	negBefore, negAfter, clauseEnd, partEnd *regexp.Regexp
}

var dayRE = sync.OnceValue(func() dayPatterns {
	name := `(` + strings.Join(dayNames, `|`) + `)`
	return dayPatterns{
		// A short name stands only in a range: "sat" and "sun" are words too.
		rng:   regexp.MustCompile(`(?i)\b` + name + `s?\.?\s*(?:to|through|thru|till|until|-|–|—)\s*` + name + `s?\b`),
		day:   regexp.MustCompile(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b`),
		group: regexp.MustCompile(`(?i)\b(weekdays?|weekends?)\b`),
		// The whole week: "seven days a week", "every day of the week".
		whole: regexp.MustCompile(`(?i)\b(?:seven|7)\s+days\s+(?:a|per|each|every)\s+week\b|\bevery\s+day\s+of\s+the\s+week\b`),

		negBefore: regexp.MustCompile(`(?i)\b(no|not|never|nothing|none|except|excluding|apart from|other than|without|forbidden|banned|prohibited|closed|cannot|can't|won't|don't|doesn't|isn't|aren't)\b|n't\b`),
		negAfter:  regexp.MustCompile(`(?i)\b(off[- ]limits|excluded|forbidden|banned|prohibited|not allowed|not permitted|closed|frozen|blocked)\b`),
		clauseEnd: regexp.MustCompile(`[;.!?\n]|\bbut\b`),
		partEnd:   regexp.MustCompile(`[,;.!?\n]|\bbut\b`),
	}
})

// dayIndex is the number of a day's name, full or short; -1 if it is none.
func dayIndex(name string) int {
	name = strings.ToLower(name)
	for i, alts := range dayNames {
		for _, n := range strings.Split(alts, "|") {
			if n == name {
				return i
			}
		}
	}
	return -1
}

// daySet is a set of days of the week, Monday in bit 0.
type daySet uint8

func (s daySet) String() string {
	var parts []string
	for i := 0; i < 7; {
		if s&(1<<i) == 0 {
			i++
			continue
		}
		j := i
		for j+1 < 7 && s&(1<<(j+1)) != 0 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, dayShort[i])
		case j == i+1:
			parts = append(parts, dayShort[i], dayShort[j])
		default:
			parts = append(parts, dayShort[i]+"–"+dayShort[j])
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// spanOf is the set of days from day a to day b, around the week's end
// where b comes before a ("Friday to Monday").
func spanOf(a, b int) daySet {
	var s daySet
	for i := a; ; i = (i + 1) % 7 {
		s |= 1 << i
		if i == b {
			return s
		}
	}
}

const (
	weekdaysSet daySet = 0b0011111
	weekendSet  daySet = 0b1100000
)

// daysRuledOn reads the days text holds its rule on: held, the days of its
// ranges, "weekdays" and the whole week ("seven days a week") not ruled
// out, less the days it rules out. said reports whether it names any
// range, "weekdays" or the whole week at all.
func daysRuledOn(text string) (held daySet, said bool) {
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed] // as much as the rest of the comparison reads
	}
	if !mayNameDays(text) {
		return 0, false
	}
	p := dayRE()
	var in, out daySet
	negated := func(at, end int) bool {
		start := 0
		for _, m := range p.clauseEnd.FindAllStringIndex(text[:at], -1) {
			start = m[1]
		}
		if p.negBefore.MatchString(text[start:at]) {
			return true
		}
		rest := text[end:]
		if m := p.partEnd.FindStringIndex(rest); m != nil {
			rest = rest[:m[0]]
		}
		return p.negAfter.MatchString(rest)
	}
	ranged := make([]bool, len(text)+1) // the bytes a range covers
	for _, m := range p.rng.FindAllStringSubmatchIndex(text, -1) {
		a, b := dayIndex(text[m[2]:m[3]]), dayIndex(text[m[4]:m[5]])
		if a < 0 || b < 0 {
			continue
		}
		for i := m[0]; i < m[1]; i++ {
			ranged[i] = true
		}
		if negated(m[0], m[1]) {
			out |= spanOf(a, b)
		} else {
			in |= spanOf(a, b)
			said = true
		}
	}
	for _, m := range p.group.FindAllStringSubmatchIndex(text, -1) {
		set := weekendSet
		if strings.HasPrefix(strings.ToLower(text[m[2]:m[3]]), "weekday") {
			set = weekdaysSet
		}
		if negated(m[0], m[1]) {
			out |= set
		} else if set == weekdaysSet {
			in |= set
			said = true
		}
	}
	for _, m := range p.whole.FindAllStringIndex(text, -1) {
		if !negated(m[0], m[1]) {
			in |= weekdaysSet | weekendSet
			said = true
		}
	}
	for _, m := range p.day.FindAllStringSubmatchIndex(text, -1) {
		if !ranged[m[0]] && negated(m[0], m[1]) {
			out |= 1 << dayIndex(text[m[2]:m[3]])
		}
	}
	return in &^ out, said
}

// mayNameDays reports whether text holds what every expression of dayRE
// needs: the start of a day's name ("mon", "thu") or "week". Most texts
// name no day, and this spares them the expressions. (The expressions
// fold a long "ſ" to "s", but only at the start of "ſaturday" or "ſunday",
// where their word boundary, read in ASCII, does not hold.)
func mayNameDays(text string) bool {
	low := strings.ToLower(text)
	for _, w := range [...]string{"mon", "tue", "wed", "thu", "fri", "sat", "sun", "week"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// compareDays finds a rule held on other days of the week: "Monday to
// Thursday" against "Monday to Friday". Both sides must name the days by
// a range or "weekdays"; a day left unsaid by one side is no change.
func compareDays(filed, position string) []string {
	a, saidA := daysRuledOn(filed)
	b, saidB := daysRuledOn(position)
	if !saidA || !saidB || a == b || a == 0 || b == 0 {
		return nil
	}
	return []string{a.String() + " → " + b.String()}
}

// sameDays reports whether two stretches of text each name days ("Monday
// to Friday", "weekdays") and the same ones.
func sameDays(a, b string) bool {
	da, saidA := daysRuledOn(a)
	db, saidB := daysRuledOn(b)
	return saidA && saidB && da != 0 && da == db
}
