package consensus

import (
	"strings"
	"testing"
)

// TestCalendarEntries: a schedule given as its iCalendar entry reads as
// the words it sets (days, months, times, a run's length) and agrees with
// the rule said in prose; another day, month, time or length disagrees.
func TestCalendarEntries(t *testing.T) {
	t.Parallel()
	const clinic = "The clinic is open Monday to Friday from 8 am to 6 pm and on Saturdays from 9 am to 12 pm; it is closed on public holidays."
	const boiler = "The caretaker services the boiler every March."
	const bins = "Garden waste is collected every Tuesday from 7 am."
	const choir = "Carol practice runs for 4 weeks from 1 December, on Wednesdays from 7 pm to 9 pm."
	week := func(end, sat string) string {
		return "BEGIN:VEVENT SUMMARY:Clinic open RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR DTSTART:T080000 DTEND:T" + end + " END:VEVENT " +
			"BEGIN:VEVENT SUMMARY:Clinic open RRULE:FREQ=WEEKLY;BYDAY=" + sat + " DTSTART:T090000 DTEND:T120000 END:VEVENT X-NOTE:closed on public holidays"
	}
	checkAgreements(t, []agreementCase{
		{clinic, week("180000", "SA"), Agree},
		{clinic, week("170000", "SA"), Disagree},
		{clinic, week("180000", "SU"), Disagree},
		{boiler, "BEGIN:VTODO SUMMARY:Caretaker services the boiler RRULE:FREQ=YEARLY;BYMONTH=3 END:VTODO", Agree},
		{boiler, "BEGIN:VTODO SUMMARY:Caretaker services the boiler RRULE:FREQ=YEARLY;BYMONTH=9 END:VTODO", Disagree},
		{bins, "BEGIN:VEVENT SUMMARY:Garden waste collection RRULE:FREQ=WEEKLY;BYDAY=TU DTSTART:T070000 END:VEVENT", Agree},
		{bins, "BEGIN:VEVENT SUMMARY:Garden waste collection RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU DTSTART:T070000 END:VEVENT", Disagree},
		{choir, "BEGIN:VEVENT SUMMARY:Carol practice DTSTART:20261201T190000 DTEND:20261201T210000 RRULE:FREQ=WEEKLY;BYDAY=WE DURATION:P4W END:VEVENT", Agree},
		{choir, "BEGIN:VEVENT SUMMARY:Carol practice DTSTART:20261201T190000 DTEND:20261201T210000 RRULE:FREQ=WEEKLY;BYDAY=WE DURATION:P6W END:VEVENT", Disagree},
	})
}

// TestCalendarWordsLeaveProseAlone: text that only mentions the words
// (lower case, or without a property's colon) is left as written, and a
// malformed entry reads without failing.
func TestCalendarWordsLeaveProseAlone(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"The summary: begin the event at 9 and end it by 5.",
		"Use dtstart and rrule fields when exporting.",
		"Our DTSTART convention is documented elsewhere.",
	} {
		if got := strings.Join(strings.Fields(icalWords(s)), " "); got != strings.Join(strings.Fields(s), " ") {
			t.Errorf("icalWords(%q) = %q, want it unchanged", s, got)
		}
	}
	for _, s := range []string{"RRULE:", "RRULE:FREQ=;BYDAY=XX,,;BYMONTH=13 DTSTART:T9 DURATION:PXYZ", "BEGIN:V DTSTART:--99T", "DTSTART;;;:" + strings.Repeat("RRULE:FREQ=DAILY ", 500)} {
		_ = icalWords(s) // must not panic
	}
	if got := icalDuration("PT1H30M"); got != "1 hours 30 minutes" {
		t.Errorf("icalDuration(PT1H30M) = %q", got)
	}
}
