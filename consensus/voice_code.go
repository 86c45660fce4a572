package consensus

import (
	"regexp"
	"strings"
	"sync"
)

// Rules written as code say their keys and values in forms of their own:
// a Lisp association list pairs them with a dot ("(max-nights . 14)", "#t"
// for true), and a designated initializer marks the key with one
// (".max_nights = 14" in Zig or C). codeForms rewrites each as the keys
// and values the configuration reader reads (configValues). (The message
// of a check, "require(nights <= 14, \"too long\")", is left as it is: it
// names the failure as often as it says the rule again.)

var (
	// dottedPairRE: a Lisp pair "(key . value)" whose key is a symbol.
	dottedPairRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\(\s*([A-Za-z][\w-]*)\s+\.\s+("[^"]*"|[^()\s]+)\s*\)`)
	})
	// initializerRE: a designated initializer's key, ".max_nights =".
	initializerRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(^|[{(,;\s])\.([A-Za-z_]\w*)\s*=`)
	})
)

func codeForms(s string) string {
	if strings.Contains(s, " . ") && strings.Count(s, "(") >= 2 {
		if ps := dottedPairRE().FindAllStringIndex(s, -1); len(ps) >= 2 {
			s = dottedPairRE().ReplaceAllStringFunc(s, func(m string) string {
				p := dottedPairRE().FindStringSubmatch(m)
				v := p[2]
				switch v {
				case "#t":
					v = "true"
				case "#f", "nil":
					v = "false"
				}
				return p[1] + ": " + v + ","
			})
		}
	}
	if strings.Contains(s, "=") && (strings.HasPrefix(s, ".") || strings.Contains(s, " .") || strings.Contains(s, "{.") ||
		strings.Contains(s, ",.") || strings.Contains(s, "(.") || strings.Contains(s, ";.")) {
		s = initializerRE().ReplaceAllString(s, "$1$2 =")
	}
	return s
}
