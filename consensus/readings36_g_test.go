package consensus

import "testing"

// TestCaseInsistedEven: a case the filed rule sets down in a part of its
// own, with an outcome of its own ("the car can come back empty"), that
// the new rule insists it holds in, "always, even if …" or "never …, even
// if …", is an exception dropped; the case restated, a plain "even" that
// widens the rule, or an outcome the new rule does not speak of stays
// agreed.
func TestCaseInsistedEven(t *testing.T) {
	t.Parallel()
	const (
		tank   = "Cars are returned with a full tank; when the renter bought the fuel option, the car can come back empty."
		backup = "Backups run every night; if a backup fails, an alert is sent to the on-call engineer."
		balls  = "Home matches are played with white balls; orange balls are used instead only if both captains agree."
	)
	checkComparisons(t, []comparisonCase{
		{"always even if the case", "Car rental", tank,
			"Car always back with a full tank, even if the renter bought the fuel option.", Disagree, "exception dropped"},
		{"the case restated", "Car rental", tank,
			"Full tank on return; with the fuel option bought it may come back empty.", Agree, ""},
		{"a plain even of another case", "Car rental", tank,
			"The car has to be returned with a full tank, even if it was rented for one day only.", Agree, ""},
		{"an outcome not spoken of", "Backups", backup,
			"Backups always run every night, even if the previous backup failed.", Agree, ""},
		{"never, even if the case", "Match balls", balls,
			"white balls at home matches, never orange, even if both captains agree", Disagree, "exception dropped"},
		{"the captains' case restated", "Match balls", balls,
			"White balls for home matches; orange ones only when both captains agree to it.", Agree, ""},
	})
}
