package consensus

import (
	"slices"
	"strings"
	"sync"
)

// This file reads negation said in words no list of negative verbs holds:
// a verb that keeps someone from doing a thing ("blocked from going
// online", "barred from entering") or says they are not able to ("unable
// to approve"). Each is "cannot" followed by the thing, so "blocked from
// going online" and "cannot go online" say the same, and "can go online"
// changes it.

// barrierWords keep someone from an action when "from" and the action
// (a word in -ing) follow them: "prevented from deploying". Written lower
// case, as a word is written.
var barrierWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"blocked": true, "prevented": true, "barred": true, "banned": true, "prohibited": true, "forbidden": true,
		"stopped": true, "precluded": true, "restricted": true, "disallowed": true, "locked": true,
		"suspended": true, "excluded": true, "disqualified": true, "debarred": true,
		"block": true, "prevent": true, "bar": true, "ban": true, "prohibit": true, "forbid": true, "stop": true,
		"blocks": true, "prevents": true, "bars": true, "bans": true, "prohibits": true, "forbids": true, "stops": true,
		"suspend": true, "suspends": true, "exclude": true, "excludes": true,
	}
})

// barrierAt reports how many tokens at toks[i] say "cannot" before an
// action: 2 for "blocked from" before a word in -ing ("blocked from going
// online"), 2 for "unable to" or "not able to" before a word ("unable to
// approve"), else 0. "Blocked from 00:00" (a time) and "blocked from the
// office network" (a place) negate nothing.
func barrierAt(toks []rawTok, i int) int {
	if i+2 >= len(toks) || toks[i+1].clause != toks[i].clause || toks[i+2].clause != toks[i].clause || toks[i+2].isNum {
		return 0
	}
	t, next, then := toks[i].low, toks[i+1].low, toks[i+2].low
	switch {
	case barrierWords()[t] && next == "from" && len(then) > 4 && strings.HasSuffix(then, "ing") && isLetters(then):
		return 2
	case next == "from" && deferralBars(t, then, movedTo(toks, i+3)):
		return 2
	case (t == "unable" || t == "incapable") && next == "to":
		return 2
	case (t == "fail" || t == "fails" || t == "failed" || t == "failing") && next == "to" && isLetters(then) && then != "the" && then != "a" && then != "an":
		return 2 // "should the party fail to report out": not report out
	}
	return 0
}

// movedTo reports whether a "to" follows toks[k] within four tokens of
// its clause: "deferred from opening day to the following Monday" moves a
// date, it keeps no one from opening.
func movedTo(toks []rawTok, k int) bool {
	for j := k; j < len(toks) && j < k+4 && toks[j].clause == toks[k-1].clause; j++ {
		if toks[j].low == "to" {
			return true
		}
	}
	return false
}

// deferralBars reports whether w ("deferred", "deferral") before "from"
// and act keeps someone from the act, as "barred from" does: "deferred
// from donating for 3 months", "a three-month deferral from donating".
// Not a date moved ("deferred from opening day to the Monday": moved, a
// "to" follows), nor a deferral that only puts a thing off ("a deferral
// from paying VAT until April": a deferral bars only deferredActs). Both
// readers judge by it (barrierAt, surfaceTokens).
func deferralBars(w, act string, moved bool) bool {
	switch w {
	case "deferred":
		return !moved && len(act) > 4 && strings.HasSuffix(act, "ing") && isLetters(act)
	case "deferral":
		return deferredActs()[act]
	}
	return false
}

// deferredActs are the acts a deferral keeps someone from ("a deferral
// from donating"), rather than puts off ("a deferral from paying VAT").
var deferredActs = wordSet("donating giving flying diving driving training serving enlisting competing playing working operating riding racing boxing swimming")

// contrasted reports whether the condition k of x, opened by "while", is
// a rule of its own set beside the first rather than a time the rule holds
// in: the other side y states most of its words (two thirds, two or more)
// as its rule, outside any condition and not negated. "Address is type 2,
// while email is type 1 and overwritten" against "email changes overwrite
// in place (type 1)"; "refresh every 15 seconds while the screen is open"
// against "refresh the screen every 15 seconds" keeps its condition (open
// is not said).
func contrasted(x *analysis, k int, y *analysis) bool {
	lx := theLexicon()
	plain := map[string]bool{}
	for _, t := range y.terms {
		if t.cond < 0 && !t.neg {
			plain[t.w] = true
		}
	}
	in, of := 0, 0
	for _, t := range x.terms {
		if t.cond != k || lx.generic[t.w] || lx.light[t.w] || lx.stop[t.w] {
			continue
		}
		of++
		if !t.neg && (plain[t.w] || stemOf(t.w, plain)) {
			in++
		}
	}
	return of >= 2 && 3*in >= 2*of
}

// stemOf reports whether a word of m and w are forms of one word the
// stemmer left apart: "overwritten" and "overwrite" share "overwrit".
func stemOf(w string, m map[string]bool) bool {
	if len(w) < 6 || strings.HasPrefix(w, "#") {
		return false
	}
	for p := range m {
		n := 0
		for n < len(p) && n < len(w) && p[n] == w[n] {
			n++
		}
		if n >= 6 {
			return true
		}
	}
	return false
}

// carveOutLost reports whether the filed rule a sets a part of what it
// speaks of apart with a negation in a clause of its own, beside a clause
// it states plainly ("affected customers are notified by email;
// unaffected customers are not notified"), and b, which sets a condition
// aside by cue ("affected or not"), negates no word of that clause outside
// the cue: the carve-out is taken away. A rule that is all negation
// ("never deploy on Fridays") has no carve-out, and "no Friday deploys,
// whatever the urgency; hotfixes go through the board" keeps the one of
// "never deploy on Fridays; hotfixes go through the board".
func carveOutLost(a, b *analysis, position string) bool {
	position = strings.ToLower(readPart(position))
	lx := theLexicon()
	negClause, plainClause := map[int]bool{}, map[int]bool{}
	for _, t := range a.terms {
		// Negated by "not" or "never": "dogs without one are turned
		// away" says the rule again rather than setting a part apart.
		if t.cond < 0 && t.neg && t.verbal && !lx.generic[t.w] && !lx.stop[t.w] && !strings.HasPrefix(t.w, "#") {
			negClause[t.clause] = true
		}
	}
	carved := map[string]bool{}
	for _, t := range a.terms {
		switch {
		case t.cond >= 0 || lx.generic[t.w] || lx.stop[t.w]:
		case negClause[t.clause]:
			carved[t.w] = true
		default:
			plainClause[t.clause] = true
		}
	}
	if len(negClause) == 0 || len(plainClause) == 0 {
		return false
	}
	for _, u := range b.terms {
		// "affected or not" negates nothing: it is the cue.
		if u.neg && carved[u.w] && !strings.Contains(position, strings.ToLower(u.text)+" or not") {
			return false
		}
	}
	return true
}

// notifyMeans are the ways of notifying someone: a rule that says a
// person is not notified is changed by a position that emails, texts or
// calls them. Written before stemming.
var notifyMeans = []string{"notify", "inform", "tell", "email", "e-mail", "sms", "text", "call", "phone", "message", "alert", "ping", "page", "contact", "warn", "remind"}

// notifyWords are notifyMeans folded, built on first use.
var notifyWords = sync.OnceValue(func() map[string]bool {
	lx := theLexicon()
	m := map[string]bool{}
	for _, w := range notifyMeans {
		m[lx.fold(stem(w))] = true
	}
	return m
})

// compareMeans finds a person the filed rule says is not notified whom the
// position notifies by a means of its own: "the customer is not notified"
// against "the bot emails the customer". The filed rule's word for it is
// negated there and no word for notifying is negated in the position.
func compareMeans(a, b *analysis) []string {
	nw := notifyWords()
	var from string
	for _, t := range a.terms {
		if t.neg && nw[t.w] && t.cond < 0 {
			from = t.text
			break
		}
	}
	if from == "" {
		return nil
	}
	negClause := map[int]bool{}
	for _, u := range b.terms {
		if u.neg {
			negClause[u.clause] = true
		}
	}
	_, _, aside := setAside(b)
	to, toW := "", ""
	for i, u := range b.terms {
		if !nw[u.w] {
			continue
		}
		if u.neg || negClause[u.clause] || aside[i] {
			return nil // said again: "no email goes to the customer", "don't send them any notification", "instead of emailing"
		}
		if to == "" && u.cond < 0 {
			to, toW = u.text, u.w
		}
	}
	if to == "" || slices.ContainsFunc(a.terms, func(t term) bool { return !t.neg && t.w == toW }) {
		return nil // the filed rule notifies that way too ("the agent is emailed; the customer is not notified")
	}
	return []string{"not " + from + " → " + to}
}

// emphatic returns the cue by which position says its rule has no
// exception (emphaticCues) when the filed rule makes one: an exception
// ("unless", "except") or a carve-out (carveOutLost). Else "".
func emphatic(a, b *analysis, filed, position string) string {
	if countKind(a.conds, "unless") == 0 && !carveOutLost(a, b, position) {
		return ""
	}
	low, filedLow := strings.ToLower(readPart(position)), strings.ToLower(readPart(filed))
	if hasCue(filedLow, emphaticCues) != "" {
		return ""
	}
	if c := hasCue(low, emphaticCues); c != "" {
		return c
	}
	if hasCue(filedLow, deniedCues) != "" {
		return "" // "never reused, even for cancelled invoices": the filed rule says it too
	}
	for _, c := range deniedCues {
		if k := indexWord(low, c); k >= 0 {
			if cl := clauseAround(low, k, len(c)); namesException(a, cl) && !exceptionKept(a, b, cl) {
				return c
			}
		}
	}
	return ""
}

// exceptionKept reports whether position b makes the exception of the
// filed rule a outside the clause of its denial, cl: "even if your flight
// is late, unless you've booked late checkout"; not "a medical
// certificate does not exempt you", where the denial says it.
func exceptionKept(a, b *analysis, cl string) bool {
	for _, c := range b.conds {
		if c.kind == "unless" && saysException(a, set(c.terms)) && !strings.Contains(cl, strings.ToLower(c.text)) {
			return true
		}
	}
	return false
}

// clauseAround is the clause of low that holds low[k:k+n]: from the mark
// before it to the mark after it, and the clause before that too where
// the cue opens its own ("double-depth graves count as two plots, like
// everywhere else").
func clauseAround(low string, k, n int) string {
	// markEnds reports whether a mark ends at i, markAt whether one
	// starts there: a dash set apart by spaces ("10% off - online orders
	// are no different - but") marks a clause too.
	dashed := func(i int) bool {
		return low[i] == '-' && (i > 0 && low[i-1] == ' ' || i+1 < len(low) && low[i+1] == ' ')
	}
	markEnds := func(i int) bool {
		return strings.ContainsRune(",;.!?:\n", rune(low[i-1])) || dashed(i-1) || strings.HasSuffix(low[:i], "—") || strings.HasSuffix(low[:i], "–")
	}
	markAt := func(i int) bool {
		return strings.ContainsRune(",;.!?:\n", rune(low[i])) || dashed(i) || strings.HasPrefix(low[i:], "—") || strings.HasPrefix(low[i:], "–")
	}
	start, end := k, k+n
	for start > 0 && !markEnds(start) {
		start--
	}
	if strings.TrimSpace(low[start:k]) == "" && start > 0 {
		for start -= len(dashOrMark(low[:start])); start > 0 && !markEnds(start); start-- {
		}
	}
	for end < len(low) && !markAt(end) {
		end++
	}
	return low[start:end]
}

// dashOrMark is the mark that ends s: a long dash or one byte.
func dashOrMark(s string) string {
	for _, d := range []string{"—", "–"} {
		if strings.HasSuffix(s, d) {
			return d
		}
	}
	return s[len(s)-1:]
}

// namesException reports whether clause says a word of an exception of
// the filed rule a ("unless the borrower is in hospital", "except
// contractors with a site pass").
func namesException(a *analysis, clause string) bool {
	return saysException(a, set(analyze(clause).words()))
}

// saysException reports whether words hold a word of an exception of the
// filed rule a.
func saysException(a *analysis, words map[string]bool) bool {
	// Not a word the rule says outside its conditions and their own rules
	// ("except in the double-depth section, where one double-depth grave
	// counts as a single plot"): "on site" of "hard hats on site unless in
	// the site office".
	own := map[int]bool{}
	for _, c := range a.conds {
		if c.then || c.ownRule {
			own[c.clause+1] = true
		}
	}
	for _, t := range a.terms {
		if t.cond < 0 && !own[t.clause] {
			delete(words, t.w)
		}
	}
	for _, c := range a.conds {
		if c.kind != "unless" {
			continue
		}
		if slices.ContainsFunc(c.terms, func(w string) bool { return words[w] }) {
			return true
		}
	}
	return false
}

// elliptical counts the conditions of x of kind that say no word of their
// own and stand after a clause of the rule: "decide within 30 days, and if
// it does not, refund the fee" sets the condition "if it misses the 30
// days" by pointing back at the clause before it.
func elliptical(x *analysis, kind string) int {
	n := 0
	for _, c := range x.conds {
		if c.kind == kind && len(c.terms) == 0 && c.clause > 0 && !c.reason {
			n++
		}
	}
	return n
}

// openConds counts the conditions of the filed rule y of kind (with words
// of their own) that the position x does not state as a plain part of its
// rule: only such a condition can be what a new condition of x says in
// other words. "Free with 21 days' notice and 60% of signatures, provided
// the organiser shows proof of insurance" states the filed "if filed 21
// days before and signed by 60%" plainly, so its "provided …" is a
// condition added, not that one reworded.
func openConds(y *analysis, kind string, x *analysis) int {
	plain := map[string]bool{}
	for _, t := range x.terms {
		if t.cond < 0 && !t.neg {
			plain[t.w] = true
		}
	}
	n := 0
	for k, c := range y.conds {
		if !(c.kind == kind && !c.outcome || c.outcome && kind == "unless") || len(c.terms) == 0 {
			continue
		}
		if len(c.terms) >= 3 && overlapIn(c.terms, plain) >= 0.7 || plainNumbers(y, k, x) {
			continue
		}
		n++
	}
	return n
}

// plainNumbers reports whether two numbers or more of the condition k of
// y (a bare "one" aside) are said by x in one clause outside its
// conditions.
func plainNumbers(y *analysis, k int, x *analysis) bool {
	byClause := map[int]int{}
	n := 0
	for _, q := range y.qty {
		if q.cond != k || bareOne(q) {
			continue
		}
		n++
		seen := map[int]bool{}
		for _, r := range x.qty {
			if r.cond < 0 && !seen[r.clause] && sameQuantity(q, r) {
				seen[r.clause] = true
				byClause[r.clause]++
			}
		}
	}
	if n < 2 {
		return false
	}
	for _, m := range byClause {
		if m >= 2 {
			return true
		}
	}
	return false
}

// choiceWords are the words of a condition that leaves a thing to the
// person's choice ("whenever you like", "if they choose", "as often as
// they want"): such a condition says "may", and sets no case of the rule.
var choiceWords = sync.OnceValue(func() map[string]bool {
	lx := theLexicon()
	m := map[string]bool{}
	for _, w := range []string{"like", "want", "wish", "choose", "prefer", "please"} {
		m[lx.fold(stem(w))] = true
	}
	return m
})

// freeChoice reports whether every word of a condition leaves the thing to
// the person's choice.
func freeChoice(cd condition) bool {
	cw := choiceWords()
	for _, w := range cd.terms {
		if !cw[w] {
			return false
		}
	}
	return len(cd.terms) > 0
}

// keepsOn reports whether toks[i] is "keep" before an action in -ing in
// its clause ("keep polling", "keeps running"): it goes on doing it, the
// "continue" that "stop" denies.
func keepsOn(toks []rawTok, i int) bool {
	switch toks[i].low {
	case "keep", "keeps", "kept", "keeping":
	default:
		return false
	}
	if i+1 >= len(toks) || toks[i+1].clause != toks[i].clause {
		return false
	}
	next := toks[i+1].low
	return len(next) > 4 && strings.HasSuffix(next, "ing") && isLetters(next)
}
