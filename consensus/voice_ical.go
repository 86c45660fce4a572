package consensus

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A schedule is sometimes given as the iCalendar entry that keeps it
// (RFC 5545): "BEGIN:VEVENT SUMMARY:Office open RRULE:FREQ=WEEKLY;
// BYDAY=MO,TU,WE,TH,FR DTSTART:T090000 DTEND:T170000 END:VEVENT". Read so,
// its properties say nothing the comparison can match with "open Monday
// to Friday from 9 am to 5 pm". icalWords writes the properties a rule
// sets as the words they mean and drops the ones that only frame it.

// icalNameRE matches the name of a property of an iCalendar entry, with
// its parameters ("DTSTART;TZID=Europe/Berlin:"): the names that set a
// schedule or frame it, in capitals as the format writes them. A value
// runs to the next name or the end.
var icalNameRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(BEGIN|END|SUMMARY|DESCRIPTION|LOCATION|COMMENT|X-[A-Z0-9-]+|RRULE|DTSTART|DTEND|DURATION|DUE)(?:;[^:\s]*)?:`)
})

// icalDay is a day of RRULE's BYDAY ("MO") by name; "" for none.
func icalDay(d string) string {
	switch d {
	case "MO":
		return "Monday"
	case "TU":
		return "Tuesday"
	case "WE":
		return "Wednesday"
	case "TH":
		return "Thursday"
	case "FR":
		return "Friday"
	case "SA":
		return "Saturday"
	case "SU":
		return "Sunday"
	}
	return ""
}

// icalFreq is RRULE's frequency as the unit it repeats in; "" for none.
func icalFreq(f string) string {
	switch f {
	case "HOURLY":
		return "hour"
	case "DAILY":
		return "day"
	case "WEEKLY":
		return "week"
	case "MONTHLY":
		return "month"
	case "YEARLY":
		return "year"
	}
	return ""
}

// icalWords rewrites the iCalendar properties in s (icalNameRE) as words;
// s without any ("RRULE:", "DTSTART" or "BEGIN:V" in capitals) is
// returned as it is.
func icalWords(s string) string {
	if !strings.Contains(s, "RRULE:") && !strings.Contains(s, "DTSTART") && !strings.Contains(s, "BEGIN:V") {
		return s
	}
	locs := icalNameRE().FindAllStringSubmatchIndex(s, maxConds)
	if len(locs) == 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:locs[0][0]])
	for i, m := range locs {
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		b.WriteString(" " + icalProperty(s[m[2]:m[3]], strings.TrimSpace(s[m[1]:end])) + " ")
	}
	return b.String()
}

// icalProperty is one property of an entry as words: a rule's repetition
// and times read, its summary and notes kept as text, the markers of the
// entry ("BEGIN:VEVENT") dropped.
func icalProperty(name, value string) string {
	switch {
	case name == "BEGIN" || name == "END":
		return ""
	case name == "RRULE":
		return icalRule(value)
	case name == "DTSTART":
		return icalWhen("from", value)
	case name == "DTEND" || name == "DUE":
		return icalWhen("to", value)
	case name == "DURATION":
		return "for " + icalDuration(value)
	}
	return value // SUMMARY, DESCRIPTION, X-NOTE: the text itself
}

// icalRule reads an RRULE value: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE"
// is "every 2 weeks on Monday, Wednesday".
func icalRule(v string) string {
	var freq, interval, days, months, count, hours, extra string
	for _, part := range strings.Split(v, ";") {
		k, val, _ := strings.Cut(part, "=")
		switch k {
		case "FREQ":
			freq = icalFreq(val)
		case "INTERVAL":
			interval = val
		case "BYDAY":
			var ds []string
			for _, d := range strings.Split(val, ",") {
				if name := icalDay(strings.TrimLeft(d, "+-0123456789")); name != "" && !slices.Contains(ds, name) {
					ds = append(ds, name)
				}
			}
			days = strings.Join(ds, ", ")
			if days == "Monday, Tuesday, Wednesday, Thursday, Friday" {
				days = "Monday to Friday"
			}
		case "BYMONTH":
			var ms []string
			for _, m := range strings.Split(val, ",") {
				if n, err := strconv.Atoi(m); err == nil && n >= 1 && n <= 12 && !slices.Contains(ms, monthTitles()[n-1]) {
					ms = append(ms, monthTitles()[n-1])
				}
			}
			months = strings.Join(ms, ", ")
		case "BYHOUR":
			if len(val) <= 12 { // "9", "9,17": a few hours, as written
				hours = "at " + strings.ReplaceAll(val, ",", ":00, ") + ":00"
			}
		case "COUNT":
			count = val + " times"
		default:
			if strings.HasPrefix(k, "X-") && val != "" {
				extra = "for " + icalDuration(val) // "X-RUN-FOR=P5W"
			}
		}
	}
	var out []string
	switch {
	case freq != "" && interval != "" && interval != "1":
		out = append(out, "every "+interval+" "+freq+"s")
	case (freq == "week" || freq == "day") && days == "Monday to Friday":
		out, days = append(out, days), "" // "Monday to Friday" says the week
	case (freq == "week" || freq == "day") && days != "":
		out, days = append(out, "every "+days), "" // "every Tuesday"
	case freq == "year" && months != "":
		out, months = append(out, "every "+months), "" // "every March"
	case freq != "":
		out = append(out, "every "+freq)
	}
	if days != "" {
		out = append(out, "on "+days)
	}
	if months != "" {
		out = append(out, "in "+months)
	}
	for _, s := range []string{hours, count, extra} {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

// monthTitles are the months as a sentence writes them, January first
// (from the lexicon's monthNames).
var monthTitles = sync.OnceValue(func() []string {
	out := strings.Fields(monthNames)
	for i, m := range out {
		out[i] = strings.ToUpper(m[:1]) + m[1:]
	}
	return out
})

// icalWhen reads a DTSTART or DTEND value, a date and a time or either
// ("20261227T160000", "--1227T160000", "T090000"), after word.
func icalWhen(word, v string) string {
	date, clock, _ := strings.Cut(v, "T")
	var out []string
	date = strings.TrimPrefix(date, "--")
	if len(date) >= 4 && digits(date) {
		md := date[len(date)-4:]
		m, _ := strconv.Atoi(md[:2])
		d, _ := strconv.Atoi(md[2:])
		if m >= 1 && m <= 12 && d >= 1 && d <= 31 {
			s := strconv.Itoa(d) + " " + monthTitles()[m-1]
			if len(date) == 8 {
				s += " " + date[:4]
			}
			out = append(out, s)
		}
	}
	clock = strings.TrimSuffix(clock, "Z")
	if len(clock) >= 4 {
		h, errH := strconv.Atoi(clock[:2])
		m, errM := strconv.Atoi(clock[2:4])
		if errH == nil && errM == nil && h >= 0 && h <= 24 && m >= 0 && m < 60 {
			out = append(out, clock[:2]+":"+clock[2:4])
		}
	}
	if len(out) == 0 {
		return ""
	}
	return word + " " + strings.Join(out, " ")
}

// icalDuration reads an ISO 8601 duration ("P5W", "PT1H30M", "P2D") as
// words ("5 weeks", "1 hours 30 minutes"); anything else as written.
func icalDuration(v string) string {
	if !strings.HasPrefix(v, "P") || len(v) < 3 {
		return v
	}
	var out []string
	num, inTime := "", false
	for i := 1; i < len(v); i++ {
		c := v[i]
		switch {
		case c == 'T':
			inTime = true
		case c >= '0' && c <= '9':
			num += string(c)
		case num != "" && c == 'M' && inTime:
			out, num = append(out, num+" minutes"), ""
		case num != "" && c == 'M':
			out, num = append(out, num+" months"), ""
		case num != "" && strings.IndexByte("YWDHS", c) >= 0:
			unit := [...]string{"years", "weeks", "days", "hours", "seconds"}[strings.IndexByte("YWDHS", c)]
			out, num = append(out, num+" "+unit), ""
		default:
			return v
		}
	}
	if len(out) > 7 {
		return v // no duration has more parts than Y M W D H M S
	}
	return strings.Join(out, " ")
}
