package consensus

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// A rule kept in a spreadsheet is written as a formula: "=IF(B2=\"vehicle\",
// D2-TIME(1,0,0), D2-TIME(0,30,0))" is the latest arrival an hour before
// departure for vehicles and half an hour before for foot passengers. This
// file reads the times such a formula sets.

// sheetTimeRE finds a spreadsheet's TIME(hours, minutes, seconds), with
// the sign or comparison before it.
var sheetTimeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)([-+<>=]?)[ \t]*\bTIME\([ \t]*([0-9]{1,2})[ \t]*,[ \t]*([0-9]{1,2})[ \t]*,[ \t]*([0-9]{1,2})[ \t]*\)`)
})

// sheetTimes reads each TIME(h,m,s) of a formula: taken from or added to
// a time ("D2-TIME(1,0,0)") it is a length of time before or after it ("1
// hour before"); compared with ("C2>TIME(6,0,0)") or alone, a time of day
// ("06:00").
func sheetTimes(s string) string {
	if !containsFold(s, "time(") {
		return s
	}
	return sheetTimeRE().ReplaceAllStringFunc(s, func(m string) string {
		p := sheetTimeRE().FindStringSubmatch(m)
		h, _ := strconv.Atoi(p[2])
		min, _ := strconv.Atoi(p[3])
		sec, _ := strconv.Atoi(p[4])
		if min >= 60 || sec >= 60 {
			return m
		}
		switch p[1] {
		case "-", "+":
			var parts []string
			for _, u := range []struct {
				n    int
				name string
			}{{h, "hour"}, {min, "minute"}, {sec, "second"}} {
				switch {
				case u.n == 1:
					parts = append(parts, "1 "+u.name)
				case u.n > 1:
					parts = append(parts, strconv.Itoa(u.n)+" "+u.name+"s")
				}
			}
			if len(parts) == 0 {
				return m
			}
			side := " before"
			if p[1] == "+" {
				side = " after"
			}
			return " " + strings.Join(parts, " ") + side
		}
		if h > 24 {
			return m
		}
		clock := strconv.Itoa(h) + ":" + strconv.Itoa(min/10) + strconv.Itoa(min%10)
		if h < 10 {
			clock = "0" + clock
		}
		return p[1] + " " + clock
	})
}
