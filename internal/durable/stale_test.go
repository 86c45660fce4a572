package durable

import "testing"

// Every name StagingName makes is one IsStagingName (and so gc) knows; a
// name it does not make is not.
func TestIsStagingNameKnowsStagingName(t *testing.T) {
	t.Parallel()
	for _, n := range []string{"session.json", "consensus-records.md", "1764504000000-000001-a1b2.json", ".owner"} {
		if s := StagingName("dir/" + n); !IsStagingName(s[len("dir/"):]) {
			t.Errorf("IsStagingName(%q) = false for a name StagingName made", s)
		}
	}
	for _, n := range []string{".x.tmp", "x.json.0123456789ab.tmp", ".x.json.0123456789AB.tmp", ".x.json.0123456789a.tmp", ".0123456789ab.tmp", ".x.json.0123456789ab"} {
		if IsStagingName(n) {
			t.Errorf("IsStagingName(%q) = true", n)
		}
	}
}
