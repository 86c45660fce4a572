package consensus

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file turns a topic or a position into what carries its meaning:
// content terms in their canonical form (stemmed, synonyms folded), the
// quantities (numbers with their units), the negated terms and the
// conditions and exceptions. Everything here is deterministic and needs no
// model.

// term is one content word (or phrase) of a text.
type term struct {
	w      string // canonical form
	neg    bool   // under a negation ("do not cache": cache)
	cond   int    // index into analysis.conds, -1 when not in a condition
	clause int
	listed bool // next to "and", "or" or "nor": an item of a list
	by     bool // followed by "by": a passive ("overridden by")
	even   bool // after "even for", "even in the case of": said to be covered
	verbal bool // negated by "not" or "never" (a verb's negation, not "no x" or "without x")
	// without: negated by "without" ("without asking for approval"): a
	// verb's object is negated with it, as after "not".
	without bool
	// afterWithout: negated by a "without" before it, next to it or not
	// ("without the shift lead").
	afterWithout bool
	// none: negated by "no", "nothing" or "nobody" ("nothing leaves the
	// bond until …"), not by a verb's negation.
	none bool
	// lifted: a negated obligation ("need not", "does not have to",
	// "is not required to"): the duty is lifted, nothing is forbidden.
	lifted bool
	// own: negated by its own word ("closing" is not opening, "returned
	// undamaged" not damaged), not by a negation before it: it turns
	// that word only, not the words of its clause.
	own bool
	// prefixed: negated by a prefix of its own ("non-controlled",
	// "unaccompanied"), not by a word before it.
	prefixed bool
	// at and to are 1 + the index of its first and last word among the
	// text's words (0 for a term made of a number): a term whose at is
	// another's to + 1 stands right after it.
	at, to int
	text   string // as written, for the differences
	// reason: said in a reason given for the rule ("since machine picking
	// bruises the berries"), not in the rule.
	reason bool
	// afterAux: right after "is", "are", "been" and the like ("… have not
	// been paid are chased"): a verb of its own, no object of the verb
	// before it.
	afterAux bool
	// afterConj: the first term after "and", "or" or "nor" in its clause
	// ("the referee keeps time and the fourth official …": "fourth").
	afterConj bool
	// unsaidFor: before a verb's negation that fell on no word of its
	// clause ("any school that had one last year does not get it"): what
	// the rule is not done for, read so against an exception
	// (negationOnSubject).
	unsaidFor bool
}

// quantity is a number with what it counts.
type quantity struct {
	value  float64 // in the unit's base (seconds, bytes), or as written
	dim    string  // time, bytes, percent, pixels; "" for a bare count
	per    string  // a rate's period ("per minute"): the unit's dimension name
	perVal float64
	text   string // as written, for the differences ("5 minutes")
	cond   int
	clause int
	raw    float64 // the number as written, before its unit's scale
	every  bool    // a period: "every 6 months"
	// days: the kind of days (or hours) a length counts, when it says
	// which: "business" (business, working, bank, court or trading days;
	// business or office hours) or "school"; "" for calendar days and
	// every other quantity (see countedDays).
	days string
	// rel is how the number relates to an amount the rule names: "plus
	// 25%", "20% off", "80% of", "x 1.25" (relOver, relUnder, relOf,
	// relTimes); 0 when it says none.
	rel int8
	// wait is how a length of time bounds when the rule acts: "after 30
	// days" (waitAfter, once they have passed) or "within 30 days"
	// (waitWithin, before they have); 0 when it says neither.
	wait int8
	// counted: a bare number followed by the plural of what it counts
	// ("5 students", "the top 8 teams", "4 seats"): a number of things,
	// which no percentage says again.
	counted bool
	// back: a bare number after "the" that ends its words ("none of the
	// five is below 776 g", "add to the ten") or follows "of the" ("one of
	// the three leaks"): the number of things said before, not a new one.
	back bool
	// pair: a bare two after "between" ("rest between two duty
	// periods", "the gap between the two appointments"): the two things
	// a relation between things needs, not a count the rule sets.
	pair bool
}

// The bounds a length of time sets on when the rule acts (quantity.wait).
const (
	waitAfter = 1 + iota
	waitWithin
)

// The relations of a quantity to an amount the rule names (quantity.rel).
const (
	relOver  = 1 + iota // "plus 25%", "25% extra": the amount and that much more
	relUnder            // "20% off", "minus 20%": the amount less that much
	relOf               // "80% of the list price": that share of it
	relTimes            // "x 1.25", "1.5 times the rate": that multiple of it
)

// relation reads how the quantity q, said by toks[i0:i+1], relates to an
// amount the rule names (quantity.rel).
func relation(toks []rawTok, i0, i int, q quantity) int8 {
	next := func(k int) string {
		if i+k < len(toks) && toks[i+k].clause == toks[i].clause {
			return toks[i+k].low
		}
		return ""
	}
	prev := prevLow(toks, i0)
	if prev == "of" && i0 >= 2 && toks[i0-2].clause == toks[i0].clause && relWords()[toks[i0-2].low] {
		prev = toks[i0-2].low // "a surcharge of 25%" is "a 25% surcharge"
	}
	switch {
	case q.dim == "percent":
		switch {
		case prev == "plus" || prev == "surcharge" || prev == "uplift" || prev == "markup" || prev == "premium" || prev == "extra" || next(1) == "more" || next(1) == "extra" || next(1) == "surcharge" || next(1) == "uplift" || next(1) == "markup" || next(1) == "premium" || next(1) == "on" && next(2) == "top":
			return relOver
		case prev == "minus" || prev == "discount" || prev == "reduction" || next(1) == "off" || next(1) == "discount" || next(1) == "reduction" || next(1) == "cheaper" || next(1) == "less" && next(2) != "than" || next(1) == "below" && next(2) != "which":
			return relUnder // "10% off", "40% below the week before"
		case next(1) == "above" && next(2) != "which":
			return relOver
		case next(1) == "of":
			return relOf
		}
	case q.dim == "" && q.per == "":
		if multiplier(q) {
			return relTimes // "1.5x the hourly rate"
		}
		if (prev == "x" || prev == "×") && (i0 < 2 || !toks[i0-2].isNum) {
			return relTimes // "the tag price x 1.25", not "48 x 48"
		}
		if next(1) == "times" {
			switch next(2) {
			case "the", "of", "their", "its", "our", "your", "his", "her", "normal", "standard", "usual", "base", "basic":
				return relTimes // "1.5 times the hourly rate", not "3 times a week"
			}
		}
	}
	return 0
}

// condition is a condition ("if", "when", "only if") or an exception
// ("unless", "except") and the content terms it holds.
type condition struct {
	kind   string // "if" or "unless"
	clause int
	terms  []string
	text   string
	// reason: the condition stands in a reason or a purpose given for the
	// rule ("to avoid losing events if the pod dies"), not in the rule.
	reason bool
	// while: opened by "while", which may contrast two rules ("email is
	// overwritten, while address keeps history") rather than set a time.
	while bool
	// then: a clause that opens with "which", "who" or "whose" follows,
	// the rule of what the condition names ("except racing helmets,
	// which are retired after 3 years").
	then bool
	// thenWord is the word that opens that clause.
	thenWord string
	// unless: opened by the word "unless", which sets a case aside ("no
	// entry unless invited"), where "except" may set a thing aside
	// ("dogs may not go upstairs, except assistance dogs").
	unless bool
	// ownRule: opened by "when" right after an exception ("except on
	// public holidays, when the limit is 8 hours"): the exception's own
	// rule, not a condition of the rule.
	ownRule bool
	// outcome: an exception read as a case because an outcome of its own
	// follows ("unless X, in which case …", "unless X, then …").
	outcome bool
	// again: the condition says its case comes round again ("if it
	// happens again"), a case of its own even when its other words only
	// say the thing reaches the rule.
	again bool
}

// analysis is what analyze found in a text.
type analysis struct {
	// subjectBound: a bound said of the subject after "no" ("no train
	// below 75% is permitted") was read as the subject's, with the "no"
	// said of the verb; the same words also say a limit ("trains
	// permitted are at least 75%"), which analyzeAsLimit reads.
	subjectBound bool
	terms        []term
	qty          []quantity
	conds        []condition
	negs         int  // negation cues and negative verbs
	all          bool // says "all", "every" or "each": as a share, 100%
	only         bool // restricts with "only" (not "not only")
	any          bool // opens up with "any" or "all"
	// every: says "every" or "all" (not "at all"): the rule covers the
	// whole of what it names.
	every bool
	// onlyAt, anyAt and everyAt are the clauses of the first "only",
	// "any" and "every" (or "all").
	onlyAt, anyAt, everyAt int
	// anyBound: the first "any" carries a bound of its own ("anything
	// over 8%", "any load above 2 t"): it picks out what the rule is
	// about, as "only" would, and opens nothing up.
	anyBound    bool
	anyBoundNum float64 // the number of that bound, as written
	// anyAll: the first "any" was said as "all" ("all doors"), of the
	// things the rule covers rather than of a time or a condition.
	anyAll bool
	// onlyWord is 1 + the index of the first "only" among the text's
	// words, as term.at counts them (0 when another part said it).
	onlyWord int
	// onlyWhen: the first "only" sets a time or a condition ("merged only
	// after 2 approvals", "only if"), not the things the rule covers.
	onlyWhen bool
	// onlyApart: the first "only" stands beside a word that sets its case
	// apart or turns it ("only outside office hours", "the only exception
	// being the duty manager", "only not on Sundays").
	onlyApart bool
	// truncated: the text was longer than maxAnalyzed and only its start
	// was read.
	truncated bool
	// even: says "even for", "even when": what follows is included in
	// the rule.
	even bool
	// sentences are the sentence of each clause, by clause.
	sentences []int
	// otherwise: by condition, whether it is the rule not met
	// (otherwiseBranches), read once.
	otherwise []bool
	// lifted are the cases whose outcome takes back what the text states
	// elsewhere (caseLifted): "…; if a pet did the damage, it isn't
	// free".
	lifted []liftedCase
}

// otherwiseAt reports whether condition k is the rule not met.
func (a *analysis) otherwiseAt(k int) bool { return k >= 0 && k < len(a.otherwise) && a.otherwise[k] }

// sentence is the sentence clause c is part of.
func (a *analysis) sentence(c int) int {
	if c >= 0 && c < len(a.sentences) {
		return a.sentences[c]
	}
	return c
}

// say is how x wrote the canonical word w (its first use), for the
// differences; w itself when x does not use it.
func (a *analysis) say(w string) string {
	for _, t := range a.terms {
		if t.w == w && t.text != "" {
			return strings.ToLower(t.text)
		}
	}
	return w
}

// sayNot is how the text says w negated: "unpaid", "closing" as written
// where a word of its own negates it, "not w" otherwise.
func (a *analysis) sayNot(w string) string {
	for _, t := range a.terms {
		if t.w == w && t.text != "" {
			if t.neg && t.own {
				return strings.ToLower(t.text)
			}
			break
		}
	}
	return "not " + a.say(w)
}

// sayAll is say for each word.
func (a *analysis) sayAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = a.say(w)
	}
	return out
}

// words returns the canonical content words, in order (numbers as "#n").
func (a *analysis) words() []string {
	out := make([]string, 0, len(a.terms))
	for _, t := range a.terms {
		out = append(out, t.w)
	}
	return out
}

// rawTok is a word of the text before folding.
type rawTok struct {
	low    string // lower case, accents removed
	num    float64
	isNum  bool
	clause int
	// sentence: the sentence (or list item) the clause is part of;
	// commas and colons break clauses, not sentences.
	sentence int
	text     string // as written
	conj     bool   // follows "and", "or" or "nor"
	clock    bool   // a time of day ("22:00", "10 pm"), num in hours
	hyphened bool   // joined by a hyphen to the word before: the "off" of "take-off"
	// opener is the mark that opened the token's clause (',', ':', ';'),
	// 0 for the first clause.
	opener rune
}

// clockAt reads a time of day at rs[i:j] (the digits of a number): "22:00",
// "8:30", "10pm", "10 pm", "10:30 am". It returns the hour (with its
// minutes as a fraction) and the end of what it read.
func clockAt(rs []rune, i, j int) (float64, int, bool) {
	h, err := strconv.Atoi(string(rs[i:j]))
	if err != nil || j-i > 2 || h > 24 {
		return 0, 0, false
	}
	v, k, clock := float64(h), j, false
	if k+2 < len(rs) && rs[k] == ':' && unicode.IsDigit(rs[k+1]) && unicode.IsDigit(rs[k+2]) && (k+3 == len(rs) || !unicode.IsDigit(rs[k+3])) {
		m, _ := strconv.Atoi(string(rs[k+1 : k+3]))
		if m >= 60 {
			return 0, 0, false
		}
		v += float64(m) / 60
		k, clock = k+3, true
	}
	// "am" or "pm", glued or after one space.
	e := k
	if e < len(rs) && rs[e] == ' ' {
		e++
	}
	if e+1 < len(rs) && (rs[e] == 'a' || rs[e] == 'p') && rs[e+1] == 'm' && (e+2 == len(rs) || !unicode.IsLetter(rs[e+2]) && !unicode.IsDigit(rs[e+2])) && h >= 1 && h <= 12 {
		v = math.Mod(v, 12)
		if rs[e] == 'p' {
			v += 12
		}
		return v, e + 2, true
	}
	return v, k, clock
}

// hhmmClock reads a time of day written as four digits on a 24-hour
// clock, as police notebooks, rotas and flight plans write it, at rs[i:j]
// (the digits of a number): "0700" (its leading zero marks it), "1435
// hrs" (but not "every 1000 hrs", "1000 hrs of running": a length of
// time), and "2200" a few words after such a time ("open 0700, close
// 2200"). before are the words read so far. It returns the hour
// (its minutes as a fraction) and the end of what it read.
func hhmmClock(rs []rune, i, j int, before []rawTok) (float64, int, bool) {
	if j-i != 4 || (j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '.' && j+1 < len(rs) && unicode.IsDigit(rs[j+1]))) {
		return 0, 0, false
	}
	for _, r := range rs[i:j] {
		if !unicode.IsDigit(r) {
			return 0, 0, false
		}
	}
	h, m := int(rs[i]-'0')*10+int(rs[i+1]-'0'), int(rs[i+2]-'0')*10+int(rs[i+3]-'0')
	if h > 23 || m > 59 {
		return 0, 0, false
	}
	v, k := float64(h)+float64(m)/60, j
	// "hrs", "hr" or "h", glued or after one space, then no letter.
	e := j
	if e < len(rs) && rs[e] == ' ' {
		e++
	}
	hrs := 0
	for _, w := range []string{"hrs", "hr", "h"} {
		if end := e + len(w); end <= len(rs) && string(rs[e:end]) == w && (end == len(rs) || !unicode.IsLetter(rs[end])) {
			hrs = end
			break
		}
	}
	prev := ""
	if len(before) > 0 {
		prev = before[len(before)-1].low
	}
	if hrs > 0 {
		switch prev {
		case "every", "each", "per", "for", "within", "than", "over", "under", "to", "about", "around", "approximately", "max", "maximum", "min", "minimum", "least", "most":
			return 0, 0, false // "every 1000 hrs": a length of time
		}
		if rest := strings.TrimLeft(string(rs[hrs:min(len(rs), hrs+6)]), " "); strings.HasPrefix(rest, "of ") {
			return 0, 0, false // "1000 hrs of running"
		}
		return v, hrs, true
	}
	if rs[i] == '0' {
		return v, k, true
	}
	// Close after a time so written: "open 0700, close 2200".
	for n := len(before) - 1; n >= max(0, len(before)-6); n-- {
		if t := before[n]; t.isNum {
			d := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(t.text, "hrs"), "h"), " ")
			return v, k, t.clock && len(d) == 4 && strings.Trim(d, "0123456789") == ""
		}
	}
	return 0, 0, false
}

// dotClock reads a time of day written with a dot, "7.30", at rs[i:j],
// when the part of the day follows: "am" or "pm" (glued or after a
// space), "in the morning", "in the evening", "at night" ("in morning",
// as some write it). It returns the hour on a 24-hour clock (its minutes
// as a fraction) and the end of what it read. Without the part of the
// day "7.30" is a number.
func dotClock(rs []rune, i, j int) (float64, int, bool) {
	dot := slices.Index(rs[i:j], '.')
	if dot < 1 || dot > 2 || j-i-dot-1 != 2 {
		return 0, 0, false
	}
	h, err1 := strconv.Atoi(string(rs[i : i+dot]))
	m, err2 := strconv.Atoi(string(rs[i+dot+1 : j]))
	if err1 != nil || err2 != nil || h < 1 || h > 12 || m >= 60 {
		return 0, 0, false
	}
	v := float64(h%12) + float64(m)/60
	rest := string(rs[j:min(len(rs), j+24)])
	for _, p := range []struct {
		said string
		pm   bool
	}{{"am", false}, {" am", false}, {"pm", true}, {" pm", true},
		{" in the morning", false}, {" in morning", false},
		{" in the afternoon", true}, {" in afternoon", true}, {" in the evening", true}, {" in evening", true}, {" at night", true}} {
		if !strings.HasPrefix(rest, p.said) {
			continue
		}
		if e := j + len([]rune(p.said)); e < len(rs) && (unicode.IsLetter(rs[e]) || unicode.IsDigit(rs[e])) {
			continue
		}
		if p.pm {
			v += 12
		}
		return v, j + len([]rune(p.said)), true
	}
	return 0, 0, false
}

// codeAmount reads an amount glued to the code of its currency, as
// fares and tariffs write it: "eur50", "gbp15", "usd1250" (a word of
// three letters that measures reads as money, then digits only).
func codeAmount(w string) (code string, amount float64, ok bool) {
	if len(w) < 4 || len(w) > 12 || !isLetters(w[:3]) {
		return "", 0, false
	}
	if u, known := measures()[w[:3]]; !known || !money(u.dim) || u.scale != 1 {
		return "", 0, false
	}
	v, err := strconv.Atoi(w[3:])
	if err != nil || w[3] == '+' || w[3] == '-' {
		return "", 0, false
	}
	return w[:3], float64(v), true
}

// maxAnalyzed bounds the text analyze reads: a position is a sentence or
// a paragraph, and the comparison must stay cheap on hostile input.
const maxAnalyzed = 4096

// maxConds bounds the conditions a text is read for: comparing them is
// quadratic in their number.
const maxConds = 64

// lex splits text into words, numbers and clause breaks.
func lex(text string) []rawTok {
	if len(text) > maxAnalyzed {
		text = text[:maxAnalyzed]
	}
	text = strings.ToValidUTF8(text, " ")
	ascii := true
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		text = stripMarks(text)
	}
	text = caseNames(text)
	text = strings.ToLower(text)
	text = bareContractions(text)
	text = contractions.Replace(text)
	text = phraseSymbols().Replace(text)
	if t, ok := strings.CutSuffix(text, " as well"); ok {
		text = t + " also"
	}
	text = symbols.Replace(text)
	text = sizesApart(text)
	text = ampersandsApart(text)
	var out []rawTok
	clause := 0
	sentenceOf := []int{0} // by clause
	openerOf := []rune{0}  // by clause
	breakClause := func(sentenceEnd bool, mark rune) {
		clause++
		openerOf = append(openerOf, mark)
		n := sentenceOf[len(sentenceOf)-1]
		if sentenceEnd {
			n++
		}
		sentenceOf = append(sentenceOf, n)
	}
	rs := []rune(text)
	currency, currencyAt := "", -1 // a sign read before an amount: its unit, and where
	negAt := -1                    // a minus sign read before a number: where its number goes in out
	for i := 0; i < len(rs); {
		if negAt >= 0 && len(out) > negAt {
			if k := negAt; out[k].isNum && !out[k].clock {
				out[k].num, out[k].text = -out[k].num, "-"+out[k].text // "-20 °C"
			}
			negAt = -1
		}
		r := rs[i]
		if currency != "" && i > currencyAt+2 {
			currency = "" // "$ " then no amount
		}
		switch {
		case currencySigns()[r] != "" && i+1 < len(rs) && (unicode.IsDigit(rs[i+1]) || rs[i+1] == ' ' && i+2 < len(rs) && unicode.IsDigit(rs[i+2])):
			// "$50", "€ 12.50": the amount, then its currency as a unit.
			currency, currencyAt = currencySigns()[r], i
			i++
		case unicode.IsDigit(r) && currency != "":
			cur, sign := currency, string(rs[currencyAt])
			currency = ""
			n, end := len(out), amountEnd(rs, i)
			if d := digitsEnd(rs, i); moneyScales()[string(rs[d:end])] > 0 {
				// "£5m", "$2b": millions and billions of the currency.
				if v, err := strconv.ParseFloat(strings.NewReplacer(",", "", "_", "").Replace(string(rs[i:d])), 64); err == nil {
					out = append(out, rawTok{num: v * moneyScales()[string(rs[d:end])], isNum: true, clause: clause, text: sign + string(rs[i:end])},
						rawTok{low: cur, clause: clause, text: sign})
					i = end
					continue
				}
			}
			amount := string(rs[i:end])
			if d := digitsEnd(rs, i); decimalComma(rs[i:d]) {
				amount = strings.Replace(amount, ",", ".", 1) // "€3,50"
			}
			sub := lex(amount)
			for k := range sub {
				sub[k].clause = clause
			}
			out = append(out, sub...)
			out = append(out, rawTok{low: cur, clause: clause, text: sign})
			if len(out) > n+2 {
				// "$5/month", "$10 000": the unit goes with the amount.
				out = slices.Insert(out[:len(out)-1], n+1, out[len(out)-1])
			}
			i = end
		case unicode.IsDigit(r):
			j := digitsEnd(rs, i)
			if v, k, ok := hexAt(rs, i); ok {
				// "dword:00000018", "0x18": 24, written in hexadecimal.
				out = append(out, rawTok{num: v, isNum: true, clause: clause, text: string(rs[i:k])})
				i = k
				continue
			}
			if h, k, ok := dotClock(rs, i, j); ok {
				// "7.30 pm", "7.30 in the morning": a time of day.
				out = append(out, rawTok{num: h, isNum: true, clock: true, clause: clause, text: string(rs[i:k])})
				i = k
				continue
			}
			if h, k, ok := hhmmClock(rs, i, j, out); ok {
				// "0700", "1435 hrs": a time of day on a 24-hour clock.
				out = append(out, rawTok{num: h, isNum: true, clock: true, clause: clause, text: string(rs[i:k])})
				i = k
				continue
			}
			if h, k, ok := clockAt(rs, i, j); ok {
				// "22:00", "10pm", "8 am": a time of day, in hours.
				out = append(out, rawTok{num: h, isNum: true, clock: true, clause: clause, text: string(rs[i:k])})
				i = k
				continue
			}
			lit := strings.Map(func(r rune) rune {
				if r == ',' || r == '_' || groupSpaces(r) {
					return -1
				}
				return r
			}, string(rs[i:j]))
			if decimalComma(rs[i:j]) && moneyWordAt(rs, j) {
				lit = strings.Replace(string(rs[i:j]), ",", ".", 1) // "2,10 pounds"
			}
			if g := dotGroups(rs[i:j]); g > 1 || g == 1 && moneyWordAt(rs, j) {
				lit = strings.ReplaceAll(lit, ".", "") // "1.500.000 people", "45.000 rupiah"
			}
			// Letters glued to the number: a unit ("10ms", "5k") or part
			// of a name ("2fa", "3des").
			k := j
			for k < len(rs) && (unicode.IsLetter(rs[k]) || unicode.IsDigit(rs[k])) {
				k++
			}
			suffix := string(rs[j:k])
			v, err := strconv.ParseFloat(lit, 64)
			hyUnit, hyEnd := hyphenPeriod(rs, k)
			switch {
			case err != nil || math.IsInf(v, 0) || namePart(rs, i) && !((suffix == "s" || suffix == "") && ageGroup(rs, i)):
				out = append(out, rawTok{low: string(rs[i:k]), clause: clause, text: string(rs[i:k])})
			case suffix == "" && k+1 < len(rs) && rs[k] == '/' && unicode.IsDigit(rs[k+1]) && (k+2 == len(rs) || !unicode.IsDigit(rs[k+2]) && rs[k+2] != '/') && v >= 1 && v < float64(rs[k+1]-'0'):
				// "1/4 tank", "3/4": a share; "10 1/2" ten and a half.
				share := v / float64(rs[k+1]-'0')
				if p := len(out) - 1; p >= 0 && out[p].isNum && !out[p].clock && out[p].num == math.Trunc(out[p].num) && out[p].clause == clause && i > 0 && rs[i-1] == ' ' {
					out[p].num += share
					out[p].text += " " + string(rs[i:k+2])
				} else {
					out = append(out, rawTok{num: share, isNum: true, clause: clause, text: string(rs[i : k+2])})
				}
				k += 2
			case suffix == "" && hyUnit != "":
				// "12-monthly", "6-weekly": every 12 months, every 6 weeks.
				unit, end := hyUnit, hyEnd
				out = append(out, rawTok{low: "every", clause: clause, text: "every"}, rawTok{num: v, isNum: true, clause: clause, text: lit},
					rawTok{low: unit, clause: clause, text: string(rs[k+1 : end])})
				k = end
			case suffix == "" && k < len(rs) && rs[k] == '+' && (k+1 == len(rs) || !unicode.IsDigit(rs[k+1])):
				// "7+ players": at least 7.
				out = append(out, rawTok{low: "atleast", clause: clause, text: "+"}, rawTok{num: v, isNum: true, clause: clause, text: lit + "+"})
				k++
			case suffix == "" && k < len(rs) && rs[k] == '×' && (k+1 == len(rs) || !unicode.IsDigit(rs[k+1])):
				// "1.5× the rate": as "1.5x" (not "3×4", a size).
				out = append(out, rawTok{num: v, isNum: true, clause: clause, text: lit + "x"})
				k++
			case suffix == "":
				out = append(out, rawTok{num: v, isNum: true, clause: clause, text: lit})
			case ordinalSuffix(v, suffix):
				// "3rd", "21st": an ordinal, a word read as "third" is
				// (ordinalOf), before the units below ("1st" is no stone).
				out = append(out, rawTok{low: string(rs[i:k]), clause: clause, text: string(rs[i:k])})
			case suffix == "s" && ageGroup(rs, i):
				// "under-5s", "the over-65s": an age group, not seconds.
				out = append(out, rawTok{num: v, isNum: true, clause: clause, text: string(rs[i:k])})
			case suffix == "x":
				// "2x the peak": twice.
				out = append(out, rawTok{num: v, isNum: true, clause: clause, text: string(rs[i:k])})
			case suffix == "c":
				// "-20C", "35c": degrees Celsius, the commoner in a rule.
				out = append(out, rawTok{num: v, isNum: true, clause: clause, text: lit}, rawTok{low: "celsius", clause: clause, text: "c"})
			case suffix == "k":
				out = append(out, rawTok{num: v * 1000, isNum: true, clause: clause, text: string(rs[i:k])})
			case suffix == "bn":
				out = append(out, rawTok{num: v * 1e9, isNum: true, clause: clause, text: string(rs[i:k])})
			case shortUnits()[suffix] != "" || isUnitWord(suffix) || measureSuffixes()[suffix]:
				low := suffix
				if u := shortUnits()[suffix]; u != "" {
					low = u
				}
				out = append(out, rawTok{num: v, isNum: true, clause: clause, text: lit},
					rawTok{low: low, clause: clause, text: suffix})
			default:
				out = append(out, rawTok{low: string(rs[i:k]), clause: clause, text: string(rs[i:k])})
			}
			i = k
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				j++
			}
			// "v2.5.1": version 2.5.1, as a number with two dots reads.
			if rs[i] == 'v' && j > i+1 && j+1 < len(rs) && rs[j] == '.' && unicode.IsDigit(rs[j+1]) && unicode.IsDigit(rs[j-1]) && strings.IndexFunc(string(rs[i+1:j]), func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
				k := j
				for k < len(rs) && (unicode.IsDigit(rs[k]) || rs[k] == '.' && k+1 < len(rs) && unicode.IsDigit(rs[k+1])) {
					k++
				}
				if v := string(rs[i+1 : k]); strings.Count(v, ".") >= 2 {
					out = append(out, rawTok{low: v, clause: clause, text: string(rs[i:k])})
					i = k
					continue
				}
			}
			// "Node.js", "Vue.js": one name.
			if j+3 <= len(rs) && rs[j] == '.' && rs[j+1] == 'j' && rs[j+2] == 's' && (j+3 == len(rs) || !unicode.IsLetter(rs[j+3])) {
				j += 3
			}
			w := strings.ReplaceAll(string(rs[i:j]), ".", "")
			if code, amount, ok := codeAmount(w); ok {
				// "EUR50", "usd20": the amount in the currency of its code.
				out = append(out, rawTok{num: amount, isNum: true, clause: clause, text: string(rs[i:j])}, rawTok{low: code, clause: clause, text: code})
				i = j
				continue
			}
			if i > 0 && rs[i-1] == '-' && (w == "ins" || w == "ons") {
				// "walk-ins", "add-ons": the plural of "walk-in", "add-on"
				// (alone, "ins" may name something else).
				w = w[:2]
			}
			if w == "no" && numberAbbrev(string(rs[j:min(j+4, len(rs))])) {
				// "greenhouse no. 3", "(room no.)": a number, no "no".
				w, j = "number", j+1
			}
			if v := numberWords()[w]; v > 1 && v == math.Trunc(v) && w != "twice" && w != "thrice" {
				if unit, end := hyphenPeriod(rs, j); unit != "" {
					// "six-monthly", "two-weekly": every 6 months, every
					// 2 weeks, as "6-monthly" is ("twice-daily" is twice a
					// day).
					out = append(out, rawTok{low: "every", clause: clause, text: "every"}, rawTok{num: v, isNum: true, clause: clause, text: w},
						rawTok{low: unit, clause: clause, text: string(rs[j+1 : end])})
					i = end
					continue
				}
			}
			out = append(out, rawTok{low: w, clause: clause, text: string(rs[i:j]), hyphened: i > 0 && rs[i-1] == '-'})
			i = j

		case r == '%':
			// A share of the number before it; a "%" after no number is
			// no share ("% no verbal opt-out": a comment's mark).
			if len(out) > 0 && out[len(out)-1].isNum {
				out = append(out, rawTok{low: "percent", clause: clause, text: "%"})
			}
			i++
		case r == '*' && timesSign(rs, i) != 0:
			// A code's times sign between an amount and its multiple:
			// "limit * 1.10" as "the limit x 1.10", "0.6 * baseline" as
			// "0.6x the baseline".
			if p := len(out) - 1; timesSign(rs, i) < 0 && p >= 0 && out[p].isNum && !out[p].clock {
				out[p].text += "x"
			} else if timesSign(rs, i) > 0 {
				out = append(out, rawTok{low: "×", clause: clause, text: "*"})
			}
			i++
		case (r == '+' || r == '-' || r == '−') && signedShare(rs, i):
			// "the base rate + 25%", "list price -10%": the share more or
			// less than the amount named, as "plus" and "minus" say it.
			w := "plus"
			if r != '+' {
				w = "minus"
			}
			out = append(out, rawTok{low: w, clause: clause, text: string(r)})
			i++
		case (r == '-' || r == '−') && i+1 < len(rs) && unicode.IsDigit(rs[i+1]) && (i == 0 || strings.ContainsRune(" \t\n([=:,", rs[i-1])):
			// "-20 °C", "between −25 and −15": a number below zero (not
			// "2-8", a range, nor "OPS-12", a name).
			negAt = len(out)
			i++
		case r == '°' && i+1 < len(rs) && (rs[i+1] == 'c' || rs[i+1] == 'f') && (i+2 == len(rs) || !unicode.IsLetter(rs[i+2])):
			// "8 °C", "46°F": degrees of temperature.
			scale := "celsius"
			if rs[i+1] == 'f' {
				scale = "fahrenheit"
			}
			out = append(out, rawTok{low: scale, clause: clause, text: string(rs[i : i+2])})
			i += 2
		case r == '/' && i > 0 && (unicode.IsDigit(rs[i-1]) || unicode.IsLetter(rs[i-1])) && unitAfter(rs[i+1:]):
			// "60 requests/min": a rate.
			out = append(out, rawTok{low: "per", clause: clause, text: "/"})
			i++
		case comparators()[r] != "":
			out = append(out, rawTok{low: comparators()[r], clause: clause, text: string(r)})
			i++
		case strings.ContainsRune(",;:.!?()[]{}\n—–", r):
			// A period inside a word was handled above; here it ends a
			// clause.
			breakClause(strings.ContainsRune(";.!?\n", r), r)
			i++
		case r == '-' && i+1 < len(rs) && rs[i+1] == '-':
			breakClause(false, '-')
			i += 2
		case r == '-' && (i == 0 || rs[i-1] == ' ' || rs[i-1] == '\n') && (i+1 == len(rs) || rs[i+1] == ' '):
			// "- islands: national postal service": a bullet.
			breakClause(true, '-')
			i++
		default:
			i++
		}
	}
	out = degreesOf(out)
	for i := range out {
		if c := out[i].clause; c < len(sentenceOf) {
			out[i].sentence, out[i].opener = sentenceOf[c], openerOf[c]
		}
	}
	// Marked once the number words are numbers: "and one long siren"
	// follows "and" as "and 1" does.
	out = perFor(moneyAloud(numberWordsToNumbers(onRequest(saveExcept(withoutForce(out))))))
	for i := range out {
		if i+1 < len(out) && isConj(out[i].low) {
			out[i+1].conj = true
		}
	}
	return out
}

// timesSign reads the "*" at rs[i] as a times sign between a number and a
// name, spaced alike on both sides: -1 when the number comes first
// ("0.6*baseline"), 1 when it follows ("limit * 1.10"), 0 when it is no
// such sign: a product of two numbers ("5 * 60"), a mark of emphasis ("5
// *working* days") or a footnote ("£25*").
func timesSign(rs []rune, i int) int {
	l, r := i-1, i+1
	if spaced := l >= 0 && rs[l] == ' '; spaced != (r < len(rs) && rs[r] == ' ') {
		return 0
	} else if spaced {
		l, r = l-1, r+1
	}
	if l < 0 || r >= len(rs) {
		return 0
	}
	name := func(c rune) bool { return unicode.IsLetter(c) || c == '_' }
	switch a, b := rs[l], rs[r]; {
	case unicode.IsDigit(a) && (name(b) || b == '('):
		return -1
	case unicode.IsDigit(b) && (name(a) || a == ')'):
		return 1
	}
	return 0
}

// signedShare reports whether the sign at rs[i] ("+", "-", "−") says a
// share more or less than an amount named before it ("the base rate +
// 25%", "list price -10%"): a share in digits follows, at most one space
// after the sign, and a word, not a number, comes before it ("5 - 10%" is
// a range, "2+3%" a sum).
func signedShare(rs []rune, i int) bool {
	j := i + 1
	if j < len(rs) && rs[j] == ' ' {
		j++
	}
	if j >= len(rs) || !unicode.IsDigit(rs[j]) {
		return false
	}
	for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.' && j+1 < len(rs) && unicode.IsDigit(rs[j+1])) {
		j++
	}
	if j < len(rs) && rs[j] == ' ' {
		j++
	}
	if j >= len(rs) || rs[j] != '%' && !strings.HasPrefix(string(rs[j:min(j+8, len(rs))]), "percent") {
		return false
	}
	k := i - 1
	for k >= 0 && rs[k] == ' ' {
		k--
	}
	return k >= 0 && unicode.IsLetter(rs[k]) && (rs[i] == '+' || k < i-1)
}

// moneyAloud reads an amount said aloud with its currency in the middle:
// "one euro fifty" is 1.50 euros, "two pounds 20" £2.20. The part after
// the currency is a whole number from 10 to 99, with no unit after it
// ("5 euros 3 times" is not 5.03, nor "thirty pounds one booking" 30.01).
func moneyAloud(toks []rawTok) []rawTok {
	for i := 0; i+2 < len(toks); i++ {
		a, cur, c := toks[i], toks[i+1], toks[i+2]
		// Cents below 10 are left alone: "5 euros 3 times", "for thirty
		// pounds one booking takes…".
		if !a.isNum || a.clock || a.num != math.Trunc(a.num) || c.clock || !c.isNum || c.num < 10 || c.num > 99 || c.num != math.Trunc(c.num) ||
			cur.clause != a.clause || c.clause != a.clause || !moneyWord(cur.low) {
			continue
		}
		if n := i + 3; n < len(toks) && toks[n].clause == a.clause && (toks[n].low == "times" || toks[n].low == "time" || anyUnit(toks[n].low)) {
			continue
		}
		toks[i].num += c.num / 100
		toks[i].text += " " + c.text // "one fifty", then its currency
		toks = slices.Delete(toks, i+2, i+3)
	}
	return toks
}

// moneyWord reports whether w names a currency ("euro", "pounds", "usd").
func moneyWord(w string) bool {
	if w == "pound" || w == "pounds" {
		return true
	}
	u, ok := measures()[w]
	return ok && money(u.dim)
}

// perFor reads "for one" and "for" before a unit after an amount as
// "per": "two novices for one experienced leader", "1 euro for metre" (as
// some write "per metre"). Not a length of time ("valid for one year"),
// nor "for" with no amount before it in its clause.
func perFor(toks []rawTok) []rawTok {
	for i := 1; i+1 < len(toks); i++ {
		if toks[i].low != "for" || toks[i+1].clause != toks[i].clause || !amountBefore(toks, i) {
			continue
		}
		next := toks[i+1]
		switch {
		case next.isNum && next.num == 1 && (next.text == "one" || next.text == "1") && i+2 < len(toks) && toks[i+2].clause == toks[i].clause &&
			!toks[i+2].isNum && !timeUnit(toks[i+2].low):
			toks[i].low = "per"
			toks = slices.Delete(toks, i+1, i+2)
		case !next.isNum && anyUnit(next.low) && !timeUnit(next.low):
			toks[i].low = "per"
		}
	}
	return toks
}

// amountBefore reports whether a number stands among the three tokens
// before toks[i], in its clause.
func amountBefore(toks []rawTok, i int) bool {
	for j := i - 1; j >= 0 && j >= i-3 && toks[j].clause == toks[i].clause; j-- {
		if toks[j].isNum {
			return true
		}
	}
	return false
}

// anyUnit reports whether w is a unit: of the lexicon's ("hours",
// "percent") or of measures ("metre", "kg", "euro").
func anyUnit(w string) bool {
	return isUnitWord(w) || measures()[w].dim != ""
}

// timeUnit reports whether w is a unit of time ("year", "hours").
func timeUnit(w string) bool {
	lx := theLexicon()
	u, ok := lx.units[lx.fold(stem(w))]
	return ok && u.dim == "time"
}

// degreesOf reads "degrees C", "deg C", "degrees Celsius", "degC" (and
// Fahrenheit's) as the one unit "°C" is, and after a number "C" alone
// ("35 C") and "degrees" alone ("warmer than 26 degrees"): a rule's
// degrees are Celsius far more often than an angle, and an angle said
// the same way on both sides reads the same.
func degreesOf(toks []rawTok) []rawTok {
	scales := func(w string) string {
		switch w {
		case "c", "celsius", "centigrade":
			return "celsius"
		case "f", "fahrenheit":
			return "fahrenheit"
		}
		return ""
	}
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		afterNumber := len(out) > 0 && out[len(out)-1].isNum && !out[len(out)-1].clock && out[len(out)-1].clause == t.clause
		switch {
		case t.low == "degc" || t.low == "degf":
			t.low = scales(t.low[3:])
		case (t.low == "degree" || t.low == "degrees" || t.low == "deg") && i+1 < len(toks) && toks[i+1].clause == t.clause && scales(toks[i+1].low) != "":
			t.low, t.text = scales(toks[i+1].low), t.text+" "+toks[i+1].text
			i++
		case afterNumber && (t.low == "c" || t.low == "degrees" || t.low == "degree"):
			t.low = "celsius"
		}
		out = append(out, t)
	}
	return out
}

// numberAbbrev reports whether after, the text right after a "no", makes
// it the abbreviation of "number": a dot, then a digit, "#", a closing
// bracket or a comma ("no. 5", "no.)"). A "No." that ends a sentence is
// the answer.
func numberAbbrev(after string) bool {
	if !strings.HasPrefix(after, ".") {
		return false
	}
	after = strings.TrimLeft(after[1:], " ")
	return after != "" && (isDigit(after[0]) || strings.ContainsRune("#),", rune(after[0])))
}

// lacking reports whether toks[i] says "without" of the word after it:
// "requests missing X-rays", "forms lacking a signature"; not "the file is
// missing" (the thing absent, which analyze turns where the copula stands
// before it), nor "missing 2 payments" (a count).
func lacking(toks []rawTok, i int) bool {
	if t := toks[i].low; t != "missing" && t != "lacking" || i+1 >= len(toks) || toks[i+1].isNum {
		return false
	}
	lx := theLexicon()
	next := toks[i+1].low
	return !lx.stopWord[next] || next == "a" || next == "an"
}

// amountEnd is the end of the amount that starts at rs[i] after a
// currency sign: its digits, separators, digits grouped by spaces and
// the letters glued to it ("10k").
func amountEnd(rs []rune, i int) int {
	j := digitsEnd(rs, i)
	for j < len(rs) && unicode.IsLetter(rs[j]) {
		j++
	}
	return j
}

// digitsEnd is the end of the number written in digits at rs[i]: its
// digits and the commas, dots, underscores and grouping spaces between
// them ("1,500.25", "10_000", "10 000").
func digitsEnd(rs []rune, i int) int {
	j := i
	for j < len(rs) && (unicode.IsDigit(rs[j]) || (rs[j] == ',' || rs[j] == '.' || rs[j] == '_') && j+1 < len(rs) && unicode.IsDigit(rs[j+1]) || spaceGroup(rs, i, j)) {
		j++
	}
	return j
}

// decimalComma reports whether digits are an amount written with a
// decimal comma: one to three digits, a comma, two digits ("3,50"), as
// no number grouped in thousands is.
func decimalComma(digits []rune) bool {
	k := slices.Index(digits, ',')
	if k < 1 || k > 3 || len(digits)-k != 3 {
		return false
	}
	for i, r := range digits {
		if i != k && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// dotGroups counts the groups of three digits that dots set off in
// digits, a number grouped in thousands with dots ("45.000",
// "1.500.000"); 0 when any dot is followed by another count of digits
// ("2.5", "1.25") or the digits hold a comma.
func dotGroups(digits []rune) int {
	k := slices.Index(digits, '.')
	if k < 1 || k > 3 || slices.Contains(digits, ',') {
		return 0
	}
	n := 0
	for i := k; i < len(digits); i += 4 {
		if digits[i] != '.' || i+4 > len(digits) || i+4 < len(digits) && digits[i+4] != '.' {
			return 0
		}
		for _, r := range digits[i+1 : i+4] {
			if !unicode.IsDigit(r) {
				return 0
			}
		}
		n++
	}
	return n
}

// moneyWordAt reports whether a currency's name follows rs[j] (after a
// space): "2,10 pounds", "3,50 EUR".
func moneyWordAt(rs []rune, j int) bool {
	for j < len(rs) && rs[j] == ' ' {
		j++
	}
	k := j
	for k < len(rs) && unicode.IsLetter(rs[k]) {
		k++
	}
	return moneyWord(strings.ToLower(string(rs[j:k])))
}

// groupSpaces are the spaces that may group a number's digits in
// threes: a space, a no-break space, a narrow no-break space and a thin
// space.
func groupSpaces(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009' }

// spaceGroup reports whether rs[j], inside a number that starts at
// rs[i], is a space grouping its digits in threes ("10 000", "2 500
// 000"): the digits before it are a group of one to three (or of three
// after an earlier space), no other separator came before it, and
// exactly three digits follow it, then no letter or digit ("3 100m" is
// three things of 100 metres). Two numbers side by side in other words
// read as one only when both look like this.
func spaceGroup(rs []rune, i, j int) bool {
	if j+4 > len(rs) || !groupSpaces(rs[j]) || !unicode.IsDigit(rs[j+1]) || !unicode.IsDigit(rs[j+2]) || !unicode.IsDigit(rs[j+3]) {
		return false
	}
	if j+4 < len(rs) && (unicode.IsLetter(rs[j+4]) || unicode.IsDigit(rs[j+4])) {
		return false
	}
	// The group before the space: one to three digits back to the
	// number's start, or three back to an earlier grouping space ("1,500
	// 000" and "2.5 000" are not grouped so).
	n := 0
	for k := j - 1; k >= i && n < 4 && unicode.IsDigit(rs[k]); k-- {
		n++
	}
	switch start := j - n; {
	case n == 0 || n > 3:
		return false
	case start == i:
		return true
	default:
		return n == 3 && groupSpaces(rs[start-1])
	}
}

// caseNames rewrites the names that only their capitals tell from common
// words, before the text is lowered: capitalName's, and "Go" inside a
// sentence (the language, not the verb).
func caseNames(text string) string {
	if !strings.Contains(text, "US") && !strings.Contains(text, "IT") && !strings.Contains(text, "HR") && !strings.Contains(text, "Go") && !strings.Contains(text, "-") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16)
	sentence := true // at the start of a sentence
	number := false  // a number just before: "24 HR"
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) {
			if strings.ContainsRune(".!?:;\n", r) {
				sentence = true
			} else if !unicode.IsSpace(r) && r != '"' && r != '(' && r != '-' {
				sentence = false
			}
			if !unicode.IsSpace(r) {
				number = unicode.IsDigit(r)
			}
			b.WriteRune(r)
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			j += size
		}
		w := text[i:j]
		if k := ticketEnd(text, i, j); k > j {
			// "OPS-412": a ticket's name, not words of the question.
			b.WriteByte(' ')
			sentence = false
			i = k
			continue
		}
		switch c := capitalName(w, number); {
		case c != "":
			w = c
		case w == "Go" && !sentence:
			w = "golang"
		}
		b.WriteString(w)
		sentence, number = false, false
		i = j
	}
	return b.String()
}

// capitalName is the word a name written in capitals stands for when its
// capitals alone tell it from a common word or a unit: "US" (not "us"),
// "IT" (not "it"), "HR" (not hours, unless a number comes before it: "24
// HR"); "" for any other word.
func capitalName(w string, afterNumber bool) string {
	switch {
	case w == "US":
		return "USA"
	case w == "IT":
		return "it_department"
	case w == "HR" && !afterNumber:
		return "human_resources"
	}
	return ""
}

// ticketEnd is the end of a ticket reference in brackets ("[OPS-412]";
// not "AES-256") whose capital
// letters are text[i:j], or j when there is none.
func ticketEnd(text string, i, j int) int {
	if j-i < 2 || i == 0 || text[i-1] != '[' || j+1 >= len(text) || text[j] != '-' || text[j+1] < '0' || text[j+1] > '9' || strings.ToUpper(text[i:j]) != text[i:j] {
		return j
	}
	k := j + 1
	for k < len(text) && text[k] >= '0' && text[k] <= '9' {
		k++
	}
	return k
}

func isConj(w string) bool { return w == "and" || w == "or" || w == "nor" }

// symbols are written shorthands read as the words they stand for, and
// a bound on how often read as the bound on the interval. A bound
// written after its number ("4.5:1 or better") starts with a space,
// so that "for older" is not read as one.
var symbols = strings.NewReplacer("and nowhere else", " only ", "nowhere else", " only ",
	// A tolerance, however it is written: "± 5%", "+/- 5%", "plus or
	// minus 5%" (not "plus" and then "minus": neither is more or less).
	"plus or minus", " plusminus ", "+/-", " plusminus ", "±", " plusminus ",
	// "at least every 7 days" bounds the interval from above: at most 7
	// days apart, as "max_interval_days: 7" says it.
	"at least once every", " atmost every ", "at least every", " atmost every ",
	"free of charge", " free ", "at no charge", " free ", "at no extra charge", " free ", "at no cost", " free ", "at no extra cost", " free ",
	// "…, but not before the contact has signed off": only after it.
	" not before ", " only after ", " not until ", " only after ",
	"without charge", " free ", "no charge", " free ", "costs nothing", " free ", "cost nothing", " free ", "pay nothing", " free ", "calendar year", " year ", "calendar month", " month ", "a majority of", " more than half of ", "the majority of", " more than half of ",
	" or better", " atleast ", " or higher", " atleast ", " or more", " atleast ", " or above", " atleast ", " or greater", " atleast ", " or longer", " atleast ", " or older", " atleast ",
	" or less", " atmost ", " or fewer", " atmost ", " or lower", " atmost ", " or below", " atmost ", " or shorter", " atmost ", " or smaller", " atmost ", " or younger", " atmost ", "24/7", " always ", "24x7", " always ", ">=", " atleast ", "<=", " atmost ", "=>", " ", "->", " ", "<-", " ",
	"a.m.", "am ", "p.m.", "pm ",
	// Note-taking's "w/o" and "w/": without and with.
	"w/o ", " without ", "w/out ", " without ", "w/ ", " with ",
	// "missing from the manifest": not on it.
	" missing from ", " not on ", " absent from ", " not on ",
	// "the payroll cut-off": a time limit (near "deadline" and "limit"),
	// not a cut; "cut off the supply" is.
	"cut-off", "cutoff",
	// Which of two limits: "whichever is sooner" is "whichever comes
	// first", "whichever is the later" "whichever comes last".
	"whichever is the sooner", " whichever comes first ", "whichever is sooner", " whichever comes first ",
	"whichever is the earlier", " whichever comes first ", "whichever is earlier", " whichever comes first ",
	"whichever comes sooner", " whichever comes first ", "whichever comes earlier", " whichever comes first ",
	"whichever happens sooner", " whichever comes first ", "whichever happens first", " whichever comes first ",
	"whichever occurs first", " whichever comes first ", "whichever is first", " whichever comes first ",
	"whichever is the later", " whichever comes last ", "whichever is later", " whichever comes last ",
	"whichever comes later", " whichever comes last ", "whichever happens later", " whichever comes last ",
	"whichever happens last", " whichever comes last ", "whichever occurs last", " whichever comes last ",
	"whichever is the latest", " whichever comes last ", "whichever is latest", " whichever comes last ",
	"whichever is last", " whichever comes last ",
	// "a tenner", "a fiver": ten and five pounds, as British English says
	// them ("two fivers" is left alone: it is no single amount).
	"a tenner", " 10 pounds ", "a fiver", " 5 pounds ")

// comparators are the signs read as comparisons ("> 30s").
var comparators = sync.OnceValue(func() map[rune]string {
	return map[rune]string{'>': "above", '<': "below", '≤': "atmost", '≥': "atleast"}
})

// unitAfter reports whether the letters at the start of rs are a unit of
// time ("min" in "60 requests/min").
func unitAfter(rs []rune) bool {
	j := 0
	for j < len(rs) && j < 16 && unicode.IsLetter(rs[j]) {
		j++
	}
	if j == 0 {
		return false
	}
	w := string(rs[:j])
	if u := shortUnits()[w]; u != "" {
		return true
	}
	lx := theLexicon()
	u, ok := lx.units[lx.fold(stem(w))]
	return ok && u.dim == "time"
}

var contractions = strings.NewReplacer(
	"can't", "can not", "cannot", "can not", "won't", "will not", "shan't", "shall not", "n't", " not",
	"’", "'", "it's", "it is", "'s", "", "'re", " are", "'ll", " will", "'ve", " have", "'d", " would",
)

// bareNegations are the negated verbs written without their apostrophe
// ("dont", "doesnt"), by the verb they negate.
var bareNegations = sync.OnceValue(func() map[string]string {
	return map[string]string{"dont": "do", "doesnt": "does", "didnt": "did", "isnt": "is", "arent": "are", "wasnt": "was",
		"werent": "were", "shouldnt": "should", "mustnt": "must", "neednt": "need", "havent": "have", "hasnt": "has",
		"couldnt": "could", "wouldnt": "would", "cant": "can", "wont": "will"}
})

// bareContractions writes the negated verbs of lower-case text that lack
// their apostrophe ("we dont ship") in full ("we do not ship"), whole
// words only ("parent" holds no "arent").
func bareContractions(text string) string {
	if !strings.Contains(text, "nt") {
		return text
	}
	var b strings.Builder
	last := 0
	prevWord := ""
	for i := 0; i < len(text); {
		if !isLetterByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isLetterByte(text[j]) {
			j++
		}
		w := text[i:j]
		prev := prevWord
		prevWord = w
		if v, ok := bareNegations()[w]; ok && (j == len(text) || text[j] < 0x80) && (i == 0 || text[i-1] < 0x80) &&
			!(w == "wont" && wontNoun(prev, nextLetters(text, j))) {
			b.WriteString(text[last:i])
			b.WriteString(v + " not")
			last = j
		}
		i = j
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// wontNoun reports whether "wont" between the words prev and next is
// the noun or adjective ("as is the editor's wont", "she is wont to
// ask"), not "won't".
func wontNoun(prev, next string) bool {
	switch prev {
	case "s", "his", "her", "their", "its", "my", "our", "your", "the", "a":
		return true
	}
	return next == "to"
}

// nextLetters is the run of ASCII letters that follows text[j:] after
// spaces.
func nextLetters(text string, j int) string {
	for j < len(text) && text[j] == ' ' {
		j++
	}
	k := j
	for k < len(text) && isLetterByte(text[k]) {
		k++
	}
	return text[j:k]
}

// isLetterByte reports whether c is an ASCII letter.
func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// shortUnits are the one-letter units written glued to a number ("30s").
var shortUnits = sync.OnceValue(func() map[string]string {
	return map[string]string{"s": "second", "m": "minute", "h": "hour", "d": "day", "w": "week", "mo": "month"}
})

// isUnitWord reports whether a suffix glued to a number is a unit.
func isUnitWord(s string) bool {
	lx := theLexicon()
	_, ok := lx.units[lx.fold(stem(s))]
	return ok
}

// withoutForce leaves out the words that only say a negation with
// force (negationForce): "cannot be claimed at any time" is "cannot be
// claimed", "must not be used under any circumstances" "must not be
// used".
func withoutForce(in []rawTok) []rawTok {
	force := func(i int) int {
		return negationForce(func(j int) (string, bool) {
			if j < 0 || j >= len(in) || in[j].clause != in[i].clause {
				return "", false
			}
			return in[j].low, true
		}, i)
	}
	var out []rawTok // nil until a word is left out: most texts say none
	for i := 0; i < len(in); i++ {
		n := force(i)
		if n > 0 && out == nil {
			out = append(make([]rawTok, 0, len(in)), in[:i]...)
		}
		if n == 0 && out != nil {
			out = append(out, in[i])
		}
		i += max(n-1, 0)
	}
	if out == nil {
		return in
	}
	return out
}

// negationForce is how many words at i say a negation with force: "not
// allowed at all", "no dogs whatsoever", "cannot be claimed at any
// time", "must not be propped open at any point", "won't ever be
// refunded", "may not be used under any circumstances" or "for any
// reason". They name no time, reach or bound of the rule, only the
// "never" of a negation said before them; 0 when the words at i say no
// such thing or no negation comes before them. word(j) is word j in
// lower case, and whether it is in word i's clause.
func negationForce(word func(j int) (string, bool), i int) int {
	at := func(k int) string {
		w, _ := word(i + k)
		return w
	}
	n := 0
	switch first := at(0); {
	case first == "whatsoever" || first == "ever" || first == "anytime":
		n = 1
	case first == "at" && at(1) == "all":
		if next, ok := word(i + 2); ok && !theLexicon().stopWord[next] {
			return 0 // "not at all sites": the places it names
		}
		n = 2
	case first == "at" && at(1) == "any" && (at(2) == "time" || at(2) == "point" || at(2) == "stage"),
		(first == "under" || first == "in") && at(1) == "any" && at(2) == "circumstances",
		first == "for" && at(1) == "any" && at(2) == "reason":
		n = 3
	case first == "any" && at(1) == "time":
		n = 2
	default:
		return 0
	}
	for j := i - 1; j >= i-8; j-- {
		w, ok := word(j)
		if !ok {
			break
		}
		if untilNegations()[w] || w == "without" {
			return n
		}
	}
	return 0
}

// saveExcept reads "save" that opens a clause after a comma, a semicolon
// or a dash, before "for", "on", "in", "at" or "during", as "except"
// ("…, save for tenants with a medical exemption", "…, save on the school
// run"), as "save where" and "save that" are read. Not "save on fuel"
// inside a clause, "Staff: save in the shared drive" (an instruction
// after a label), "save at least 10%" or "save for retirement".
// "not counting" before what it leaves out is "excluding" ("28 days NOT
// counting bank holidays"); not "the meter is not counting", "not
// counting towards the limit".
func saveExcept(in []rawTok) []rawTok {
	for i := 0; i+1 < len(in); i++ {
		switch {
		case in[i].low == "save" && i > 0 && in[i-1].clause != in[i].clause && in[i].opener != ':' && in[i+1].clause == in[i].clause &&
			saveExceptNext(in[i+1].low) && (i+2 == len(in) || !saveVerbNext(in[i+1].low, in[i+2].low)):
			in[i].low, in[i].text = "except", "except"
		case in[i].low == "not" && in[i+1].low == "counting" && in[i+1].clause == in[i].clause && notCountingExcludes(in, i):
			// "28 days NOT counting bank holidays": excluding them.
			in[i].low, in[i].text = "excluding", "excluding"
			in = slices.Delete(in, i+1, i+2)
		}
	}
	return in
}

// saveExceptNext reports whether "save" before w may open an exception.
func saveExceptNext(w string) bool {
	switch w {
	case "for", "on", "in", "at", "during":
		return true
	}
	return false
}

// saveVerbNext reports whether "save" before prep and w is the verb:
// "save at least 10%", "save for later", "save for retirement".
func saveVerbNext(prep, w string) bool {
	switch prep + " " + w {
	case "at least", "at most", "for later", "for retirement", "for the future", "on costs", "on fuel", "on energy":
		return true
	}
	return false
}

// notCountingExcludes reports whether "not counting" at in[i] leaves out
// what follows it in its clause (notCountingBefore).
func notCountingExcludes(in []rawTok, i int) bool {
	if i+2 >= len(in) || in[i+2].clause != in[i].clause {
		return false // "the meter is not counting."
	}
	prev := ""
	if i > 0 {
		prev = in[i-1].low
	}
	return notCountingBefore(prev, i > 0 && in[i-1].clause == in[i].clause, in[i+2].low)
}

// onRequest reads "on request" and "upon request" as "if asked" where
// they end their phrase ("shown on request", "on request, a video link",
// "on request within 14 days"; phraseEnds), not "on request forms", "on
// request day" nor "on request of the board". surfaceTokens reads them so
// too.
func onRequest(in []rawTok) []rawTok {
	for i := 0; i+1 < len(in); i++ {
		if (in[i].low == "on" || in[i].low == "upon") && in[i+1].low == "request" && in[i+1].clause == in[i].clause && phraseEnds(in, i+1) {
			in[i].low, in[i+1].low = "if", "asked"
			in[i].text, in[i+1].text = "if", "asked"
		}
	}
	return in
}

// numberWordsToNumbers turns "twenty five" into 25, "a hundred" into 100
// and "1.5 million" into 1500000.
func numberWordsToNumbers(in []rawTok) []rawTok {
	out := make([]rawTok, 0, len(in))
	for i := 0; i < len(in); i++ {
		t := in[i]
		if h, ok := clockWords()[t.low]; ok && !t.isNum {
			// "from noon" is "from 12:00".
			out = append(out, rawTok{num: h, isNum: true, clock: true, clause: t.clause, sentence: t.sentence, text: t.text})
			continue
		}
		if v, k, ok := wordClock(in, i); ok {
			// "twenty past eight", "ten to six", "at ten thirty": a time
			// of day said in words.
			text := make([]string, 0, k-i)
			for _, n := range in[i:k] {
				text = append(text, n.text)
			}
			out = append(out, rawTok{num: v, isNum: true, clock: true, clause: t.clause, sentence: t.sentence, text: strings.Join(text, " ")})
			i = k - 1
			continue
		}
		if past := t.low == "half" || t.low == "quarter"; past && i+2 < len(in) && (in[i+1].low == "past" || t.low == "quarter" && in[i+1].low == "to") && in[i+2].clause == t.clause {
			// "half past three", "quarter to nine": a time of day.
			h, ok := numberWords()[in[i+2].low]
			if in[i+2].isNum {
				h, ok = in[i+2].num, true
			}
			if ok && h >= 1 && h <= 12 && h == math.Trunc(h) {
				m := 0.5
				switch {
				case t.low == "quarter" && in[i+1].low == "to":
					m = -0.25
				case t.low == "quarter":
					m = 0.25
				}
				text := []string{t.text, in[i+1].text, in[i+2].text}
				v, k := h+m, i+3
				if hh, kk := dayTime(in, k, h); kk > k {
					v = hh + m
					for _, n := range in[k:kk] {
						text = append(text, n.text)
					}
					k = kk
				}
				out = append(out, rawTok{num: v, isNum: true, clock: true, clause: t.clause, sentence: t.sentence, text: strings.Join(text, " ")})
				i = k - 1
				continue
			}
		}
		if (t.low == "a" || t.low == "an") && i+1 < len(in) && in[i+1].clause == t.clause && aboutOne()[prevLow(in, i)] {
			if u, ok := measures()[in[i+1].low]; ok && (u.dim == "length" || u.dim == "mass" || u.dim == "volume") && !strings.HasSuffix(in[i+1].low, "s") {
				// "within a metre", "up to a litre": one of them.
				out = append(out, rawTok{num: 1, isNum: true, clause: t.clause, sentence: t.sentence, text: t.text})
				continue
			}
		}
		if k, ok := theOnePeriod(in, i); ok {
			// "within the hour", "in the past year": one of them, as
			// "within 1 hour", "in the last 12 months" say.
			out = append(out, rawTok{num: 1, isNum: true, clause: t.clause, sentence: t.sentence, text: t.text})
			i = k - 1
			continue
		}
		if pairOf(in, i) {
			// "a couple of layers": two of them.
			out = append(out, rawTok{num: 2, isNum: true, clause: t.clause, sentence: t.sentence, text: t.text + " " + in[i+1].text + " " + in[i+2].text})
			i += 2
			continue
		}
		if h, k, ok := halfHour(in, i); ok {
			// "half six": half past six, as British English says it.
			text := []string{t.text}
			for _, n := range in[i+1 : k] {
				text = append(text, n.text)
			}
			out = append(out, rawTok{num: h, isNum: true, clock: true, clause: t.clause, sentence: t.sentence, text: strings.Join(text, " ")})
			i = k - 1
			continue
		}
		if t.low == "second" && prevLow(in, i) == "every" && i+1 < len(in) && in[i+1].clause == t.clause &&
			(dayParts()[in[i+1].low] || weekdays()[strings.TrimSuffix(in[i+1].low, "s")]) {
			t.low = "other" // "every second Sunday" is every other Sunday
		}
		if (t.low == "second" || t.low == "other") && prevLow(in, i) == "every" && i+1 < len(in) && in[i+1].clause == t.clause && isUnitWord(in[i+1].low) {
			// "every second week", "every other month": every two of them.
			out = append(out, rawTok{num: 2, isNum: true, clause: t.clause, sentence: t.sentence, text: t.text})
			continue
		}
		v, isWord := numberWords()[t.low]
		if o := ordinalOf(t.low); o > 0 || t.low == "quarter" {
			if o > 0 {
				v, isWord = o, true // "the fifth business day" is business day 5
			} else {
				o = 4
			}
			ofUnit := i+3 < len(in) && in[i+1].low == "of" && isUnitWord(in[i+3].low) // "a quarter of an hour"
			afterCount := i >= 2 && (in[i-2].isNum || numberWords()[in[i-2].low] > 0) // "once a quarter": a period
			if p := prevLow(in, i); (p == "a" || p == "one") && !ofUnit && !afterCount && (t.low == "quarter" || singularShare(in, i-1, i)) {
				// "cut the load by a fifth", "a fifth of the load": a
				// share; "add a fifth" the next of what is counted.
				out = append(out, rawTok{num: 1 / o, isNum: true, clause: t.clause, sentence: t.sentence, text: "a " + t.text})
				continue
			}
		}
		_, isScale := numberScales()[t.low]
		if isWord && !t.isNum && notANumber(in, i) {
			out = append(out, t)
			continue
		}
		if (t.low == "quarter" || t.low == "half") && i+1 < len(in) && in[i+1].clause == t.clause && (in[i+1].low == "hour" || in[i+1].low == "hours") {
			// "every quarter hour", "a half hour": a share of the hour.
			share := 0.5
			if t.low == "quarter" {
				share = 0.25
			}
			out = append(out, rawTok{num: share, isNum: true, clause: t.clause, sentence: t.sentence, text: t.text})
			continue
		}
		if isScale && !t.isNum && i > 0 && in[i-1].clause == t.clause && (in[i-1].low == "per" || in[i-1].low == "every" || in[i-1].low == "each") {
			// "3 errors per thousand words": one thousand.
			out = append(out, rawTok{num: numberScales()[t.low], isNum: true, clause: t.clause, sentence: t.sentence, text: t.text})
			continue
		}
		quarter := t.low == "quarter" && i+3 < len(in) && in[i+1].low == "of" && (in[i+2].low == "a" || in[i+2].low == "an") && isUnitWord(in[i+3].low)
		if quarter {
			// "a quarter of an hour"; not "each quarter".
			out = append(out, rawTok{num: 0.25, isNum: true, clause: t.clause, sentence: t.sentence, text: t.text + " of " + in[i+2].text})
			i += 2
			continue
		}
		startsScale := (t.low == "a" || t.low == "an") && i+1 < len(in) && numberScales()[in[i+1].low] > 0
		if !t.isNum && !isWord && !startsScale {
			out = append(out, t)
			continue
		}
		if isScale && !t.isNum {
			out = append(out, t)
			continue
		}
		if t.isNum {
			v = t.num
		}
		if startsScale {
			v = 1
		}
		text := []string{t.text}
		j := i + 1
		if t.low == "half" && j+1 < len(in) && (in[j].low == "a" || in[j].low == "an") {
			j++ // "half an hour"
		}
		var unitAfter *rawTok // a currency read from its sign, carried past a scale ("$1.5 million")
		// total is what the thousands and millions read so far make;
		// v the group read since ("one thousand two hundred and fifty"
		// is 1000 and then 250).
		total := 0.0
		spoken := !t.isNum && spokenDigit(t.low) // "one-five": 15, as a radio reads it out
		for j < len(in) && in[j].clause == t.clause {
			n := in[j]
			if spoken && n.hyphened && spokenDigit(n.low) {
				v = v*10 + numberWords()[n.low]
				text = append(text, n.text)
				j++
				continue
			}
			spoken = false
			if u, ok := measures()[n.low]; ok && unitAfter == nil && n.text != n.low && u.scale == 1 && j+1 < len(in) && in[j+1].clause == t.clause && numberScales()[in[j+1].low] > 0 {
				unitAfter = &in[j]
				j++
				continue
			}
			if o := fractionOf(in, i, j, total+v); o > 0 && total == 0 {
				// "two thirds", "three quarters", "one fifth of": a share.
				v /= o
				text = append(text, n.text)
				j++
				if j+2 < len(in) && in[j].low == "of" && (in[j+1].low == "a" || in[j+1].low == "an") && isUnitWord(in[j+2].low) && in[j+2].clause == t.clause {
					// "three quarters of an hour": the share of one
					// hour, as "a quarter of an hour" is.
					text = append(text, in[j].text, in[j+1].text)
					j += 2
				}
				break
			}
			if s, ok := numberScales()[n.low]; ok && s >= 1000 {
				total, v = total+v*s, 0 // "two thousand", "1.5 million"
			} else if ok {
				v *= s // "three hundred", "two dozen"
			} else if w, ok := numberWords()[n.low]; ok && !t.isNum && addsTo(total, v, w) {
				v += w // "twenty five", "one hundred eighty", "two thousand five"
			} else if n.low == "and" && j+1 < len(in) && numberWords()[in[j+1].low] > 0 && total+v >= 100 {
				// "one hundred and twenty"
			} else if n.low == "and" && j+2 < len(in) && (in[j+1].low == "a" || in[j+1].low == "an") && in[j+2].low == "half" && in[j+2].clause == t.clause {
				v += 0.5 // "two and a half"
				text = append(text, n.text, in[j+1].text)
				n = in[j+2]
				j += 2
			} else if n.low == "and" && j+2 < len(in) && in[j+1].low == "half" && in[j+1].clause == t.clause && isUnitWord(in[j+2].low) {
				v += 0.5 // "one and half hour", as some write it
				text = append(text, n.text)
				n = in[j+1]
				j++
			} else if n.low == "point" && !t.isNum && total == 0 && v == math.Trunc(v) && j+1 < len(in) && in[j+1].clause == t.clause && spokenDigit(in[j+1].low) &&
				!(t.low == "one" && prevLow(in, i) == "at") { // "at one point", the idiom
				// "two point four": 2.4, a decimal read out digit by digit.
				text = append(text, n.text)
				j++
				digits, scale := 0.0, 1.0
				for ; j < len(in) && in[j].clause == t.clause && spokenDigit(in[j].low); j++ {
					digits, scale = 10*digits+numberWords()[in[j].low], scale*10
					text = append(text, in[j].text)
				}
				v += digits / scale
				break
			} else {
				break
			}
			text = append(text, n.text)
			j++
		}
		v += total
		clock := t.clock
		if v == math.Trunc(v) && v >= 1 && v <= 12 {
			// "6 in the morning", "10 at night", "3 o'clock": a time of day.
			if h, k := dayTime(in, j, v); k > j {
				v, clock = h, true
				for _, n := range in[j:k] {
					text = append(text, n.text)
				}
				j = k
			}
		}
		out = append(out, rawTok{num: v, isNum: true, clock: clock, clause: t.clause, sentence: t.sentence, text: strings.Join(text, " ")})
		if unitAfter != nil {
			out = append(out, *unitAfter)
		}
		i = j - 1
	}
	return notSide(belowZero(clockRanges(sharesOf(out))))
}

// notSide reads "not before" a number as "from" it and "not after" it as
// "by" it: "collected not before 2 pm" is "from 2 pm", "out not after 7
// am" is "by 7 am". surfaceTokens reads them as the bounds they are.
func notSide(in []rawTok) []rawTok {
	for i := 0; i+2 < len(in); i++ {
		if in[i].low != "not" || in[i+1].clause != in[i].clause || in[i+2].clause != in[i].clause || !in[i+2].isNum {
			continue
		}
		var side string
		switch in[i+1].low {
		case "before":
			side = "from"
		case "after":
			side = "by"
		default:
			continue
		}
		in[i+1].low, in[i+1].text = side, "not "+in[i+1].text
		in = slices.Delete(in, i, i+1)
	}
	return in
}

// belowZero reads a number below zero said in words: "minus 20", "20 °C
// below zero" (the sign written, "-20", lex reads). "Minus" before a share
// says less than an amount ("minus 20%"), not below zero.
func belowZero(toks []rawTok) []rawTok {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.low == "minus" && i+1 < len(toks) && toks[i+1].isNum && !toks[i+1].clock && toks[i+1].clause == t.clause &&
			(i+2 == len(toks) || toks[i+2].low != "percent") { // "the list price minus 20%" is 20% less (relation)
			n := toks[i+1]
			n.num, n.text = -n.num, t.text+" "+n.text
			out = append(out, n)
			i++
			continue
		}
		if t.low == "below" && i+1 < len(toks) && toks[i+1].isNum && toks[i+1].num == 0 && toks[i+1].clause == t.clause && (toks[i+1].text == "zero" || toks[i+1].text == "0") {
			// "20 °C below zero": the number just before it (its unit
			// between) is below zero, and "below zero" is read into it.
			if k := numberBefore(out, t.clause); k >= 0 {
				out[k].num = -math.Abs(out[k].num)
				i++
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// numberBefore is the index of the number that ends toks in clause, alone
// or followed by its unit ("20", "20 °C"; no time of day), or -1.
func numberBefore(toks []rawTok, clause int) int {
	k := len(toks) - 1
	if k >= 0 && toks[k].clause == clause && !toks[k].isNum {
		if _, unit := measures()[toks[k].low]; !unit {
			return -1
		}
		k--
	}
	if k >= 0 && toks[k].clause == clause && toks[k].isNum && !toks[k].clock {
		return k
	}
	return -1
}

// spokenDigit reports whether w is a digit said as a word ("zero" to
// "nine"): joined by hyphens, such words read a number out digit by
// digit ("two-zero" is 20; "twenty-five" is read as tens and ones).
func spokenDigit(w string) bool {
	switch w {
	case "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine":
		return true
	}
	return false
}

// addsTo reports whether the number word w goes on the number being read,
// total and then the group v: ones after tens ("twenty five"), tens or
// ones after hundreds ("one hundred eighty", "a hundred and five"), any
// after thousands ("two thousand twenty"); not "ten five".
func addsTo(total, v, w float64) bool {
	switch {
	case w <= 0 || w >= 100:
		return false
	case v == 0:
		return total > 0
	case w < 10:
		return math.Mod(v, 10) == 0 && v >= 20
	default:
		return math.Mod(v, 100) == 0 && v >= 100 && w == math.Trunc(w)
	}
}

// isMeasureAt reports whether toks[at] is a measure's unit ("m", "kg").
func isMeasureAt(toks []rawTok, at int) bool {
	_, ok := measureAt(toks, at)
	return ok
}

// sharesOf reads "1 in 10", "one in (every) twenty" and "3 out of (every)
// 4" as the shares they are (0.1, 0.05, 0.75), as "10%" and "a quarter"
// are read; not when a unit or a measure follows the second number ("3
// in 5 days", "1 in every 50 m").
func sharesOf(toks []rawTok) []rawTok {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		j := i + 1
		switch {
		case j < len(toks) && toks[j].low == "in":
			j++
		case j+1 < len(toks) && toks[j].low == "out" && toks[j+1].low == "of":
			j += 2
		default:
			out = append(out, t)
			continue
		}
		if j < len(toks) && (toks[j].low == "every" || toks[j].low == "each") {
			j++ // "one in every ten", "3 out of every 4"
		}
		if !t.isNum || t.clock || j >= len(toks) || !toks[j].isNum || toks[j].clock || toks[j].clause != t.clause || toks[j-1].clause != t.clause ||
			t.num < 1 || toks[j].num <= t.num || j+1 < len(toks) && toks[j+1].clause == t.clause && (isUnitWord(toks[j+1].low) || isMeasureAt(toks, j+1)) {
			out = append(out, t)
			continue
		}
		texts := make([]string, 0, j-i+1)
		for _, x := range toks[i : j+1] {
			texts = append(texts, x.text)
		}
		out = append(out, rawTok{num: t.num / toks[j].num, isNum: true, clause: t.clause, sentence: t.sentence, text: strings.Join(texts, " ")})
		i = j
	}
	return out
}

// clockRanges gives the first time of a range ("7:30 to 9 pm", "from 8
// until 11 pm") the half of the day the second says, when the first says
// none and lies before the second within it: 19:30 to 21:00, not 7:30.
func clockRanges(toks []rawTok) []rawTok {
	for i := 0; i+2 < len(toks); i++ {
		a, b := &toks[i], &toks[i+2]
		switch toks[i+1].low {
		case "to", "until", "till", "til", "through", "and":
		default:
			continue
		}
		if !a.clock || !b.clock || a.clause != b.clause || !strings.HasSuffix(b.text, "pm") || meridiem(a.text) {
			continue
		}
		if a.num >= 1 && a.num < 12 && a.num+12 <= b.num {
			a.num += 12
		}
	}
	return toks
}

// meridiem reports whether a time of day as written says its half of the
// day ("10pm", "8 am", "6 in the morning", "noon").
func meridiem(text string) bool {
	t := strings.ToLower(text)
	for _, w := range []string{"am", "pm", "morning", "afternoon", "evening", "night", "noon", "midnight"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// fractionOf is the denominator the word at in[j] makes of the whole
// number v said just before it at in[i] ("two thirds": 3, "three
// quarters": 4), or 0: a plural of an ordinal or "quarters" after a
// number below it, or the singular after "one" as singularShare reads
// it ("one third of the seats"; not "one third party").
func fractionOf(in []rawTok, i, j int, v float64) float64 {
	if j != i+1 || in[i].clock || v < 1 || v != math.Trunc(v) {
		return 0
	}
	w := in[j].low
	plural := strings.HasSuffix(w, "s")
	w = strings.TrimSuffix(w, "s")
	o := ordinalOf(w)
	if w == "quarter" {
		o = 4
	}
	switch {
	case o == 0 || v >= o:
		return 0
	case plural && v > 1:
		return o
	case !plural && v == 1 && (w == "quarter" || singularShare(in, i, j)):
		return o
	}
	return 0
}

// singularShare reports whether "a" or "one" at in[i] and the ordinal at
// in[j] after it say a share: "of" follows ("a fifth of the budget"), or
// the clause ends after "by" ("cut by a third"). "Add a fifth" is the
// next one of what the sentence counts.
func singularShare(in []rawTok, i, j int) bool {
	if j+1 < len(in) && in[j+1].clause == in[j].clause {
		return in[j+1].low == "of"
	}
	return i > 0 && in[i-1].low == "by"
}

// speedPer are the units of time a speed is given per, in seconds: "/h",
// "per hour", "an hour" (a plural "hours" read without its "s").
var speedPer = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{"s": 1, "sec": 1, "second": 1, "h": 3600, "hr": 3600, "hour": 3600}
})

// speedAt reads a unit of speed at toks[at] ("m/s", "km/h", "mph") and
// returns metres per second in one of it and the tokens it spans.
func speedAt(toks []rawTok, at int) (float64, int) {
	switch toks[at].low {
	case "mph":
		return 0.44704, 1
	case "kmh", "kph":
		return 1 / 3.6, 1
	case "knots", "knot", "kn", "kt", "kts":
		return 1852.0 / 3600, 1 // nautical miles an hour
	case "m", "km", "mi":
		k := at + 1
		if k < len(toks) && toks[k].low == "per" && toks[k].text == "/" {
			k++ // "m/s"
		}
		if k >= len(toks) || toks[k].clause != toks[at].clause {
			return 0, 0
		}
		per := speedPer()[toks[k].low]
		dist := map[string]float64{"m": 1, "km": 1000, "mi": 1609.344}[toks[at].low]
		if per == 0 {
			return 0, 0
		}
		return dist / per, k + 1 - at
	}
	// "thirty miles an hour", "40 kilometres per hour": a length a unit
	// of time.
	if u, ok := measures()[toks[at].low]; ok && u.dim == "length" && at+2 < len(toks) && toks[at+2].clause == toks[at].clause {
		switch toks[at+1].low {
		case "per", "an", "a", "each", "every":
			if per := speedPer()[strings.TrimSuffix(toks[at+2].low, "s")]; per > 0 {
				return u.scale / per, 3
			}
		}
	}
	return 0, 0
}

// halfHour reads "half six" at in[i]: half past the hour, as British
// English says a time of day. The hour (1 to 12, a word or digits) must
// end its clause or be followed by what follows a time ("half six to ten",
// "half seven in the morning", "by half eight at the latest"), never by
// what it would count ("half six hours", "half six-packs"). It returns the
// hour on a 24-hour clock when the part of the day is said, and the end of
// what it read.
func halfHour(in []rawTok, i int) (float64, int, bool) {
	if in[i].low != "half" || in[i].isNum || i+1 >= len(in) || in[i+1].clause != in[i].clause {
		return 0, 0, false
	}
	if p := prevLow(in, i); p == "a" || p == "and" || p == "by" && i >= 2 && in[i-2].isNum {
		return 0, 0, false // "two and a half", "cut by half"
	}
	n := in[i+1]
	h, ok := numberWords()[n.low]
	if n.isNum {
		h, ok = n.num, !n.clock && strings.Trim(n.text, "0123456789") == ""
	}
	if !ok || h < 1 || h > 12 || h != math.Trunc(h) || n.low == "once" || n.low == "first" || n.low == "third" || n.low == "single" || n.low == "double" || n.low == "triple" || n.low == "dozen" {
		return 0, 0, false
	}
	k := i + 2
	if hh, kk := dayTime(in, k, h); kk > k {
		return hh + 0.5, kk, true
	}
	if k < len(in) && in[k].clause == in[i].clause && !afterTime()[in[k].low] {
		return 0, 0, false
	}
	return h + 0.5, k, true
}

// waitBound reads the words after a length of time that say which way
// it bounds when the rule acts (word(0) the first of them): "max",
// "maximum", "at most", "at the latest" within it (waitWithin), "at the
// earliest" after it (waitAfter). It returns the bound and how many
// words say it, or 0 and 0. One reading for analyze and the alignment.
func waitBound(word func(k int) string) (int8, int) {
	switch {
	case word(0) == "max" || word(0) == "maximum":
		return waitWithin, 1
	case word(0) == "at" && word(1) == "most":
		return waitWithin, 2
	case word(0) == "at" && word(1) == "the" && (word(2) == "latest" || word(2) == "most"):
		return waitWithin, 3
	case word(0) == "at" && word(1) == "the" && word(2) == "earliest":
		return waitAfter, 3
	}
	return 0, 0
}

// clockMinutes are the minutes said before "past" or "to" in a time of
// day ("twenty past eight", "ten to six").
var clockMinutes = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{"five": 5, "ten": 10, "twenty": 20, "twenty-five": 25, "twentyfive": 25}
})

// clockAfterHour are the minutes said after the hour of a time of day
// ("ten thirty", "six forty-five").
var clockAfterHour = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{"fifteen": 15, "thirty": 30, "forty-five": 45, "fortyfive": 45, "fifty": 50}
})

// hourWords are the hours of a clock in words, in order.
var hourWords = []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// clockBefore are the words after which an hour and its minutes in words
// ("at ten thirty") are a time of day, not two numbers.
var clockBefore = wordSet("at from until till til by before after around about between and to")

// clockTo are the words after which "ten to six" is a time of day, not
// a range.
var clockTo = wordSet("at by until till til before after around about approximately approx")

// byChange reports whether a verb that changes an amount comes at most
// three words before "by" at in[b], in its clause, so that "by" gives
// the change ("increase the dose by five to ten"), not a time.
func byChange(in []rawTok, b int) bool {
	lx := theLexicon()
	up, down := lx.fold(stem("increase")), lx.fold(stem("decrease"))
	for k := b - 1; k >= 0 && k >= b-3 && in[k].clause == in[b].clause; k-- {
		if f := lx.fold(stem(in[k].low)); f == up || f == down {
			return true
		}
	}
	return false
}

// wordClock reads a time of day said in words at in[i]: "twenty past
// eight" (8:20), "ten to six" (5:50), "twenty-five past nine", "ten
// minutes to five", and "at ten thirty" (10:30), with the part of the
// day after it ("in the morning", "pm"; dayTime). It returns the time in
// hours and the index after it.
func wordClock(in []rawTok, i int) (float64, int, bool) {
	if in[i].isNum {
		return 0, 0, false
	}
	same := func(k int) bool { return k < len(in) && in[k].clause == in[i].clause }
	hour := func(k int) (float64, bool) {
		if !same(k) || in[k].isNum {
			return 0, false
		}
		h := float64(slices.Index(hourWords, in[k].low) + 1)
		return h, h > 0
	}
	finish := func(v float64, k int, h float64) (float64, int, bool) {
		if hh, kk := dayTime(in, k, h); kk > k {
			return v - h + hh, kk, true
		}
		return v, k, true
	}
	// "twenty past eight", "ten to six", "twenty five past nine".
	m, ok := clockMinutes()[in[i].low]
	k := i + 1
	if in[i].low == "twenty" && same(k) && in[k].low == "five" {
		m, k = 25, k+1
	}
	if ok {
		if same(k) && (in[k].low == "minutes" || in[k].low == "mins") {
			k++
		}
		// "five to ten" after "from" or "between" is a range. Without
		// the part of the day after it, "ten to six" is a time only after
		// a word that says one ("at", "by", "until"): "groups of five to
		// ten", "aged ten to twelve", "ten to twelve people" are ranges,
		// and so is "increase by five to ten".
		toTime := func(j int) bool {
			p := prevLow(in, i)
			if p == "from" || p == "between" {
				return false
			}
			if _, kk := dayTime(in, j, 1); kk > j {
				return true
			}
			if !clockTo()[p] || p == "by" && byChange(in, i-1) {
				return false
			}
			return !same(j) || afterTime()[in[j].low]
		}
		if same(k) && (in[k].low == "past" || in[k].low == "to" && toTime(k+2)) {
			if h, ok := hour(k + 1); ok {
				v := h + m/60
				if in[k].low == "to" {
					v = h - m/60
				}
				return finish(v, k+2, h)
			}
		}
	}
	// "at ten thirty", "until six forty-five".
	if !clockBefore()[prevLow(in, i)] {
		return 0, 0, false
	}
	h, ok := hour(i)
	if !ok || !same(i+1) {
		return 0, 0, false
	}
	k = i + 2
	m, ok = clockAfterHour()[in[i+1].low]
	if in[i+1].low == "forty" && same(k) && in[k].low == "five" {
		m, ok, k = 45, true, k+1
	}
	if !ok || same(k) && (in[k].low == "minutes" || in[k].low == "mins" || isUnitWord(in[k].low)) {
		return 0, 0, false // "at ten thirty-minute intervals"
	}
	return finish(h+m/60, k, h)
}

// aboutOne are the words before "a metre", "a litre" that make it a
// measure of one ("within a metre", "at least a kilo"), where elsewhere
// "a metre" may be a price's unit ("5 euros a metre").
var aboutOne = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"within": true, "under": true, "over": true, "than": true, "about": true, "around": true, "least": true,
		"most": true, "nearly": true, "almost": true, "roughly": true, "approximately": true, "to": true, "exceeding": true, "beyond": true}
})

// theOnePeriod reports whether "the" at in[i] opens one whole period said
// without its number, and where the words it stands for end (the unit
// itself stays): "within the hour" is within 1 hour, "in the past year"
// and "over the last month" one year and one month back. Only a time
// unit in the singular counts, and not one the words go on to name
// ("in the last week of term" is a week of the calendar, not a length;
// "in the hours before" no length at all).
func theOnePeriod(in []rawTok, i int) (int, bool) {
	if in[i].low != "the" || i == 0 || i+1 >= len(in) || in[i-1].clause != in[i].clause {
		return 0, false
	}
	k, back := i+1, false
	switch in[k].low {
	case "past", "last", "previous":
		k, back = k+1, true
	}
	if k >= len(in) || in[k].clause != in[i].clause {
		return 0, false
	}
	switch in[i-1].low {
	case "within", "inside":
	case "in", "over", "during":
		if !back {
			return 0, false // "in the morning", "over the year": a part of the calendar
		}
	default:
		return 0, false
	}
	switch in[k].low {
	case "hour", "day", "week", "month", "year":
	default:
		return 0, false
	}
	if k+1 < len(in) && in[k+1].clause == in[i].clause && in[k+1].low == "of" {
		return 0, false
	}
	return k, true
}

// afterTime are the words that may follow a time of day said without its
// part of the day ("half six to ten", "till half seven on weekdays").
var afterTime = wordSet("to till til until and or on at in from every each sharp latest tonight today tomorrow then onwards onward weekdays weekends daily - –")

// ageGroup reports whether the number at rs[i] follows "under-" or
// "over-": "under-5s", "over-60s" name the people of an age.
func ageGroup(rs []rune, i int) bool {
	if i < 1 || rs[i-1] != '-' {
		return false
	}
	w := strings.ToLower(string(rs[max(0, i-6) : i-1]))
	return strings.HasSuffix(w, "under") || strings.HasSuffix(w, "over")
}

// hexAt reads a number written in hexadecimal at rs[i]: "0x18", or the
// eight digits of a Windows registry value after "dword:". It returns the
// value and the end of the digits.
func hexAt(rs []rune, i int) (float64, int, bool) {
	isHex := func(r rune) bool { return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' }
	start := i
	switch {
	case rs[i] == '0' && i+2 < len(rs) && (rs[i+1] == 'x' || rs[i+1] == 'X') && isHex(rs[i+2]) && (i == 0 || !unicode.IsLetter(rs[i-1]) && !unicode.IsDigit(rs[i-1])):
		start = i + 2
	case i >= 6 && strings.EqualFold(string(rs[i-6:i]), "dword:"):
	default:
		return 0, 0, false
	}
	k := start
	for k < len(rs) && isHex(rs[k]) {
		k++
	}
	if k < len(rs) && (unicode.IsLetter(rs[k]) || unicode.IsDigit(rs[k])) || k-start > 12 || start == i && k-start != 8 {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(string(rs[start:k]), 16, 64)
	if err != nil {
		return 0, 0, false
	}
	return float64(v), k, true
}

// dayTime reads, at in[j], the part of the day after an hour h from 1 to
// 12 ("in the morning", "at night", "o'clock", "pm") and returns the hour
// on a 24-hour clock and the end of what it read (j when nothing).
func dayTime(in []rawTok, j int, h float64) (float64, int) {
	low := func(k int) string {
		if k < len(in) && in[k].clause == in[j].clause {
			return in[k].low
		}
		return ""
	}
	if j >= len(in) {
		return h, j
	}
	pm := func() float64 {
		if h < 12 {
			return h + 12
		}
		return h
	}
	am := func() float64 {
		if h == 12 {
			return 0
		}
		return h
	}
	switch {
	case low(j) == "am":
		return am(), j + 1 // "five am"
	case low(j) == "pm":
		return pm(), j + 1
	case low(j) == "in" && low(j+1) == "the" && low(j+2) == "morning":
		return am(), j + 3
	case low(j) == "in" && low(j+1) == "the" && (low(j+2) == "afternoon" || low(j+2) == "evening"):
		return pm(), j + 3
	case low(j) == "in" && low(j+1) == "morning": // "9 in morning", as some write it
		return am(), j + 2
	case low(j) == "in" && (low(j+1) == "afternoon" || low(j+1) == "evening"):
		return pm(), j + 2
	case low(j) == "at" && low(j+1) == "night":
		return pm(), j + 2
	case low(j) == "oclock" || low(j) == "o" && low(j+1) == "clock":
		if low(j) == "oclock" {
			return h, j + 1
		}
		return h, j + 2
	}
	return h, j
}

// clockWords are times of day said by name.
var clockWords = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{"noon": 12, "midday": 12, "midnight": 0}
})

// measureSuffixes are units of measure written glued to their number
// ("80mm", "2kg") that the lexicon does not convert: the number is read
// apart from them, as "80 mm" is.
var measureSuffixes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"mm": true, "cm": true, "km": true, "kg": true, "mg": true, "ml": true, "kwh": true, "kw": true,
		"mah": true, "µg": true, "μg": true, "mcg": true, "µl": true, "μl": true, "hz": true, "khz": true, "mhz": true, "ghz": true, "db": true, "lufs": true, "ft": true, "lb": true, "lbs": true, "oz": true, "mph": true, "kmh": true}
})

// ordinalWords are the ordinals read as the numbers they count ("the
// fifth business day" is "business day 5"), as "first" and "third" are;
// "second" is a unit of time first.
var ordinalWords = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{
		"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
		"eleventh": 11, "twelfth": 12, "fifteenth": 15, "twentieth": 20, "thirtieth": 30,
	}
})

// ordinalOf is the number an ordinal counts: "third" and "3rd", "2nd"
// and "21st" alike; 0 for a word that is none. The word "first" is read
// apart (numberWords); "1st" is 1. Whether an ordinal counts, or names
// ("fly 1st class", "1st line support"), the words around it tell
// (notANumber), as they do for "third".
func ordinalOf(low string) float64 {
	if o := ordinalWords()[low]; o > 0 {
		return o
	}
	d := strings.TrimRightFunc(low, unicode.IsLetter)
	if d == "" || len(d) > 4 || strings.TrimLeft(d, "0123456789") != "" {
		return 0
	}
	v, err := strconv.Atoi(d)
	if err != nil || !ordinalSuffix(float64(v), low[len(d):]) {
		return 0
	}
	return float64(v)
}

// ordinalSuffix reports whether suffix, glued to the whole number v,
// makes it an ordinal: "1st", "2nd", "3rd", "4th", "11th", "22nd".
func ordinalSuffix(v float64, suffix string) bool {
	if v < 1 || v != math.Trunc(v) || v > 9999 {
		return false
	}
	n := int(v)
	want := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			want = "st"
		case 2:
			want = "nd"
		case 3:
			want = "rd"
		}
	}
	return suffix == want
}

// exclusives are the phrases that say "only" as a negation with an
// exception: "nobody but the duty nurse" is "only the duty nurse". Not
// "none other than" (emphasis) nor "anyone but" (everyone else). Read by
// analyze (symbols) and by the alignment (exclusiveAt) alike.
var exclusives = []string{
	"nobody but", "no one but", "none but", "nothing but",
	"nobody except", "no one except", "nothing except",
	"nobody other than", "no one other than", "nothing other than",
	"nobody apart from", "no one apart from", "nothing apart from",
	"nobody besides", "no one besides",
}

// defaultState is the word a setting left "off" or "on" by default is
// read as ("disabled", "enabled"), by analyze and the alignment alike; ""
// for another word.
func defaultState(w string) string {
	switch w {
	case "off":
		return "disabled"
	case "on":
		return "enabled"
	}
	return ""
}

// phraseSymbols reads exclusives and defaultState as symbols reads its
// shorthands: "nobody but " → " only ", "no-one but " too; " off by
// default" → " disabled by default". Built on first use.
var phraseSymbols = sync.OnceValue(func() *strings.Replacer {
	var pairs []string
	for _, p := range exclusives {
		pairs = append(pairs, p+" ", " only ")
		if strings.HasPrefix(p, "no one ") {
			pairs = append(pairs, "no-one"+p[len("no one"):]+" ", " only ")
		}
	}
	for _, w := range []string{"off", "on"} {
		pairs = append(pairs, " "+w+" by default", " "+defaultState(w)+" by default")
	}
	// "their birth certificate as well" is "also their birth
	// certificate"; "as well as" lists, as "and" does, and is left.
	// "together with a member" is "with a member".
	pairs = append(pairs, " as well as ", " as well as ", " together with ", " with ")
	for _, end := range []string{" ", ".", ",", ";", ")", "!"} {
		pairs = append(pairs, " as well"+end, " also"+end)
	}
	return strings.NewReplacer(pairs...)
})

// pairOf reports whether the words at in[i:] are "a couple of" or "a
// pair of" before a word that is no number ("a couple of hundred" is two
// hundred) and no thing that comes in one pair ("a pair of gloves" is one
// thing; "a pair of interpreters" two people).
func pairOf(in []rawTok, i int) bool {
	if i+3 >= len(in) || in[i+3].clause != in[i].clause || in[i+3].isNum {
		return false
	}
	var next []string
	for k := i + 3; k < len(in) && k < i+6 && in[k].clause == in[i].clause; k++ {
		next = append(next, in[k].low)
	}
	return twoOf(in[i].low, in[i+1].low, in[i+2].low, next)
}

// twoOf reports whether "a couple of" or "a pair of" (a, b, c) says two
// of what the next words (at least one) name: "a pair of cut-resistant
// gloves" is one thing.
func twoOf(a, b, c string, next []string) bool {
	if a != "a" || c != "of" || b != "couple" && b != "pair" {
		return false
	}
	_, scale := numberScales()[next[0]]
	_, num := numberWords()[next[0]]
	return !scale && !num && !(b == "pair" && slices.ContainsFunc(next, func(w string) bool { return pairedThings()[w] }))
}

// pairedThings are the things that come as one pair: "a pair of gloves"
// is one of them.
var pairedThings = wordSet(`gloves mittens socks shoes boots trainers sandals slippers trousers jeans shorts pants tights
		leggings overalls pyjamas glasses spectacles sunglasses goggles earrings earplugs earphones headphones binoculars scissors
		shears pliers tongs tweezers clippers handcuffs crutches skis skates wellies waders braces cufflinks chopsticks dice
		compasses calipers secateurs loppers snips cutters`)

// notANumber reports whether the number word at in[i] is part of a phrase
// of the lexicon ("two factor") or a pronoun ("the next one").
func notANumber(in []rawTok, i int) bool {
	lx := theLexicon()
	if i+1 < len(in) && !in[i+1].isNum {
		for _, p := range lx.phrases[stem(in[i].low)] {
			if words := strings.Split(p, "_"); len(words) > 1 && stem(in[i+1].low) == words[1] {
				return true
			}
		}
	}
	if (in[i].low == "double" || in[i].low == "single") && i+1 < len(in) && in[i+1].low == "precision" {
		return true // "double precision" is a number format
	}
	if (in[i].low == "double" || in[i].low == "single" || in[i].low == "triple") && i+1 < len(in) && in[i+1].hyphened && !in[i+1].isNum {
		// "double-check", "a single-deck bus", "double-depth graves": a
		// kind of the thing or of the act, no count of them.
		return true
	}
	if in[i].low == "once" {
		if prevLow(in, i) == "at" {
			return true // "at once"
		}
		// "used once", "once a week"; not "once the build passes".
		if i+1 >= len(in) || in[i+1].clause != in[i].clause {
			return false
		}
		switch in[i+1].low {
		case "a", "an", "per", "every", "each", "only", "more", "again", "and", "or", "but", "without", "with", "in", "within", "during", "for":
			return false
		}
		return true
	}
	if in[i].low == "first" || ordinalOf(in[i].low) > 0 {
		// "after the first bounce" counts one; "lowest first" orders.
		prev := prevLow(in, i)
		determined := prev == "the" || in[i].low != "first" && (prev == "its" || prev == "their" || prev == "our" || prev == "your" || prev == "this" || prev == "that" || prev == "every" || prev == "each")
		if (prev == "and" || prev == "or") && i >= 2 && in[i-2].clause == in[i].clause && (ordinalOf(in[i-2].low) > 0 || in[i-2].low == "first") && prevLow(in, i-2) == "the" {
			// "the 1st and 15th": the second of a list of ordinals
			// counts as the first did.
			determined = true
		}
		if determined && in[i].low != "first" {
			return false // "by the fifth": a day of the month
		}
		return !determined || i+1 >= len(in) || in[i+1].clause != in[i].clause
	}
	if in[i].low != "one" {
		return false
	}
	if andAHalf(in, i) {
		return false // "every one and a half years"
	}
	if i+1 < len(in) && in[i+1].clause == in[i].clause && isUnitWord(in[i+1].low) {
		return false // "last one week": a number of weeks
	}
	switch prevLow(in, i) {
	case "the", "next", "each", "every", "this", "that", "which", "any", "no", "last", "first", "new", "old", "another", "no one", "only":
		return true
	}
	return i+1 >= len(in) || in[i+1].clause != in[i].clause || in[i+1].low == "of"
}

// analyze finds the terms, quantities and conditions of a text.
func analyze(text string) *analysis { return analyzeAs(text, false) }

// analyzeAsLimit reads text as analyze does, but a bound said of the
// subject after "no" as the limit it also says: "no fee above 50 dollars
// may be charged" is "fees charged are at most 50 dollars" (see
// analysis.subjectBound).
func analyzeAsLimit(text string) *analysis { return analyzeAs(text, true) }

// analyzeAs is analyze; boundAsLimit reads a bound said of the subject
// after "no" as a limit (analyzeAsLimit).
func analyzeAs(text string, boundAsLimit bool) *analysis {
	lx := theLexicon()
	toks := lex(text)
	a := &analysis{truncated: len(text) > maxAnalyzed}
	for _, t := range toks {
		for len(a.sentences) <= t.clause {
			a.sentences = append(a.sentences, t.sentence)
		}
	}
	listNext := false // a conjunction was read: the next term is an item
	noDet := false    // the pending negation is the determiner "no"
	verbal := false   // the pending negation is "not" or "never"
	noTerm := -1      // the term a determiner "no" negated
	verbNegTerm := -1 // the term "not", "never" or "nobody" negated, and its token
	verbNegTok := -1
	verbNegCue := -1 // the token of its negation
	negPending := -1 // the clause of a negation cue waiting for its word
	negAt := -1      // the token of that cue: a clause that ends with it ("libraries do not") negates its last word
	cond := -1       // the open condition
	condClause := -1
	lastQty := -1
	lastQtyEnd := -1          // the index of the last token of the last number read with its unit
	lastQtyTerm := -1         // the term of the last number read
	evenClause := -1          // the clause of an "even for …": its words are covered
	reasonClause := -1        // the clause of a reason given for the rule, from its cue on
	asideCl := map[int]bool{} // the clauses of an aside to the reader (asideSentence)
	lastNeg := -1             // the last term a negation cue negated
	lastNegCue := ""          // and that cue
	dropNeg := -1             // the token of a negation a bound before it took (negAfterBound)
	negCond := -1             // the condition the pending negation stands in
	var cancelled []cancelledNegs
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if cond >= 0 && t.clause != condClause {
			if t.clause == condClause+1 && (t.low == "which" || t.low == "who" || t.low == "whose" ||
				(t.low == "where" || t.low == "when") && a.conds[cond].kind == "unless") {
				// "except racing helmets, which are retired after 3
				// years", "except at the trimming table, where every 15
				// minutes is enough"
				a.conds[cond].then, a.conds[cond].thenWord = true, t.low
			}
			cond = -1
		}
		if negPending >= 0 && t.clause != negPending {
			if negAt == i-1 {
				trailingNegation(a, negPending)
			} else if cancelNoWithout(a, toks, negAt, lastNeg, lastNegCue) {
				lastNeg = -1
			} else if verbal {
				negationOnSubject(a, toks, negPending, negAt, negCond >= 0)
			}
			negPending = -1
		}
		if t.conj {
			listNext = true
		}
		if opensReason(toks, i) {
			reasonClause = t.clause
		}
		if i == 0 || toks[i-1].sentence != t.sentence {
			for _, c := range asideSentence(toks, i) {
				asideCl[c] = true
			}
		}
		if t.isNum && !t.clock && (referenceWords()[prevLow(toks, i)] || versionWords()[prevLow(toks, i)] && strings.Contains(t.text, ".")) {
			continue // "Clause 4.1:", "PR #233": a reference, not a number of the rule
		}
		if (t.low == "plus" || (t.low == "x" || t.low == "×") && (i == 0 || !toks[i-1].isNum)) && i+1 < len(toks) && toks[i+1].isNum && toks[i+1].clause == t.clause {
			continue // "the rate plus 25%", "the price x 1.25": read with the number (relation)
		}
		if relWords()[t.low] && (lastQty >= 0 && lastQtyEnd == i-1 && a.qty[lastQty].dim == "percent" && a.qty[lastQty].rel != 0 ||
			i+2 < len(toks) && toks[i+1].low == "of" && toks[i+2].isNum && toks[i+2].clause == t.clause && percentAt(toks, i+3)) {
			continue // "20% off", "a 25% surcharge", "a surcharge of 25%": read with the number (relation)
		}
		if t.isNum && !lx.phraseAt(toks, i) {
			q := quantity{value: t.num, raw: t.num, text: t.text, cond: cond}
			i0 := i
			if p := prevLow(toks, i); p == "every" || p == "each" {
				q.every = true
			}
			if t.clock {
				q.dim = "clock"
			}
			// A unit follows: "5 minutes", "80 percent".
			// An ordinal before a unit ("the first day") names a day, not a
			// length of time.
			ordinal := (t.text == "first" || ordinalOf(t.text) > 0) && !firstStretch(toks, i)
			if !t.clock && !ordinal && i+1 < len(toks) && !toks[i+1].isNum && toks[i+1].clause == t.clause {
				at := i + 1
				if l := toks[at].low; (l == "whole" || l == "full" || l == "entire") && at+1 < len(toks) && !toks[at+1].isNum && toks[at+1].clause == t.clause {
					at++ // "one full day"
				} else if l == "consecutive" || l == "successive" || l == "straight" {
					// "7 consecutive days" is 7 days; not "3 consecutive
					// working days", read with their kind of day as before.
					if at+1 < len(toks) && toks[at+1].clause == t.clause {
						if u, ok := lx.units[lx.fold(stem(toks[at+1].low))]; ok && u.dim == "time" {
							at++
						}
					}
				}
				if d, ok := countedDays(toks, at); ok {
					q.days = d // "5 business days": days of their own kind
					at++
				}
				w, n := lx.match(toks, at)
				if toks[at].low == "nights" && !(at+1 < len(toks) && toks[at+1].clause == t.clause && (rateWord(toks[at+1].low) ||
					toks[at+1].low == "in" && at+2 < len(toks) && (rateWord(toks[at+2].low) || toks[at+2].low == "any" || toks[at+2].low == "one"))) {
					// "a stay of 2 nights": counted in days; not "2 nights a
					// week" or "3 nights in any 14-day period", a count of
					// nights.
					w, n = lx.fold(stem("days")), 1
				}
				if mu, ok := measureAt(toks, at); ok && speedOf(toks, at) == 0 {
					// "1.8 m", "180 cm", "400 kg": one value in the base
					// unit of its quantity.
					q.value *= mu.scale
					q.dim = mu.dim
					q.text += " " + toks[at].text
					i = at
					w, n = "", 0
					if c, ok := metreCentimetres(toks, at); ok && q.raw == math.Trunc(q.raw) && q.raw >= 1 && q.raw <= 3 {
						// "one metre eighty-five" is 1.85 m, as a height
						// is said aloud.
						q.value += c / 100
						q.text += " " + toks[at+1].text
						i = at + 1
					}
				} else if sp, k := speedAt(toks, at); k > 0 {
					// "1.0 m/s", "2 km/h", "5 mph": a speed, in metres per second.
					q.value *= sp
					q.dim = "speed"
					q.text += " " + joinText(toks[i+1:at+k])
					i = at + k - 1
					w, n = "", 0
				} else if short := shortUnits()[toks[at].low]; short != "" {
					w, n = lx.fold(short), 1 // "900 s"
				}
				if u, ok := lx.units[w]; ok && !ordinalSecond(toks, at, n) {
					q.value *= u.scale
					q.dim = u.dim
					q.text += " " + joinText(toks[i+1:at+n])
					i = at + n - 1
				}
			}
			if q.dim != "" && q.dim != "clock" && q.raw > 0 && andAHalf(toks, i) {
				// "an hour and a half": half of the unit more.
				q.value += 0.5 * q.value / q.raw
				q.text += " and a half"
				i += 3
			}
			if q.dim == "" && !t.clock && !ordinal && q.raw > 1 && i+1 < len(toks) && toks[i+1].clause == t.clause && countedNoun(lx, toks[i+1].low) &&
				!(i+2 < len(toks) && toks[i+2].clause == t.clause && objectWords()[toks[i+2].low]) {
				// Not a verb with its object: "above 30 triggers it".
				q.counted = true
			}
			if q.dim == "" && i+1 < len(toks) && toks[i+1].clause == t.clause && (toks[i+1].low == "pound" || toks[i+1].low == "pounds") {
				q.text += " " + toks[i+1].text // weighs or pays: sameQuantity reads it against the other side's unit
			} else if q.dim == "" && !t.clock && !ordinal {
				if scale, d, ok := keyDays(toks, i0); ok {
					q.value *= scale
					q.dim, q.days = "time", d
				} else if u, per, ok := keyRate(toks, i0); ok {
					// "min duty hours per month 16": a rate, the key says
					// its unit and its period.
					q.value *= u.scale
					q.dim, q.per, q.perVal = u.dim, "time", per.scale
					q.text += " " + joinText(toks[i0-3:i0])
					if n := len(a.qty) - 1; n >= 0 && n != lastQty && a.qty[n].every && a.qty[n].text == "every "+toks[i0-1].text {
						a.qty = a.qty[:n] // the "per month" read before it was the key's
					}
				} else if u, ok := keyUnit(toks, i0); ok {
					// "min depth cm 380", "kick after s 300": the unit
					// a configuration key ends with.
					q.value *= u.scale
					q.dim = u.dim
					if n := len(a.qty) - 1; n >= 0 && n != lastQty && u.dim == "time" && a.qty[n].every && a.qty[n].text == "every "+toks[i0-1].text && i0 >= 2 && toks[i0-2].low == "every" {
						// "renew every months 12": every 12 months, not
						// monthly and a length of 12 months.
						a.qty = a.qty[:n]
						q.every = true
						q.text = "every " + q.text + " " + toks[i0-1].text
					}
				}
			}
			if q.dim == "" && q.per == "" && !t.clock && !ordinal && prevLow(toks, i0) == "the" && i0 == i &&
				(i+1 >= len(toks) || toks[i+1].clause != t.clause || lx.stop[stem(toks[i+1].low)] || i0 >= 2 && prevLow(toks, i0-1) == "of") {
				q.back = true // "none of the five is …", "if one of the three leaks"
			}
			if q.dim == "" && q.per == "" && q.raw == 2 && !t.clock && !ordinal && pairBetween(toks, i0) {
				q.pair = true // "between two consecutive appointments"
			}
			if q.dim == "time" && t.num == 1 && lastQty >= 0 && a.qty[lastQty].per == "" && a.qty[lastQty].dim != "time" &&
				a.qty[lastQty].clause == t.clause && slices.Contains([]string{"in", "within", "per", "every", "each", "a"}, prevLow(toks, i0)) {
				// "3 times in one week" is "3 times a week".
				a.qty[lastQty].per, a.qty[lastQty].perVal = "time", q.value
				a.qty[lastQty].text += " in " + q.text
				continue
			}
			q.clause = t.clause
			if lastQty >= 0 && lastQtyTerm >= 0 && q.dim == "time" && !q.every {
				// "4 hours 30 minutes", "2 days and 6 hours": one length.
				p := &a.qty[lastQty]
				next := lastQtyEnd == i0-1 || lastQtyEnd == i0-2 && toks[i0-1].low == "and"
				// Of a smaller unit: "30 days and 7 days" are two lengths.
				smaller := p.raw > 0 && q.raw > 0 && q.value/q.raw < p.value/p.raw
				if next && smaller && p.dim == "time" && p.per == "" && p.clause == t.clause && q.value < p.value && q.value > 0 {
					p.value += q.value
					p.text += " " + q.text
					a.terms[lastQtyTerm].w = "#" + strconv.FormatFloat(p.value, 'g', -1, 64) + p.dim
					a.terms[lastQtyTerm].text = p.text
					lastQtyEnd = i
					continue
				}
			}
			q.rel = relation(toks, i0, i, q)
			if q.dim == "time" && !q.every {
				q.wait = lengthWait(toks, i0, i)
			}
			if q.dim == "clock" {
				q.wait = clockWait(toks, i0, i)
			}
			if q.dim == "" && q.per == "" && q.value >= 1 && q.value <= 31 && q.value == math.Trunc(q.value) {
				// "by 31 March", "after March 31": a date, read with its
				// side as a time of day is.
				switch {
				case i+1 < len(toks) && toks[i+1].clause == t.clause && monthName(toks[i+1].low):
					q.wait = clockWait(toks, i0, i)
				case i0 > 0 && toks[i0-1].clause == t.clause && monthName(toks[i0-1].low):
					q.wait = clockWait(toks, i0-1, i)
				}
			}
			a.qty = append(a.qty, q)
			lastQty, lastQtyEnd = len(a.qty)-1, i
			afterConj := listNext
			listNext = false
			lastQtyTerm = len(a.terms)
			a.terms = append(a.terms, term{w: qtyKey(q), cond: cond, clause: t.clause, text: q.text, afterConj: afterConj})
			if q.dim == "temperature" || q.dim == "temperature_f" {
				// The scale is a word of the rule too, as "°C" was before
				// it was read as a unit: two rules said in degrees share it.
				a.terms = append(a.terms, term{w: "c" + strings.TrimPrefix(q.dim, "temperature"), cond: cond, clause: t.clause, text: "°"})
			}
			continue
		}
		if t.low == "even" && i+1 < len(toks) && toks[i+1].clause == t.clause {
			switch toks[i+1].low {
			case "for", "if", "when", "on", "in", "with", "after", "during", "at", "though":
				a.even = true
				evenClause = t.clause
			}
		}
		switch t.low {
		case "all", "every", "each":
			if t.low == "all" && prevLow(toks, i) == "at" {
				break // "to be fired at all": emphasis, no reach
			}
			if !a.every && t.low != "each" {
				// "every model", "all candidates": the rule's reach
				// (not "each member", one at a time).
				a.every, a.everyAt = true, t.clause
			}
			a.all = true
			if t.low == "all" && !a.any {
				// "all day", "all year round": a time, not the things
				// the rule covers.
				a.any, a.anyAt = true, t.clause
				a.anyAll = i+1 >= len(toks) || !timeNouns()[toks[i+1].low]
			}
		case "any", "anyone", "anything", "anywhere", "whatever", "everything", "everyone":
			if !a.any && !negatedEarlier(toks, i) {
				a.any, a.anyAt = true, t.clause
				a.anyBoundNum, a.anyBound = boundAfter(toks, i)
			}
		case "only", "solely", "exclusively":
			if onlyCounts(toks, i) {
				break // "used once only", "only twice a year": a count, as "single-use" says, not a restriction
			}
			if !a.only && prevLow(toks, i) != "not" && !upperBoundAt(func(k int) string {
				if j := i + 1 + k; j < len(toks) && toks[j].clause == t.clause {
					return toks[j].low
				}
				return ""
			}) {
				a.only, a.onlyAt, a.onlyWord = true, t.clause, i+1
				a.onlyWhen = i+1 < len(toks) && toks[i+1].clause == t.clause && timingWords()[toks[i+1].low]
				a.onlyApart = apartNear(toks, i)
			}
		}
		other := prevLow(toks, i) == "other" && i >= 2 && toks[i-2].low == "every" && toks[i-2].clause == t.clause
		// "£15 a night", "twice a night": after an amount or a count, "a"
		// is "per".
		perA := (prevLow(toks, i) == "a" || prevLow(toks, i) == "an") && i >= 2 && toks[i-2].clause == t.clause &&
			(toks[i-2].isNum && !toks[i-2].clock || moneyWord(toks[i-2].low) || toks[i-2].low == "once" || toks[i-2].low == "twice") &&
			(i+1 >= len(toks) || toks[i+1].clause != t.clause || phraseEnders()[toks[i+1].low]) // not "ward 7 a night nurse"
		if p := prevLow(toks, i); (p == "every" || p == "each" || p == "per" || other || perA && dayParts()[t.low]) && (dayParts()[t.low] || weekdays()[strings.TrimSuffix(t.low, "s")]) {
			// "every night" is nightly, "every Monday" weekly, "every
			// other Tuesday" every two weeks.
			d := units()["day"].scale
			if !dayParts()[t.low] {
				d = units()["week"].scale
			}
			if other {
				d *= 2
			}
			a.qty = append(a.qty, quantity{value: d, dim: "time", text: joinText(toks[i-1 : i+1]), cond: cond, clause: t.clause, every: true})
			lastQty = len(a.qty) - 1
			a.terms = append(a.terms, term{w: "#" + strconv.FormatFloat(d, 'g', -1, 64) + "time", cond: cond, clause: t.clause, text: joinText(toks[i-1 : i+1])})
			// The day is said too: "every Friday" names Friday.
		}
		if (dayParts()[t.low] || t.low == "afternoon") && oneRelative(toks, i, i) && !(i >= 2 && (toks[i-2].low == "in" || toks[i-2].low == "during")) {
			// "by 9 pm the night before", "at 8 am the morning after
			// checkout": the day before or after, said by its part ("in
			// the morning before breakfast" is the same day).
			a.qty = append(a.qty, quantity{value: units()["day"].scale, raw: 1, dim: "time", text: "the day", cond: cond, clause: t.clause})
			lastQty = len(a.qty) - 1
			continue
		}
		if p := prevLow(toks, i); t.low == "quarterly" || t.low == "quarter" && (p == "every" || p == "each" || p == "per" || p == "a") {
			// "every quarter" is every three months.
			a.qty = append(a.qty, quantity{value: 3 * units()["month"].scale, dim: "time", text: joinText(toks[max(0, i-1) : i+1]), cond: cond, clause: t.clause})
			lastQty = len(a.qty) - 1
			continue
		}
		if k := barrierAt(toks, i); k > 0 {
			// "blocked from going online" is "cannot go online"; "not
			// blocked from going online" two negations that cancel.
			if negPending == t.clause {
				negPending = -1
				a.negs--
			} else {
				negPending, noDet, negAt, verbal, negCond = t.clause, false, i+k-1, true, cond
				a.negs++
			}
			i += k - 1
			continue
		}
		w, n := lx.match(toks, i)
		switch {
		case n == 1 && t.low == "where" && legalWhere(toks, i),
			n == 1 && (t.low == "provided" || t.low == "providing") && proviso(toks, i):
			w = lx.matchAs("if")
		case n == 1 && t.low == "past" && pastBound(toks, i):
			w = lx.matchAs("above") // "runs past four hours": more than four hours
		}
		if n == 2 && t.low == "and" && toks[i+1].low == "up" && i+2 < len(toks) && toks[i+2].low == "to" {
			continue // "over 160 cm and up to 250 cm": the bound is "up to"
		}
		if t.low == "latest" && deadlineLatest(toks, i) {
			continue // "latest 4 pm", "by Friday at the latest": by then
		}
		if (t.low == "and" || t.low == "or") && andOver(toks, i) {
			w, n = lx.fold("atleast"), 2 // "aged 60 and over"
		}
		if n == 1 && keepsOn(toks, i) {
			w = lx.fold(stem("continue")) // "keep polling" is "continue polling", what "stops polling" denies
		}
		raw := joinText(toks[i : i+n])
		if w == lx.fold("atmost") && n > 1 && ((t.low == "no" || t.low == "not") && toks[i+1].low == "later" && beforeAhead(toks, i+n) || t.low == "up" && beforeEvent(toks, i+n)) {
			// "no later than 8 weeks before the wedding" is at least 8
			// weeks before it; so is "refunded up to 24 hours before
			// departure": the deadline, not a length of time. ("Book up
			// to 7 days ahead" is at most 7 days ahead.)
			w = lx.fold("atleast")
		} else if w == lx.fold("atleast") && n > 1 && (t.low == "no" || t.low == "not") && (toks[i+1].low == "earlier" || toks[i+1].low == "sooner") && beforeAhead(toks, i+n) {
			// "no earlier than 24 hours before the trip" is at most 24
			// hours before it: the first moment, not a length of time.
			w = lx.fold("atmost")
		}
		if n == 1 && (t.low == "until" || t.low == "till") && i+1 < len(toks) && toks[i+1].isNum && beforeEvent(toks, i+1) {
			w = lx.fold("atleast") // "refunds until 48 hours before the ski date": the same deadline
		}
		first := i // a phrase of the lexicon ("access token") is one term
		i += n - 1
		if (w == lx.minute) && n == 1 && !(i > 0 && toks[i-1].isNum) && (t.low == "min" || t.low == "mins") {
			w = lx.fold("atleast") // "min password length": a minimum, not minutes
		}
		postposed := n == 1 && t.low == "excepted" && (i+1 == len(toks) || toks[i+1].clause != t.clause)
		if (lx.exemptCue[w] || postposed) && cond < 0 && len(a.conds) < maxConds {
			// "nightly jobs are exempt", "trade accounts excepted": an
			// exception whose words come before its cue. ("Plays from
			// flagged accounts are excluded" is left to the words: a
			// query's NOT IN says it as often.)
			cd := condition{kind: "unless"}
			for k := len(a.terms) - 1; k >= 0 && a.terms[k].clause == t.clause && a.terms[k].cond < 0; k-- {
				a.terms[k].cond = len(a.conds)
				cd.terms = append([]string{a.terms[k].w}, cd.terms...)
				cd.text = strings.TrimSpace(a.terms[k].text + " " + cd.text)
			}
			if len(cd.terms) > 0 {
				a.conds = append(a.conds, cd)
				if i+1 < len(toks) && toks[i+1].low == "from" && toks[i+1].clause == t.clause {
					// "exempt from the grease trap requirement": what the
					// exception does not need, as "don't need the grease
					// trap" says.
					negPending, noDet, negAt, verbal, negCond = t.clause, false, i+1, false, cond
					a.negs++
				}
				continue
			}
		}
		if kind, ok := lx.condCue[w]; ok && kind == "if" && (anyTime(lx, toks, i+1) || n == 1 && t.low == "during" && lastPeriod(toks, i+1)) {
			continue // "during any month", "at any time of day": no time left out; "during the previous 60 days": a window
		}
		if kind, ok := lx.condCue[w]; ok && kind == "if" && n == 1 && i+1 < len(toks) && toks[i+1].clause == t.clause && (toks[i+1].low == "yes" || toks[i+1].low == "so") &&
			(i+2 == len(toks) || toks[i+2].clause != t.clause) {
			// "Check whether they are injured. If yes, …": the case the
			// text has just named, no condition of its own.
			i++
			continue
		}
		if kind, ok := lx.condCue[w]; ok && len(a.conds) < maxConds {
			if kind == "if" && cond >= 0 && a.conds[cond].kind == "unless" && len(a.conds[cond].terms) == 0 {
				continue // "except during a grid outage": one exception
			}
			if kind == "if" && cond >= 0 && a.conds[cond].kind == "unless" && condClause == t.clause && t.low == "subject" {
				continue // "unless the record is subject to a claim": one exception
			}
			if j := i - n; kind == "if" && negPending == t.clause && negAt == j && (toks[j].low == "not" || toks[j].low == "never") &&
				j > 0 && (toks[j-1].low == "but" || toks[j-1].low == "and" || toks[j-1].low == "yet") && toks[j-1].clause == t.clause && t.low != "only" {
				// "…, but not if the property is a new-build", "and never
				// when it rains": the rule left out under the condition,
				// as "except" leaves it out. Not "not only for controlled
				// drugs" (the rule widened), nor a negation that opens
				// its clause ("Not while a batch is running:", "…, never
				// during a scene": the rule said again, negated).
				kind, negPending = "unless", -1
				a.negs--
			}
			if kind == "if" && negPending == t.clause && notNeededBefore(toks, negAt, i-n+1) {
				// "…; this is not needed when the lab collects them": the
				// rule set aside under the condition, as "except when"
				// sets it aside.
				kind, negPending = "unless", -1
				a.negs--
			}
			if k := len(a.terms) - 1; negPending == t.clause && negAt >= 0 && negAt < i-n+1 && k >= 0 && a.terms[k].at <= negAt &&
				a.terms[k].clause == t.clause && a.terms[k].cond < 0 && !a.terms[k].neg && verbal && !dutyWordIn(toks[negAt+1:i-n+1]) {
				// "Kayaks don't go out unless the wind is below 15 knots":
				// the verb negated is no term ("go out"), and the negation
				// is the rule's, not the condition's; it stands on the
				// clause's last term, as on the verb it would.
				a.terms[k].neg, a.terms[k].verbal = true, true
				negPending = -1
			}
			aside := asideCl[t.clause] || kind == "if" && ownDoubt(toks, i+n)
			// "except on public holidays, when the limit is 8 hours": the
			// exception's own rule, as "where" opens it.
			ownRule := kind == "if" && n == 1 && t.low == "when" && len(a.conds) > 0 && a.conds[len(a.conds)-1].thenWord == "when" &&
				a.conds[len(a.conds)-1].clause == t.clause-1 && i > 0 && toks[i-1].clause != t.clause
			a.conds = append(a.conds, condition{kind: kind, clause: t.clause, reason: aside || reasonBefore(toks, i), while: n == 1 && t.low == "while", unless: n == 1 && t.low == "unless", ownRule: ownRule})
			cond, condClause = len(a.conds)-1, t.clause
			for j := i + 1; j < len(toks) && toks[j].clause == t.clause && !a.conds[cond].again; j++ {
				a.conds[cond].again = toks[j].low == "again"
			}
			continue
		}
		if t.low == "no" && i == 0 && (len(toks) == 1 || toks[1].clause != t.clause) {
			// "No — outputs are stripped first": the answer to a
			// question, not a negation of what follows.
			continue
		}
		if t.low == "not" && n == 1 && i+1 < len(toks) && toks[i+1].low == "even" && i > 0 && toks[i-1].clause != t.clause {
			continue // "never commit it, not even encrypted": the negation before, carried on
		}
		if i == dropNeg {
			continue // the negation of a bound read as the limit (negAfterBound)
		}
		if n == 1 && (lx.negCue[t.low] || (t.low == "non" || lacking(toks, i)) && i+1 < len(toks) && toks[i+1].clause == t.clause) || n > 1 && lx.negCue[w] {
			// The word as written: "note" stems to "not" but negates
			// nothing.
			negPending, noDet, negAt, negCond = t.clause, t.low == "no", i, cond
			verbal = t.low == "not" || t.low == "never" || w == "nolonger"
			a.negs++
			continue
		}
		// "no train below 75% is permitted", "nobody under 18 is treated":
		// the bound says which trains or people, and the "no" is said of
		// what they do, as "trains below 75% are not permitted" says it.
		_, bound := lx.negBound[w]
		boundsSubject := bound && (negPending >= 0 && negAt == i-n && noneCues()[toks[negAt].low] && toks[negAt].low != "no" ||
			noTerm >= 0 && a.terms[noTerm].to == i-n+1 && a.terms[noTerm].clause == t.clause) && verbAfterBound(toks, i)
		a.subjectBound = a.subjectBound || boundsSubject
		boundsSubject = boundsSubject && !boundAsLimit
		if k := negAfterBound(lx, toks, i); bound && k >= 0 && negPending < 0 && noTerm < 0 && cond < 0 {
			// "oil hotter than 80 degrees is not to be used" is "oil is
			// used at most at 80 degrees", what "the oil must not be used
			// above 80 °C" says: the bound of the subject with the verb's
			// negation, read as the limit in the limit reading.
			a.subjectBound = true
			if boundAsLimit {
				w, dropNeg = lx.negBound[w], k
			}
		}
		if c, ok := lx.negBound[w]; ok && negPending >= 0 && !boundsSubject {
			// "not more than 20" is "at most 20".
			w, negPending = c, -1
			a.negs--
		} else if ok && noTerm >= 0 && !boundsSubject && a.terms[noTerm].clause == t.clause && a.terms[noTerm].cond == cond {
			// "no tenant may have more than 4" is "every tenant at most
			// 4": the "no" bounds the number, not the tenant.
			a.terms[noTerm].neg = !a.terms[noTerm].neg
			w, noTerm = c, -1
			a.negs--
		} else if ok && verbNegTerm >= 0 && a.terms[verbNegTerm].neg && !a.terms[verbNegTerm].lifted && a.terms[verbNegTerm].clause == t.clause && a.terms[verbNegTerm].cond == cond && (verbNegTerm == len(a.terms)-1 && i-verbNegTok <= 2 || i-verbNegTok <= 6 && numberAfter(toks, i+1)) &&
			(!a.terms[verbNegTerm].none || noneBounds(lx, toks, verbNegCue, verbNegTok, i-n+1, cond)) {
			// "cannot spend more than 30 USD" is "spends at most 30
			// USD": the "not" bounds the amount, not the spending. So
			// does a negation a few words back when a number follows the
			// bound: "never loaded on a sailing with more than 500
			// passengers" is loaded on sailings with at most 500. Not
			// a bound in a condition of the negated rule: "not
			// regenerated when viability falls below 85%" is not
			// "regenerated when it is at least 85%"; nor a duty lifted:
			// "need not confirm a minimum of 12" sets no bound at all.
			a.terms[verbNegTerm].neg, a.terms[verbNegTerm].verbal, a.terms[verbNegTerm].none = false, false, false
			w, verbNegTerm = c, -1
			a.negs--
		}
		if k, kind, ok := dayOfKind(lx, toks, w, i, n); ok && oneRelative(toks, k, i) {
			// "by the next business day", "the following working day",
			// "the school day before": one day of its kind.
			a.qty = append(a.qty, quantity{value: units()["day"].scale, raw: 1, dim: "time", days: kind, text: prevLow(toks, k) + " " + joinText(toks[k:i+1]), cond: cond, clause: t.clause})
			lastQty = len(a.qty) - 1
			continue
		}
		// A unit after "per", "every", "a" or alone ("daily"): a period.
		if u, ok := lx.units[w]; ok && u.dim == "time" && !ordinalSecond(toks, i-n+1, n) {
			if prev := prevLow(toks, i-n+1); (prev == "whole" || prev == "full" || prev == "entire" || prev == "rolling") && (prevLow(toks, i-n) == "a" || prevLow(toks, i-n) == "one") {
				// "a whole day" is one day, and "a rolling day" one day
				// that moves ("a rolling 24 hours").
				a.qty = append(a.qty, quantity{value: u.scale, raw: 1, dim: "time", text: "a " + prev + " " + raw, cond: cond, clause: t.clause})
				lastQty = len(a.qty) - 1
				continue
			} else if prev == "the" && oneRelative(toks, i-n+1, i) || bareRelative(toks, i-n+1, i) ||
				(prev == "previous" || prev == "preceding") && prevLow(toks, i-n) == "the" && n == 1 && u.scale == units()["day"].scale && !strings.HasSuffix(raw, "s") && phraseEnds(toks, i) ||
				raw == "day" && (prev == "next" || prev == "following") && i+1 < len(toks) && toks[i+1].clause == t.clause && slices.Contains(relativeWords, toks[i+1].low) {
				// "the day before" is a day before, and so are "the
				// previous day" (not "the previous month": a month
				// named, "the 25th of the preceding month") and "by 4 pm
				// day before" in a note that leaves out its articles,
				// and "the next day after the study" the morning after
				// it.
				a.qty = append(a.qty, quantity{value: u.scale, raw: 1, dim: "time", text: "the " + raw, cond: cond, clause: t.clause})
				lastQty = len(a.qty) - 1
				continue
			} else if (prev == "a" || prev == "an") && yearNamed(toks, i) {
				// "a Year 6 monitor", "a Week 2 quiz": the name of a year
				// group or a week of a course, not a length of time.
			} else if prev == "per" || prev == "a" || prev == "an" || prev == "each" || prev == "every" {
				article := prev == "a" || prev == "an"
				// "30 days a year" is a rate; "a month before …, and again
				// a week before" two lengths of time.
				adjacent := (lastQtyEnd == i-n-1 || lastQtyEnd == i-n-2 && amountQualifier(toks[i-n-1].low)) && !(i+1 < len(toks) && toks[i+1].clause == t.clause && slices.Contains(relativeWords, toks[i+1].low))
				// A count is a rate only next to its period, or with the
				// thing counted between ("twice a week", "two weekends a
				// month"), not "twice and older than a week".
				counted := lastQty >= 0 && (adjacent || lastQtyEnd == i-n-2 && !toks[i-n-1].isNum && toks[i-n-1].clause == t.clause) // "3 times a week", "two weekends a month"
				// A measure of a thing named between is a rate too: "400
				// metres of altitude a day", "2 litres of water a day".
				measured := lastQty >= 0 && a.qty[lastQty].dim != "" && ofThing(toks, lastQtyEnd, i-n) && !(i+1 < len(toks) && toks[i+1].clause == t.clause && slices.Contains(relativeWords, toks[i+1].low))
				if article && (lastQty < 0 || a.qty[lastQty].per != "" || a.qty[lastQty].dim != "" && !adjacent && !measured || a.qty[lastQty].dim == "" && !counted || a.qty[lastQty].clause != t.clause) {
					// "a month ahead of expiry" is one month; "twice a
					// month" a rate.
					q := quantity{value: u.scale, dim: "time", text: prev + " " + raw, cond: cond, clause: t.clause, wait: lengthWait(toks, i-1, i)}
					if andAHalf(toks, i) {
						q.value += 0.5 * u.scale // "an hour and a half"
						q.text += " and a half"
						i += 3
					}
					a.qty = append(a.qty, q)
					lastQty = len(a.qty) - 1
					continue
				}
				if prev != "every" && lastQty >= 0 && a.qty[lastQty].per == "" && a.qty[lastQty].dim != "clock" && a.qty[lastQty].clause == t.clause {
					// "30 days a year" is a rate; "Minute 4: … each
					// decade" a number and a period of two clauses.
					a.qty[lastQty].per, a.qty[lastQty].perVal = "time", u.scale
					a.qty[lastQty].text += " per " + raw
				} else {
					a.qty = append(a.qty, quantity{value: u.scale, dim: "time", text: "every " + raw, cond: cond, every: true})
				}
				continue
			}
		}
		if w == lx.immediately && t.low == "at" && lastQty >= 0 && a.qty[lastQty].clause == t.clause && a.qty[lastQty].dim == "" && a.qty[lastQty].per == "" {
			// "8 GPUs at once": at the same time, not without delay.
			w = lx.fold(stem("concurrency"))
		} else if w == lx.immediately {
			// "at once" is after no time at all.
			a.qty = append(a.qty, quantity{value: 0, dim: "time", text: raw, cond: cond})
			continue
		}
		if p, ok := lx.period[w]; ok {
			if half := lastQty >= 0 && lastQtyEnd == i-1 && strings.EqualFold(a.qty[lastQty].text, "half"); half || prevLow(toks, i) == "semi" {
				// "half-yearly", "half-hourly", "semi-annually": every half
				// of the period, not half a time in it.
				q := quantity{value: lx.units[p].scale / 2, dim: "time", text: "half " + raw, cond: cond, clause: t.clause, every: true}
				if half {
					a.qty[lastQty] = q
					a.terms[lastQtyTerm].w, a.terms[lastQtyTerm].text = qtyKey(q), q.text
				} else {
					a.qty = append(a.qty, q)
				}
				continue
			}
			if lastQty >= 0 && a.qty[lastQty].per == "" && a.qty[lastQty].dim != "time" && a.qty[lastQty].dim != "clock" && a.qty[lastQty].clause == t.clause && !t.conj &&
				!(a.qty[lastQty].rel != 0 && periodNamesAmount(toks, i)) {
				// "99.9% each month": a rate; not "until 23:00 and every
				// hour after", nor "every 15,000 km or once a year" (two
				// periods, whichever comes first), nor "125% of the daily
				// rate" (the period names the amount the share is of).
				a.qty[lastQty].per, a.qty[lastQty].perVal = "time", lx.units[p].scale
				a.qty[lastQty].text += " " + raw
				continue
			}
			// "hourly", "every hour": a period, as "every 1 hour" is;
			// "every year and a half" half of it more.
			q := quantity{value: lx.units[p].scale, dim: "time", text: raw, cond: cond, clause: t.clause, every: true}
			if andAHalf(toks, i) {
				q.value += 0.5 * q.value
				q.text += " and a half"
				i += 3
			}
			a.qty = append(a.qty, q)
			continue
		}
		// "before the off", "48 hrs before kick off": the start, a name,
		// not something turned off.
		offStart := i > 0 && toks[i-1].clause == t.clause && (toks[i-1].low == "the" || toks[i-1].low == "kick")
		off := t.low == "off" && !t.hyphened && !offStart && (i+1 >= len(toks) || toks[i+1].clause != t.clause || isConj(toks[i+1].low))
		absent := (t.low == "missing" || t.low == "absent") && i >= 2 && copulas()[toks[i-1].low] && toks[i-1].clause == t.clause
		// "pain-free", "nut-free": without the word before.
		freeOf := t.low == "free" && t.hyphened && i > 0 && !toks[i-1].isNum && toks[i-1].clause == t.clause
		if n == 1 && (off || absent || freeOf) {
			// "with the flash off", "whose focus indicator is missing":
			// the word before, turned off or not there ("no focus
			// indicator").
			if k := len(a.terms) - 1; k >= 0 && a.terms[k].clause == t.clause && !strings.HasPrefix(a.terms[k].w, "#") {
				a.terms[k].neg = !a.terms[k].neg
				a.negs++
				continue
			}
		}
		if lx.stop[w] && (n > 1 || !lx.homograph[w] || lx.stopWord[t.low]) {
			// A stop word, or an inflection of one ("does", "having");
			// "canning", "willing", "owned" are words of their own.
			continue
		}
		if t.low == "apply" && negPending == t.clause && i+1 < len(toks) && (toks[i+1].low == "if" || toks[i+1].low == "when") && notNeededBefore(toks, negAt, i+1) {
			// "…; this does not apply if they are a professional": no word
			// of the rule; the negation waits for the condition, which it
			// turns into an exception as "not needed when" does.
			continue
		}
		neg, own, prefixed := false, false, false
		if pos, ok := lx.negVerb[w]; ok {
			w, neg, own = pos, true, true
			a.negs++
		} else if p := negatedParticiple(lx, t.low); n == 1 && p != "" {
			w, neg, own, prefixed = p, true, true, true // "returned undamaged" is "not damaged"
			a.negs++
		}
		negVerbal, byNone := false, false
		if negPending >= 0 && !boundsSubject {
			neg, own = !neg, false
			prefixed = neg && negAt == first-1 && toks[negAt].low == "non"
			negPending = -1
			negVerbal = verbal
			byNone = negAt >= 0 && noneCues()[toks[negAt].low]
			if noDet {
				noTerm = len(a.terms)
			}
			if neg && (negVerbal || byNone && !noDet) {
				// "nobody may hold more than two" bounds the holding as
				// "may not hold more than two" does.
				verbNegTerm, verbNegTok, verbNegCue = len(a.terms), i, negAt
			}
		}
		listed := listNext || i+1 < len(toks) && toks[i+1].clause == t.clause && isConj(toks[i+1].low)
		afterConj := listNext
		listNext = false
		by := i+1 < len(toks) && toks[i+1].clause == t.clause && toks[i+1].low == "by"
		if negVerbal || neg && negAt >= 0 && negAt < i {
			cue := toks[negAt].low
			// "no laptop leaves the office unencrypted", "nobody works
			// unsupervised": a negation of its own after the one "no" or
			// "nobody" put on the subject or the verb.
			unWord := own && prefixed && lastNeg >= 0 && (lastNegCue != "no" || lastNeg < len(a.terms)-1)
			if k := lastNeg; (cue == "without" || unWord) && k >= 0 && a.terms[k].clause == t.clause && a.terms[k].neg && (lastNegCue == "no" || lastNegCue == "nobody" || lastNegCue == "nothing" || lastNegCue == "none") && cond < 0 && a.terms[k].cond < 0 {
				// "no stunt is filmed without a paramedic": two negations
				// that cancel, every stunt is filmed with one.
				cancelled = append(cancelled, cancelledNegs{k, len(a.terms), a.terms[k].verbal, negVerbal})
				a.terms[k].neg, a.terms[k].verbal, neg, negVerbal = false, false, false, false
				a.negs -= 2
				lastNeg, noTerm = -1, -1
			} else if neg {
				lastNeg, lastNegCue = len(a.terms), cue
			}
		}
		a.terms = append(a.terms, term{w: w, neg: neg, verbal: negVerbal, without: neg && negAt >= 0 && negAt == first-1 && toks[negAt].low == "without", afterWithout: neg && negAt >= 0 && toks[negAt].low == "without", none: neg && byNone, own: neg && own, prefixed: neg && prefixed, at: first + 1, to: i + 1, lifted: negVerbal && neg && liftedDuty(toks, negAt, i), afterAux: first > 0 && auxWords()[toks[first-1].low], afterConj: afterConj, cond: cond, clause: t.clause, listed: listed, by: by, text: raw, even: evenClause == t.clause, reason: reasonClause == t.clause || asideCl[t.clause]})
		if cond >= 0 {
			a.conds[cond].terms = append(a.conds[cond].terms, w)
			a.conds[cond].text = strings.TrimSpace(a.conds[cond].text + " " + raw)
		}
	}
	if negPending >= 0 && negAt == len(toks)-1 {
		trailingNegation(a, negPending)
	} else if negPending >= 0 && !cancelNoWithout(a, toks, negAt, lastNeg, lastNegCue) && verbal {
		negationOnSubject(a, toks, negPending, negAt, negCond >= 0)
	}
	// "unless a member's ping exceeds 120 ms, in which case the party
	// chooses": a condition, not an exception.
	// So is "unless the customer paid for storage, then we keep it 30
	// days": the case's own outcome, opened by "then" (or "and then").
	// An outcome that only negates ("…, then no gust inspection is
	// needed") sets the rule aside: the exception stays one.
	for i := range toks {
		if caseOutcome(toks, i) && !slices.ContainsFunc(toks[i:], func(t rawTok) bool { return t.clause == toks[i].clause && untilNegations()[t.low] }) {
			for k := range a.conds {
				if a.conds[k].kind == "unless" && a.conds[k].clause == toks[i].clause-1 {
					a.conds[k].kind, a.conds[k].outcome = "if", true
				}
			}
		}
	}
	keepExcepted(a, cancelled)
	negatedAlternatives(a, toks)
	a.otherwise = otherwiseBranches(a)
	caseLifted(a, toks)
	return a
}

// caseLead are the words that may open the outcome of a case before its
// negation: "then no fee", "it isn't free", "we don't charge".
var caseLead = wordSet("then it this that they there is are was be s does do will so we you")

// casePrep after a negation sets another thing in the place of one:
// "not to the reefer techs", "not by phone".
var casePrep = wordSet("to for by from in on at with via through into")

// caseLifted finds the cases whose outcome only takes back what the text
// states elsewhere, which an exception says with "unless": "…, otherwise
// the full fee is payable. If the learner is sick and gives a doctor's
// note, then no fee" is "the full fee, unless the learner is sick …";
// "every paddler wears a buoyancy aid, only when practising rolls with a
// coach present it is not needed"; "one free replacement; if a pet did
// the damage, though, it isn't free". The outcome is a negation right
// after the case (past "then", "it is"), of a word the text states
// plainly in another clause, or of a duty ("not needed", "does not
// apply"). "If it rains, no games" alone says a rule of its own: nothing
// is stated to take back. Only recorded: asException reads them so
// against a side that sets the case aside as an exception.
func caseLifted(a *analysis, toks []rawTok) {
	lx := theLexicon()
	for k, cd := range a.conds {
		if cd.kind != "if" || cd.reason || cd.ownRule || cd.while || cd.outcome || a.otherwiseAt(k) {
			continue
		}
		first := slices.IndexFunc(a.terms, func(t term) bool { return t.cond == k })
		if first < 0 {
			continue
		}
		// The outcome: the next clause of the sentence, past a "though"
		// standing alone, or the case's own clause after its words ("…
		// with a coach present it is not needed").
		i := slices.IndexFunc(toks, func(t rawTok) bool { return t.clause > cd.clause })
		for i >= 0 && i < len(toks) && (toks[i].low == "though" || toks[i].low == "however") && (i+1 == len(toks) || toks[i+1].clause != toks[i].clause) {
			i++
		}
		if i < 0 || i >= len(toks) || toks[i].sentence != toks[slices.IndexFunc(toks, func(t rawTok) bool { return t.clause == cd.clause })].sentence {
			i = -1
		}
		at := i
		if at < 0 {
			// "… present it is not needed": the negation ends the clause.
			for j := range toks {
				if toks[j].clause == cd.clause && toks[j].low == "it" && j+3 < len(toks) && toks[j+3].clause == cd.clause &&
					(j+4 == len(toks) || toks[j+4].clause != cd.clause) && toks[j+2].low == "not" && liftWord(toks[j+3].low) {
					at = j
				}
			}
			if at < 0 {
				continue
			}
		}
		cl := toks[at].clause
		for at < len(toks) && toks[at].clause == cl && caseLead()[toks[at].low] {
			at++
		}
		if at+1 >= len(toks) || toks[at].clause != cl || toks[at+1].clause != cl || !lx.negCue[toks[at].low] || casePrep()[toks[at+1].low] {
			continue // "…, not to the reefer techs": another thing in its place, no outcome
		}
		// The negated term: the first negated after the case.
		neg := -1
		for j := first; j < len(a.terms); j++ {
			if t := a.terms[j]; t.cond < 0 && t.clause == cl && t.neg && !t.own {
				neg = j
				break
			}
		}
		lifted := liftWord(toks[at+1].low) || toks[at+1].low == "need" && toks[at].low == "no"
		if !lifted {
			if neg < 0 {
				continue
			}
			w := a.terms[neg].w
			if !slices.ContainsFunc(a.terms, func(t term) bool { return t.w == w && !t.neg && t.cond < 0 && t.clause != cl }) {
				continue
			}
		}
		a.lifted = append(a.lifted, liftedCase{cond: k, neg: neg})
	}
}

// liftedCase is a case whose outcome takes back what the text states
// elsewhere (caseLifted): its condition, and the term its negation turned
// (-1 when it turned no term: "it is not needed").
type liftedCase struct{ cond, neg int }

// asException reads the cases of x that take back what x states
// elsewhere (caseLifted) as exceptions, as "unless" says, when y sets the same case
// aside as an exception: "unless they are ill and provide a doctor's
// note" against "if the learner is sick and gives a doctor note, then no
// fee". Against a side that says the case as a rule of its own ("member
// groups pay no deposit") the case is left as it is said. x itself is
// not changed; nil when nothing was read.
func asException(x, y *analysis) *analysis {
	lx := theLexicon()
	var c *analysis
	for _, lc := range x.lifted {
		words := x.conds[lc.cond].terms
		excepted := slices.ContainsFunc(y.conds, func(cd condition) bool {
			return cd.kind == "unless" && !cd.outcome && slices.ContainsFunc(cd.terms, func(w string) bool {
				return !lx.light[w] && !lx.generic[w] && slices.Contains(words, w)
			})
		})
		if !excepted {
			continue
		}
		c = ownCopy(c, x)
		c.conds[lc.cond].kind = "unless"
		if lc.neg >= 0 {
			c.terms[lc.neg].neg, c.terms[lc.neg].verbal, c.terms[lc.neg].none = false, false, false
		}
		c.negs--
	}
	// A clause that denies a word of the rule to what y excepts from it:
	// "clamped or towed vehicles never get that hold" against "the
	// discount is held …, except for vehicles that were clamped or
	// towed"; "no guests on community event days" against "guests are
	// welcome every day except community event days". The word denied is
	// stated plainly elsewhere, by x or by y: "no dogs in the garden"
	// against "no dogs except in the garden" denies nothing stated.
	for cl := range x.sentences {
		n, rest := -1, []int{}
		for i, t := range x.terms {
			if t.clause != cl || t.cond >= 0 || t.reason || lx.generic[t.w] || strings.HasPrefix(t.w, "#") || lx.light[t.w] && !t.neg {
				continue
			}
			switch {
			case t.neg && !t.own && !t.lifted && n < 0:
				n = i
			case t.neg:
				n = len(x.terms) // two negations: no such clause
			default:
				rest = append(rest, i)
			}
		}
		if n < 0 || n == len(x.terms) || len(rest) == 0 {
			continue
		}
		w := x.terms[n].w
		stated := func(z *analysis) bool {
			return slices.ContainsFunc(z.terms, func(t term) bool { return t.w == w && !t.neg && t.cond < 0 && (z != x || t.clause != cl) })
		}
		if !stated(x) && !stated(y) || slices.ContainsFunc(y.terms, func(t term) bool { return t.w == w && t.neg }) {
			continue // nothing stated to deny, or y denies it too ("exempt from the certificate rule")
		}
		words := make([]string, len(rest))
		fresh := 0 // the words x says nowhere else: "canteen" of "in the canteen visitors do not wear a badge"
		for j, i := range rest {
			words[j] = x.terms[i].w
			if !slices.ContainsFunc(x.terms, func(t term) bool { return t.w == words[j] && t.clause != cl }) {
				fresh++
			}
		}
		excepted := slices.ContainsFunc(y.conds, func(cd condition) bool {
			if cd.kind != "unless" || cd.outcome || cd.then || len(cd.terms) == 0 || slices.Contains(cd.terms, w) {
				return false // "except Friends of the Hall, who pay no fee" says the denial itself; "exempt from the notice" names the word denied
			}
			in := 0
			for _, v := range cd.terms {
				if slices.Contains(words, v) {
					in++
				}
			}
			return 2*in >= len(cd.terms) && in > 0 && 2*in >= fresh
		})
		if !excepted {
			continue
		}
		c = ownCopy(c, x)
		c.conds = append(c.conds, condition{kind: "unless", clause: cl, terms: words})
		for _, i := range rest {
			c.terms[i].cond = len(c.conds) - 1
		}
		c.terms[n].neg, c.terms[n].verbal, c.terms[n].none = false, false, false
		c.negs--
	}
	return c
}

// ownCopy is c, or when c is nil a copy of x whose terms and conditions
// may be changed without changing x's: asException reads x anew only
// once something in it is read otherwise.
func ownCopy(c, x *analysis) *analysis {
	if c != nil {
		return c
	}
	cp := *x
	cp.terms, cp.conds = slices.Clone(x.terms), slices.Clone(x.conds)
	return &cp
}

// optionalBoth reads a duty lifted on one side as the choice the other
// side names: against "the report is optional", "need not file the
// report", "do not have to file it", "are not required to file it", "is
// not mandatory" and "no report is required" say "optional"; against
// "required", "not optional" says "required". Each side is left as
// written otherwise: a duty lifted for a case of its own ("under-2s don't
// need a ticket") is the rule's exception, not its choice.
func optionalBoth(a, b *analysis, filed, position string) (*analysis, *analysis) {
	lx := theLexicon()
	require := lx.fold(stem("require"))
	says := func(x *analysis, w string) bool {
		return slices.ContainsFunc(x.terms, func(t term) bool { return t.w == w && !t.neg })
	}
	lifted := func(x *analysis, to string) *analysis {
		var y *analysis
		for i, t := range x.terms {
			if to == lx.optional && t.w == require && !t.neg && i > 0 && x.terms[i-1].neg && x.terms[i-1].none && x.terms[i-1].clause == t.clause && x.terms[i-1].cond == t.cond {
				// "no deposit is required": the deposit is optional.
				if y == nil {
					c := *x
					c.terms = slices.Clone(x.terms)
					y = &c
				}
				y.terms[i-1].neg, y.terms[i-1].none, y.terms[i].w = false, false, lx.optional
				y.negs--
				continue
			}
			if !t.neg || t.own || t.prefixed || !t.verbal || !(to == lx.optional && (t.lifted || t.w == require) || to == require && t.w == lx.optional) {
				continue
			}
			if y == nil {
				c := *x
				c.terms = slices.Clone(x.terms)
				y = &c
			}
			u := &y.terms[i]
			if u.lifted {
				u.lifted = false
				// The verb is said as it is, with "optional" beside it (at
				// the end of the terms: their indices are kept).
				y.terms = append(y.terms, term{w: lx.optional, cond: u.cond, clause: u.clause, at: u.at, to: u.to, text: "optional", reason: u.reason})
				u = &y.terms[i]
			} else {
				u.w = to
			}
			u.neg, u.verbal = false, false
			y.negs--
		}
		if y == nil {
			return x
		}
		return y
	}
	// Only a side whose rule is all choice ("optional", no "must" beside
	// it) or all duty reads the other so: "must show advice over £30,000;
	// below it advice is optional" against "advice is not compulsory"
	// lifts the duty the filed rule keeps.
	oa, ob, ra, rb := says(a, lx.optional), says(b, lx.optional), says(a, require), says(b, require)
	if oa == ob && ra == rb {
		return a, b // most positions: neither names a choice or a duty the other does not
	}
	la, lb := strings.ToLower(filed), strings.ToLower(position)
	// Nor is a duty lifted on a side that keeps one beside it: "managers
	// need not fill it in, but everyone else must".
	commands := func(low string) bool { return indexWord(low, "must") >= 0 || indexWord(low, "shall") >= 0 }
	switch {
	case oa && !ob && strongCue(la) == "" && !commands(lb):
		b = lifted(b, lx.optional)
	case ob && !oa && strongCue(lb) == "" && !commands(la):
		a = lifted(a, lx.optional)
	}
	// Read again: the first switch may have made one side say it.
	switch ra, rb = says(a, require), says(b, require); {
	case ra && !rb && weakCue(la) == "":
		b = lifted(b, require)
	case rb && !ra && weakCue(lb) == "":
		a = lifted(a, require)
	}
	return a, b
}

// verbAfterBound reports whether a verb follows the bound at toks[i] and
// what it bounds, in its clause: "under 18 is treated", "below 75% may
// leave"; not "no loaf below 776 g", a bound said of a thing alone.
func verbAfterBound(toks []rawTok, i int) bool {
	for j := i + 1; j < len(toks) && j <= i+6 && toks[j].clause == toks[i].clause; j++ {
		if auxWords()[toks[j].low] || modalWords()[toks[j].low] {
			return true
		}
	}
	return false
}

// noneBounds reports whether the bound at toks[b] bounds the verb at
// toks[v] that "nobody" or "nothing" negated, as "not" would: "nobody may
// hold more than two bookings" holds at most two. Not in a condition ("none
// at all when the episode runs under ten minutes"), nor past a word that
// opens another verb's words: "nothing scheduled that peaks under ten
// degrees", "if nobody's trapped and it's a breakdown they get up to 4
// hours"; nor after "with", where "nobody" says what the thing is ("a
// breakdown with nobody trapped allows up to 4 hours"), or before a
// participle that says it without a verb ("breakdown_nobody_trapped_max_hours").
// The negation is at toks[at].
func noneBounds(lx *lexicon, toks []rawTok, at, v, b, cond int) bool {
	if cond >= 0 || at > 0 && toks[at-1].low == "with" || v == at+1 && strings.HasSuffix(toks[v].low, "ed") {
		return false
	}
	for j := v + 1; j < b && j < len(toks); j++ {
		switch toks[j].low {
		case "and", "or", "but", "that", "which", "who", "whose", "where", "when":
			return false
		}
		if _, ok := lx.condCue[toks[j].low]; ok {
			return false
		}
	}
	return true
}

// negAfterBound is the token of the verb's negation after a bound said of
// the subject at toks[i] and its number: the "not" of "files larger than
// 10 MB are not accepted", "oil hotter than 80 degrees is not to be used",
// "boards above 12% are never used". -1 when none follows in the clause
// within a few words, after a form of "be", a modal or "do", or when a
// condition or another bound comes first.
func negAfterBound(lx *lexicon, toks []rawTok, i int) int {
	if !numberAfter(toks, i+1) {
		return -1
	}
	for j := i + 1; j < len(toks) && j <= i+8 && toks[j].clause == toks[i].clause; j++ {
		low := toks[j].low
		if _, ok := lx.condCue[low]; ok || lx.negBound[lx.fold(stem(low))] != "" {
			return -1
		}
		if low != "not" && low != "never" {
			continue
		}
		if p := toks[j-1].low; auxWords()[p] || modalWords()[p] || p == "do" || p == "does" || low == "never" && !toks[j-1].isNum {
			return j
		}
		return -1
	}
	return -1
}

// negatedAlternatives carries a verb's negation over "or" to the verb
// after it: "never close the account or change the address" changes no
// address either, as "nor" would say.
func negatedAlternatives(a *analysis, toks []rawTok) {
	lx := theLexicon()
	for i, t := range a.terms {
		if !t.verbal || t.cond >= 0 || t.lifted {
			continue // verbal and not negated: a verb of its own negation ("never close") said with "not"
		}
		for j := i + 1; j < len(a.terms) && a.terms[j].clause == t.clause && a.terms[j].cond < 0; j++ {
			u := &a.terms[j]
			if !u.neg && lx.action[u.w] && u.at-2 >= 0 && u.at-2 < len(toks) && toks[u.at-2].low != "or" {
				break // "…should read the minutes or watch the recording": "or" joins the verb asserted after the negation
			}
			if at := u.at - 2; u.neg || !lx.action[u.w] && !beforeDeterminer(toks, u.to) || at < 0 || at >= len(toks) || toks[at].low != "or" {
				continue
			}
			if slices.ContainsFunc(toks[min(t.to, u.at-2):u.at-2], func(r rawTok) bool { return modalWords()[r.low] }) {
				break // "those who cannot attend must email the office or call the desk": a verb of the rule after the negated one
			}
			u.neg, u.verbal = true, true
			a.negs++ // as "and never open the till" would count it
		}
	}
}

// notNeededBefore reports whether the words from the negation at negAt
// up to the condition cue at cue say that something is not needed: "not
// needed", "not required", "not necessary".
func notNeededBefore(toks []rawTok, negAt, cue int) bool {
	if negAt < 0 || cue-negAt < 2 || cue-negAt > 3 || toks[negAt].low != "not" {
		return false
	}
	// Said of a rule stated before ("…; this is not needed when", "…, but
	// not required if"), not a rule of its own ("Finance approval is not
	// needed when an expense is under 500 dollars": only when it is not).
	for j := negAt - 1; j >= 0 && toks[j].clause == toks[negAt].clause; j-- {
		switch toks[j].low {
		case "this", "that", "it", "these", "those", "they", "is", "are", "was", "be", "s", "but", "and", "though", "then", "also",
			"does", "do", "will", "shall", "the", "rule", "requirement", "restriction", "limit", "fee", "charge", "discount", "surcharge", "ban":
		default:
			return false
		}
		if j == 0 {
			return false
		}
	}
	if toks[negAt].clause == 0 {
		return false
	}
	for _, t := range toks[negAt+1 : cue] {
		if !liftWord(t.low) {
			return false
		}
	}
	return true
}

// beforeDeterminer reports whether toks[k] is a determiner of its
// clause, what follows a verb rather than a noun ("or open the till").
func beforeDeterminer(toks []rawTok, k int) bool {
	if k <= 0 || k >= len(toks) || toks[k].clause != toks[k-1].clause {
		return false
	}
	return nounOpeners()[toks[k].low]
}

// modalWords open a verb of their own: a negation before one does not
// reach past it ("who cannot attend should email … or call …").
var modalWords = wordSet("must should can could may might will would shall")

// auxWords are the forms of "be" before a verb of its own: "are chased",
// "is kept".
var auxWords = wordSet("is are was were be been being")

// liftWord reports whether w, after "not", lifts a rule stated before:
// "not needed", "not required", "does not apply" (when, if …).
func liftWord(w string) bool { return dutyWord(w) || w == "apply" }

// dutyWordIn reports whether toks say a duty ("needed", "required"):
// "not needed when" lifts a duty, it bars nothing.
func dutyWordIn(toks []rawTok) bool {
	return slices.ContainsFunc(toks, func(t rawTok) bool { return dutyWord(t.low) })
}

// dutyWords say that something is needed, as written after "not" ("not
// needed", "not required"). One list for analyze, the alignment
// (surfaceTokensOpt) and the comparison (neededWords).
var dutyWords = []string{"needed", "required", "necessary", "mandatory", "compulsory", "obligatory"}

// dutyWord reports whether the lower-case word w is one of dutyWords.
func dutyWord(w string) bool { return slices.Contains(dutyWords, w) }

// caseOutcome reports whether toks[i] opens a clause that gives the
// outcome of the case before it: "in which case", or "then" (or "and
// then") at the clause's start.
func caseOutcome(toks []rawTok, i int) bool {
	if i+2 < len(toks) && toks[i].low == "in" && toks[i+1].low == "which" && toks[i+2].low == "case" {
		return true
	}
	if toks[i].low != "then" || i == 0 {
		return false
	}
	if toks[i-1].clause != toks[i].clause {
		return true
	}
	return toks[i-1].low == "and" && (i == 1 || toks[i-2].clause != toks[i-1].clause)
}

// asOnlyIf reads "a claim is not paid unless the receipt is attached"
// as "a claim is paid only if the receipt is attached": an exception to
// a rule whose one negation ("not", "never", "no") is its only word
// turned is the one condition under which the rule's action happens. It
// returns a's reading so, or nil when a says no such thing.
func asOnlyIf(a *analysis) *analysis {
	var out *analysis
	for k, cd := range a.conds {
		if cd.kind != "unless" || cd.reason {
			continue
		}
		turned := -1
		for i, t := range a.terms {
			// "Unless the wind is under 15 knots, no kayak goes out": a
			// condition that opens its sentence, the rule after it.
			fronted := t.clause == cd.clause+1 && (cd.clause == 0 || a.sentence(cd.clause-1) != a.sentence(cd.clause))
			if t.cond >= 0 || a.sentence(t.clause) != a.sentence(cd.clause) || t.clause > cd.clause && !fronted || !t.neg {
				continue
			}
			if turned >= 0 || !(t.verbal || t.none) {
				turned = -2 // two negations, or one a word says ("closed"): left as written
				break
			}
			turned = i
		}
		if turned < 0 {
			continue
		}
		if out == nil {
			c := *a
			c.terms, c.conds = slices.Clone(a.terms), slices.Clone(a.conds)
			out = &c
		}
		out.terms[turned].neg, out.terms[turned].verbal, out.terms[turned].none = false, false, false
		out.negs--
		out.conds[k].kind = "if"
		if !out.only {
			out.only, out.onlyAt = true, cd.clause
		}
	}
	return out
}

// liftedDuty reports whether the negation cue at toks[at] negates an
// obligation before the word at toks[i]: "need not", "does not need to",
// "does not have to", "is not required to".
func liftedDuty(toks []rawTok, at, i int) bool {
	if at < 0 || at >= i {
		return false
	}
	if at > 0 && toks[at-1].low == "need" && toks[at-1].clause == toks[at].clause {
		return true // "need not confirm"
	}
	for _, t := range toks[at+1 : i] {
		switch t.low {
		case "need", "needs", "have", "has", "required", "obliged", "necessary":
			return true
		}
	}
	return false
}

// boundAfter reports whether the words after toks[i] set a bound with a
// number, in the same clause and a few words on: "anything over 8%",
// "any van heavier than 3.5 t", "anything pitched less than 40°".
//
// The bound follows the "any" or its one noun: in "any card works for
// purchases under £10" the bound is the purchases', not the card's. An
// "any" said again later ("anything over 8% goes in any glass") opens
// something up after all.
func boundAfter(toks []rawTok, i int) (float64, bool) {
	for k := i + 1; k < len(toks); k++ {
		if toks[k].low == "any" || toks[k].low == "anything" || toks[k].low == "anyone" {
			return 0, false
		}
	}
	for j := i + 1; j < len(toks) && j <= i+2 && toks[j].clause == toks[i].clause; j++ {
		if !boundWords()[toks[j].low] {
			continue
		}
		for k := j + 1; k < len(toks) && k <= j+3 && toks[k].clause == toks[i].clause; k++ {
			if toks[k].isNum {
				return toks[k].num, true
			}
		}
	}
	return 0, false
}

// timeNouns after "all" make it a stretch of time: "all day".
var timeNouns = wordSet("day days night nights week weeks month months year years season seasons morning afternoon evening hours times summer winter weekend")

// boundWords set a bound when a number follows them.
var boundWords = wordSet("over above under below exceeding beyond more less fewer greater higher lower longer shorter older younger heavier lighter bigger larger smaller wider taller")

// onlyCounts reports whether the "only" at toks[i] bounds a count of
// times ("used once only", "only twice", "only once a week"), as
// "single-use" does, rather than restricting what the rule covers. Not
// "only once a pole support is fitted": "once" opening a time.
func onlyCounts(toks []rawTok, i int) bool {
	t := toks[i]
	said := func(k int, ws ...string) bool {
		return k >= 0 && k < len(toks) && toks[k].clause == t.clause && slices.ContainsFunc(ws, func(w string) bool { return strings.EqualFold(toks[k].text, w) })
	}
	switch {
	case said(i-1, "once", "twice"), said(i+1, "twice"):
		return true
	case said(i+1, "once"):
		if i+2 >= len(toks) || toks[i+2].clause != t.clause {
			return true // "only once."
		}
		return said(i+2, "a", "an", "per", "every", "each", "in") && i+3 < len(toks) && toks[i+3].clause == t.clause && isUnitWord(toks[i+3].low)
	}
	return false
}

// timingWords after "only" make it set a time or a condition: "only
// after", "only once", "only if".
var timingWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"after": true, "before": true, "once": true, "when": true, "whenever": true, "if": true, "until": true, "till": true, "while": true, "during": true, "between": true}
})

// referenceWords before a number make it the name of a part of a text or
// of a piece of work: "Clause 4.1", "section 3", "PR #233".
var referenceWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"clause": true, "section": true, "article": true, "paragraph": true, "para": true, "chapter": true,
		"handbook": true, "pr": true, "issue": true, "ticket": true, "§": true, "rule": true, "regulation": true, "bylaw": true, "byelaw": true, "law": true}
})

// versionWords name a version when a dotted number follows them:
// "Update 5.1:", "version 2.3", "release 4.2".
var versionWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"update": true, "version": true, "release": true, "v": true, "build": true}
})

// moneyScales are the letters after an amount of money that scale it
// there only: "£5m" (five minutes elsewhere), "$2b".
var moneyScales = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{"m": 1e6, "mn": 1e6, "b": 1e9} // "bn" is read with every number
})

// periodUnits are the units of the period adverbs: "monthly" is every
// month.
var periodUnits = sync.OnceValue(func() map[string]string {
	return map[string]string{"hourly": "hours", "daily": "days", "weekly": "weeks", "monthly": "months", "yearly": "years", "annually": "years"}
})

// hyphenPeriod reads a period adverb joined by a hyphen after a number at
// rs[k] ("12-monthly" is every 12 months): its unit and where it ends, or
// "" and k.
func hyphenPeriod(rs []rune, k int) (unit string, end int) {
	if k >= len(rs) || rs[k] != '-' {
		return "", k
	}
	end = k + 1
	for end < len(rs) && unicode.IsLetter(rs[end]) {
		end++
	}
	if unit = periodUnits()[string(rs[k+1:end])]; unit == "" {
		return "", k
	}
	return unit, end
}

// cancelNoWithout reads "no rope climbing without it": a "without" that
// negated no word of its clause (only a pronoun followed it) cancels the
// "no" before it in the clause, as "no stunt is filmed without a
// paramedic" does. It reports whether it did.
func cancelNoWithout(a *analysis, toks []rawTok, negAt, lastNeg int, lastNegCue string) bool {
	if negAt < 0 || toks[negAt].low != "without" || lastNeg < 0 || lastNegCue != "no" {
		return false
	}
	t := &a.terms[lastNeg]
	if !t.neg || t.clause != toks[negAt].clause || t.cond >= 0 {
		return false
	}
	t.neg, t.verbal = false, false
	a.negs -= 2
	return true
}

// cancelledNegs are two negations that cancel ("nobody enters without a
// badge"): the terms, and whether each was a verb's negation.
type cancelledNegs struct {
	first, second         int
	firstVerb, secondVerb bool
}

// keepExcepted puts back the negations of "nobody enters without a badge,
// unless escorted": an exception to "nobody … without" is one who may do
// without, which the rule said with both negations.
func keepExcepted(a *analysis, cancelled []cancelledNegs) {
	for _, c := range cancelled {
		s := a.sentence(a.terms[c.first].clause)
		if !slices.ContainsFunc(a.terms, func(t term) bool {
			return t.cond >= 0 && a.conds[t.cond].kind == "unless" && a.sentence(t.clause) == s
		}) {
			continue // no exception in its sentence (by the words said in it)
		}
		a.terms[c.first].neg, a.terms[c.first].verbal = true, c.firstVerb
		a.terms[c.second].neg, a.terms[c.second].verbal = true, c.secondVerb
		a.negs += 2
	}
}

// noneCues say that nothing or nobody does what follows.
var noneCues = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"no": true, "nothing": true, "nobody": true, "none": true}
})

// copulas are the forms of "be" that join a word to what is said of it:
// "the receipt is missing".
var copulas = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"is": true, "are": true, "was": true, "were": true, "be": true, "been": true}
})

// reasonCues open a reason or a purpose given for a rule: a condition
// inside one ("so we don't lose events if the pod dies") is not a
// condition of the rule.
var reasonCues = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"avoid": true, "prevent": true, "because": true, "since": true, "lest": true, "so": true,
		"otherwise": true, "reason": true, "why": true, "risk": true, "protect": true}
})

// opensReason reports whether toks[i] opens a reason given for the rule:
// "because", "so that", and "since" or "as" opening a clause ("Since
// machine picking bruises the berries, …"), not "since the last deploy".
func opensReason(toks []rawTok, i int) bool {
	t := toks[i]
	first := i == 0 || toks[i-1].clause != t.clause
	next := func() string {
		if i+1 < len(toks) && toks[i+1].clause == t.clause {
			return toks[i+1].low
		}
		return ""
	}
	negFollows := func() bool {
		lx := theLexicon()
		for k := i + 1; k < len(toks) && toks[k].clause == t.clause; k++ {
			if lx.negCue[toks[k].low] {
				return true
			}
		}
		return false
	}
	if first && i >= 2 && ifNotBefore(toks, i) && (theLexicon().negCue[t.low] || negFollows()) {
		// "…; if not, it is not promoted", "if not both, no payout": what
		// follows when the rule is not met, as after "otherwise".
		return true
	}
	switch t.low {
	case "because":
		return true
	case "else":
		// "…, else it's not valid", "… else no referral": "otherwise".
		return i > 0 && (first || toks[i-1].low == "or") && negFollows()
	case "otherwise", "or":
		// "…, otherwise no solo", "…, or it doesn't count": what follows
		// when the rule is not met, the rule said again from its other
		// side, not a rule of its own ("otherwise use the EU region" is
		// one: no negation; "cash or card" no clause of its own).
		if t.low == "or" && !(first && i > 0 && orRestates()[next()]) && !(i > 0 && orSubjects()[next()] && negFollows()) {
			// Inside a clause only before a subject of its own: "48 hrs
			// before kick-off or he's not eligible", not "cash or card".
			return false
		}
		lx := theLexicon()
		for k := i + 1; k < len(toks) && toks[k].clause == t.clause; k++ {
			if lx.negCue[toks[k].low] {
				return true
			}
		}
		return false
	case "so":
		// "so that …", and "…, so all events of one account go to one
		// partition": a consequence given for the rule.
		return next() == "that" || first && i > 0 && next() != "" && !toks[i+1].isNum
	case "since":
		n := next()
		return first && n != "" && !toks[i+1].isNum && n != "the" && n != "last" && n != "then"
	}
	return false
}

// proviso reports whether the "provided" (or "providing") at toks[i]
// opens a condition without its "that": "…, provided they attended the
// aftercare check", "free provided the organiser shows proof of
// insurance". A subject ("they", "there") follows, or, after a comma, a
// thing ("the organiser"); not the verb or its participle ("the school
// provided them", "the data provided by the client", "gloves provided
// free of charge").
func proviso(toks []rawTok, i int) bool {
	if i+1 >= len(toks) || toks[i+1].clause != toks[i].clause {
		return false
	}
	switch toks[i+1].low {
	case "they", "he", "she", "we", "i", "there":
		return true
	case "a", "an", "the", "any", "no", "all", "every", "each", "both", "it", "you", "this", "these", "those", "their", "his", "her", "its", "our", "your", "my":
		return i == 0 || toks[i-1].clause != toks[i].clause
	}
	return false
}

// legalWhere reports whether the "where" at toks[i] opens a condition,
// as it does in rules set down formally: "Where a handover is between two
// companies, the receiving courier signs", "…; where a lane has no
// marshal, it stays closed". It opens a sentence or a clause after a
// semicolon or a colon and a thing follows; not "Where is your
// technician", "Where possible", nor the clause after a comma ("except
// road moves, where the registrar may waive it": the exception's rule).
func legalWhere(toks []rawTok, i int) bool {
	t := toks[i]
	if i > 0 && toks[i-1].clause == t.clause || t.opener == ',' || i+1 >= len(toks) || toks[i+1].clause != t.clause {
		return false
	}
	be := func(w string) bool {
		switch w {
		case "is", "are", "was", "were", "depends", "varies", "matters":
			return true
		}
		return false
	}
	for k := i + 1; k < len(toks) && toks[k].sentence == t.sentence; k++ {
		if toks[k].clause != t.clause {
			for k+1 < len(toks) && toks[k].isNum && toks[k+1].clause == toks[k].clause {
				k++ // a number opening a clause carries no opener
			}
			if toks[k].opener == ':' {
				return false // a heading: "Where the bins are kept: behind the shed"
			}
			break
		}
		if k+2 < len(toks) && toks[k+2].clause == t.clause && be(toks[k].low) && be(toks[k+2].low) {
			return false // the subject of a sentence: "Where the meeting is held is up to the chair"
		}
	}
	switch toks[i+1].low {
	case "a", "an", "the", "any", "no", "this", "that", "these", "those", "there", "it", "they", "we", "you", "he", "she", "both", "either", "neither", "one", "two", "more", "less", "fewer":
		return true
	}
	return false
}

// pastBound reports whether the "past" at toks[i] bounds a length from
// below: "will run past four hours", "goes past 30 minutes". Not "the past
// 12 months" nor "in the past 4 hours" (the last ones), nor a time of day
// ("past 6 pm": after it, read as a time).
func pastBound(toks []rawTok, i int) bool {
	if i == 0 || i+1 >= len(toks) || !toks[i+1].isNum || toks[i+1].clock || toks[i+1].clause != toks[i].clause {
		return false
	}
	return pastVerbs()[toks[i-1].low]
}

// pastVerbs before "past" and a length make it a bound: "runs past".
var pastVerbs = wordSet("run runs running ran go goes going went last lasts lasting lasted continue continues continuing extend extends extending stretch stretches overrun overruns be is are was were gets get")

// asideSentence reports whether the sentence that opens at toks[i] is an
// offer of help to the reader, beside the rule: "Let me know if you need
// the floor plan too", "Please ring if unsure", "If in doubt, give us a
// shout". It asks for a word from the reader, and its condition is the
// reader's need or doubt; "Ring the duty manager if a guest is hurt" is
// a rule.
func asideSentence(toks []rawTok, i int) []int {
	var ws []string
	for j := i; j < len(toks) && toks[j].sentence == toks[i].sentence; j++ {
		ws = append(ws, toks[j].low)
	}
	if len(ws) > 16 {
		return nil
	}
	contact, doubt := -1, -1
	for j, w := range ws {
		first := j == 0 || toks[i+j-1].clause != toks[i+j].clause
		k := j
		for first && k < len(ws) && (ws[k] == "please" || ws[k] == "pls" || ws[k] == "just" || ws[k] == "do" || ws[k] == "and") {
			k++
		}
		if first && k < len(ws) && contactWords()[ws[k]] {
			rest := ws[k+1:]
			ok := false
			switch ws[k] {
			case "let":
				ok = len(rest) >= 2 && (rest[0] == "me" || rest[0] == "us") && rest[1] == "know"
			case "give", "drop":
				ok = len(rest) >= 1 && (rest[0] == "me" || rest[0] == "us")
			case "get":
				ok = len(rest) >= 2 && rest[0] == "in" && rest[1] == "touch"
			case "reach":
				ok = len(rest) >= 1 && rest[0] == "out"
			case "feel":
				ok = len(rest) >= 1 && rest[0] == "free"
			default:
				ok = true
			}
			if ok && contact < 0 {
				contact = toks[i+k].clause
			}
		}
		if w == "if" && doubtAfter(ws[j+1:]) && doubt < 0 {
			doubt = toks[i+j].clause
		}
	}
	if contact < 0 || doubt < 0 || doubt-contact > 1 || contact-doubt > 1 {
		return nil
	}
	return []int{contact, doubt}
}

// doubtAfter reports whether the words after an "if" are the reader's
// need or doubt: "unsure", "in doubt", "you need the floor plan", "you
// have any questions", "anything is unclear".
func doubtAfter(ws []string) bool {
	for k, w := range ws[:min(len(ws), 4)] {
		switch w {
		case "unsure", "doubt", "stuck", "unclear", "confused", "question", "questions", "query", "queries":
			return true
		case "need", "needs", "want", "wants", "like":
			return k <= 2 && !(w == "like" && k+1 < len(ws) && ws[k+1] == "to")
		case "sure":
			return k > 0 && ws[k-1] == "not"
		}
	}
	return false
}

// contactWords open a request for a word from the reader.
var contactWords = wordSet("let lmk ring call phone email e-mail text message ping ask shout contact give drop get reach feel holler")

// ownDoubt reports whether the condition whose words open at toks[i] is
// the writer's hedge on what they say, not a case of the rule: "if I
// understand right", "if I remember correctly", "if I'm not mistaken".
func ownDoubt(toks []rawTok, i int) bool {
	if i >= len(toks) {
		return false
	}
	c := toks[i].clause
	var ws []string
	for j := i; j < len(toks) && toks[j].clause == c && len(ws) < 7; j++ {
		ws = append(ws, toks[j].low)
	}
	if len(ws) == 0 || len(ws) > 5 || i+len(ws) < len(toks) && toks[i+len(ws)].clause == c {
		return false // a longer clause: more than a hedge
	}
	if ws[0] == "memory" && len(ws) > 1 && ws[1] == "serves" {
		return true
	}
	if ws[0] != "i" && ws[0] != "i'm" && ws[0] != "i've" && ws[0] != "im" {
		return false
	}
	last := ws[len(ws)-1]
	switch last {
	case "right", "rightly", "correctly", "properly", "mistaken", "wrong":
		return true
	case "remember", "recall", "understand":
		return len(ws) == 2
	}
	return false
}

// orSubjects are the subjects that open a clause of its own after an "or"
// said inside a clause: "… at the latest or he's not eligible".
var orSubjects = wordSet("it they you we he she it's they're you're we're he's she's you'll they'll it'll he'll she'll")

// ifNotBefore reports whether the clause before toks[i] is "if not",
// with at most one word after the "not" ("if not both", "if not met").
func ifNotBefore(toks []rawTok, i int) bool {
	c := toks[i].clause - 1
	j := i - 1
	for j > 0 && toks[j-1].clause == c {
		j--
	}
	if toks[j].clause != c || i-j < 2 || i-j > 3 {
		return false
	}
	return toks[j].low == "if" && toks[j+1].low == "not"
}

// orRestates are the words after an "or" that opens a clause and says
// what happens when the rule is not met: "…, or it doesn't count", "…,
// or else we can't ship".
var orRestates = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"else": true, "it": true, "they": true, "you": true, "we": true, "he": true, "she": true, "this": true, "that": true}
})

// reasonBefore reports whether a reason cue stands before toks[i] in its
// clause, at most six words back.
func reasonBefore(toks []rawTok, i int) bool {
	for k := i - 1; k >= 0 && k >= i-6 && toks[k].clause == toks[i].clause; k-- {
		if reasonCues()[toks[k].low] {
			return true
		}
	}
	return false
}

// dayParts after "every" are a day each: "every night" is nightly.
var dayParts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"night": true, "evening": true, "morning": true, "nights": true, "evenings": true, "mornings": true}
})

// weekdays after "every" are a week each: "every Monday" is weekly.
var weekdays = wordSet(weekdayNames)

// relativeWords after a length of time make it a distance in time ("a
// day before"), not a period.
var relativeWords = []string{"before", "after", "ahead", "earlier", "later", "prior"}

// ordinalSecond reports whether the n tokens at toks[i] are "second" used
// as an ordinal: "a second approver", "the second one", not "a second" of
// time or "30 seconds".
func ordinalSecond(toks []rawTok, i, n int) bool {
	if n != 1 || toks[i].low != "second" {
		return false
	}
	if p := prevLow(toks, i); p != "a" && p != "the" {
		return false
	}
	if i+1 >= len(toks) || toks[i+1].clause != toks[i].clause {
		return false
	}
	if toks[i+1].isNum {
		return toks[i+1].text == "one" // "a second one"
	}
	next := toks[i+1].low
	lx := theLexicon()
	_, cue := lx.condCue[stem(next)]
	return next == "one" || !lx.stop[stem(next)] && !cue && !lx.directed[lx.fold(stem(next))]
}

// beforeAhead reports whether a length of time at toks[i:] is followed,
// in its clause, by "before", "prior to" or "ahead of": a distance from
// a date rather than a date.
func beforeAhead(toks []rawTok, i int) bool {
	for j := i; j < len(toks) && j < i+5 && toks[j].clause == toks[i].clause; j++ {
		if aheadWord(toks[j].low) {
			return j > i
		}
	}
	return false
}

// aheadWord reports whether w places a length of time before an event:
// "before", "prior", "ahead", "beforehand".
func aheadWord(w string) bool {
	switch w {
	case "before", "prior", "ahead", "beforehand":
		return true
	}
	return false
}

// deadlineLatest reports whether "latest" at toks[i] only says that a
// time is a deadline, as "by" does: before a time or a date ("latest 4
// pm", "latest on the 5th", "latest 31 August") or after one ("by Friday
// at the latest"). "The latest version" names which one.
func deadlineLatest(toks []rawTok, i int) bool {
	c := toks[i].clause
	if i >= 2 && toks[i-1].low == "the" && toks[i-2].low == "at" && toks[i-1].clause == c {
		return true
	}
	for j := i + 1; j < len(toks) && j <= i+3 && toks[j].clause == c; j++ {
		if toks[j].isNum {
			return true
		}
		if w := toks[j].low; w != "on" && w != "at" && w != "by" && w != "the" {
			return false
		}
	}
	return false
}

// andOver reports whether toks[i] is the "and" or "or" of "60 and over"
// or "12 or over": at least the number before it (not "and over the
// weekend").
func andOver(toks []rawTok, i int) bool {
	return i > 0 && toks[i-1].isNum && toks[i-1].clause == toks[i].clause && i+1 < len(toks) && toks[i+1].low == "over" && toks[i+1].clause == toks[i].clause &&
		(i+2 == len(toks) || toks[i+2].clause != toks[i].clause || !toks[i+2].isNum && toks[i+2].low != "the" && toks[i+2].low != "a")
}

// yearNamed reports whether the unit of time at toks[i] is followed, in its
// clause, by a number and then a word that is no unit: "a Year 6
// monitor", "a Week 2 quiz" name a year group or a week of a course.
func yearNamed(toks []rawTok, i int) bool {
	return i+2 < len(toks) && toks[i+1].isNum && !toks[i+1].clock && toks[i+1].clause == toks[i].clause &&
		toks[i+2].clause == toks[i].clause && !toks[i+2].isNum && !isUnitWord(toks[i+2].low)
}

// metreCentimetres reads the centimetres said after "metre" at toks[i]
// without a unit of their own, as a height is said aloud: the 85 of "one
// metre eighty-five", "1 metre 80 tall"; not "2 metres 30 cm", a length
// of its own, nor a time of day.
func metreCentimetres(toks []rawTok, i int) (float64, bool) {
	switch toks[i].low {
	case "metre", "metres", "meter", "meters":
	default:
		return 0, false
	}
	if i+1 >= len(toks) || toks[i+1].clause != toks[i].clause || !toks[i+1].isNum || toks[i+1].clock || toks[i+1].hyphened {
		return 0, false
	}
	c := toks[i+1].num
	if c < 1 || c > 99 || c != math.Trunc(c) {
		return 0, false
	}
	if i+2 < len(toks) && toks[i+2].clause == toks[i].clause && (toks[i+2].isNum || isUnitWord(toks[i+2].low) || measureWordAt(toks, i+2)) {
		return 0, false
	}
	return c, true
}

// measureWordAt reports whether toks[at] is a unit of measure ("cm", "kg").
func measureWordAt(toks []rawTok, at int) bool {
	_, ok := measureAt(toks, at)
	return ok
}

// firstStretch reports whether the "first" at toks[i] opens a stretch of
// time: "in the first hour", "during the first week", "within the first
// day" are one hour, week or day from the start (as "the first 60
// minutes" is), not the first of them by name ("on the first day").
func firstStretch(toks []rawTok, i int) bool {
	if toks[i].text != "first" || i < 2 || i+1 >= len(toks) || toks[i+1].clause != toks[i].clause || !timeUnit(toks[i+1].low) {
		return false
	}
	if toks[i-1].low != "the" {
		return false
	}
	switch toks[i-2].low {
	case "in", "during", "within", "for", "throughout", "over":
		return true
	}
	return false
}

// beforeEvent reports whether "before" or "prior to" follows toks[i] in
// its clause within a few words, and something after it: the time before
// an event ("24 hours before departure"), not how far ahead.
func beforeEvent(toks []rawTok, i int) bool {
	for j := i; j < len(toks)-1 && j < i+5 && toks[j].clause == toks[i].clause; j++ {
		if toks[j].low == "before" || toks[j].low == "prior" {
			return j > i && toks[j+1].clause == toks[j].clause
		}
	}
	return false
}

// negatedParticiple is the canonical word an "un-" participle negates
// ("undamaged", "unsigned", "unencrypted"), or "" for a word that is not
// one ("united", "understood", a word of the curated lists).
func negatedParticiple(lx *lexicon, low string) string {
	if unIrregular()[low] {
		return lx.fold(stem(low[2:])) // "unpaid invoices": not paid
	}
	if len(low) < 7 || !strings.HasPrefix(low, "un") || !strings.HasSuffix(low, "ed") || strings.HasPrefix(low, "under") || !isLetters(low) {
		return ""
	}
	if _, curated := lx.canon[stem(low)]; curated {
		return ""
	}
	switch low {
	case "united", "unified", "unbiased", "unrelated", "unprecedented", "unexpected", "unwanted", "unlimited", "unfounded":
		return ""
	}
	return lx.fold(stem(low[2:]))
}

// unIrregular are the participles in "un-" that do not end in "-ed":
// "unpaid", "unsold", "unread".
var unIrregular = wordSet("unpaid unsold unread unsent unspent unmet unworn unseen unbroken unwritten untaken unbuilt unheard unkept unlit unsung unsaid")

// negationOnSubject marks the words before a verb's negation that fell
// on no word of its clause, its verb and what follows all light ("any
// school that had one last year does not get it"): the negation is said
// of them, the case the rule is not done for. compareNegation reads them
// so against an exception that names them ("unless the school held one
// within the previous 12 months"). A negation inside a condition ("a
// charge applies if either is not done") says no such case.
func negationOnSubject(a *analysis, toks []rawTok, clause, negAt int, inCond bool) {
	k := len(a.terms) - 1
	if inCond || k < 0 || a.terms[k].at > negAt {
		return // a word after the negation took it, or none is there
	}
	if a.terms[k].clause != clause {
		// "Tenants on paperless letters, they do not get it": the
		// subject named in the clause before, taken up by a pronoun.
		if a.terms[k].clause != clause-1 || a.terms[k].at < 1 || toks[a.terms[k].at-1].sentence != toks[negAt].sentence || !pronounBefore(toks, negAt) {
			return
		}
		clause--
	}
	for j := negAt + 1; j < len(toks) && toks[j].clause == toks[negAt].clause; j++ {
		if escapeWords()[toks[j].low] {
			return // "a medical exemption doesn't get you out of it": no case set aside, one denied
		}
	}
	for j := k; j >= 0 && a.terms[j].clause == clause; j-- {
		if a.terms[j].neg {
			return // "schools that did not hold one do not get it": a case of its own
		}
	}
	for ; k >= 0 && a.terms[k].clause == clause; k-- {
		if t := &a.terms[k]; t.cond < 0 && !t.neg && !t.reason {
			t.unsaidFor = true
		}
	}
}

// pronounBefore reports whether a pronoun that takes up a subject ("he",
// "they") stands before the negation at negAt in its clause.
func pronounBefore(toks []rawTok, negAt int) bool {
	for j := negAt - 1; j >= 0 && toks[j].clause == toks[negAt].clause; j-- {
		switch toks[j].low {
		case "he", "she", "they", "it", "those", "these":
			return true
		}
	}
	return false
}

// escapeWords, after a negation that fell on no word, say a way out
// denied ("doesn't get you out of it", "won't let you off"), not a case
// the rule is not done for.
var escapeWords = wordSet("out off away around round past through")

// trailingNegation negates the last word of a clause that ends in its
// negation ("libraries do not").
func trailingNegation(a *analysis, clause int) {
	if n := len(a.terms); n > 0 && a.terms[n-1].clause == clause {
		a.terms[n-1].neg = !a.terms[n-1].neg
	}
}

// pairBetween reports whether the bare two at toks[i] follows
// "between" ("rest between two duty periods", "the chat between the
// two"): the two things a relation between things needs. Not a choice
// between so many ("choose between two plans", "a choice between the
// two options"): there the two counts what is offered.
func pairBetween(toks []rawTok, i int) bool {
	b := i - 1
	if prevLow(toks, i) == "the" {
		b--
	}
	if b < 0 || toks[b].low != "between" || toks[b].clause != toks[i].clause {
		return false
	}
	for k := b - 1; k >= 0 && k >= b-4 && toks[k].clause == toks[i].clause; k-- {
		if choosingWords()[toks[k].low] {
			return false
		}
	}
	return true
}

// choosingWords say a choice before "between" (pairBetween).
var choosingWords = wordSet("choose chooses chose choosing choice choices pick picks select selects decide decides option options either alternate alternates")

func prevLow(toks []rawTok, i int) string {
	if i > 0 && toks[i-1].clause == toks[i].clause {
		return toks[i-1].low
	}
	return ""
}

func joinText(toks []rawTok) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.text
	}
	return strings.Join(parts, " ")
}

// tokKey is how a token is compared with the lexicon's phrases.
func tokKey(t rawTok) string {
	if t.isNum {
		return t.text
	}
	return stem(t.low)
}

// phraseAt reports whether a phrase of the lexicon starts at toks[i].
func (lx *lexicon) phraseAt(toks []rawTok, i int) bool {
	_, n := lx.match(toks, i)
	return n > 1
}

// match folds the longest phrase of the lexicon that starts at toks[i]
// (within one clause), else the word alone; it returns the canonical form
// and how many tokens it took.
func (lx *lexicon) match(toks []rawTok, i int) (string, int) {
	first := tokKey(toks[i])
	if cands := lx.phrases[first]; len(cands) > 0 {
		best, bestN := "", 0
		for _, p := range cands {
			words := strings.Split(p, "_")
			if len(words) <= bestN || i+len(words) > len(toks) {
				continue
			}
			ok := true
			for k, w := range words {
				t := toks[i+k]
				if t.clause != toks[i].clause || tokKey(t) != w {
					ok = false
					break
				}
			}
			if ok && words[len(words)-1] == "later" && i+len(words) < len(toks) && (toks[i+len(words)].low == "ones" || toks[i+len(words)].low == "one") {
				ok = false // "and later ones at 100%": the later ones, no bound
			}
			if ok {
				best, bestN = p, len(words)
			}
		}
		if bestN > 0 {
			if _, cue := lx.condCue[best]; cue {
				return best, bestN
			}
			return lx.fold(best), bestN
		}
	}
	if _, cue := lx.condCue[first]; cue && !toks[i].isNum {
		return first, 1 // "except" opens an exception, whatever it folds to
	}
	if first == "confirm" && confirmsArrangement(func(j int) (string, bool) {
		if j < 0 || j >= len(toks) || toks[j].clause != toks[i].clause {
			return "", false
		}
		return toks[j].low, true
	}, i) {
		return "confirm_arrangement", 1
	}
	return lx.fold(first), 1
}

// matchAs is the word w as match reads it on its own: a word read as
// another ("where the tenant defaults" as "if the tenant defaults")
// takes that word's reading, a condition's cue as much as a folded word.
func (lx *lexicon) matchAs(w string) string {
	m, _ := lx.match([]rawTok{{low: w, text: w}}, 0)
	return m
}

// confirmsArrangement reports whether the "confirm" that is word i makes
// an arrangement definite ("confirms every group booking", "orders are
// confirmed by email", "confirmed in post") rather than checks that
// something holds ("confirms the fridge is between 2 and 8 °C", "confirms
// that the batch record is signed"): only the second is near a check.
// word(j) is word j in lower case, and whether it is in word i's clause.
func confirmsArrangement(word func(j int) (string, bool), i int) bool {
	arranged := func(low string) bool { return confirmedThings()[strings.TrimSuffix(low, "s")] }
forward:
	for j := i + 1; j <= i+4; j++ {
		low, ok := word(j)
		switch {
		case !ok:
			break forward
		case low == "that" || low == "whether" || low == "if" || clauseVerbs()[low]:
			return false
		case low == "for" || low == "of" || low == "on" || low == "at" || low == "by" || low == "with" || low == "before" || low == "after" || low == "within":
			break forward // "confirm their ID for every booking"
		case arranged(low):
			// "confirms the booking", not "confirms the booking is paid"
			next, ok := word(j + 1)
			return !ok || !clauseVerbs()[next]
		}
	}
	// "orders are confirmed", "each booking will be confirmed"
	if be, ok := word(i - 1); !ok || !clauseVerbs()[be] && be != "being" && be != "get" {
		return false
	}
	for j := i - 2; j >= i-4; j-- {
		low, ok := word(j)
		if !ok {
			break
		}
		if arranged(low) {
			return true
		}
	}
	return false
}

// confirmedThings are the arrangements one confirms to make them
// definite, in the singular.
var confirmedThings = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`booking appointment reservation order offer place seat slot date attendance
		registration enrolment enrollment upgrade ticket interview visit meeting post`) {
		m[w] = true
	}
	return m
})

// clauseVerbs are the verbs that, after "confirm" and a noun, make what
// follows a clause to check ("confirms the fridge is cold").
var clauseVerbs = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("is are was were be been has have had can will must should may might could would does do did gets got") {
		m[w] = true
	}
	return m
})

// irregular are words the suffix rules would get wrong.
var irregular = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"use": "use", "uses": "use", "used": "use", "using": "use", "usage": "use",
		// A guide is no GUID ("audio guides", "style guide").
		"guide": "guide", "guides": "guide", "guided": "guide", "guiding": "guide",
		// Employment is a job, not a use ("employment contracts").
		"employment": "employment", "employments": "employment",
		"made": "make", "making": "make", "makes": "make",
		"got": "get", "gets": "get", "getting": "get", "gotten": "get",
		"went": "go", "goes": "go", "going": "go", "gone": "go",
		"ran": "run", "running": "run", "runs": "run",
		"wrote": "writ", "written": "writ", "writing": "writ", "writes": "writ", "write": "writ",
		"sent": "send", "kept": "keep", "held": "hold", "chose": "choos", "chosen": "choos",
		"took": "take", "taken": "take", "taking": "take", "gave": "giv", "given": "giv",
		"forbidden": "forbid", "forbade": "forbid",
		// Vetting someone checks them; a vet is a veterinary surgeon.
		"vetting": "vetting", "vetted": "vetting",
		"did": "do", "done": "do", "does": "do", "doing": "do",
		"has": "have", "had": "have", "having": "have",
		"is": "is", "was": "was", "this": "this", "its": "its", "us": "us", "yes": "yes",
		"data": "data", "news": "news", "status": "status", "always": "always", "alias": "alias",
		"redis": "redis", "postgres": "postgres", "kubernetes": "kubernetes", "https": "https", "analytics": "analytics",
		"series": "series", "species": "species", "ios": "ios", "macos": "macos", "windows": "windows", "canvas": "canvas",
		"bus": "bus", "less": "less", "unless": "unless", "across": "across", "access": "access", "process": "process",
		"address": "address", "business": "business", "success": "success", "progress": "progress", "class": "class",
		"children": "child", "apis": "api", "indices": "index", "indexes": "index", "criteria": "criterion",
		"lives": "live", "leaves": "leave", "caches": "cache", "cached": "cache", "caching": "cache",
		"logging": "log", "logged": "log", "logs": "log", "timestamps": "timestamp",
		"time": "time", "times": "time", "timing": "time", "timed": "time", "timings": "time",
		// One word, one root: the suffix rules leave "added" an ad,
		// "businesses" apart from "business".
		"added": "add", "adding": "add", "businesses": "business", "size": "size", "speeds": "speed",
		"ceilings": "ceiling", "timetable": "timetabl", "timetables": "timetabl",
		"configure": "config", "configures": "config", "configured": "config", "configuring": "config",
		"breed": "breed", "breeds": "breed", "bred": "breed",
		"proposals": "propos", "refusals": "refus", "retrievals": "retriev", "withdrawals": "withdraw",
		// Words the suffix rules would cut down to another word: care is
		// no car, wine no win, a wedding no Wednesday, fried food no
		// Friday, a comment no coming, mining no minute, a secure strap
		// no second, a site no sitting, manure no man.
		"care": "care", "cares": "care", "cared": "care", "caring": "care",
		"wine": "wine", "wines": "wine", "wedding": "wedding", "weddings": "wedding", "fried": "fry",
		"comment": "comment", "comments": "comment", "commented": "comment", "commenting": "comment",
		"come": "come", "comes": "come", "coming": "come", "came": "come",
		"mine": "mine", "mines": "mine", "mining": "mine", "mined": "mine",
		"secure": "secur", "secured": "secur", "securely": "secur", "secures": "secur", "securing": "secur",
		"site": "site", "sites": "site", "sited": "site", "siting": "site", "manure": "manure",
		// French fries are no Friday, rooms freed are free; a word of
		// three letters in "-y" keeps it ("tried" is a try).
		"fries": "fry", "freed": "free", "tries": "try", "tried": "try",
		"state": "state", "states": "state", "stated": "state", "stating": "state", "statement": "statement", "statements": "statement",
		"sizes": "size", "sized": "size", "sizing": "size",
		// "-ure" is read as "-ur" ("measure", "measured" and "measuring",
		// "ensure" and "ensuring" alike; a posture is no post, a venture
		// no vent, a texture no text); nouns in "-ure" of the verbs they
		// name keep the verb's root.
		"closure": "clos", "closures": "clos", "exposure": "expos", "exposures": "expos", "departure": "depart", "departures": "depart",
		"pressure": "press", "pressures": "press", "seizure": "seiz", "seizures": "seiz", "disclosure": "disclos", "disclosures": "disclos",
		"enclosure": "enclos", "enclosures": "enclos", "erasure": "eras", "moisture": "moist", "failure": "fail", "failures": "fail",
		"forfeiture": "forfeit", "forfeitures": "forfeit",
		// A final "l" doubled before "-ed" and "-ing" that the root keeps
		// single ("controlled", "patrolling"): "ll" is kept for "called".
		"controlled": "control", "controlling": "control", "patrolled": "patrol", "patrolling": "patrol",
		"during": "during", "thing": "thing", "string": "string", "strings": "string", "nothing": "nothing",
		"anything": "anything", "everything": "everything", "something": "something", "ping": "ping", "bring": "bring",
		"spring": "spring", "king": "king", "ring": "ring", "sing": "sing", "wing": "wing", "ceiling": "ceiling",
		"need": "need", "seed": "seed", "speed": "speed", "feed": "feed", "red": "red", "bed": "bed", "shed": "shed",
		"embed": "embed", "hundred": "hundred", "sacred": "sacred", "kindred": "kindred",
		// Nouns in -al of the verbs they name.
		"removal": "remov", "approval": "approv", "approvals": "approv", "renewal": "renew", "arrival": "arriv", "refusal": "refus",
		"proposal": "propos", "disposal": "dispos", "reversal": "revers", "withdrawal": "withdraw", "retrieval": "retriev",
		"denial": "deni", "dismissal": "dismiss", "renewals": "renew", "removals": "remov",
		"disposals": "dispos", "reversals": "revers", "denials": "deni", "dismissals": "dismiss",
		"locale": "locale", "locales": "locale", // not "local"
		"only": "only", "early": "earli", "reply": "repli", "apply": "appli", "supply": "suppli",
	}
})

// stem reduces an English word to a crude root, the same for its
// inflections and common derivations ("validate", "validating",
// "validation" → "validat"). It is not a linguist's stemmer; it only needs
// to be consistent on both sides of a comparison.
// britishWords are British spellings no rule of americanSpelling
// covers, with their American forms.
var britishWords = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"licence": "license", "licences": "licenses", "defence": "defense", "offence": "offense", "pretence": "pretense",
		"tyre": "tire", "tyres": "tires", "kerb": "curb", "cheque": "check", "cheques": "checks", "grey": "gray",
		"aluminium": "aluminum", "mould": "mold", "judgement": "judgment", "judgements": "judgments", "ageing": "aging",
		"artefact": "artifact", "artefacts": "artifacts", "enrol": "enroll", "enrols": "enrolls", "enrolment": "enrollment",
		"enrolments": "enrollments", "fulfil": "fulfill", "fulfils": "fulfills", "fulfilment": "fulfillment",
		"instalment": "installment", "instalments": "installments", "skilful": "skillful", "plough": "plow",
		"sulphur": "sulfur", "moulded": "molded", "moulding": "molding", "moulds": "molds", "ploughed": "plowed", "ploughing": "plowing", "ploughs": "plows", "enquiry": "inquiry", "enquiries": "inquiries", "enquire": "inquire", "enquired": "inquired", "manoeuvre": "maneuver", "jewellery": "jewelry", "storey": "story", "storeys": "stories",
		"signalled": "signaled", "signalling": "signaling", "totalled": "totaled", "totalling": "totaling", "dialled": "dialed", "dialling": "dialing",
		"marshalled": "marshaled", "marshalling": "marshaling", "counselled": "counseled", "counselling": "counseling", "counsellor": "counselor", "counsellors": "counselors",
		"focussed": "focused", "focussing": "focusing",
	}
})

// americanSpelling is w spelt the American way, so that both spellings of
// a word read as one: "colour" and "behaviours" as "color" and
// "behaviors", "catalogue" as "catalog", "programme" as "program",
// "centre" and "fibre" as "center" and "fiber", "analyse" as "analyze",
// "cancelled" and "travelling" with one l (a word of one syllable keeps
// both: "spelled", "yelled"), and the words of britishWords ("licence",
// "tyre", "enrolment"). ("-ise" is read as "-ize" further on.)
func americanSpelling(w string) string {
	if a, ok := britishWords()[w]; ok {
		return a
	}
	switch w[len(w)-2:] {
	case "es", "ue", "me", "re", "se", "ed", "ng", "er", "rs":
	default:
		if !strings.Contains(w, "our") {
			return w // no rule below reads any other end
		}
	}
	for _, root := range [...]string{"colour", "favour", "behaviour", "honour", "labour", "neighbour", "flavour", "humour", "harbour", "armour", "endeavour", "rumour", "vapour", "odour", "parlour", "savour"} {
		if strings.HasPrefix(w, root) {
			return root[:len(root)-2] + "r" + w[len(root):] // "colours": colors
		}
	}
	n := len(w)
	for _, r := range [...][2]string{{"ogues", "ogs"}, {"ogue", "og"}, {"mmes", "ms"}, {"mme", "m"}, {"tres", "ters"}, {"tre", "ter"}, {"tred", "tered"}, {"bres", "bers"}, {"bre", "ber"},
		{"ysed", "yzed"}, {"ysing", "yzing"}, {"yses", "yzes"}, {"yse", "yze"}} {
		if strings.HasSuffix(w, r[0]) && n-len(r[0]) >= 2 {
			return w[:n-len(r[0])] + r[1]
		}
	}
	for _, end := range [...]string{"elled", "elling", "eller", "ellers"} {
		if strings.HasSuffix(w, end) && hasVowel(w[:n-len(end)]) && !sellTell(w[:n-len(end)]) {
			i := n - len(end) + 2 // the second l
			return w[:i] + w[i+1:]
		}
	}
	return w
}

// sellTell reports whether a word that goes on with "ell" after head is
// one whose root keeps both l in every spelling: "sell", "tell",
// "spell", "smell", "dwell", "swell", "yell", "fell", "quell", "shell"
// ("upselling", "retelling").
func sellTell(head string) bool {
	for _, r := range [...]string{"s", "t", "sp", "sm", "dw", "sw", "y", "f", "qu", "sh"} {
		if strings.HasSuffix(head, r) {
			return true
		}
	}
	return false
}

func stem(w string) string {
	if s, ok := irregular()[w]; ok {
		return s
	}
	if len(w) == 3 && w[2] == 's' && !strings.ContainsRune("aeiousy", rune(w[1])) && isLetters(w) && !shortStop(w[:2]) {
		return w[:2] // "prs", "ids"; not "ups" (a carrier), "ins"
	}
	if len(w) <= 3 || !isLetters(w) {
		return w
	}
	w = americanSpelling(w)
	if len(w) >= 8 && strings.HasSuffix(w, "ly") && !strings.HasSuffix(w, "ply") {
		w = w[:len(w)-2] // "permanently" → "permanent"
	}
	if i := len(w) - len("ersion"); i >= 3 && strings.HasSuffix(w, "ersion") {
		w = w[:i] + "ert" // "conversion" → "convert"
	}
	n := len(w)
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		w = w[:n-3] + "i"
	case strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes"):
		w = w[:n-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	n = len(w)
	switch {
	case strings.HasSuffix(w, "ied") && n > 4:
		w = w[:n-3] + "i"
	case strings.HasSuffix(w, "eed") && n-1 >= 5 && !strings.HasSuffix(w, "ceed"):
		w = w[:n-1] // "agreed", "guaranteed": "agree", "guarantee"
	case strings.HasSuffix(w, "ing") && n-3 >= 3 && hasVowel(w[:n-3]):
		w = undouble(w[:n-3])
	case strings.HasSuffix(w, "ed") && n-2 >= 3 && hasVowel(w[:n-2]) && !strings.HasSuffix(w, "ceed"): // not "exceed"
		w = undouble(w[:n-2])
	}
	for _, s := range [...][2]string{{"ization", "iz"}, {"isation", "iz"}, {"ation", "at"}, {"ition", "it"}, {"ment", ""}, {"ness", ""}, {"ure", "ur"}, {"able", ""}, {"ible", ""}, {"ise", "iz"}, {"ize", "iz"}} {
		if strings.HasSuffix(w, s[0]) && len(w)-len(s[0]) >= 3 {
			w = w[:len(w)-len(s[0])] + s[1]
			break
		}
	}
	if len(w) >= 4 && strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "ee") {
		w = w[:len(w)-1]
	}
	if n := len(w); n >= 4 && w[n-1] == 'y' && !strings.ContainsRune("aeiou", rune(w[n-2])) {
		w = w[:n-1] + "i" // "retry" and "retries" → "retri"
	}
	if len(w) >= 5 && strings.HasSuffix(w, "is") {
		w = w[:len(w)-2] + "iz" // "normalis" (from "normalise")
	}
	return w
}

// shortStop reports whether w is a two-letter stop word: a three-letter
// word that would stem to one ("ups" → "up") is a name, not a plural.
func shortStop(w string) bool {
	switch w {
	case "up", "in", "on", "at", "of", "to", "as", "is", "be", "do", "by", "it", "us", "we", "me", "my", "he", "so", "an", "or", "no", "if":
		return true
	}
	return false
}

func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

func hasVowel(w string) bool { return strings.ContainsAny(w, "aeiouy") }

// undouble turns "logg" into "log" and "stopp" into "stop" (but keeps
// "install", "pass", "buzz").
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouylszf", rune(w[n-1])) { // "staffed": "staff"
		return w[:n-1]
	}
	return w
}

// dayOfKind reads, in the words toks[..i] that name w (n of them), a day
// of a counted kind: "business day" (one word to the lexicon, "weekday")
// or "school day" ("school" before the unit). It returns where the words
// of that day start and its kind.
func dayOfKind(lx *lexicon, toks []rawTok, w string, i, n int) (start int, kind string, ok bool) {
	if n == 2 && w == lx.fold("weekday") {
		return i - 1, "business", true
	}
	if u, isUnit := lx.units[w]; n == 1 && isUnit && u.scale == units()["day"].scale {
		if d, ok := countedDays(toks, i-1); ok && d != "" {
			return i - 1, d, true
		}
	}
	return 0, "", false
}

// oneRelative reports whether the length named by toks[k..i] is said once,
// relative to another time: "the next …", "the following …", "the
// previous …", "the … before" ("the day before" is one day).
func oneRelative(toks []rawTok, k, i int) bool {
	switch prevLow(toks, k) {
	case "next", "following":
		return true
	case "previous", "preceding":
		// "the previous day", "the preceding working day": one day
		// before, as "the day before" says it; not "the previous day's
		// invoice" (the invoice of a day named).
		return phraseEnds(toks, i)
	case "the":
		return i+1 < len(toks) && toks[i+1].clause == toks[i].clause && slices.Contains(relativeWords, toks[i+1].low)
	}
	return false
}

// phraseEnds reports whether the phrase ends with toks[i]: the end of
// its clause, or a number next (endsBefore).
func phraseEnds(toks []rawTok, i int) bool {
	if i+1 >= len(toks) || toks[i+1].clause != toks[i].clause || toks[i+1].isNum {
		return true
	}
	return endsBefore(toks[i+1].low)
}

// endsBefore reports whether a phrase ends before the word next: one that
// names nothing ("the previous day by 5 pm", "on request within 14
// days") or a time relative to it ("before"), but "of" ("on request of
// the board", "the previous day of the course"); or the value of a
// configuration key ("recipe_sheet_on_request: mandatory"). Not a thing
// ("the previous day's orders", "on request forms"). Both readers judge
// by it.
func endsBefore(next string) bool {
	switch next {
	case "mandatory", "required", "true", "yes", "allowed", "available", "optional":
		return true
	case "of":
		return false
	}
	return theLexicon().stopWord[next] || slices.Contains(relativeWords, next)
}

// bareRelative reports whether the length named by toks[k..i], one word
// in the singular, is said once relative to another time without its
// article, after a time of day or a preposition: "by 4 pm day before",
// "on day before opening", "deadline 17:00 day before move".
func bareRelative(toks []rawTok, k, i int) bool {
	if k != i || k == 0 || strings.HasSuffix(toks[i].low, "s") || toks[k-1].clause != toks[i].clause ||
		i+1 >= len(toks) || toks[i+1].clause != toks[i].clause || !slices.Contains(relativeWords, toks[i+1].low) {
		return false
	}
	switch p := toks[k-1]; p.low {
	case "on", "by", "from", "until", "till", "at", "to":
		return true
	default:
		return p.clock
	}
}

// rateWord reports whether w opens the period of a rate: "a", "an",
// "per", "each", "every".
func rateWord(w string) bool {
	switch w {
	case "a", "an", "per", "each", "every":
		return true
	}
	return false
}

// amountQualifier reports whether w, between an amount and its period,
// leaves the rate whole: "£10 extra a week", "2 more a day".
func amountQualifier(w string) bool {
	switch w {
	case "extra", "more", "each", "less", "off":
		return true
	}
	return false
}

// countedNoun reports whether w, right after a bare number, is the
// plural of what the number counts: "5 students", "8 teams", "4 seats";
// not a word of the lexicon's stop list, nor "times" ("2 times the rate").
func countedNoun(lx *lexicon, w string) bool {
	if len(w) < 4 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || w == "times" || lx.stopWord[w] {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// objectWords open the object of a verb: "30 triggers it", "5 means
// the".
var objectWords = wordSet("it them the a an this that these those you us him her")

// countedDays reads the kind of days (or hours) a length counts when the
// word at at names it before "day", "days", "hour" or "hours": "business"
// (business, working, bank, court, trading days; business or office
// hours), "school", or "" for calendar days (ok says a word named it).
func countedDays(toks []rawTok, at int) (kind string, ok bool) {
	if at < 0 || at+1 >= len(toks) || toks[at+1].clause != toks[at].clause {
		return "", false
	}
	switch toks[at+1].low {
	case "day", "days", "hour", "hours":
	default:
		return "", false
	}
	switch toks[at].low {
	case "business", "working", "bank", "court", "trading", "office":
		return "business", true
	case "school":
		return "school", true
	case "calendar":
		return "", true
	case "operating", "running", "engine", "flight", "flying", "machine", "labour", "labor", "contact", "billable", "duty":
		// "200 operating hours": hours of their own count, hours still.
		if toks[at+1].low == "hour" || toks[at+1].low == "hours" {
			return "", true
		}
	}
	return "", false
}

// numberAfter reports whether a number follows at toks[j], or after a
// "than" there: what a bound word bounds ("over 500", "more than 3"),
// not "under an active hold".
func numberAfter(toks []rawTok, j int) bool {
	if j < len(toks) && toks[j].low == "than" && toks[j].clause == toks[j-1].clause {
		j++
	}
	return j < len(toks) && toks[j].isNum && toks[j].clause == toks[j-1].clause
}

// anyTime reports whether toks[j] starts "any" or "every" time of its
// kind: "any month", "every day", "any time".
func anyTime(lx *lexicon, toks []rawTok, j int) bool {
	if j+1 >= len(toks) || toks[j+1].clause != toks[j].clause {
		return false
	}
	switch toks[j].low {
	case "any", "every", "all", "each":
	default:
		return false
	}
	n := strings.TrimSuffix(toks[j+1].low, "s")
	if u, ok := lx.units[lx.fold(stem(n))]; ok && u.dim == "time" {
		return true
	}
	return n == "time" || n == "season" || n == "weekday" || weekdays()[n]
}

// lastPeriod reports whether toks[j:] open a window counted back from
// now, in their clause (windowCountedBack).
func lastPeriod(toks []rawTok, j int) bool {
	return windowCountedBack(func(k int) string {
		switch t := j + k; {
		case t >= len(toks) || t > j && toks[t].clause != toks[j].clause:
			return ""
		case toks[t].isNum:
			return "0"
		default:
			return toks[t].low
		}
	})
}

// windowCountedBack reports whether the words from at(0) on ("" past
// their end) open a length of time counted back from now: "the previous
// 60 days", "the last 3 months", "past 12 months": the window a rule
// counts in, as "in the last 60 days" says it, not a case of the rule.
// A window ahead ("the first 2 weeks of July") is one, and so is a part
// of a named time ("the last 2 weeks of August").
func windowCountedBack(at func(int) string) bool {
	k := 0
	if at(k) == "the" {
		k++
	}
	switch at(k) {
	case "previous", "last", "past", "preceding":
	default:
		return false
	}
	n, unit := at(k+1), at(k+2)
	if n == "" || !isDigit(n[0]) && numberWords()[n] == 0 || at(k+3) == "of" {
		return false
	}
	lx := theLexicon()
	u, ok := lx.units[lx.fold(stem(strings.TrimSuffix(unit, "s")))]
	return ok && u.dim == "time"
}

// percentAt reports whether toks[i] says "%" or "percent" of the number
// before it.
func percentAt(toks []rawTok, i int) bool {
	return i < len(toks) && toks[i].clause == toks[i-1].clause && (toks[i].text == "%" || toks[i].low == "percent" || toks[i].low == "pct")
}

// periodNamesAmount reports whether the period word toks[i] ("daily",
// "monthly") stands before a thing as a determiner's adjective ("the
// daily hire rate", "their monthly fee"): it names an amount, not how
// often.
func periodNamesAmount(toks []rawTok, i int) bool {
	switch prevLow(toks, i) {
	case "the", "a", "an", "its", "their", "our", "your", "his", "her", "this", "that":
		return i+1 < len(toks) && toks[i+1].clause == toks[i].clause && !toks[i+1].isNum
	}
	return false
}

// ofThing reports whether the tokens between end (the last of a measure)
// and at (an article) name what was measured: "of" and one or two words
// ("400 metres of altitude a day"), in the measure's clause.
func ofThing(toks []rawTok, end, at int) bool {
	between := at - end - 1
	if between < 2 || between > 3 || toks[end+1].low != "of" {
		return false
	}
	lx := theLexicon()
	for k := end + 1; k < at; k++ {
		if toks[k].isNum || toks[k].clause != toks[end].clause || k > end+1 && lx.stop[stem(toks[k].low)] {
			return false // not "5 mm of rain within a day"
		}
	}
	return true
}

// negatedEarlier reports whether the "any" word at toks[i] stands under
// a negation: right after "without" ("without anyone weaving on it"), or
// as "any" a few words after a negated verb in its clause ("will not pay
// any claim", "hasn't picked up any abuse flag": its object, which opens
// nothing up). A barrier negated on the way ("nothing stops anyone", "not
// limited to members any more") opens it up all the same, and a negation
// that denies something else ("without a permit anyone may park",
// "training isn't required and anyone can") is not its.
func negatedEarlier(toks []rawTok, i int) bool {
	if i > 0 && toks[i-1].low == "without" && toks[i-1].clause == toks[i].clause {
		return true
	}
	if toks[i].low != "any" && toks[i].low != "anything" && toks[i].low != "anyone" {
		return false
	}
	for j := i - 1; j >= 0 && j >= i-4 && toks[j].clause == toks[i].clause; j-- {
		switch w := toks[j].low; w {
		case "limit", "limits", "limited", "restrict", "restricts", "stopping", "preventing", "and", "or", "but":
			return false
		case "not", "never", "cannot", "can't", "don't", "doesn't", "won't", "mustn't":
			return true
		default:
			if barrierWords()[w] {
				return false
			}
		}
	}
	return false
}

// lengthWait is how the length of time at toks[i0:i+1] bounds when the
// rule acts (quantity.wait): "paid after 30 days" once they have passed,
// "within 30 days" before they have, "in 14 days at the earliest" once
// they have, "at least an hour after the curtain" once it has
// (boundedDistance).
func lengthWait(toks []rawTok, i0, i int) int8 {
	if w := boundedDistance(toks, i0, i); w != 0 {
		return w
	}
	switch prevLow(toks, i0) {
	case "after":
		return waitAfter
	case "within", "inside":
		return waitWithin
	case "in":
		// "paid in 14 days at the earliest": once they have passed; "in
		// 14 days at the latest", "max": within.
		w, _ := waitBound(func(k int) string { return lowIn(toks, i+1+k, toks[i].clause) })
		return w
	}
	return 0
}

// clockWait is the side of a time of day at toks[i0:i+1] on which the
// rule acts: "by 7:30", "before 7:30", "no later than 7:30", "7:30 at
// the latest" up to it (waitWithin); "after 6 pm", "from 6 pm", "no
// earlier than 6 pm" from it (waitAfter); "not before" and "not after"
// are read as "from" and "by" (notSide). 0 when it is not so said ("at
// 9 am").
func clockWait(toks []rawTok, i0, i int) int8 {
	c := toks[i0].clause
	if _, named := clockWords()[strings.ToLower(toks[i0].text)]; named && i0 > 0 && toks[i0-1].isNum && toks[i0-1].clause == c {
		i0-- // "by 12 noon"
	}
	w := func(k int) string { return lowIn(toks, i0-k, c) }
	next := func(k int) string { return lowIn(toks, i+k, c) }
	no := w(3) == "no" || w(3) == "not"
	switch {
	case w(1) == "than" && no && (w(2) == "earlier" || w(2) == "sooner"):
		return waitAfter
	case w(1) == "than" && no && w(2) == "later":
		return waitWithin
	case w(1) == "by", w(1) == "before", w(1) == "until", w(1) == "till":
		return waitWithin
	case w(1) == "after", w(1) == "from":
		return waitAfter
	}
	if next(1) == "at" && next(2) == "the" {
		switch next(3) {
		case "latest":
			return waitWithin
		case "earliest":
			return waitAfter
		}
	}
	return 0
}

// boundedDistance reads a length of time at toks[i0:i+1] bounded before
// it and counted from an event after it: "at least an hour after the
// curtain" once an hour has passed (waitAfter), "no more than 10 seconds
// after it", "a maximum of 72 hours from arrival" before it has
// (waitWithin), as "within 72 hours of arrival" says. 0 when it is not
// so said.
func boundedDistance(toks []rawTok, i0, i int) int8 {
	c := toks[i0].clause
	if i+1 >= len(toks) || toks[i+1].clause != c {
		return 0
	}
	switch toks[i+1].low {
	case "after", "afterwards", "later", "following", "from", "of":
	default:
		return 0
	}
	w := func(k int) string { return lowIn(toks, i0-k, c) }
	k := 1
	if w(k) == "an" || w(k) == "a" {
		k++ // "at least an hour", when the number is the unit's alone
	}
	if w(k) == "of" {
		k++ // "a minimum of 72 hours"
	}
	no := w(k+2) == "no" || w(k+2) == "not"
	switch {
	case w(k) == "least" && w(k+1) == "at", w(k) == "minimum", w(k) == "min",
		w(k) == "than" && no && (w(k+1) == "less" || w(k+1) == "earlier" || w(k+1) == "sooner" || w(k+1) == "shorter"):
		return waitAfter
	case w(k) == "most" && w(k+1) == "at", w(k) == "maximum", w(k) == "max", w(k) == "to" && w(k+1) == "up",
		w(k) == "than" && no && (w(k+1) == "more" || w(k+1) == "later" || w(k+1) == "longer"):
		return waitWithin
	}
	return 0
}

// lowIn is toks[j].low when j is a token of clause c, else "".
func lowIn(toks []rawTok, j, c int) string {
	if j >= 0 && j < len(toks) && toks[j].clause == c {
		return toks[j].low
	}
	return ""
}

// monthName reports whether w names a month, in full or shortened
// ("march", "sept", "oct").
func monthName(w string) bool { return monthWords()[strings.TrimSuffix(w, ".")] }

// monthWords are the months' names, in full and shortened.
var monthWords = wordSet(monthNames + " jan feb mar apr jun jul aug sep sept oct nov dec")

// ampersandsApart writes "&" between two letters as the word it stands
// for: "A&E" is "a and e", as the lexicon names it ("a_and_e"), "R&D"
// "r and d". An "&" with a space beside it is left.
func ampersandsApart(text string) string {
	if !strings.Contains(text, "&") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '&' && i > 0 && i+1 < len(text) && isLetterByte(text[i-1]) && isLetterByte(text[i+1]) {
			b.WriteString(" and ")
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// sizesApart writes a size's numbers apart, "60x40x40 cm" as "60 × 40 × 40
// cm", as a size written with spaces reads; not a hexadecimal "0x1f".
func sizesApart(text string) string {
	found := false
	for i := 1; i+1 < len(text) && !found; i++ {
		found = text[i] == 'x' && isDigit(text[i-1]) && isDigit(text[i+1])
	}
	if !found && !strings.Contains(text, "×") {
		return text
	}
	var b strings.Builder
	start := -1 // where the number being read starts, or -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= '0' && c <= '9' || c == '.' && start >= 0:
			if start < 0 && (i == 0 || !isWordByte(text[i-1])) {
				start = i
			}
		case start >= 0 && i > start && text[i-1] != '.' && text[start:i] != "0":
			n := 0
			if c == 'x' {
				n = 1
			} else if strings.HasPrefix(text[i:], "×") {
				n = len("×")
			}
			if n > 0 && i+n < len(text) && text[i+n] >= '0' && text[i+n] <= '9' {
				b.WriteString(" × ")
				i += n - 1
				start = i + 1 // the next number starts after the sign
				continue
			}
			start = -1
		default:
			start = -1
		}
		b.WriteByte(c)
	}
	return b.String()
}

// apartWords set a case apart or turn it: beside "only" they say where
// the rule does not go ("only outside office hours").
var apartWords = wordSet("outside except excepting exception exceptions exempt apart besides beyond other others not never no nobody none without unless")

// apartNear reports whether a word of apartWords stands within four words
// of toks[i], in its clause.
func apartNear(toks []rawTok, i int) bool {
	for j := max(0, i-2); j < len(toks) && j <= i+4; j++ {
		if j != i && toks[j].clause == toks[i].clause && apartWords()[toks[j].low] {
			return true
		}
	}
	return false
}
