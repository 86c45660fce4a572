package consensus

import "testing"

// TestClippedWordsAskTheSameQuestion: a word cut short in everyday use
// ("meds", "paeds", "genny", "Rx", "uni", "fridge") asks what the full
// word asks; another short word still asks about another thing.
func TestClippedWordsAskTheSameQuestion(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"paeds ward visiting hours", "Visiting hours on the paediatric ward"},
		{"Rx refills for controlled drugs", "Refills of prescriptions for controlled drugs"},
		{"evening meds round", "Evening medication round"},
		{"genny fuel check", "Generator fuel check"},
		{"uni library opening hours", "University library opening hours"},
		{"fridge temperature log", "Refrigerator temperature log"},
		{"lab coat laundering", "Laundering of laboratory coats"},
		{"booking a physio appt", "Booking a physiotherapy appointment"},
		{"A&E waiting times", "Emergency department waiting times"},
		{"mgmt sign-off for refunds", "Management sign-off for refunds"},
		{"txn limits on new accts", "Transaction limits on new accounts"},
		{"max ppl in the lift", "Maximum people in the lift"},
	}
	topicsFound(t, same)
	apart := [][2]string{
		{"lab opening hours", "Gym opening hours"},
		{"evening meds round", "Evening meals round"},
		{"paeds ward visiting hours", "Visiting hours on the maternity ward"},
		{"fridge temperature log", "Freezer temperature log"},
		// Vetting checks a person; a vet treats animals. "rn" is "right
		// now" as often as a registered nurse; a demo may be a demolition.
		{"vetting of new contractors", "Veterinary contractors"},
		{"need approval rn for overtime", "Registered nurse approval for overtime"},
		{"demo permit for the old garage", "Demonstration permit for the old garage"},
	}
	topicsApart(t, apart)
}

// TestAmpersandsApart: "&" between two letters is the "and" it stands
// for; beside a space it is left as written.
func TestAmpersandsApart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"a&e waiting times", "a and e waiting times"},
		{"r&d budget; t&cs apply", "r and d budget; t and cs apply"},
		{"fish & chips", "fish & chips"},
		{"&e and a&", "&e and a&"},
		{"no ampersand", "no ampersand"},
	} {
		if got := ampersandsApart(tc.in); got != tc.want {
			t.Errorf("ampersandsApart(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
