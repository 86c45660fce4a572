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
// describe behaviour is no hedge, a doubt that one of the next sentences settles
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
		if firstPerson()[a.tokens[k].s] {
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
//   - assume/estimate words without an I or we ("the parser assumes UTF-8");
//   - "kind of"/"sort of" after a determiner ("this kind of API").
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
	case (w == "kind" || w == "sort") && j-i == 2 && i > 0:
		// "this kind of API", "the same sort of bug": a noun, not a hedge.
		switch t[i-1].s {
		case "this", "that", "the", "a", "what", "any", "every", "each", "some", "same", "other", "which", "one", "no", "one's", "its", "our", "their", "my", "your":
			return !t[i].brk
		}
	case strings.HasPrefix(w, "assum") || strings.HasPrefix(w, "estimat"):
		return !a.firstPersonNear(i) && w != "assuming"
	}
	return false
}

// testNouns after a failure word make it the name of a kind of test ("the
// regression suite", "a timeout test"), not a failure reported.
var testNouns = lazySet(func() map[string]bool {
	return map[string]bool{
		"test": true, "tests": true, "suite": true, "suites": true, "job": true, "case": true, "cases": true,
		"scenario": true, "scenarios": true, "injection": true, "mode": true, "handling": true, "handler": true,
		"path": true, "paths": true, "budget": true,
	}
})

// labelledNone reports whether the words from token j on say "none" to
// the marker before them, as a label's value: "Open questions: none",
// "TODOs: 0", "unknowns — n/a".
func (a *analysis) labelledNone(j int) bool {
	t := a.tokens
	if j >= len(t) || !t[j].brk || t[j].sent != t[j-1].sent && !strings.ContainsAny(a.doc[t[j-1].end:t[j].start], ":=") {
		return false
	}
	if gap := a.doc[t[j-1].end:t[j].start]; !strings.ContainsAny(gap, ":=—-") {
		return false
	}
	switch t[j].s {
	case "none", "no", "0", "nil", "nothing", "n":
		return j+1 >= len(t) || t[j+1].brk || t[j].s == "n" && t[j+1].s == "a"
	}
	return false
}

// ruleModals before a dismissal word make it a stated rule ("clients MUST
// ignore unknown types").
var ruleModals = lazySet(func() map[string]bool {
	return map[string]bool{"must": true, "shall": true, "should": true, "will": true}
})

// dismissalAnswered reports whether the dismissal at token i waves nothing
// away:
//   - it quotes or states a rule ("the spec says ignore", "receivers MUST
//     ignore it");
//   - it concludes from a check stated earlier in its sentence, with no
//     failure reported there ("I checked the UI: it sorts the items, so the
//     order does not matter").
func (a *analysis) dismissalAnswered(i int) bool {
	t := a.tokens
	sent := t[i].sent
	for k := i - 1; k >= 0 && k >= i-10 && t[k].sent == sent; k-- {
		if quoteWords()[t[k].s] || ruleModals()[t[k].s] && k >= i-3 {
			return true
		}
	}
	// Hits and checks are recorded in text order, so the last of each
	// tells whether one stands earlier in this sentence.
	sentStart := a.sents[sent].start
	if f := a.hits[clFailure]; len(f) > 0 && f[len(f)-1].start >= sentStart {
		return false
	}
	c := a.checks
	return len(c) > 0 && c[len(c)-1].start >= sentStart && c[len(c)-1].start < t[i].start
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
		// Test runners' tallies: "88 pass, 0 fail", "156 passing".
		"pass": true, "passing": true, "fail": true, "failed": true, "failing": true, "skipped": true,
		"succeeded": true,
	}
})

// outputWords are what command output says.
var outputWords = [][]string{
	{"exit", "code"}, {"exit", "status"}, {"exited", "0"}, {"returned", "0"}, {"pass"}, {"ok"},
	{"http", "200"}, {"http", "500"}, {"status", "200"}, {"status", "500"}, {"0", "failures"},
	{"no", "output"}, {"no", "matches"}, {"zero", "hits"}, {"build", "green"}, {"ci", "green"},
}

// outputFirst reports whether w starts one of outputWords.
func outputFirst(w string) bool {
	switch w {
	case "exit", "exited", "returned", "pass", "ok", "http", "status", "0", "no", "zero", "build", "ci":
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
	// Command lines: a line (or list item, or "key:" value) that starts
	// with a command and passes it a flag or a path: "- ran: curl -s
	// localhost:8080/v1", "go test ./cache -run TTL".
	for ls := 0; ls < len(d); {
		le := strings.IndexByte(d[ls:], '\n')
		if le < 0 {
			le = len(d) - ls
		}
		if sp, ok := commandLine(d[ls : ls+le]); ok {
			add(ls+int(sp.start), ls+int(sp.end))
		}
		ls += le + 1
	}
	// Counts, measurements and command output, on the tokens.
	var lone []span
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
			if ok && len(ow) == 1 {
				// A bare "PASS" is a verdict ("RESULT: PASS"); it is a
				// tool's output when something checked stands beside it.
				lone = append(lone, span{t[k].start, t[k].end})
				break
			}
			if ok {
				add(int(t[k].start), int(t[k+len(ow)-1].end))
				k += len(ow) - 1
				break
			}
		}
	}
	if len(lone) > 0 {
		checked := make(map[int]bool, len(a.specific))
		for _, s := range a.specific {
			checked[a.sentOf(s.start)] = true
		}
		for _, l := range lone {
			if checked[a.sentOf(l.start)] {
				add(int(l.start), int(l.end))
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

// dropAnswerFigures takes out of the evidence and the numbers the figures
// written on a line of the initial or final answer ("at most 500 rows per
// page"): they are the claim, not a check of it. File refs, test names and
// commands there still count.
func (a *analysis) dropAnswerFigures(sc *SelfCritique) {
	if sc.InitialAnswer == "" && sc.FinalAnswer == "" {
		return
	}
	answerLines := map[string]bool{}
	for _, ans := range [2]string{sc.InitialAnswer, sc.FinalAnswer} {
		for _, al := range strings.Split(ans, "\n") {
			if al = strings.TrimSpace(al); al != "" {
				answerLines[al] = true
			}
		}
	}
	d := a.doc
	// The spans come in text order: walk the lines alongside them.
	filter := func(spans []span) []span {
		out := spans[:0]
		ls, le, onAnswer := 0, -1, false
		for _, s := range spans {
			if c := d[s.start]; c < '0' || c > '9' {
				out = append(out, s)
				continue
			}
			if int(s.start) > le {
				ls = strings.LastIndexByte(d[:s.start], '\n') + 1
				if ls < le {
					ls = le + 1
				}
				le = strings.IndexByte(d[s.start:], '\n')
				if le < 0 {
					le = len(d)
				} else {
					le += int(s.start)
				}
				onAnswer = answerLines[strings.TrimSpace(d[ls:le])]
			}
			if !onAnswer {
				out = append(out, s)
			}
		}
		return out
	}
	a.specific = filter(a.specific)
	a.numbers = filter(a.numbers)
}

// commandLine finds a command at the start of line: after indentation, a
// list marker and one "key:" label, a command word followed, within its
// next three arguments, by a flag (-x) or a path (./x, a/b). It returns
// the command's extent in line.
func commandLine(line string) (span, bool) {
	i := 0
	skip := func() {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	skip()
	if i+1 < len(line) && (line[i] == '-' || line[i] == '*' || line[i] == '+') && line[i+1] == ' ' {
		i += 2
		skip()
	}
	if c := strings.IndexByte(line[i:], ':'); c > 0 && c < 24 && !strings.ContainsAny(line[i:i+c], " \t/") && i+c+1 < len(line) && line[i+c+1] == ' ' {
		i += c + 1
		skip()
	}
	f := strings.Fields(line[i:])
	if len(f) < 2 || !commandWords()[strings.ToLower(f[0])] {
		return span{}, false
	}
	for _, arg := range f[1:min(len(f), 4)] {
		if len(arg) > 1 && (arg[0] == '-' && arg[1] != '-' && arg[1] != ' ' || strings.HasPrefix(arg, "--") && len(arg) > 2 || strings.Contains(arg, "/")) {
			return span{int32(i), int32(len(line))}, true
		}
	}
	return span{}, false
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
// own remainder states a check verb ("…, so I ran Y"), or one of whose next
// settleReach sentences states a check — a check verb ("I ran", "re-read",
// "traced") or specific evidence (a file:line, a test name, a command, a
// count; not a cited § or ticket) — with no new doubt in between, no
// failure or dismissal in the check's sentence and no hedge in the two
// sentences after it. The doubt's hedges, question, failure and dismissal
// words then count as none; the pair is recorded in a.settled.
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
	// hedged marks the sentences that hedge (not merely ask): a hedge
	// soon after a check reopens the doubt it settled ("… I haven't rerun
	// yet"); a new question is a new doubt of its own.
	hedged := make([]bool, n)
	for _, c := range []class{clHedge, clModal, clUnknown} {
		for _, s := range a.hits[c] {
			markDoubt(s)
			if k := a.sentOf(s.start); k >= 0 {
				hedged[k] = true
			}
		}
	}
	reopens := func(m int) bool {
		for x := m + 1; x < n && x <= m+2; x++ {
			if hedged[x] {
				return true
			}
		}
		return false
	}
	for _, s := range a.questions {
		// A question's doubt sits where the question starts.
		markDoubt(s)
	}
	for _, s := range a.checks {
		markCheck(s)
	}
	for _, s := range a.specific {
		// A section or ticket cited is where to look, not a check made.
		if !a.citation(s) {
			markCheck(s)
		}
	}
	// A check that reports a failure or is waved away ("… but that's
	// close enough") settles nothing.
	against := make([]bool, n)
	for _, c := range []class{clFailure, clDismissal} {
		for _, s := range a.hits[c] {
			if k := a.sentOf(s.start); k >= 0 {
				against[k] = true
			}
		}
	}
	// answeredBy returns the sentence that settles the doubt of sentence
	// k, or -1: one of the next settleReach sentences of the same field
	// that states a check, with no new doubt from the doubt up to it and
	// no hedge in the two sentences after it. The sentences in between may
	// restate the question's subject or say what the check will show
	// ("Answer.", "The spec says so.").
	answeredBy := func(k int) int {
		f := a.fieldOf(a.sents[k].start)
		for m := k + 1; m < n && m <= k+settleReach; m++ {
			if info[m].doubtAt >= 0 || a.fieldOf(a.sents[m].start) != f {
				return -1
			}
			if info[m].checkAt >= 0 {
				if against[m] || reopens(m) {
					return -1
				}
				return m
			}
		}
		return -1
	}
	settledSent := make([]bool, n)
	for k := 0; k < n; k++ {
		if info[k].doubtAt < 0 {
			continue
		}
		end := int32(-1)
		switch {
		case verbAt[k] > info[k].lastDoub && !reopens(k):
			end = a.sents[k].end // "I wasn't sure X, so I ran Y"
		case answeredBy(k) >= 0:
			end = a.sents[answeredBy(k)].end
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
	// A failure or dismissal word inside a settled doubt is asked about,
	// not reported ("do we crash on unknown types?").
	for _, c := range []class{clHedge, clModal, clUnknown, clConditional, clFailure, clDismissal} {
		a.hits[c] = keep(a.hits[c])
	}
	a.questions = keep(a.questions)
	a.fpu = keep(a.fpu)
}

// settleReach is how many sentences after a doubt its settling check may
// come: a reader takes a question answered within the next few sentences
// of the same paragraph as answered.
const settleReach = 3

// citation reports whether the specific evidence s is a spec section or a
// ticket or PR id (§4.2, #3310, OPS-221) rather than a result.
func (a *analysis) citation(s span) bool {
	t := a.doc[s.start:s.end]
	if strings.HasPrefix(t, "§") || strings.HasPrefix(t, "#") {
		return true
	}
	k := 0
	for k < len(t) && t[k] >= 'A' && t[k] <= 'Z' {
		k++
	}
	return k >= 2 && k+1 < len(t) && t[k] == '-' && isDigits(t[k+1:])
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

// successWords state that the thing checked works: a verdict.
var successWords = lazySet(func() map[string]bool {
	return map[string]bool{
		"pass": true, "passes": true, "passed": true, "passing": true, "works": true, "working": true,
		"fixed": true, "resolved": true, "good": true, "green": true, "lgtm": true, "approve": true,
		"approved": true, "approving": true, "ship": true, "complies": true, "compliant": true,
		"success": true, "successful": true, "succeeded": true, "fine": true, "correct": true,
		"addressed": true, "done": true,
	}
})

// beforeWords place a reported failure before the change under review (a
// reproduction, a mutation check, the bug that was fixed): "fails on
// main", "17/200 before", "fails when I revert the fix", "the timeout is
// fixed".
var beforeWords = lazySet(func() map[string]bool {
	return map[string]bool{
		"before": true, "previously": true, "originally": true, "earlier": true, "prior": true,
		"main": true, "master": true, "baseline": true, "without": true, "used": true, "old": true,
		"repro": true, "reproduced": true, "until": true, "unpatched": true, "parent": true, "revert": true,
		"reverted": true, "reverting": true, "reverts": true, "mutation": true,
		// A failure its own sentence calls fixed is the bug report.
		"fixed": true, "resolved": true, "gone": true, "addressed": true,
	}
})

// scanOverruled finds failures the text reports and then overrules: a
// failure (not placed before the change, not asked about) in a text that
// still gives a success verdict (passes, works, fixed, all good, LGTM) in
// another sentence or after it, with no later sentence saying that it now
// passes. The evidence contradicts the claim it is offered for.
func (a *analysis) scanOverruled() {
	fails := a.hits[clFailure]
	if len(fails) == 0 {
		return
	}
	t := a.tokens
	beforeSent := make([]bool, len(a.sents)+1)
	for _, tk := range t {
		if beforeWords()[tk.s] {
			beforeSent[tk.sent] = true
		}
	}
	tok := 0
	// The failures that stand: none of their sentence's words places them
	// before the change.
	var standing []span
	var standingSent []int32
	for _, f := range fails {
		for tok < len(t) && t[tok].end <= f.start {
			tok++
		}
		if tok >= len(t) {
			break
		}
		sent := t[tok].sent
		// "still climbs", "still fails": a failure that outlived the change.
		if t[tok].s == "still" {
			standing = append(standing, f)
			standingSent = append(standingSent, sent)
			continue
		}
		if !beforeSent[sent] {
			standing = append(standing, f)
			standingSent = append(standingSent, sent)
		}
	}
	if len(standing) == 0 {
		return
	}
	failSent := make(map[int32]bool, len(standingSent))
	for _, s := range standingSent {
		failSent[s] = true
	}
	first, last := standing[0], standing[len(standing)-1]
	lastSent := standingSent[len(standingSent)-1]
	verdict, fixedLater := false, false
	qs, qi := a.questions, 0
	nowSent := int32(-1) // the sentence in which "now" or "after" was last seen
	for i, tk := range t {
		if tk.s == "now" || tk.s == "after" {
			nowSent = tk.sent
		}
		if !successWords()[tk.s] || a.negatedBy(i) >= 0 {
			continue
		}
		for qi < len(qs) && qs[qi].end <= tk.start {
			qi++
		}
		if qi < len(qs) && qs[qi].start <= tk.start {
			continue // asked, not concluded
		}
		if tk.sent > lastSent && nowSent == tk.sent {
			// "… now passes", "after the fix it passes": the failure was
			// dealt with.
			fixedLater = true
		}
		// A success word after a failure is a verdict over it; one
		// before it counts when it stands in a sentence of its own (a
		// list "A: pass, B: FAIL" is no verdict).
		if tk.start > first.start || !failSent[tk.sent] {
			verdict = true
		}
	}
	if verdict && !fixedLater {
		a.overruled = append(a.overruled, last)
	}
}
