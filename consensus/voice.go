package consensus

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Most lookups are asked by coding agents before they act, and agents
// word a question in their own way: they frame it ("I plan to…",
// "Proposed approach:", "Implementing PR #412 —", "per CONTRIBUTING.md,",
// "As discussed in the design doc,"), hedge it ("I think we should…", "to
// be safe"), mark it up (backticks, **bold**, "-" bullets, numbered plan
// steps) and give a rule as the configuration that carries it
// ("max_retries = 5", "automerge: false", "// retries: 5",
// "--lockout=15m"). None of that is what the question asks or what the
// position says, but the comparison reads every word: "As discussed in
// the design doc" is an added condition, the step numbers "1." "2." are
// numbers the record does not say, "automerge: false" is "automerge".
//
// This file reads the question as the words it says before the lookup
// reads it: the framing and hedges dropped, the markup removed, plan
// steps and bullets as the items they list, a configuration key and its
// value as words ("automerge: false" is "not automerge"). It is applied to the
// question's topic (voiceTopic) and to both positions compared
// (voicePosition), so that a record filed in the same voice reads the
// same. It never adds meaning: what it cannot read it leaves as written.

// maxVoiced bounds the text voicePosition and voiceTopic rewrite: the
// comparison reads no more than maxAnalyzed bytes of a position, and the
// rewriting must stay cheap on hostile input. Longer text is cut (at a
// character boundary) before it is rewritten.
const maxVoiced = 2 * maxAnalyzed

// voiceRule is one rewrite of an agent's wording, applied in the order of
// voiceRules.
type voiceRule struct {
	name string
	// topic, position: the rule applies to topics, to positions.
	topic, position bool
	// tidy: the rule only tidies what the others changed (the text as
	// asked is left as it is).
	tidy  bool
	apply func(string) string
}

// voiceRules are the rewrites, in order: markup first (what remains is
// text), then the items of a list, then the framing of each item, then
// the configuration syntax.
var voiceRules = []voiceRule{
	{"markup", true, true, false, dropMarkup},
	{"log frames", false, true, false, logFrames},
	{"agent trace", false, true, false, agentAnswer},
	{"agent confidence", false, true, false, dropConfidence},
	{"agent sections", false, true, false, ruleSection},
	{"code forms", false, true, false, codeForms},
	{"particles", false, true, false, dropParticles},
	{"plan steps and bullets", false, true, false, listItems},
	{"work framing", true, true, false, dropWorkFraming},
	{"hedges", false, true, false, dropHedges},
	{"framing", false, true, false, dropFraming},
	{"calendar entries", false, true, false, icalWords},
	{"spreadsheet times", false, true, false, sheetTimes},
	{"linked data", false, true, false, turtleValues},
	{"file labels", false, true, false, dropFileLabel},
	{"config values", false, true, false, configValues},
	{"topic labels", true, false, false, dropTopicLabels},
	{"task verb", true, false, false, dropTaskVerb},
	{"space", true, true, true, collapseSpace},
}

// voicePosition is a position as the words it says (see voiceRules).
func voicePosition(s string) string { return voiced(s, false) }

// voiceTopic is a question's topic as the words it asks: its markup and
// its framing as a piece of work ("Implementing PR #412 —", "Add …")
// dropped. A topic left empty by that is returned as written.
func voiceTopic(s string) string { return voiced(s, true) }

func voiced(s string, topic bool) string {
	in := s
	if len(s) > maxVoiced {
		cut := maxVoiced
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	for _, r := range voiceRules {
		if topic && !r.topic || !topic && !r.position || r.tidy && s == in {
			continue
		}
		s = r.apply(s)
	}
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		// Nothing left to read (only markup, or only framing): the text
		// as written is all there is.
		return in
	}
	return s
}

// voiceWindow bounds what a rewrite reads at one place of the text: a
// framing or a list marker is a few words long.
const voiceWindow = 160

// markup are the markers that set off text without saying anything:
// backticks, bold, strikethrough.
var markup = strings.NewReplacer("`", "", "**", "", "__", "", "~~", "")

// dropMarkup drops backticks and bold and strikethrough markers; the
// text they mark stays as it is.
func dropMarkup(s string) string {
	if strings.IndexByte(s, '\\') >= 0 {
		s = texTable.Replace(s)
	}
	if !strings.ContainsAny(s, "`*_~") {
		return s
	}
	return markup.Replace(s)
}

// texTable are the rules and row ends of a LaTeX table row ("… & 14
// nights \\ \hline"): the row's cells stay, as its "&" separates them.
var texTable = strings.NewReplacer(`\hline`, " ", `\toprule`, " ", `\midrule`, " ", `\bottomrule`, " ", `\cline`, " ", `\\`, ". ")

// atStarts rewrites s at the starts of its clauses (seps: the bytes that
// end one; "\n" always does, and the start of s is one), where the
// expression pick gives for what follows (anchored; nil when none can
// match there) matches the next voiceWindow bytes (spaces skipped; a
// sentence's punctuation ends one only when a space follows it): the
// match is replaced by what repl returns for it, or kept when repl says
// so. pick is cheap: a regular expression costs microseconds at each
// start. At most a few rewrites in a row at one start ("As agreed, I think
// we should").
func atStarts(s, seps string, pick func(rest string) *regexp.Regexp, repl func(s string, m []int) (string, bool)) string {
	var b strings.Builder
	last := 0
	var end [256]bool
	for i := range len(seps) {
		end[seps[i]] = true
	}
	end['\n'] = true
	for i := 0; i < len(s); i++ {
		if i > 0 && !end[s[i-1]] {
			continue
		}
		if i > 0 && strings.IndexByte(".!?:", s[i-1]) >= 0 && s[i] != ' ' && s[i] != '\t' {
			continue // "3.19", "https://", "e.g.": not the end of a sentence
		}
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		for range 3 {
			if j == len(s) {
				break
			}
			re := pick(s[j:])
			if re == nil {
				break
			}
			m := re.FindStringSubmatchIndex(s[j:min(len(s), j+voiceWindow)])
			if m == nil {
				break
			}
			out, ok := repl(s[j:], m)
			if !ok {
				break
			}
			b.WriteString(s[last:j])
			b.WriteString(out)
			last = j + m[1]
			j = last
		}
		if j > i {
			i = j - 1
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// dropMatch is a repl of atStarts that drops what matched.
func dropMatch(string, []int) (string, bool) { return "", true }

// itemRE: the marker of a list item: a bullet ("- ", "* ", "+ ", "• ")
// or a plan step's number ("1.", "2)", "(3)", "Step 4:"). Group 1 is a
// step's number. A code comment's marker ("// ") is left: the comparison
// reads a remark so marked apart from the rule.
var itemRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[-*+•][ \t]+|(\(?[0-9]{1,2}[.)][ \t]+|(?i:step)[ \t]+[0-9]{1,2}[ \t]*[:.)—–-][ \t]*))`)
})

// listItems turns a list (bullets, numbered plan steps, lines) into its
// items separated by "; ": the markers dropped at the start of the text,
// of a line, after ";" or after a sentence, each line an item. A step's
// number must be followed by a word ("5. 10 retries" is not a step); a
// bullet is "-" and a space ("-16 LUFS" is a number).
func listItems(s string) string {
	s = atStarts(s, ";.!?:", itemPick, func(rest string, m []int) (string, bool) {
		if m[2] >= 0 && (m[1] >= len(rest) || rest[m[1]] >= '0' && rest[m[1]] <= '9') {
			return "", false
		}
		return "", true
	})
	if strings.Contains(s, "\n") {
		lines := strings.Split(s, "\n")
		out := lines[:0]
		for _, l := range lines {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, strings.TrimRight(l, ";"))
			}
		}
		s = strings.Join(out, "; ")
	}
	return s
}

// itemPick: a list marker starts with a bullet, a slash, a digit, a
// bracket or "step".
func itemPick(rest string) *regexp.Regexp {
	if strings.IndexByte("-*+/(0123456789sS", rest[0]) >= 0 || strings.HasPrefix(rest, "•") {
		return itemRE()
	}
	return nil
}

// workPick: a piece of work is named by its number ("#412") or is a
// reply ("Re:").
func workPick(rest string) *regexp.Regexp {
	w := rest[:min(len(rest), voiceWindow)]
	if strings.IndexByte(w, '#') >= 0 || len(w) >= 3 && strings.EqualFold(w[:3], "re:") {
		return workFramingRE()
	}
	return nil
}

// framingPick: the framings that start with the clause's first word
// (its letters, up to an apostrophe or a space).
func framingPick(rest string) *regexp.Regexp {
	n := 0
	for n < len(rest) && n < 16 && (rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z') {
		n++
	}
	if n == 0 {
		return nil
	}
	return framingREs()[asciiLower(rest[:n])]
}

// clauseEnds are the bytes after which framing may stand (with the start
// of the text): the end of a clause or of a sentence, an opening
// bracket, a dash.
const clauseEnds = ";:.!?,(—–-"

// workFramingRE: a piece of work named before what it is about:
// "Implementing PR #412 —", "PR #57:", "Fixes #9:", "Re:".
var workFramingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i:(?:(?:implementing|implements|implement|addressing|address|fixing|fixes|fix|closing|closes|close|resolving|resolves|resolve|following up on|follow-up to|follow up on|working on|re)[ \t]*:?[ \t]*)?` +
		`(?:(?:pr|pull request|mr|merge request|issue|ticket|task)[ \t]*)?#[0-9]+[ \t]*(?:[:—–-][ \t]*|$)|re:[ \t]*)`)
})

func dropWorkFraming(s string) string {
	if !strings.ContainsAny(s, "#:") {
		return s
	}
	return atStarts(s, clauseEnds, workPick, dropMatch)
}

// framingREs: the framings of a position, by their first word: what it
// follows ("As discussed in the design doc,", "per CONTRIBUTING.md,",
// "Per the runbook:"), a label ("Proposed approach:", "My plan is to")
// and the speaker's intention ("I plan to", "I'll", "I think we should",
// "Let's", "I'm leaning towards"). Only at the start of a clause; a
// source needs its comma or colon ("per account per 15 minutes" is the
// rule).
var framingREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	const source = `(?:[\w./-]+\.(?:md|txt|rst|adoc)|[A-Z][A-Z_]{2,}(?:\.md)?|(?:[\w-]+[ \t]+){0,3}(?:doc|docs|documentation|guide|guidelines|runbook|spec|specification|rfc|adr|readme|contributing|playbook|conventions|policy|ticket|issue|discussion|review|thread|decision|standards?))`
	followed := `(?:[ \t]+(?:the |our )?` + source + `[ \t]*(?:[,:.;)]|$))`
	label := `(?:approach|plan|proposal|solution|fix|idea|suggestion)[ \t]*:`
	labelled := `[ \t]+(?:` + label + `|(?:plan|approach|proposal|idea|suggestion)[ \t]+(?:is|would be)(?:[ \t]+(?:to|that))?)`
	opinion := `(?:[ \t]+that)?[ \t]*,?[ \t]*(?:(?:we|you)[ \t]+(?:should|could|ought to|need to|can))?`
	intent := `(?:'ll|'m|'re| will| am| are| would|'d)?(?:[ \t]+(?:just|probably|also|now|then|first))?[ \t]+(?:plan(?:ning)? to|intend to|want to|going to|gonna|lean(?:ing)? (?:towards?|to)|inclined to|decided to|will|go with)|(?:'ll| will|'m going to| am going to)`
	numbered := `[ \t]*[0-9]+(?:\.[0-9]+)*[a-z]?[ \t]*[:—–]`
	onRecord := `(?:[ \t]+[\w'-]+){1,4}?[ \t]+(?:confirmed|agreed|agrees|acknowledged|acknowledges|noted|notes|decided|resolved|accepted|accepts|reaffirmed|minuted)[ \t]+that\b[ \t]*,?`
	alts := map[string]string{
		// "As discussed in the design doc,", "As agreed,".
		"as":  `as (?:(?:previously |already )?(?:discussed|agreed|decided|noted|planned|described|documented|specified|requested|mentioned|proposed|suggested)(?:(?:[ \t]+(?:in|on|with|by|at|during)[ \t]+(?:the |our |a )?[^,:;.]{1,40})?[ \t]*[,:]|(?:[ \t]+(?:in|on|with|by|at|during)[ \t]+(?:the |our |a )?` + source + `)?[ \t]*(?:[.;)]|$))|per` + followed + `)`,
		"see": `see` + followed,
		// "per CONTRIBUTING.md,", "Per the API guidelines:", "according to the runbook,".
		"per": `per` + followed, "according": `according to` + followed, "following": `following` + followed,
		"consistent": `consistent with` + followed,
		"in":         `in (?:line with` + followed + `|my (?:opinion|view)` + opinion + `)`,
		// "Proposed approach:", "Plan:", "My plan is to".
		"proposed": `proposed[ \t]+` + label, "suggested": `suggested[ \t]+` + label, "planned": `planned[ \t]+` + label,
		"recommended": `recommended[ \t]+` + label,
		// "The board confirmed that", "The crew member acknowledges that,",
		// "It was agreed that": a body or a person putting the rule on
		// record.
		"my": `my` + labelled, "our": `our` + labelled + `|our` + onRecord, "the": `the` + labelled + `|the` + onRecord,
		"it":       `it[ \t]+(?:was|is|has been)[ \t]+(?:agreed|decided|confirmed|resolved|noted|minuted)[ \t]+that\b[ \t]*,?`,
		"approach": label, "plan": label, "proposal": label, "solution": label, "fix": label, "idea": label, "suggestion": label,
		// "I think we should", "I'd suggest we", "IMO", "I plan to", "I'll".
		"i":   `i(?:[ \t]+(?:think|believe|guess|suppose|feel|reckon)` + opinion + `|(?:'d| would)?[ \t]+(?:suggest|recommend|propose)(?:[ \t]+(?:that|we|to))*|` + intent + `)`,
		"imo": `imo` + opinion, "imho": `imho` + opinion,
		"we":  `we(?:` + intent + `)`,
		"let": `let(?:'s| us| me)`,
		// "Rule 14:", "Bye-law 5:", "Regulation 9 —", "Clause 4.2:": the
		// number of the rule in its rule book, before the rule.
		"rule": `rule` + numbered, "regulation": `regulation` + numbered, "bye": `bye-?law` + numbered, "bylaw": `bylaw` + numbered,
		"byelaw": `byelaw` + numbered, "clause": `clause` + numbered, "section": `section` + numbered, "article": `article` + numbered,
	}
	res := make(map[string]*regexp.Regexp, len(alts))
	for w, a := range alts {
		res[w] = regexp.MustCompile(`^(?i:` + a + `)[ \t]*`)
	}
	return res
})

func dropFraming(s string) string {
	return atStarts(s, clauseEnds, framingPick, func(rest string, m []int) (string, bool) {
		if t := strings.TrimRight(rest[:m[1]], " \t"); t != "" && strings.IndexByte(".;)", t[len(t)-1]) >= 0 {
			// A source named at the end of a sentence: the end stays.
			return t[len(t)-1:], true
		}
		// A word, not the start of one: "Iceland", "letters".
		if m[1] < len(rest) && m[1] > 0 && wordByte(rest[m[1]-1]) && wordByte(rest[m[1]]) {
			return "", false
		}
		// "Let me know if …", "let us know by Friday": a request to the
		// reader, not the writer's framing of what follows.
		if after := asciiLower(rest[m[1]:]); strings.HasPrefix(after, "know") && (len(after) == 4 || !wordByte(after[4])) {
			return "", false
		}
		return "", true
	})
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// hedges are said anywhere in a position and say nothing of the rule
// ("for now" is not one: it says when the rule ends).
var hedges = []string{"just to be safe", "to be on the safe side", "to be safe", "probably", "perhaps", "maybe", "arguably"}

// dropHedges drops the hedges (whole words, case aside) and a comma
// after one.
func dropHedges(s string) string {
	low := asciiLower(s)
	var b strings.Builder
	last := 0
	for i := 0; i < len(low); i++ {
		if c := low[i]; c != 'j' && c != 't' && c != 'p' && c != 'm' && c != 'a' || i > 0 && wordByte(low[i-1]) {
			continue
		}
		for _, h := range hedges {
			if !strings.HasPrefix(low[i:], h) || i+len(h) < len(low) && wordByte(low[i+len(h)]) {
				continue
			}
			end := i + len(h)
			if end < len(low) && low[end] == ',' {
				end++
			}
			b.WriteString(s[last:i])
			last, i = end, end-1
			break
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// asciiLower lower-cases the ASCII letters of s alone, so that offsets
// into it are offsets into s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// fileLabelRE: a comment that names the file a configuration is written
// in, at the start of the text ("# gallery-lighting.toml", "// privacy.js",
// "-- site.lua:"): where the rule is kept, not a word of it.
var fileLabelRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[ \t]*(?:#|//|--|;)[ \t]*[\w.-]+\.(?:toml|ya?ml|json|ini|cfg|conf|env|properties|xml|jsx?|tsx?|py|lua|rb|php|go|rs|kt|java|cs|swift|sql|tf|hcl|sh)[ \t]*:?(?:[ \t]+|$)`)
})

// dropFileLabel drops the file's name fileLabelRE finds.
func dropFileLabel(s string) string {
	if !strings.ContainsAny(s, "#/-;") {
		return s
	}
	if loc := fileLabelRE().FindStringIndex(s); loc != nil && loc[1] < len(s) {
		switch nextLetters(s, loc[1]) {
		case "for", "in", "of", "on", "from", "at", "to":
			return s // "# values.yaml for routing-svc": the comment says more
		}
		return s[loc[1]:]
	}
	return s
}

// configValues reads each configuration key and its value (`max_retries
// = 5`, `log.format: json`, `--lockout=15m`, `cacheTTL: 60s`) as words:
// the key's words ("max retries", "log format", "cache ttl", "lockout")
// and the value after them; a yes/no value becomes the key said or
// denied. A key is one identifier; a plain word and a colon ("Note:",
// "queue: sidekiq") is read as written unless its value says yes or no
// and it starts its item. Times ("02:00"), URLs and comparisons ("<=",
// "==") are not keys.
func configValues(s string) string {
	if !strings.ContainsAny(s, "=:") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '=' && c != ':' || i == 0 || i+1 < len(s) && (s[i+1] == '=' || s[i+1] == '/') || strings.IndexByte("<>!=:", s[i-1]) >= 0 {
			continue
		}
		// The key: identifier bytes before the separator (spaces aside).
		k := i
		for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') && i-k < 4 {
			k--
		}
		ke := k
		// A quoted key: JSON's "max_retries": 5, PHP's and Ruby's
		// 'max_height_m' => 120.
		quote := byte(0)
		if k > last+1 && (s[k-1] == '"' || s[k-1] == '\'') {
			quote = s[k-1]
		}
		quoted := quote != 0
		if quoted {
			ke--
			k--
		}
		for k > last && k > ke-64 && (wordByte(s[k-1]) || s[k-1] == '.' || s[k-1] == '-') {
			k--
		}
		if quoted && (k == last || s[k-1] != quote) {
			continue
		}
		dashes := 0
		for k < ke && s[k] == '-' {
			k++
			dashes++
		}
		if k == ke || !(s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z') {
			continue
		}
		key := strings.TrimRight(s[k:ke], ".-")
		if key == "http" || key == "https" || sectionNumber(strings.TrimLeft(key, "vV")) {
			continue // "Changelog v2.0:" numbers a note (numberedLabel)
		}
		// The value: to the next space or separator ("=>" is one
		// separator).
		at := i + 1
		if c == '=' && at < len(s) && s[at] == '>' {
			at++
		}
		v, ve := valueAt(s, at)
		if fieldTypes()[strings.ToLower(s[v:ve])] {
			// A typed field ("min_samples: int = 3", "val minMs: Int =
			// 500"): the value is what its "=" gives.
			e := ve
			for e < len(s) && (s[e] == ' ' || s[e] == '\t') {
				e++
			}
			if e < len(s) && s[e] == '=' && (e+1 == len(s) || s[e+1] != '=') {
				v, ve = valueAt(s, e+1)
			}
		}
		val := s[v:ve]
		if val != "" && val[0] >= '0' && val[0] <= '9' && i > 0 && s[i-1] >= '0' && s[i-1] <= '9' && !digitKey(key) {
			continue // "02:00", "4.5:1"
		}
		start := k - dashes // where the key is written, its dashes and quote included
		if quoted {
			start--
		}
		p := start
		for p > 0 && (s[p-1] == ' ' || s[p-1] == '\t') {
			p--
		}
		itemStart := p == 0 || strings.IndexByte(";,({\n", s[p-1]) >= 0
		identifier := dashes > 0 || strings.ContainsAny(key, "_.") || camel(key) || c == '=' || quoted && itemStart
		say, yn := yesNo(val)
		words := keyWords(key)
		if words == "exempt" && (identifier || itemStart) && !yn {
			if who, end, ok := listValue(s, v, true); ok {
				// "exempt: ['medical bag', 'baby-changing bag']" is
				// "except medical bag, baby-changing bag", as a rule
				// names what its rule is not for.
				b.WriteString(s[last:start])
				b.WriteString("except " + who)
				if keyNext(s[end:]) {
					b.WriteString(";")
				}
				last, i = end, end-1
				continue
			}
		}
		if !identifier && (!yn || !itemStart) {
			if w := valueWords(val); w != strings.Trim(val, `"'`) && valueEnds(s[ve:]) {
				// "approver: LineManagerOnly" is "approver: line
				// manager only", its key as written; not a name that
				// prose goes on about ("nit: MaxPlotsPerHousehold
				// should be 4"), which stays as written.
				b.WriteString(s[last:v])
				b.WriteString(w)
				last, i = ve, ve-1
			}
			continue
		}
		if who, end, ok := exemptList(words, s, v); ok {
			// "exempt_from_weekly_cap: [facility_staff]" is "facility
			// staff exempt from weekly cap", as a rule says who is
			// exempt before what from.
			b.WriteString(s[last:start])
			b.WriteString(who + " " + words)
			if keyNext(s[end:]) {
				b.WriteString(";")
			}
			last, i = end, end-1
			continue
		}
		b.WriteString(s[last:start])
		if ex, ok := setAsideKey(words); ok && (say != "not" && say != "no" && say != "never" || !yn) {
			// "limitsExemptDuring=live_sports_coverage" is "limits
			// except during live sports coverage".
			b.WriteString(ex)
			if !yn {
				b.WriteString(" " + valueWords(val))
			}
			if keyNext(s[ve:]) {
				b.WriteString(";")
			}
			last, i = ve, ve-1
			continue
		}
		switch {
		case yn && say == "":
			b.WriteString(keyWords(key))
		case yn:
			b.WriteString(say + " " + keyWords(key))
		default:
			b.WriteString(keyValueWords(words, valueWords(val)))
		}
		if keyNext(s[ve:]) {
			// Another key follows on the line ("max_fill_pct = 50
			// min_seat_spacing_m = 1.2"): the value ends its item, so
			// that no word of the next key reads as its unit.
			b.WriteString(";")
		}
		last, i = ve, ve-1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// valueWords is a configuration value as a rule says it: its quotes
// dropped, and a value that names a case or an action in camelCase, of
// three words or more, written as its words ("PublishingSystemFault" is
// "publishing system fault", "onlyIfResidentConsented" "only if resident
// consented"), as the other side says them, a day or a month with its
// capital. Not a name of one or two humps ("PostgreSQL", "GitHub",
// "iPhone"): a name is written as it is.
func valueWords(val string) string {
	v := strings.Trim(val, `"'`)
	if d, ok := durationWords(v); ok {
		return d
	}
	w := strings.TrimPrefix(v, ":")
	if w == "" || !camel(w) || strings.IndexFunc(w, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }) >= 0 {
		return v
	}
	words := keyWords(w)
	if strings.Count(words, " ") < 2 {
		return v
	}
	f := strings.Fields(words)
	for i, x := range f {
		if weekdays()[x] || monthWords()[x] && x != "may" && x != "march" && len(x) > 3 {
			// A day or a month keeps its capital, as a date is written
			// ("EveryMondayBeforeOpening" is "every Monday before
			// opening"); not "may", "march": as often a verb.
			f[i] = strings.ToUpper(x[:1]) + x[1:]
		}
	}
	return strings.Join(f, " ")
}

// durationWords reads a duration value written in ISO 8601 ("P30D",
// "PT15M", "P1Y6M", "PT1H30M") or as a Go or Prometheus duration of more
// than one part ("1h30m", "2d12h", "1m30s") as a rule says it: "30 days",
// "15 minutes", "18 months", "90 minutes", "60 hours", the parts counted
// in the smallest unit written, so that "PT1H30M" is the "90 minutes" or
// "1.5 hours" the other side says. A duration of one part in Go's form
// ("90m", "168h") is read as a number and its unit already. Years and
// months are not counted with days or hours (a month has no fixed number
// of days): "P1M15D" is left as written, as is anything else.
func durationWords(v string) (string, bool) {
	if len(v) < 3 || len(v) > 24 {
		return "", false
	}
	iso := v[0] == 'P'
	if !iso && (v[0] < '0' || v[0] > '9') {
		return "", false
	}
	// The units in the order a duration writes them, each with its
	// length in seconds (0: counted in months) and its name.
	type unit struct {
		sym     string
		seconds int64
		months  int64
		name    string
	}
	units := [...]unit{
		{"Y", 0, 12, "year"}, {"M", 0, 1, "month"}, {"W", 604800, 0, "week"}, {"D", 86400, 0, "day"},
		{"H", 3600, 0, "hour"}, {"M", 60, 0, "minute"}, {"S", 1, 0, "second"},
	}
	goUnits := [...]unit{
		{"w", 604800, 0, "week"}, {"d", 86400, 0, "day"}, {"h", 3600, 0, "hour"}, {"m", 60, 0, "minute"}, {"s", 1, 0, "second"},
	}
	var total, months int64
	parts, next, smallest := 0, 0, -1
	i := 0
	if iso {
		i = 1
	}
	timePart := false
	for i < len(v) {
		if iso && v[i] == 'T' && !timePart {
			timePart, next = true, max(next, 4)
			i++
			if i == len(v) {
				return "", false
			}
			continue
		}
		j := i
		for j < len(v) && v[j] >= '0' && v[j] <= '9' && j-i < 6 {
			j++
		}
		if j == i || j == len(v) {
			return "", false
		}
		n, err := strconv.ParseInt(v[i:j], 10, 64)
		if err != nil {
			return "", false
		}
		found := -1
		if iso {
			for k := next; k < len(units); k++ {
				if units[k].sym == v[j:j+1] && (k >= 4) == timePart {
					found = k
					break
				}
			}
		} else {
			for k := next; k < len(goUnits); k++ {
				if goUnits[k].sym == v[j:j+1] {
					found = k
					break
				}
			}
		}
		if found < 0 {
			return "", false
		}
		u := units[found]
		if !iso {
			u = goUnits[found]
		}
		total += n * u.seconds
		months += n * u.months
		parts++
		next, smallest = found+1, found
		i = j + 1
	}
	if parts == 0 || !iso && parts < 2 || months > 0 && total > 0 {
		return "", false
	}
	u := units[smallest]
	if !iso {
		u = goUnits[smallest]
	}
	n := total / max(u.seconds, 1)
	if u.months > 0 {
		n = months / u.months
	}
	name := u.name
	if n != 1 {
		name += "s"
	}
	return strconv.FormatInt(n, 10) + " " + name, true
}

// digitKey reports whether a key that ends with a number is an
// identifier that a number ends ("maxWalkMilesGradesKto2: 0.25",
// "speed_zone3: 20"), not a time or a ratio ("02:00", "4.5:1"): a key of
// letters, split by "_" or a camelCase hump, whose number follows a
// letter.
func digitKey(key string) bool {
	d := strings.TrimRight(key, "0123456789")
	if d == "" || d == key || !(strings.Contains(d, "_") || camel(d)) {
		return false
	}
	c := d[len(d)-1]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// valueEnds reports whether rest, what follows a value, ends its item:
// nothing, a separator or a bracket ("approver: LineManagerOnly }"), or
// another key ("alert: BaleUnderweight expr: …").
func valueEnds(rest string) bool {
	t := strings.TrimLeft(rest, " \t")
	return t == "" || strings.IndexByte(",;})]\n", t[0]) >= 0 || keyNext(rest)
}

// exemptList reads the value of a key that says what its value is exempt
// from ("exempt_from_limit", "exemptFromDeduction"): a word or a list of
// them at s[v:] ("[staff]", "['pass/fail modules', visitors]"). It
// returns the words of the list and where the value ends.
func exemptList(words, s string, v int) (who string, end int, ok bool) {
	if !strings.HasPrefix(words, "exempt from ") {
		return "", 0, false
	}
	return listValue(s, v, false)
}

// listValue reads a value of one word or a list of them at s[v:]
// ("[staff]", "['pass/fail modules', visitors]", ":puppies", and with
// quoted true a quoted phrase, "'medical bag'") and returns its words and
// where it ends. With quoted true an item written in camelCase is read as
// its words too ("pregnantFemales" is "pregnant females").
func listValue(s string, v int, quoted bool) (who string, end int, ok bool) {
	if v >= len(s) {
		return "", 0, false
	}
	item := func(it string) string {
		if quoted && camel(it) && !strings.ContainsAny(it, " \t") {
			return keyWords(it)
		}
		return strings.ReplaceAll(it, "_", " ")
	}
	if quoted && (s[v] == '"' || s[v] == '\'') {
		e := strings.IndexByte(s[v+1:min(len(s), v+97)], s[v])
		if e <= 0 || strings.ContainsAny(s[v+1:v+1+e], "[]{}()=") {
			return "", 0, false
		}
		return item(s[v+1 : v+1+e]), v + e + 2, true
	}
	if s[v] != '[' {
		ve := v
		for ve < len(s) && ve-v < 64 && (wordByte(s[ve]) || s[ve] == '-' || s[ve] == ':') {
			ve++
		}
		if ve == v {
			return "", 0, false
		}
		return item(strings.Trim(s[v:ve], ":")), ve, true
	}
	e := strings.IndexByte(s[v:min(len(s), v+96)], ']')
	if e < 0 || strings.ContainsAny(s[v+1:v+e], "[{}()=") {
		return "", 0, false
	}
	var items []string
	for _, it := range strings.Split(s[v+1:v+e], ",") {
		if it = strings.Trim(it, " \t\"':"); it != "" {
			items = append(items, item(it))
		}
	}
	if len(items) == 0 {
		return "", 0, false
	}
	return strings.Join(items, ", "), v + e + 1, true
}

// setAsideKey reads a key that sets its rule aside in a case it names
// ("limitsExemptDuring", "SUPPRESS_ALERT_DURING_SCHEDULED_CLEANING",
// "bypassWhenRaining", "override_if") as the exception a rule writes:
// "limits except during live sports coverage", "alert except during
// scheduled cleaning", "except when raining". The word that sets the
// rule aside comes before "if", "when", "during" or "while", with at
// most one word between ("suppress alert during"). Not "skip_if" nor
// "waived_if": the reader takes "skip it if" and "waived if" as the rule
// set aside as they are written.
func setAsideKey(words string) (string, bool) {
	f := strings.Fields(words)
	for i, w := range f {
		if !setAsideKeyWords()[w] {
			continue
		}
		for j := i + 1; j < len(f) && j <= i+2; j++ {
			switch f[j] {
			case "if", "when", "during", "while":
				if j == i+2 && (setAsideKeyWords()[f[i+1]] || f[i+1] == "only") {
					return "", false
				}
				out := append(append(append([]string{}, f[:i]...), f[i+1:j]...), "except")
				return strings.Join(append(out, f[j:]...), " "), true
			}
		}
		return "", false
	}
	return "", false
}

// setAsideKeyWords are the words of a key that set its rule aside in the
// case after them (setAsideKey).
var setAsideKeyWords = wordSet("exempt exempted bypass bypassed suppress suppressed override")

// keyValueWords reads a key's words and its value as a sentence says
// them. A zero that says the key's thing is not there is "no" before it:
// "grace_period_minutes = 0" is "no grace period minutes",
// "cancellation_fee_gbp: 0" "no cancellation fee gbp", as a rule says
// "no grace period" (not a bound's zero, "min_stock: 0", nor a point on a
// scale, "start_hour: 0", "temp_c: 0"). A unit of one measure per another
// that the key ends with is written after the value, as a rule writes it:
// "max_wind_m_s: 20" is "max wind 20 m/s", "chlorine_min_mgl = 1.0"
// "chlorine min 1.0 mg/l".
func keyValueWords(words, val string) string {
	if w, ok := keyCompared(words, val); ok {
		return w
	}
	if zeroValue(val) && !slices.ContainsFunc(strings.Fields(words), func(w string) bool { return zeroKeeps()[w] || strings.ContainsAny(w, "0123456789") }) {
		return "no " + words
	}
	if rest, u, ok := compoundUnit(words); ok && val != "" && val[0] >= '0' && val[0] <= '9' {
		return rest + " " + val + " " + u
	}
	if before, per, ok := unitPer(words); ok && plainNumber(val) {
		// "eur_per_linear_metre = 2" is "2 eur per linear metre", not
		// "eur per linear metre 2" (2 metres).
		return strings.TrimLeft(before+" "+val+" "+per, " ")
	}
	if rest, u, ok := unitInside(words); ok && plainNumber(val) {
		// "KYC_REFRESH_MONTHS_HIGH=12" is "kyc refresh high 12
		// months", as a rule writes the number before its unit.
		return rest + " " + val + " " + u
	}
	return words + " " + val
}

// keyCompared reads a key that ends with the comparison its number is
// held to, the unit of the number just before it, as a rule says them:
// the comparison, the number, then its unit.
// "review_if_amount_eur_over: 50000" is "review if amount over 50000 eur",
// "adjuster_if_policy_age_days_lt: 30" "adjuster if policy less than 30
// days old",
// "start_if_wetbulb_c_at_or_below: 1" "start if wetbulb at or below 1
// °C", "cancel_if_aqi_gte = 201" "cancel if aqi at least 201": else the
// number loses both its unit and its bound, and the key's "lt" reads as a
// word of its condition. Only a plain number.
func keyCompared(words, val string) (string, bool) {
	v := strings.Trim(val, `"'`)
	if !plainNumber(v) {
		return "", false
	}
	f := strings.Fields(words)
	n := len(f)
	if n < 2 {
		return "", false
	}
	k, cmp := n-1, ""
	switch f[n-1] {
	case "lt":
		cmp = "less than"
	case "gt":
		cmp = "more than"
	case "lte", "le":
		cmp = "at most"
	case "gte", "ge":
		cmp = "at least"
	case "over", "under", "above", "below":
		cmp = f[n-1]
		if n >= 3 && f[n-2] == "or" {
			// "c_or_below", "c_at_or_below"
			k, cmp = n-2, "or "+cmp
			if n >= 4 && f[n-3] == "at" {
				k, cmp = n-3, "at "+cmp
			}
		}
	case "least", "most":
		if n < 3 || f[n-2] != "at" {
			return "", false
		}
		k, cmp = n-2, "at "+f[n-1]
	default:
		return "", false
	}
	rest, u := f[:k], ""
	if len(rest) >= 2 {
		if w, ok := comparedUnit(rest[len(rest)-1]); ok {
			rest, u = rest[:len(rest)-1], " "+w
		}
	}
	if n := len(rest); u != "" && n >= 2 && rest[n-1] == "age" && ageUnits()[strings.TrimSpace(u)] {
		// "policy_age_days_lt: 30" is "policy less than 30 days old",
		// as a rule says an age.
		rest, u = rest[:n-1], u+" old"
	}
	if len(rest) == 0 {
		return "", false
	}
	if strings.HasPrefix(cmp, "or ") {
		// "count_or_below: 3" is "count 3 or below".
		return strings.Join(rest, " ") + " " + v + u + " " + cmp, true
	}
	return strings.Join(rest, " ") + " " + cmp + " " + v + u, true
}

// comparedUnit is a unit a key says before its comparison ("days",
// "eur", "kmh", "c") as it is written after a number.
func comparedUnit(w string) (string, bool) {
	switch w {
	case "c":
		return "°C", true
	case "f":
		return "°F", true
	case "deg":
		return "degrees", true
	case "min", "mins":
		return "minutes", true
	case "kmh", "kph", "mph", "kt", "kts", "knots":
		return w, true
	case "ms":
		return "", false // milliseconds, or metres a second ("wind_ms_above")
	}
	if _, ok := keyUnits()[w]; ok {
		return w, true
	}
	if _, ok := measures()[w]; ok {
		return w, true
	}
	if measureSuffixes()[w] {
		return w, true
	}
	return "", false
}

// ageUnits are the units an age is counted in (keyCompared).
var ageUnits = wordSet("days weeks months years d w y")

// unitInside reads a unit of time a key says before one or two words
// that qualify it ("refresh months high", "dwell hours pharmacy") and
// returns the key's words without it and the unit. Not a unit before a
// word that ties it to another thing ("minutes from home", "hours per
// day", "days before start").
func unitInside(words string) (rest, u string, ok bool) {
	f := strings.Fields(words)
	n := len(f)
	for i := 1; i < n-1 && i >= n-3; i++ {
		if _, unit := keyUnits()[f[i]]; !unit || f[i] == "s" || f[i] == "h" || f[i] == "ms" {
			continue
		}
		for _, w := range f[i+1:] {
			if unitTies()[w] {
				return "", "", false
			}
			if _, unit := keyUnits()[w]; unit {
				return "", "", false
			}
		}
		return strings.Join(append(append([]string{}, f[:i]...), f[i+1:]...), " "), f[i], true
	}
	return "", "", false
}

// unitTies are the words after a unit that tie it to another thing
// (unitInside).
var unitTies = wordSet("per before after ahead from of since until till to in between within while if when during each every max min maximum minimum over under above below lt gt at or and percent")

// unitPer reads a unit of measures said of so much per another thing
// that key words hold ("eur per linear metre", "price gbp per night",
// "free kg per passenger") and returns the words before the unit and the
// unit with what follows it: the number a rule writes before the unit.
func unitPer(words string) (before, per string, ok bool) {
	f := strings.Fields(words)
	for p := 1; p+1 < len(f); p++ {
		if f[p] != "per" {
			continue
		}
		if _, unit := measures()[f[p-1]]; !unit || strings.ContainsAny(f[p-1], "0123456789") {
			return "", "", false
		}
		return strings.Join(f[:p-1], " "), strings.Join(f[p-1:], " "), true
	}
	return "", "", false
}

// plainNumber reports whether a value is a number and nothing else
// ("2", "0.25").
func plainNumber(v string) bool {
	return v != "" && v[0] >= '0' && v[0] <= '9' && strings.Trim(v, "0123456789.") == "" && strings.Count(v, ".") <= 1
}

// zeroValue reports whether a value is the number zero ("0", "0.00").
func zeroValue(v string) bool {
	if v == "" || v[0] != '0' {
		return false
	}
	v = strings.TrimLeft(v, "0")
	if v == "" {
		return true
	}
	return v[0] == '.' && len(v) > 1 && strings.Trim(v[1:], "0") == ""
}

// zeroKeeps are the words of a key whose zero is a value, not an absence:
// a bound ("max_retries: 0", "min_age: 0": the limit is a number), a point
// on a scale or in time ("start_hour: 0", "utc_offset: 0", "temp_c: 0"),
// a number that names ("version: 0", "port: 0"), a time before or
// after which something happens ("alert_after_minutes: 0" is at once)
// and a count of so many per another ("h100_per_region = 0", as a rule
// says "0 H100 GPUs per region"). Nor a key with a digit ("h100: 0"):
// it names what is counted.
var zeroKeeps = wordSet("min minimum max maximum limit cap threshold floor ceiling lt gt lte gte le ge below above under over " +
	"from until to at start end begin offset index idx id version level priority rank order tier position seed port code status exit " +
	"hour minute second day month year time weekday clock utc tz timezone lat lon latitude longitude x y z " +
	"c f temp temperature celsius fahrenheit degrees deg after before within trigger reorder score balance default initial base shift per")

// compoundUnit reads the unit of one measure per another that key words
// end with ("mm s", "m s", "km h", "mg l", "mg per kg", "mgl") and
// returns the words before it and the unit as a rule writes it ("mm/s");
// so too percentage points ("discount_pp" is "0.25 percentage points", a
// rate's change, not a share). Not "l min": a key's "min" is as often a
// minimum ("tank_l_min = 200").
func compoundUnit(words string) (rest, u string, ok bool) {
	f := strings.Fields(words)
	n := len(f)
	if n >= 2 && f[n-1] == "mgl" {
		return strings.Join(f[:n-1], " "), "mg/l", true
	}
	per := func(w string) bool {
		switch w {
		case "s", "sec", "h", "hr", "l", "kg", "g", "ml", "m", "km", "cm", "ha":
			return true
		}
		return false
	}
	num := func(w string) bool {
		m, ok := measures()[w]
		return ok && m.dim != "" && len(w) <= 3
	}
	if n >= 2 && f[n-1] == "pp" {
		return strings.Join(f[:n-1], " "), "percentage points", true
	}
	switch {
	case n >= 4 && f[n-2] == "per" && num(f[n-3]) && per(f[n-1]):
		return strings.Join(f[:n-3], " "), f[n-3] + "/" + f[n-1], true
	case n >= 3 && num(f[n-2]) && per(f[n-1]) && f[n-2] != f[n-1]:
		return strings.Join(f[:n-2], " "), f[n-2] + "/" + f[n-1], true
	}
	return "", "", false
}

// valueAt is where the configuration value that starts at s[at] (after at
// most three spaces) begins and ends: a quoted value spaces and all ("14
// days"), else to the next space or separator.
func valueAt(s string, at int) (v, ve int) {
	v = at
	for v < len(s) && (s[v] == ' ' || s[v] == '\t') && v-at < 3 {
		v++
	}
	ve = v
	if v < len(s) && s[v] == '"' {
		if q := strings.IndexByte(s[v+1:min(len(s), v+65)], '"'); q >= 0 {
			ve = v + q + 2
		}
	}
	for ve < len(s) && ve-v < 64 && strings.IndexByte(" \t\n;,(){}", s[ve]) < 0 {
		ve++
	}
	return v, ve
}

// fieldTypes are the type names of a typed field's declaration
// (Python, Kotlin, Scala, TypeScript, Rust), written lower case.
var fieldTypes = wordSet("int float str bool tuple list dict set decimal long double string boolean number duration i32 i64 u32 u64 f32 f64 usize")

// keyNext reports whether rest, what follows a value, starts (after
// spaces) with another key and its separator on the same line: "min_x =
// 1", `"max_y": 2`.
func keyNext(rest string) bool {
	t := strings.TrimLeft(rest, " \t")
	if t == rest {
		return false
	}
	t = strings.TrimPrefix(t, `"`)
	n := 0
	for n < len(t) && n < 64 && (wordByte(t[n]) || t[n] == '.' || t[n] == '-') {
		n++
	}
	if n == 0 {
		return false
	}
	t = strings.TrimLeft(strings.TrimPrefix(t[n:], `"`), " \t")
	return t != "" && (t[0] == '=' || t[0] == ':') && !strings.HasPrefix(t, "://")
}

// yesNo is how a value that says yes or no reads before its key ("not",
// "no", "never", "always" or ""), and whether it is one. The values that
// say whether the key holds rather than what it is: "automerge: false" is
// "not automerge", "cache.enabled = off" "no cache enabled",
// "commit_secrets: never" "never commit secrets". "none" and "null" are
// not among them: they name an option as often as they deny one
// ("SameSite=None", "compression: none").
func yesNo(val string) (string, bool) {
	v := strings.Trim(val, `"'`)
	// PowerShell's "$false", Objective-C's "@NO", Fortran's ".TRUE.".
	if len(v) > 2 && (v[0] == '$' || v[0] == '@') {
		v = v[1:]
	} else if len(v) > 2 && v[0] == '.' && v[len(v)-1] == '.' {
		v = v[1 : len(v)-1]
	}
	switch strings.ToLower(v) {
	case "false":
		return "not", true
	case "no", "off", "disabled":
		return "no", true
	case "never":
		return "never", true
	case "always":
		return "always", true
	case "true", "yes", "on", "enabled":
		return "", true
	}
	return "", false
}

// camel reports whether a key is written in camelCase ("cacheTTL",
// "maxRetries"): a lower-case letter followed by a capital.
func camel(key string) bool {
	for i := 1; i < len(key); i++ {
		if key[i] >= 'A' && key[i] <= 'Z' && key[i-1] >= 'a' && key[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// keyWords are a key's words: split at "_", ".", "-" and camelCase humps,
// lower-cased ("REFUND_WINDOW_DAYS" is "refund window days",
// "maxHTTPRetries" "max http retries").
func keyWords(key string) string {
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_' || c == '.' || c == '-':
			b.WriteByte(' ')
			continue
		case c >= 'A' && c <= 'Z' && i > 0 && key[i-1] >= 'a' && key[i-1] <= 'z':
			b.WriteByte(' ')
		case c >= 'A' && c <= 'Z' && i > 0 && key[i-1] >= 'A' && key[i-1] <= 'Z' && i+2 < len(key) && key[i+1] >= 'a' && key[i+1] <= 'z' && key[i+2] >= 'a' && key[i+2] <= 'z':
			b.WriteByte(' ') // "ServingASubway", "HTTPServer": a word after capitals
		}
		b.WriteByte(c)
	}
	return strings.ToLower(b.String())
}

// taskVerbRE: a topic written as a task title ("Add retry logic to the
// webhook sender", "Set up the CI workflow", "Wiring the updater to
// release channels"): the verb of the task says
// what the agent will do, not what the question is about. A word that is
// as often a noun ("Review of translated documents", "Change freeze",
// "Merge strategy") is read as the verb only before an article.
var taskVerbRE = sync.OnceValue(func() *regexp.Regexp {
	const verbs = `add|implement|set up|configure|create|write|raise|lower|increase|decrease|reduce|speed up|clean up|refactor|choose|pick|decide on|decide|define|enable|disable|introduce|apply|send|bump|switch to|move to|migrate to|investigate|adjust|tweak|improve|wire up|hook up|rework|revisit|finalize|finalise`
	const nouns = `review|design|support|change|update|merge|build|run|fix|upgrade|handle|document|setup|cleanup|tune|drop|remove|rename`
	// The same as an agent writes its task in the present ("Adding
	// request IDs to the logger", "Building the payout job"): the verbs
	// that only say work is done, else, before an article, the verbs
	// that a record's own topic may start with ("Running database
	// migrations during deploys", "Testing with screen readers").
	const doing = `adding|implementing|setting up|configuring|wiring up|wiring|hooking up|scaffolding|integrating|introducing|bumping|refactoring|investigating|tweaking|automating|simplifying|unblocking|relaxing|loosening|tightening|streamlining|optimi[sz]ing|reducing|lowering|raising|increasing|decreasing|shortening|lengthening|extending|tuning|fixing|trimming|cutting down|cutting|consolidating|deprecating|retiring|replacing|porting`
	const doingThe = `building|writing|creating|getting|running|testing|fixing|handling|updating|changing|speeding up|cleaning up|protecting|hardening|turning on|turning off|enabling|disabling|improving|reworking|migrating|moving|switching|saving|modelling|modeling|backfilling|making`
	return regexp.MustCompile(`^(?i:[ \t]*(?:please[ \t]+)?(?:(?:` + verbs + `|` + doing + `)[ \t]+(?:(?:the|a|an|our)[ \t]+)?|(?:` + nouns + `|` + doingThe + `)[ \t]+(?:the|a|an|our)[ \t]+))`)
})

// topicLabelREs: what labels a topic without asking anything: a commit
// subject's type ("feat(api):", "fix:"; its scope stays as a word), a
// piece of work in brackets at the end ("(working on PLAT-88)",
// "(implementing RT-57)"), and a component's tag read as its name
// ("<DatePicker>" is no "below … above").
var topicLabelREs = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`^[ \t]*(?:(?:feat|fix|chore|docs|refactor|perf|test|tests|build|ci|style|revert)(?:\(([^()]{1,40})\))?!?|(?i:plan|proposal|question|q|idea|todo|draft|rfc|task|goal|ask|story|epic|bug|request|fyi|note|spike|follow-?up|next steps?|action items?))[ \t]*:[ \t]*`),
		regexp.MustCompile(`[ \t]*\((?i:(?:working on|implementing|implements|part of|for|see|per|re|refs?|fixes|closes|ticket|task|issue)[ \t]+)?[A-Z][A-Z0-9]*-[0-9]+\)[ \t]*$`),
		regexp.MustCompile(`<([A-Za-z][A-Za-z0-9_.]*)[ \t]*/?>`),
	}
})

// dropTopicLabels drops the labels of a topic (topicLabelREs), unless
// nothing is left.
func dropTopicLabels(s string) string {
	if !strings.ContainsAny(s, ":(<") {
		return s
	}
	re := topicLabelREs()
	out := re[0].ReplaceAllString(s, "$1 ")
	out = re[1].ReplaceAllString(out, "")
	out = re[2].ReplaceAllString(out, "$1")
	if strings.TrimSpace(out) == "" {
		return s
	}
	return out
}

// dropTaskVerb drops the verb of a task title, unless nothing else is
// left ("Add", "Add the").
func dropTaskVerb(s string) string {
	loc := taskVerbRE().FindStringIndex(s)
	if loc == nil {
		return s
	}
	rest := strings.Fields(strings.ToLower(s[loc[1]:]))
	if !slices.ContainsFunc(rest, func(w string) bool { return w != "the" && w != "a" && w != "an" && w != "our" }) {
		return s
	}
	return s[loc[1]:]
}

// collapseSpace trims the text and turns runs of spaces into one, and
// drops separators left with nothing between them ("; ;").
func collapseSpace(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "()", "")), " ")
	// A comma or a space left before the end of a sentence whose last
	// words were dropped (", ." but not ", .js").
	for _, p := range []string{", .", ",.", " ."} {
		for i := strings.Index(s, p); i >= 0; {
			end := i + len(p)
			if end < len(s) && s[end] != ' ' {
				next := strings.Index(s[end:], p)
				if next < 0 {
					break
				}
				i = end + next
				continue
			}
			s = s[:i] + "." + s[end:]
			next := strings.Index(s[i+1:], p)
			if next < 0 {
				break
			}
			i = i + 1 + next
		}
	}
	s = strings.ReplaceAll(s, ", ;", ";")
	for strings.Contains(s, "; ;") {
		s = strings.ReplaceAll(s, "; ;", ";")
	}
	return strings.Trim(s, " ;,")
}

// agentTraceRE finds the answer an agent's trace ends with: "Action
// Input:" after a "Thought:" or an "Action:" (a ReAct step), or "Final
// Answer:" at the start of a line.
var agentTraceRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)^.*?(?:\bthought\s*:|\baction\s*:).*\baction\s+input\s*:\s*|^(?:.*\n)?[ \t]*final\s+answer\s*:\s*`)
})

// agentAnswer is what an agent's reasoning trace gives as its input or
// its answer ("Thought: … Action: consensus_check Action Input: the rule"
// is "the rule"), or s as it is.
func agentAnswer(s string) string {
	if strings.IndexByte(s, ':') < 0 || !containsFold(s, "input") && !containsFold(s, "answer") {
		return s // every trace labels its parts with a colon
	}
	if loc := agentTraceRE().FindStringIndex(s); loc != nil && loc[1] < len(s) {
		return strings.Trim(s[loc[1]:], " \t\n\"'`")
	}
	return s
}

// confidenceRE finds the confidence an agent appends to its answer, at
// the end of the text after a sentence's end or a line break:
// "Confidence: 0.9", "(confidence: high)", "Confidence = 85%". A key of a
// configuration indented under its section ("  confidence: 0.9") or
// glued to another word ("min_confidence: 0.9") is no such trailer.
var confidenceRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:(?:[.!?;]|\n|^)[ \t]*[(\[]?|[ \t]*[(\[])[ \t]*confidence(?:[ \t]+(?:score|level))?[ \t]*[:=][ \t]*(?:[0-9]+(?:\.[0-9]+)?[ \t]*%?|very[ \t]+high|high|medium|moderate|low)[ \t]*[)\]]?[ \t.]*$`)
})

// dropConfidence drops the confidence confidenceRE finds: it grades the
// agent's answer, it is no number of the rule.
func dropConfidence(s string) string {
	if !containsFold(s, "confidence") {
		return s
	}
	loc := confidenceRE().FindStringIndex(s)
	if loc == nil || loc[0] == 0 {
		return s
	}
	// Keep the sentence's end the trailer followed.
	end := loc[0]
	if c := s[end]; c == '.' || c == '!' || c == '?' || c == ';' {
		end++
	}
	return strings.TrimRight(s[:end], " \t\n")
}

// particleRE: the discourse particles of Philippine and Singapore English
// ("po", "lah", "lor", "leh", "ha", and "lang" for "just") where they
// end a clause: lower case, before a comma, a sentence's end or the end.
var particleRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[ \t]+(?:po|lah|lor|leh|ha|lang)([,.!?;:]|$)`)
})

// dropParticles drops the discourse particles particleRE finds, keeping
// the punctuation after them.
func dropParticles(s string) string {
	for _, p := range [...]string{" po", " lah", " lor", " leh", " ha", " lang"} {
		if strings.Contains(s, p) {
			return particleRE().ReplaceAllString(s, "$1")
		}
	}
	return s
}

// upperTails are the capitals of the words the voice rules look for
// (containsFold), made once.
var upperTails = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, w := range []string{"input", "answer", "confidence", "time(", "rule", "decision", "policy", "conclusion"} {
		m[w[1:]] = strings.ToUpper(w[1:])
	}
	return m
})

// upperTail is tail in capitals.
func upperTail(tail string) string {
	if u, ok := upperTails()[tail]; ok {
		return u
	}
	return strings.ToUpper(tail)
}

// containsFold reports whether s holds the lower-case ASCII word w
// written in lower case, in capitals or capitalised ("confidence",
// "CONFIDENCE", "Confidence"), without a lower-cased copy of s.
func containsFold(s, w string) bool {
	if len(w) < 2 {
		return strings.Contains(s, w) || strings.Contains(s, strings.ToUpper(w))
	}
	tail := w[1:]
	if !strings.Contains(s, tail) && !strings.Contains(s, upperTail(tail)) {
		return false // the common case, by a fast search
	}
	for i := 0; i+len(w) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}
