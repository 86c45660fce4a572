package gating

import (
	"sort"
	"strings"
	"sync"
)

// lazySet builds a word set on first use, so that nothing is built at
// package initialisation.
func lazySet(build func() map[string]bool) func() map[string]bool { return sync.OnceValue(build) }

// This file reads doubt the way a reader does: a hedge word used to
// describe behaviour is no hedge, a doubt that the next sentence settles
// with a stated check is no open doubt, and a check counts by what it
// names (a file:line, a test, a command, its output, a count).

// modalWords are the modal hedges a description may use.
var modalWords = lazySet(func() map[string]bool { return map[string]bool{"may": true, "might": true, "could": true} })

// limitWords after a modal make it a stated limit or permission ("may
// retry up to 3 times", "may only be called once").
var limitWords = lazySet(func() map[string]bool {
	return map[string]bool{
		"up": true, "most": true, "least": true, "only": true, "once": true, "twice": true, "never": true,
		"times": true, "per": true, "within": true,
	}
})

// quoteWords before a modal make it a quotation of a rule ("the spec says
// clients may retry").
var quoteWords = lazySet(func() map[string]bool {
	return map[string]bool{
		"spec": true, "specification": true, "rfc": true, "says": true, "documented": true, "docs": true,
		"according": true, "contract": true, "allowed": true, "allows": true, "permits": true,
		"permitted": true, "readme": true, "documentation": true, "adr": true,
	}
})

// copulas before an unknown word make it a predicate ("the cause is
// unknown"), which is a real unknown.
var copulas = lazySet(func() map[string]bool {
	return map[string]bool{
		"is": true, "are": true, "was": true, "were": true, "remains": true, "remain": true, "still": true,
		"stays": true, "be": true, "been": true, "it's": true, "seems": true, "looks": true, "feel": true, "totally": true,
		"completely": true, "entirely": true, "somewhat": true, "also": true, "quite": true, "very": true,
	}
})

// clauseOpeners make an unknown word part of a described condition ("if
// the key is unknown, return 401").
var clauseOpeners = lazySet(func() map[string]bool {
	return map[string]bool{"if": true, "when": true, "whenever": true, "unless": true, "where": true}
})

// firstPersonNear reports whether an I or we word stands up to four words
// before token i in its clause: whose assumptions and estimates are hedges.
func (a *analysis) firstPersonNear(i int) bool {
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		if firstPerson[a.tokens[k].s] {
			return true
		}
		if a.tokens[k+1].brk && k < i-1 {
			break
		}
	}
	return false
}

// descriptive reports whether the hedge tokens i…j-1 (class cls) describe
// behaviour rather than hedge:
//   - a modal followed by a limit or a number ("may retry up to 3 times"),
//     or in a sentence that quotes a rule ("the spec says clients may …");
//   - "unknown"/"unspecified" used as an adjective before a noun ("unknown
//     fields are refused"), or inside a described condition ("if the key is
//     unknown");
//   - "possible" after "no"/"only" in its sentence ("no other path is
//     possible") or in a fixed phrase ("where possible");
//   - assume/estimate words without an I or we ("the parser assumes UTF-8").
func (a *analysis) descriptive(i, j int, cls class) bool {
	t := a.tokens
	w := t[i].s
	sent := t[i].sent
	sameSentence := func(k int) bool { return k >= 0 && k < len(t) && t[k].sent == sent }
	switch {
	case cls == clModal && j-i == 1 && modalWords()[w]:
		for k := j; k < j+7 && sameSentence(k); k++ {
			if limitWords()[t[k].s] || t[k].s[0] >= '0' && t[k].s[0] <= '9' {
				return true
			}
			if k > j && t[k].brk {
				break
			}
		}
		for k := i - 1; k >= i-10 && sameSentence(k); k-- {
			if quoteWords()[t[k].s] {
				return true
			}
		}
	case w == "unknown" || w == "unspecified" || w == "undefined":
		if raw := a.doc[t[i].start:t[i].end]; raw == strings.ToUpper(raw) {
			return true // an identifier: UNKNOWN, UNSPECIFIED
		}
		for k := i - 1; k >= i-6 && sameSentence(k); k-- {
			if clauseOpeners()[t[k].s] {
				return true
			}
			if t[k+1].brk {
				break
			}
		}
		if i > 0 && !t[i].brk && copulas()[t[i-1].s] {
			return false
		}
		if j < len(t) && !t[j].brk && sameSentence(j) {
			next := t[j].s
			switch next {
			case "whether", "if", "how", "what", "why", "to", "is", "are", "was", "at", "for", "yet", "so", "and", "or",
				"but", "until", "because", "which", "who", "where", "when", "from", "in", "on", "by", "as":
				return false
			}
			return true
		}
	case w == "possible" || w == "possibly":
		if i > 0 && (t[i-1].s == "where" || t[i-1].s == "whenever" || t[i-1].s == "if" || t[i-1].s == "as") {
			return true
		}
		for k := i - 1; k >= i-7 && sameSentence(k); k-- {
			switch t[k].s {
			case "no", "only", "nothing", "none", "impossible":
				return true
			}
		}
	case strings.HasPrefix(w, "assum") || strings.HasPrefix(w, "estimat"):
		return !a.firstPersonNear(i) && w != "assuming"
	}
	return false
}

// commandWords start a command the agent says it ran.
var commandWords = lazySet(func() map[string]bool {
	return map[string]bool{
		"go": true, "make": true, "npm": true, "npx": true, "pnpm": true, "yarn": true, "pytest": true, "cargo": true,
		"curl": true, "grep": true, "rg": true, "git": true, "psql": true, "kubectl": true, "docker": true,
		"select": true, "explain": true, "bash": true, "sh": true, "python": true, "python3": true, "node": true,
		"jq": true, "sed": true, "awk": true, "terraform": true, "helm": true, "mvn": true, "gradle": true,
		"dotnet": true, "ls": true, "cat": true, "diff": true, "wc": true, "find": true, "parley": true,
		"redis-cli": true, "mysql": true, "sqlite3": true, "ruff": true, "mypy": true, "tsc": true, "eslint": true,
		"vitest": true, "jest": true, "rspec": true, "bundle": true, "composer": true, "gh": true, "http": true,
	}
})

// countUnits after a number make it a measurement or a count of a check.
var countUnits = lazySet(func() map[string]bool {
	return map[string]bool{
		"ms": true, "s": true, "sec": true, "secs": true, "seconds": true, "minutes": true, "min": true, "mins": true,
		"rows": true, "row": true, "tests": true, "test": true, "times": true, "runs": true, "run": true,
		"failures": true, "errors": true, "requests": true, "req": true, "rps": true, "qps": true, "calls": true,
		"of": true, "out": true, "files": true, "lines": true, "passes": true, "passed": true, "iterations": true,
		"cases": true, "hits": true, "misses": true, "bytes": true, "kb": true, "mb": true, "gb": true,
		"records": true, "items": true, "events": true, "messages": true, "retries": true, "attempts": true,
		"occurrences": true, "matches": true, "results": true, "samples": true, "users": true, "tenants": true,
		"nodes": true, "pods": true, "replicas": true, "queries": true, "jobs": true, "days": true, "hours": true,
		"percent": true, "x": true, "µs": true, "us": true, "ns": true, "p99": true, "p95": true, "p50": true,
	}
})

// outputWords are what command output says.
var outputWords = [][]string{
	{"exit", "code"}, {"exit", "status"}, {"exited", "0"}, {"returned", "0"}, {"pass"}, {"ok"}, {"fail"},
	{"http", "200"}, {"http", "500"}, {"status", "200"}, {"status", "500"}, {"0", "failures"},
	{"no", "output"}, {"no", "matches"}, {"zero", "hits"}, {"build", "green"}, {"ci", "green"},
}

// outputFirst reports whether w starts one of outputWords.
func outputFirst(w string) bool {
	switch w {
	case "exit", "exited", "returned", "pass", "ok", "fail", "http", "status", "0", "no", "zero", "build", "ci":
		return true
	}
	return false
}

// scanSpecific finds specific evidence in the analysed text: file:line
// references, test names, commands (in code spans, or after "$ "), command
// output and counts. The code spans themselves are looked into, since a
// command or a test name is usually written as one.
func (a *analysis) scanSpecific() {
	d := a.doc
	add := func(s, e int) { a.specific = append(a.specific, span{int32(s), int32(e)}) }
	// file:line refs.
	for _, r := range a.refs {
		ref := d[r.start:r.end]
		if c := strings.LastIndexByte(ref, ':'); c > 0 && c+1 < len(ref) && ref[c+1] >= '0' && ref[c+1] <= '9' {
			add(int(r.start), int(r.end))
		} else if strings.HasSuffix(ref, "_test.go") || strings.HasSuffix(ref, ".log") {
			add(int(r.start), int(r.end))
		}
	}
	// Test names: TestXxx, test_xxx, xxx_test.
	for i := 0; i+5 < len(d); i++ {
		if c := d[i]; c != 'T' && c != 't' {
			continue
		}
		if (i == 0 || !isIdentByte(d[i-1])) && (strings.HasPrefix(d[i:], "Test") && d[i+4] >= 'A' && d[i+4] <= 'Z' ||
			strings.HasPrefix(d[i:], "test_") && d[i+5] >= 'a' && d[i+5] <= 'z') {
			j := i
			for j < len(d) && (isIdentByte(d[j]) || d[j] == '/') {
				j++
			}
			add(i, j)
			i = j
		}
	}
	// Code spans that hold a command, and "$ command" lines.
	for i := 0; i < len(d); i++ {
		switch {
		case d[i] == '`':
			n := 0
			for i+n < len(d) && d[i+n] == '`' {
				n++
			}
			if n > 2 {
				i += n - 1
				continue
			}
			end := strings.Index(d[i+n:min(len(d), i+n+300)], d[i:i+n])
			if end < 0 {
				i += n - 1
				continue
			}
			code := d[i+n : i+n+end]
			if f := strings.Fields(strings.ToLower(code)); len(f) > 0 && (commandWords()[strings.TrimPrefix(f[0], "./")] || strings.HasPrefix(f[0], "./") || strings.HasPrefix(f[0], "$")) {
				add(i, i+2*n+end)
			}
			i += 2*n + end - 1
		case d[i] == '$' && i+1 < len(d) && d[i+1] == ' ' && (i == 0 || d[i-1] == '\n'):
			j := strings.IndexByte(d[i:], '\n')
			if j < 0 {
				j = len(d) - i
			}
			add(i, i+j)
			i += j
		}
	}
	// Section references (§4.2, section 3.1), ticket and PR ids (OPS-221,
	// #3310), fractions (37/500), percentages and grouped or decimal
	// numbers (1,204,113; 0.02%).
	for i := 0; i < len(d); i++ {
		c := d[i]
		switch {
		case c == 0xc2 && strings.HasPrefix(d[i:], "§"):
			j := i + len("§")
			for j < len(d) && (d[j] >= '0' && d[j] <= '9' || d[j] == '.' && j+1 < len(d) && d[j+1] >= '0' && d[j+1] <= '9') {
				j++
			}
			if j > i+len("§") {
				add(i, j)
				i = j - 1
			}
		case c == '#' && i+1 < len(d) && d[i+1] >= '0' && d[i+1] <= '9' && (i == 0 || !isIdentByte(d[i-1])):
			j := i + 1
			for j < len(d) && d[j] >= '0' && d[j] <= '9' {
				j++
			}
			add(i, j)
			i = j - 1
		case c >= 'A' && c <= 'Z' && (i == 0 || !isIdentByte(d[i-1])):
			j := i
			for j < len(d) && d[j] >= 'A' && d[j] <= 'Z' {
				j++
			}
			if j-i >= 2 && j+1 < len(d) && d[j] == '-' && d[j+1] >= '0' && d[j+1] <= '9' {
				k := j + 1
				for k < len(d) && d[k] >= '0' && d[k] <= '9' {
					k++
				}
				if k == len(d) || !isIdentByte(d[k]) {
					add(i, k)
					i = k - 1
					continue
				}
			}
			i = max(i, j-1)
		case c >= '0' && c <= '9' && (i == 0 || !isIdentByte(d[i-1]) && d[i-1] != '.' && d[i-1] != ','):
			j := i
			grouped, frac := false, false
			for j < len(d) {
				if d[j] >= '0' && d[j] <= '9' {
					j++
				} else if (d[j] == ',' || d[j] == '.') && j+1 < len(d) && d[j+1] >= '0' && d[j+1] <= '9' {
					grouped = true
					j++
				} else if d[j] == '/' && j+1 < len(d) && d[j+1] >= '0' && d[j+1] <= '9' {
					frac = true
					j++
				} else {
					break
				}
			}
			pct := j < len(d) && d[j] == '%'
			if pct {
				j++
			}
			if (grouped || frac || pct) && d[i:j] != "100%" {
				add(i, j)
			}
			i = j - 1
		}
	}
	// Counts, measurements and command output, on the tokens.
	t := a.tokens
	for k := 0; k < len(t); k++ {
		w := t[k].s
		if w[0] >= '0' && w[0] <= '9' && k+1 < len(t) && t[k+1].sent == t[k].sent {
			next := t[k+1].s
			if countUnits()[next] || countUnits()[strings.TrimRight(next, "s")] {
				add(int(t[k].start), int(t[k+1].end))
				k++
				continue
			}
		}
		if w[0] >= '0' && w[0] <= '9' && len(w) > 1 && (strings.HasSuffix(w, "ms") || strings.HasSuffix(w, "s") && isDigits(w[:len(w)-1])) {
			add(int(t[k].start), int(t[k].end))
			continue
		}
		if !outputFirst(w) {
			continue
		}
		for _, ow := range outputWords {
			if ow[0] != w || k+len(ow) > len(t) {
				continue
			}
			ok := true
			for x, o := range ow {
				if t[k+x].s != o {
					ok = false
					break
				}
			}
			// "ok"/"pass"/"fail" count only as written by a tool: upper
			// case ("PASS", "FAIL", "ok  pkg").
			if ok && len(ow) == 1 {
				raw := d[t[k].start:t[k].end]
				ok = raw == strings.ToUpper(raw) && len(raw) > 2 || raw == "ok" && int(t[k].end)+1 < len(d) && d[t[k].end] == ' ' && d[t[k].end+1] == ' '
			}
			if ok {
				add(int(t[k].start), int(t[k+len(ow)-1].end))
				k += len(ow) - 1
				break
			}
		}
	}
	sort.Slice(a.specific, func(x, y int) bool { return a.specific[x].start < a.specific[y].start })
	// Drop overlaps (a test name inside a command span).
	out := a.specific[:0]
	var last int32 = -1
	for _, s := range a.specific {
		if s.start >= last {
			out = append(out, s)
			last = s.end
		}
	}
	a.specific = out
	// Numbers outside the specific evidence.
	si := 0
	for _, tk := range a.tokens {
		if tk.s[0] < '0' || tk.s[0] > '9' {
			continue
		}
		for si < len(a.specific) && a.specific[si].end <= tk.start {
			si++
		}
		if si < len(a.specific) && a.specific[si].start <= tk.start {
			continue
		}
		a.numbers = append(a.numbers, span{tk.start, tk.end})
	}
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// sentOf returns the sentence an offset lies in, or -1.
func (a *analysis) sentOf(off int32) int {
	i := sort.Search(len(a.sents), func(i int) bool { return a.sents[i].end > off })
	if i < len(a.sents) && a.sents[i].start <= off {
		return i
	}
	if i < len(a.sents) {
		return i // between sentences: the next one
	}
	return -1
}

// settleDoubts finds doubts raised and settled: a sentence that hedges or
// asks (a question, "could X be wrong", "I wasn't sure whether …") whose
// own remainder or next sentence states a check — a check verb ("I ran",
// "re-read", "traced") or specific evidence (a file:line, a test name, a
// command, a count) — without hedging again. The doubt's hedges and
// question then count as none; the pair is recorded in a.settled.
func (a *analysis) settleDoubts() {
	n := len(a.sents)
	if n == 0 {
		return
	}
	type sentInfo struct {
		doubtAt  int32 // offset of the first doubt in the sentence, -1 if none
		lastDoub int32 // offset of the last doubt
		checkAt  int32 // offset of the last check in the sentence, -1 if none
		firstChk int32
	}
	info := make([]sentInfo, n)
	for i := range info {
		info[i] = sentInfo{-1, -1, -1, -1}
	}
	markDoubt := func(s span) {
		if k := a.sentOf(s.start); k >= 0 {
			if info[k].doubtAt < 0 || s.start < info[k].doubtAt {
				info[k].doubtAt = s.start
			}
			if s.end > info[k].lastDoub {
				info[k].lastDoub = s.end
			}
		}
	}
	markCheck := func(s span) {
		if k := a.sentOf(s.start); k >= 0 {
			if s.start > info[k].checkAt {
				info[k].checkAt = s.start
			}
			if info[k].firstChk < 0 || s.start < info[k].firstChk {
				info[k].firstChk = s.start
			}
		}
	}
	// A check stated in the doubt's own sentence must be a check verb ("…,
	// so I ran X"): a number there is more likely part of the doubt
	// ("maybe 1000 calls a day?").
	verbAt := make([]int32, n)
	for i := range verbAt {
		verbAt[i] = -1
	}
	for _, s := range a.checks {
		if k := a.sentOf(s.start); k >= 0 && s.start > verbAt[k] {
			verbAt[k] = s.start
		}
	}
	for _, c := range []class{clHedge, clModal, clUnknown} {
		for _, s := range a.hits[c] {
			markDoubt(s)
		}
	}
	for _, s := range a.questions {
		// A question's doubt sits where the question starts.
		markDoubt(s)
	}
	for _, s := range a.checks {
		markCheck(s)
	}
	for _, s := range a.specific {
		markCheck(s)
	}
	settledSent := make([]bool, n)
	for k := 0; k < n; k++ {
		if info[k].doubtAt < 0 {
			continue
		}
		end := int32(-1)
		switch {
		case verbAt[k] > info[k].lastDoub && (k+1 >= n || info[k+1].doubtAt < 0):
			end = a.sents[k].end // "I wasn't sure X, so I ran Y"
		case k+1 < n && info[k+1].checkAt >= 0 && info[k+1].doubtAt < 0 && (k+2 >= n || info[k+2].doubtAt < 0) &&
			a.fieldOf(a.sents[k+1].start) == a.fieldOf(a.sents[k].start):
			// The doubt must not come straight back after the check.
			end = a.sents[k+1].end
		case k+1 < n && info[k+1].firstChk >= 0 && info[k+1].doubtAt > info[k+1].checkAt:
			// The check comes first and a later doubt in the same sentence
			// is its own: not settled.
		}
		if end < 0 {
			continue
		}
		settledSent[k] = true
		a.settled = append(a.settled, span{a.sents[k].start, end})
	}
	if len(a.settled) == 0 {
		return
	}
	keep := func(spans []span) []span {
		out := spans[:0]
		for _, s := range spans {
			if k := a.sentOf(s.start); k < 0 || !settledSent[k] {
				out = append(out, s)
			}
		}
		return out
	}
	for _, c := range []class{clHedge, clModal, clUnknown, clConditional} {
		a.hits[c] = keep(a.hits[c])
	}
	a.questions = keep(a.questions)
	a.fpu = keep(a.fpu)
}

// acknowledgeWords say that the answer was changed on purpose.
var acknowledgeWords = lazySet(func() map[string]bool {
	return map[string]bool{
		"changed": true, "change": true, "changing": true, "revise": true, "revised": true, "revising": true,
		"correct": true, "corrected": true, "correction": true, "correcting": true, "instead": true, "wrong": true,
		"mistake": true, "mistaken": true, "actually": true, "update": true, "updated": true, "updating": true,
		"reconsider": true, "reconsidered": true, "overturn": true, "flip": true, "flipped": true, "switch": true,
		"switched": true, "retract": true, "rather": true, "misread": true, "missed": true, "overlooked": true,
		"reverse": true, "reversed": true, "withdraw": true, "amend": true, "amended": true, "backtrack": true,
		"downgrade": true, "downgraded": true, "narrow": true, "narrowed": true, "walk": true,
	}
})

// findAcknowledgement returns the offset of the first word of the
// reasoning or critique that says the answer was changed on purpose
// (changed, corrected, I was wrong …), or -1.
func (a *analysis) findAcknowledgement() int32 {
	for _, s := range a.hits[clReversal] {
		return s.start
	}
	for _, t := range a.tokens {
		if t.start >= a.fields[fieldFinal].start {
			break
		}
		if len(t.s) >= 4 && acknowledgeWords()[t.s] {
			return t.start
		}
	}
	return -1
}

// acknowledged reports whether the text says the answer was changed.
func (a *analysis) acknowledged() bool { return a.ackWord >= 0 }
