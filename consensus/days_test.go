package consensus

import (
	"strings"
	"testing"
)

// TestBusinessDaysAreDaysOfTheirOwn: a length in business (working) or
// school days is not the same length in calendar days, in whichever words
// or configuration key it is said; an ordinal business day still names a
// day.
func TestBusinessDaysAreDaysOfTheirOwn(t *testing.T) {
	cases := []struct {
		filed, position string
		want            Agreement
		differs         string // a word the difference names, for a conflict
	}{
		{"Refund requests are answered within 3 business days.", "Refund requests get an answer within 3 calendar days.", Disagree, "business"},
		{"Refund requests are answered within 3 business days.", "Refund requests are answered within 3 days.", Disagree, "business"},
		{"Invoices are due 14 calendar days after issue.", "An invoice must be paid at most 14 business days after it is issued.", Disagree, "business"},
		{"Refund requests are answered within 3 business days.", "We answer every refund request within three working days.", Agree, ""},
		{"Invoices are due 14 calendar days after issue.", "Invoices are due 14 days after they are issued.", Agree, ""},
		{"Refund requests are answered within 3 business days.", "refunds:\n  answer_within_business_days: 3", Agree, ""},
		{"Refund requests are answered within 3 business days.", "REFUND_ANSWER_WITHIN_BUSINESS_DAYS=5", Disagree, "3"},
		{"Refund requests are answered within 3 business days.", `{"refund_answer_business_days_max": 3}`, Agree, ""},
		{"Payslips are published on the third business day of the month.", "Payslips come out on business day 3 of each month.", Agree, ""},
		{"Orders placed after 15:00 ship the next business day.", "Orders placed after 15:00 ship on the following working day.", Agree, ""},
		{"Parents are told one school day before report cards go out.", "Parents hear about it the school day before the report cards are released.", Agree, ""},
		{"Triage every new fraud case within 4 business hours.", "Triage every new fraud case within 4 business days.", Disagree, "hours"},
		{"Triage every new fraud case within 4 business hours.", "Every new fraud case is triaged within four working hours.", Agree, ""},
		{"Triage every new fraud case within 4 business hours.", "fraud:\n  triage_within_business_hours: 4", Agree, ""},
		{"Triage every new fraud case within 4 business hours.", "FRAUD_TRIAGE_BUSINESS_DAYS=4", Disagree, "4 business hours"},
		{"Triage every new fraud case within 4 business days.", "fraud:\n  triage_within_business_hours: 4", Disagree, "4 business days"},
		{"Exhibits reach the clerk within 2 court days.", "Exhibits must reach the clerk within 2 hours.", Disagree, "court"},
		{"Close the dome when gusts exceed 50 km/h.", "The dome closes when gusts exceed 27 knots.", Agree, ""},
		{"Close the dome when gusts exceed 50 km/h.", "The dome closes when gusts exceed 50 knots.", Disagree, "knots"},
	}
	for _, c := range cases {
		got := ComparePositions(voicePosition(c.filed), voicePosition(c.position))
		if got.Agreement != c.want {
			t.Errorf("%q against %q: got %v %q, want %v", c.position, c.filed, got.Agreement, got.Differences, c.want)
			continue
		}
		if c.differs != "" && !strings.Contains(strings.Join(got.Differences, "; "), c.differs) {
			t.Errorf("%q against %q: differences %q do not name %q", c.position, c.filed, got.Differences, c.differs)
		}
	}
}

// TestDaysAtTheEdges reads days at the very start and end of a position,
// where the words before or after them are missing.
func TestDaysAtTheEdges(t *testing.T) {
	for _, s := range []string{"days", "day 3", "days 5", "business days", "business days 2", "the next business day", "3 business", "school day before", "next working day", "_business_days: 4"} {
		ComparePositions("Answer within 3 business days.", s)
		ComparePositions(s, "Answer within 3 days.")
	}
}

// TestQuarterHourAndPerThousand: "a quarter hour" and "a half hour" are
// lengths, "per thousand" a number; "every quarter" stays three months.
func TestQuarterHourAndPerThousand(t *testing.T) {
	checkAgreements(t, []agreementCase{
		{"Tank cars report their position every 15 minutes while moving.", "Tank cars send their position every quarter hour while in motion.", Agree},
		{"Tank cars report their position every 15 minutes while moving.", "Tank cars send their position every half hour while in motion.", Disagree},
		{"Drivers rest for 30 minutes after 4 hours of driving.", "Drivers take a half hour break after four hours at the wheel.", Agree},
		{"A file with more than 3 errors per 1,000 words goes back to the translator.", "Anything over three errors per thousand words is returned to its translator.", Agree},
		{"A file with more than 3 errors per 1,000 words goes back to the translator.", "Anything over three errors per hundred words is returned to its translator.", Disagree},
		{"Reports are filed every quarter.", "Reports are filed every 3 months.", Agree},
	})
}
