package consensus

import (
	"slices"
	"strings"
)

// compareScopeAside reads a rule's reach widened by an aside that says
// every kind of a thing is covered, where the filed rule names one kind
// of it and the position never says that kind elsewhere: "new subscribers
// in the EU must confirm" against "all new subscribers, whatever country
// they are in, must confirm"; "a railcar in transit" against "any
// railcar, parked in a yard or moving,"; "each adult reader" against
// "every reader, adult or child,". Either way round: a rule widened, or
// narrowed to a kind. compareWidened reads the kind said beside another
// in the aside; here the filed kind may be said in words the aside never
// uses, or beside a kind the filed rule names elsewhere ("requests for
// children's books are free").
func compareScopeAside(k *kindTexts) []string {
	if !mayAsideScope(k.position) && !mayAsideScope(k.filed) {
		return nil // most positions
	}
	ft, pt := k.words()
	if len(ft) > maxSurface || len(pt) > maxSurface {
		return nil
	}
	if d := scopeAsideIn(ft, pt, k.position); d != "" {
		return []string{d}
	}
	if d := scopeAsideIn(pt, ft, k.filed); d != "" {
		from, to, _ := strings.Cut(d, " → ")
		return []string{to + " → " + from}
	}
	return nil
}

// mayAsideScope reports whether text holds a word an aside that covers
// every kind needs: "or", "whatever", "whichever", "regardless",
// "irrespective", "matter" ("no matter"), "alike".
func mayAsideScope(text string) bool {
	low := strings.ToLower(text)
	for _, c := range [...]string{" or ", "whatever", "whichever", "regardless", "irrespective", "matter", "alike"} {
		if strings.Contains(low, c) {
			return true
		}
	}
	return false
}

// asideOpeners open an aside that sets a kind of a thing aside: "every
// purge, whatever its size,", "all visitors, whichever floor".
var asideOpeners = wordSet("whatever whichever regardless irrespective")

// asideNotKind are words by which an aside is a case kept apart or a
// condition rather than every kind of a thing: "any inspection, except
// emergencies", "every third night, or earlier if they ask".
var asideNotKind = wordSet("except unless but if when where once provided so than instead only")

// kindAside reports whether the words ws, an aside set off by marks
// right after a thing in text, say every kind of it is covered: "adult or
// child", "in use or empty", "phone-in or not", "third party and
// comprehensive alike", "whatever country they are in", "no matter how
// long", "whether paid or not". Not an aside that opens with "or" (a
// second case, "or 45 min in villages with a school"), names a number, or
// keeps a case apart; nor two kinds that are not set off by commas on
// both sides, as often the end of a list ("any preview link, feed or
// sitemap before then.").
func kindAside(ws []string, text string) bool {
	if len(ws) < 2 || len(ws) > 8 || ws[0] == "or" || ws[0] == "and" {
		return false
	}
	for _, w := range ws {
		if isDigit(w[0]) || asideNotKind()[w] {
			return false
		}
	}
	if asideOpeners()[ws[0]] || ws[0] == "no" && ws[1] == "matter" {
		return true
	}
	if ws[len(ws)-1] == "alike" && slices.Contains(ws, "and") {
		return true
	}
	if len(ws) > 6 || !slices.Contains(ws, "or") {
		return false
	}
	if ws[0] == "whether" {
		return true
	}
	// "adult or child", "in use or empty", "parked in a yard or moving",
	// "at height or on the ground": two kinds of a few words each,
	// nothing around them.
	i := slices.Index(ws, "or")
	if i == 0 || i > 4 || len(ws)-i-1 > 3 {
		return false
	}
	low := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	return strings.Contains(low, ", "+strings.Join(ws, " ")+",")
}

// scopeQualifiers open what bounds a thing to a kind after it: "subscribers
// in the EU", "a railcar in transit", "chambers that are in use".
// "Visitors going to a secure floor" is read past its verb in "-ing"
// (ingQualifiers).
var scopeQualifiers = wordSet("in from on at under over with without that who which whose outside inside")

// scopeAsideIn is the difference ("subscribers in the eu → subscribers,
// whatever country they are in") when the words ot of one side (its text
// otext) say "every x, <an aside covering every kind>," and the words rt
// of the rule name x bound to a kind, by a word right before it or a
// phrase right after it, whose words ot never says outside the aside; ""
// otherwise.
func scopeAsideIn(rt, ot []string, otext string) string {
	lx := theLexicon()
	fold := func(w string) string { return lx.fold(stem(w)) }
	for i := 0; i+3 < len(ot); i++ {
		switch ot[i] {
		case "every", "each", "all", "any":
		default:
			continue
		}
		j := i + 1
		for j < len(ot) && j <= i+4 && ot[j] != "|" {
			j++
		}
		if j >= len(ot) || ot[j] != "|" || j == i+1 {
			continue
		}
		x := ot[j-1]
		if !kindWord(x) || widenPronoun()[x] {
			continue
		}
		e := j + 1
		for e < len(ot) && ot[e] != "|" && e <= j+9 {
			e++
		}
		if !kindAside(ot[j+1:e], otext) {
			continue
		}
		// The words said outside the aside.
		outside := append(slices.Clone(ot[:j]), ot[min(e, len(ot)):]...)
		forms := formsOf(outside)
		said := func(w string) bool { return namedIn(outside, forms, w) }
		fx := fold(x)
		for p := range rt {
			if fold(rt[p]) != fx {
				continue
			}
			var kind []string
			if p > 0 && kindWord(rt[p-1]) && !said(rt[p-1]) && (p < 2 || rt[p-2] != "or" && rt[p-2] != "and") {
				kind = append(kind, rt[p-1]) // "adult reader"
			}
			from := p + 1
			if from+1 < len(rt) && strings.HasSuffix(rt[from], "ing") && len(rt[from]) > 5 && ingQualifiers()[rt[from+1]] {
				from++ // "contractors working at height", "visitors going to a secure floor"
			}
			if len(kind) == 0 && from+1 < len(rt) && (scopeQualifiers()[rt[from]] || from > p+1) {
				// "in the EU", "that are in use": the first word that names
				// a kind, within four words, up to a mark or a verb; not
				// "dogs on a lead are allowed" against "… on a lead".
				for q := from + 1; q < len(rt) && q <= from+4 && rt[q] != "|"; q++ {
					if q == from+1 && relativeBe()[rt[q]] && (rt[from] == "that" || rt[from] == "who" || rt[from] == "which") {
						continue
					}
					if relativeBe()[rt[q]] || joinedVerb()[rt[q]] || notOnlyVerb()[rt[q]] {
						break
					}
					if kindWord(rt[q]) {
						if !said(rt[q]) {
							kind = rt[p : q+1]
						}
						break
					}
				}
			}
			if len(kind) == 0 {
				continue
			}
			if len(kind) == 1 {
				kind = []string{kind[0], rt[p]}
			}
			return strings.Join(kind, " ") + " → " + x + ", " + strings.Join(ot[j+1:e], " ")
		}
	}
	return ""
}

// ingQualifiers are the words after a verb in "-ing" right after a thing
// that bound it to a kind: "contractors working at height", "students
// living in halls", "visitors going to a secure floor".
var ingQualifiers = wordSet("in at on to from with for near under over inside outside")

// relativeBe are the forms of "be" and "have" after "that" or "who"
// ("chambers that are in use"), and that end a phrase after a thing
// ("dogs on a lead are allowed").
var relativeBe = wordSet("is are was were be been has have had")

// widenPronoun are words that stand for a thing named before them: "any
// abuse aimed at them, verbal or physical".
var widenPronoun = wordSet("them it they those these him her us you everyone everybody everything anyone anybody anything one ones")
