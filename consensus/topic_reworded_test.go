package consensus

import (
	"context"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// rewordedVault files records of a build team's decisions, each about its
// own object, so that a question's evidence points to one of them.
func rewordedVault(t *testing.T) (*env, map[string]string) {
	t.Helper()
	e := newEnv(t)
	names := fileMeaning(t, e, []meaningRecord{
		{name: "artifacts", layer: debate.LayerSpec, topic: "Retention of CI build artifacts",
			position: "CI build artifacts are deleted after 14 days; artifacts of tagged releases are kept for 1 year in Artifactory."},
		{name: "images", layer: debate.LayerSpec, topic: "Retention of container images in the registry",
			position: "Untagged container images are garbage-collected from Harbor after 7 days; tagged images are kept until their tag is deleted."},
		{name: "flaky", layer: debate.LayerSpec, topic: "Quarantine of flaky tests",
			position: "A test that fails and then passes on retry twice in a week is moved to the quarantine suite and a ticket is opened for its owner."},
		{name: "runners", layer: debate.LayerSpec, topic: "Size of self-hosted CI runners",
			position: "Self-hosted runners are 8 vCPU and 32 GB machines; jobs needing more use the large pool on request."},
		{name: "codeowners", layer: debate.LayerSpec, topic: "Review by code owners",
			position: "A change touching a path in CODEOWNERS needs an approval from one of its owners before it merges."},
	})
	return e, names
}

// TestCheckRewordedQuestion: a question asked in words of its own, whose
// topic shares little with the record's, finds the record by what it
// names (CI, Artifactory, tagged releases), though "outputs" stands where
// the record's topic says "artifacts"; an agreeing position is
// consistent, and a change read against a record found so is unclear (it
// still blocks), not a conflict, since the record may not be the
// question asked. A near miss on another object asked the same way (the
// logs of CI builds, kept alike) finds no record.
func TestCheckRewordedQuestion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, names := rewordedVault(t)
	for _, c := range []struct {
		name, topic, position string
		want                  CheckStatus
		record                string
	}{
		{"agreeing", "how long do CI outputs stick around?",
			"What a CI build produces goes away after 14 days, but what a tagged release produced stays a year in Artifactory.", CheckConsistent, "artifacts"},
		{"changed", "how long do CI outputs stick around?",
			"What a CI build produces goes away after 30 days, but what a tagged release produced stays a year in Artifactory.", CheckUnclear, "artifacts"},
		{"near miss", "how long do CI logs stick around?",
			"Logs of CI builds go away after 14 days; logs of tagged releases stay a year in Loki.", CheckNone, ""},
	} {
		res, err := e.s.Check(ctx, debate.LayerSpec, c.topic, c.position)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if res.Record != nil {
			got = res.Record.Name
		}
		if res.Status != c.want || c.record != "" && got != names[c.record] || c.record == "" && got != "" {
			t.Errorf("%s: %q: got %s (record %q, topic %.2f, %v), want %s (record %q)", c.name, c.topic, res.Status, got, res.TopicScore, res.Comparison.Differences, c.want, names[c.record])
		}
	}
}

// TestNamesApart: names that tell a question from a record are the
// question's products, formats and codes, not the ticket its topic cites
// nor single letters.
func TestNamesApart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, topic, position, record string
		want                          bool
	}{
		{"other products", "Storage for the session cache", "Keep sessions in Redis.", "Session storage\nSessions are stored in PostgreSQL.", true},
		{"a name in common", "Session storage in Redis", "Redis, with a 1 hour TTL.", "Session storage\nSessions are stored in Redis.", false},
		{"ticket in the topic", "Exit status conventions (CLI-88 follow-up DOCS-8)", "Exit 2 on a usage error.", "Exit codes of the command-line tool\nThe tool exits 2 on a usage error, as POSIX shells expect.", false},
		{"letters", "Exit codes", "Use 74 for I/O errors.", "Exit codes of the command-line tool\nThe tool exits 2 on a usage error, as POSIX shells expect.", false},
		{"a code that looks like a ticket, in the position", "Barcode symbology", "Print EAN-13 on every label.", "Barcode format\nLabels carry Code 128.", true},
	} {
		if got := namesApart(c.topic, c.position, c.record); got != c.want {
			t.Errorf("%s: namesApart(%q, %q, %q) = %v, want %v", c.name, c.topic, c.position, c.record, got, c.want)
		}
	}
}

// A ticket reference is capitals (digits after the first), a dash and
// digits, and nothing else; the names that look like one are not.
func TestTicketName(t *testing.T) {
	for text, want := range map[string]bool{
		"DOCS-8": true, "A11Y-77": true, "X-1": true, "PLAT-88": true,
		"SHA-256": false, "UTF-8": false, "docs-8": false, "DOCS-": false, "-8": false, "DOCS8": false,
		"DOCS-8a": false, "DOCS-8-9": false, "1OPS-2": false, "DOCS_8": false, "ÄB-3": false, "": false,
	} {
		if got := ticketName(name{text: text}); got != want {
			t.Errorf("ticketName(%q) = %v, want %v", text, got, want)
		}
	}
}
