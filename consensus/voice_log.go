package consensus

import (
	"regexp"
	"strings"
	"sync"
)

// An agent sometimes gives a rule as the log line that applied it: a
// step counter before it ("[step 2/3] applying rule: …") or the header of
// a syslog line (RFC 5424: "<134>1 2025-03-04T10:12:00Z host app 4411
// MSGID [id@32473 key="value" …] message"). Neither says anything of the
// rule; its numbers (2/3, 134, a timestamp, a process id) read as
// numbers the filed rule does not have. logFrames drops them and keeps
// the structured data's keys and values, and the message.

// stepLabelRE matches a step counter that opens a text, with the "applying
// rule:" a run log puts after it: "[step 2/3]", "(Step 4 of 6):", "step
// 1/4 -".
var stepLabelRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*[\[(]?step[ \t]+\d{1,3}[ \t]*(?:/|of)[ \t]*\d{1,3}[\])]?[ \t]*[:\-–—]?[ \t]*(?:(?:applying|applied|checking|checked)(?:[ \t]+the)?[ \t]+rule[ \t]*:[ \t]*)?`)
})

// syslogHeaderRE matches the header of an RFC 5424 syslog line: PRI and
// version, timestamp, host, app name, process id and message id.
var syslogHeaderRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*<\d{1,3}>\d{1,2}[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+`)
})

// sdIDRE matches the opening of a structured data element: "[guard@32473 ".
var sdIDRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[[A-Za-z0-9_.-]+(?:@\d+)?[ \t]*`)
})

// logFrames drops a step counter and a syslog header (see above).
func logFrames(s string) string {
	if m := stepLabelRE().FindStringIndex(s); m != nil && m[1] < len(s) {
		s = s[m[1]:]
	}
	m := syslogHeaderRE().FindStringIndex(s)
	if m == nil {
		return s
	}
	rest := s[m[1]:]
	var b strings.Builder
	for {
		id := sdIDRE().FindStringIndex(rest)
		if id == nil {
			break
		}
		// The element runs to its "]", quotes read as the format does
		// (a backslash escapes a quote or a bracket inside one).
		end, quoted := -1, false
		for i := id[1]; i < len(rest) && end < 0; i++ {
			switch c := rest[i]; {
			case c == '\\':
				i++
			case c == '"':
				quoted = !quoted
			case c == ']' && !quoted:
				end = i
			}
		}
		if end < 0 {
			break
		}
		b.WriteString(strings.TrimSpace(rest[id[1]:end]))
		b.WriteString(" ; ")
		rest = strings.TrimLeft(rest[end+1:], " \t")
	}
	if rest == "-" || strings.HasPrefix(rest, "- ") {
		rest = strings.TrimPrefix(rest[1:], " ") // the nil structured data
	}
	b.WriteString(rest)
	return b.String()
}
