package consensus

import (
	"regexp"
	"slices"
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
	apply           func(string) string
}

// voiceRules are the rewrites, in order: markup first (what remains is
// text), then the items of a list, then the framing of each item, then
// the configuration syntax.
var voiceRules = []voiceRule{
	{"markup", true, true, dropMarkup},
	{"plan steps and bullets", false, true, listItems},
	{"work framing", true, true, dropWorkFraming},
	{"hedges", false, true, dropHedges},
	{"framing", false, true, dropFraming},
	{"config values", false, true, configValues},
	{"task verb", true, false, dropTaskVerb},
	{"space", true, true, collapseSpace},
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
		if topic && !r.topic || !topic && !r.position {
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

// markupRE: backticks, bold and strikethrough markers, and code comment
// markers ("// ", "/* … */") at the start of an item.
var markupRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("`+|\\*\\*|__|~~|(?m)(?:^|;)[ \\t]*(?://+|/\\*+|\\*+/)[ \\t]*|[ \\t]*\\*+/")
})

func dropMarkup(s string) string {
	return markupRE().ReplaceAllStringFunc(s, func(m string) string {
		switch t := strings.TrimSpace(m); {
		case strings.HasPrefix(t, ";"):
			return "; "
		case strings.HasPrefix(t, "/") || strings.HasPrefix(t, "*") && len(t) > 2:
			return " " // a comment marker
		}
		return "" // backticks, bold: the text they mark stays as it is
	})
}

// itemRE: the marker of a list item at the start of the text, of a line,
// after ";" or after a sentence: a bullet ("- ", "* ", "+ ", "• ") or a
// plan step's number ("1.", "2)", "(3)", "Step 4:") followed by the
// item's first word (not by a number: "5. 10 retries" is not a step). A
// bullet is "-" and a space: "-16 LUFS" is a number.
var itemRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)(^|;|[.!?:][ \t]+)[ \t]*(?:[-*+•][ \t]+([^\s])|(?:\(?[0-9]{1,2}[.)][ \t]+|step[ \t]+[0-9]{1,2}[ \t]*[:.)—–-][ \t]*)([^\s0-9]))`)
})

// listItems turns a list (bullets, numbered plan steps, lines) into its
// items separated by "; ": the markers dropped, each line an item.
func listItems(s string) string {
	s = itemRE().ReplaceAllString(s, "$1 $2$3")
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

// clauseStart is where framing may stand: the start of the text or of a
// clause.
const clauseStart = `(^|[;:.!?,(][ \t]*|[ \t][—–-][ \t]*)`

// workFramingRE: a piece of work named before what it is about:
// "Implementing PR #412 —", "PR #57:", "Fixes #9:", "Re:".
var workFramingRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` + clauseStart +
		`(?:(?:implementing|implements|implement|addressing|address|fixing|fixes|fix|closing|closes|close|resolving|resolves|resolve|following up on|follow-up to|follow up on|working on|re)[ \t]*:?[ \t]*)?` +
		`(?:(?:pr|pull request|mr|merge request|issue|ticket|task)[ \t]*)?#[0-9]+[ \t]*(?:[:—–-][ \t]*|$)|^[ \t]*re:[ \t]*`)
})

func dropWorkFraming(s string) string { return workFramingRE().ReplaceAllString(s, "$1") }

// framingRE: the framing of a position: what it follows ("As discussed in
// the design doc,", "per CONTRIBUTING.md,", "Per the runbook:"), a label
// ("Proposed approach:", "My plan is to") and the speaker's intention
// ("I plan to", "I'll", "I think we should", "Let's", "I'm leaning
// towards"). Only at the start of a clause; a source needs its comma or
// colon ("per account per 15 minutes" is the rule).
var framingRE = sync.OnceValue(func() *regexp.Regexp {
	const source = `(?:[\w./-]+\.(?:md|txt|rst|adoc)|[A-Z][A-Z_]{2,}(?:\.md)?|(?:[\w-]+[ \t]+){0,3}(?:doc|docs|documentation|guide|guidelines|runbook|spec|specification|rfc|adr|readme|contributing|playbook|conventions|policy|ticket|issue|discussion|review|thread|decision|standards?))`
	alts := []string{
		// "As discussed in the design doc,", "As agreed,".
		`as (?:previously |already )?(?:discussed|agreed|decided|noted|planned|described|documented|specified|requested|mentioned|proposed|suggested)(?:[ \t]+(?:in|on|with|by|at|during)[ \t]+(?:the |our |a )?[^,:;.]{1,40})?[ \t]*[,:]`,
		// "per CONTRIBUTING.md,", "Per the API guidelines:", "according to the runbook,".
		`(?:per|according to|following|in line with|consistent with)[ \t]+(?:the |our )?` + source + `[ \t]*[,:]`,
		// "Proposed approach:", "Plan:", "My plan is to".
		`(?:(?:proposed|suggested|planned|recommended|my|our|the)[ \t]+)?(?:approach|plan|proposal|solution|fix|idea|suggestion)[ \t]*:`,
		`(?:my|our|the)[ \t]+(?:plan|approach|proposal|idea|suggestion)[ \t]+(?:is|would be)(?:[ \t]+(?:to|that))?`,
		// "I think we should", "I'd suggest we", "IMO".
		`(?:i[ \t]+(?:think|believe|guess|suppose|feel|reckon)|imo|imho|in my (?:opinion|view))(?:[ \t]+that)?[ \t]*,?[ \t]*(?:(?:we|you)[ \t]+(?:should|could|ought to|need to|can))?`,
		`i(?:'d| would)?[ \t]+(?:suggest|recommend|propose)(?:[ \t]+(?:that|we|to))*`,
		// "I plan to", "I'll", "I'm going to", "I'm leaning towards".
		`(?:i|we)(?:'ll|'m|'re| will| am| are| would|'d)?(?:[ \t]+(?:just|probably|also|now|then|first))?[ \t]+(?:plan(?:ning)? to|intend to|want to|going to|gonna|lean(?:ing)? (?:towards?|to)|inclined to|decided to|will|go with)`,
		`(?:i|we)(?:'ll| will|'m going to| am going to)`,
		`let(?:'s| us| me)`,
	}
	return regexp.MustCompile(`(?i)` + clauseStart + `[ \t]*(?:` + strings.Join(alts, "|") + `)[ \t]*`)
})

// dropFraming drops the framing of each clause, again while some is left
// ("I think we should" after "As agreed,").
func dropFraming(s string) string {
	re := framingRE()
	for range 3 {
		t := re.ReplaceAllString(s, "$1")
		if t == s {
			break
		}
		s = t
	}
	return s
}

// hedgeRE: hedges anywhere in a position ("to be safe", "for now" is not
// one: it says when the rule ends).
var hedgeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i),?[ \t]*\b(?:just[ \t]+)?to be (?:safe|on the safe side)\b,?|\b(?:probably|perhaps|maybe|arguably)\b[ \t]*,?`)
})

func dropHedges(s string) string { return hedgeRE().ReplaceAllString(s, " ") }

// configRE: a configuration key and its value: `max_retries = 5`,
// `log.file: none`, `--lockout=15m`, `cacheTTL: 60s`. The key is one
// identifier (or a few words at the start of an item); the value runs to
// the next separator.
var configRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[;,({\n][ \t]*|[ \t])(--?)?([A-Za-z][A-Za-z0-9]*(?:[_.\-][A-Za-z0-9]+)*)[ \t]*(=|:)[ \t]*([^\s;,){}]*)`)
})

// falseValues and trueValues are the values that say whether the key
// holds rather than what it is: "automerge: false" is "not automerge",
// "cache.enabled = off" "no cache enabled", "commit_secrets: never"
// "never commit secrets". "none" and "null" are not among them: they
// name an option as often as they deny one ("SameSite=None",
// "compression: none").
var (
	falseValues = map[string]string{"false": "not", "no": "no", "off": "no", "disabled": "no", "never": "never"}
	trueValues  = map[string]string{"true": "", "yes": "", "on": "", "enabled": "", "always": "always"}
)

// configValues reads each configuration key as words ("max_retries" is
// "max retries", "log.format" "log format", "cacheTTL" "cache TTL") and
// its value after it; a yes/no value becomes the key said or denied.
func configValues(s string) string {
	return configRE().ReplaceAllStringFunc(s, func(m string) string {
		sub := configRE().FindStringSubmatch(m)
		lead, dashes, key, sep, val := sub[1], sub[2], sub[3], sub[4], sub[5]
		identifier := dashes != "" || strings.ContainsAny(key, "_.") || camel(key) || sep == "="
		if !identifier {
			// "Note: …", "queue: sidekiq": a plain word and a colon
			// read as they are, unless the value says yes or no of a
			// key that starts its item ("committed secrets: never" is
			// not "committed never secrets").
			if _, ok := yesNo(val); !ok || strings.TrimSpace(lead) == "" && lead != "" {
				return m
			}
		}
		if key == "http" || key == "https" || strings.HasPrefix(val, "//") {
			return m // a URL
		}
		words := keyWords(key)
		if say, ok := yesNo(val); ok {
			if say == "" {
				return lead + words
			}
			return lead + say + " " + words
		}
		return lead + words + " " + val
	})
}

// yesNo is how a value that says yes or no reads before its key ("not",
// "no", "never", "always" or ""), and whether it is one. Only the value's
// first word counts ("never (encrypted included)").
func yesNo(val string) (string, bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(val), " ")
	first = strings.ToLower(strings.Trim(first, `"'`))
	if say, ok := falseValues[first]; ok {
		return say, true
	}
	if say, ok := trueValues[first]; ok {
		return say, true
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
// lower-cased ("REFUND_WINDOW_DAYS" is "refund window days").
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
		}
		b.WriteByte(c)
	}
	return strings.ToLower(b.String())
}

// taskVerbRE: a topic written as a task title ("Add retry logic to the
// webhook sender", "Set up CI for feature branches"): the verb of the
// task says what the agent will do, not what the question is about.
var taskVerbRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^[ \t]*(?:please[ \t]+)?(?:add|implement|set up|setup|configure|create|write|fix|update|raise|lower|increase|decrease|reduce|speed up|clean up|cleanup|refactor|choose|pick|decide on|decide|define|document|enable|disable|introduce|support|handle|build|design|review|apply|merge|send|run|bump|upgrade|switch to|move to|migrate to|investigate|change|adjust|tune|tweak|improve|wire up|hook up|rework|revisit|finalize|finalise)[ \t]+(?:the[ \t]+|a[ \t]+|an[ \t]+|our[ \t]+)?`)
})

// dropTaskVerb drops the verb of a task title, unless nothing else is
// left ("Add" alone, "Build the build").
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
	s = strings.Join(strings.Fields(s), " ")
	for strings.Contains(s, "; ;") {
		s = strings.ReplaceAll(s, "; ;", ";")
	}
	s = strings.NewReplacer(" ,", ",", " .", ".", " ;", ";").Replace(s)
	return strings.Trim(s, " ;,")
}
