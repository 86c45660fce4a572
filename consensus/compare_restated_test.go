package consensus

import (
	"strings"
	"testing"
)

// TestComparePositionsRestated pins the readings that keep an agreeing
// rewording from reading as a change, each beside the change it must
// still catch: a condition or exception said again in other words (or in
// a reason), a value written in another form, a negation moved within a
// paraphrase, an option set aside with "instead of" or "rather than".
func TestComparePositionsRestated(t *testing.T) {
	checkComparisons(t, []comparisonCase{
		// Conditions and exceptions said again without their cue.
		{"condition as a phrase", "", "When a customer cancels an order, refund the card within 3 days.",
			"On cancellation of an order by the customer: card refunded within three days.", Agree, ""},
		{"condition by its number", "", "Stop the pump if the tank level reaches 90%.",
			"At a 90 percent tank level the pump stops.", Agree, ""},
		{"a condition in a reason is no condition", "", "Keep two replicas of every shard.",
			"So that we never lose data if a node dies, every shard has two replicas.", Agree, ""},
		{"exception under a label", "", "Every service exposes a health endpoint, except batch jobs that run under a minute.",
			"- services: /health endpoint required; - exception: batch jobs running under a minute", Agree, ""},
		{"exception as a negated condition", "", "Refund purchases within 30 days unless the item was used.",
			"No refund if the item was used; otherwise purchases are refunded within 30 days.", Agree, ""},
		{"exception as a condition with its own outcome", "", "Ship orders with the standard carrier, except oversized parcels, which go by freight.",
			"Orders go with the standard carrier; when a parcel is oversized it goes by freight.", Agree, ""},
		{"condition dropped", "", "Retry the upload if the server answers 503.", "Retry the upload.", Disagree, "condition dropped"},
		{"exception put back", "", "Every service ships a health endpoint, except batch jobs.",
			"Every service ships a health endpoint, including batch jobs.", Disagree, "exception dropped"},
		{"a reason hides no negation", "", "Never cache responses that set cookies.",
			"Because it is faster, cache responses that set cookies.", Disagree, "→"},

		// Values written in another form.
		{"a period the topic names", "Nightly export of the warehouse", "The nightly export writes Parquet files to the archive bucket.",
			"The export writes Parquet files to the archive bucket.", Agree, ""},
		{"an ordinal that repeats a count", "", "Send at most 3 reminders; after the third reminder close the ticket.",
			"Reminders: max 3, then the ticket is closed.", Agree, ""},
		{"a count of the values listed", "", "Thumbnails come in 2 sizes (200 and 400 px wide).",
			"Thumbnail widths: 200 px, 400 px.", Agree, ""},
		{"cron schedule", "", "The database backup runs every day at 01:15.", `database backup cron: "15 1 * * *"`, Agree, ""},
		{"cron schedule of another day", "", "The report goes out every Friday at 09:00.", `cron: "0 9 * * 4"`, Disagree, "→"},
		{"every Friday is weekly", "", "The report is sent weekly on Friday.", "The report goes out every Friday.", Agree, ""},
		{"a time of day in words", "", "The office closes at 18:00.", "The office closes at 6 in the evening.", Agree, ""},
		{"another time of day in words", "", "The office closes at 18:00.", "The office closes at 5 in the evening.", Disagree, "18:00"},
		{"a one in digits is the percent", "", "Start the canary at 1% of traffic.", "canary traffic percent: 1", Agree, ""},
		{"every other week", "", "Payroll runs every two weeks on Thursday.", "Payroll runs every other Thursday.", Agree, ""},
		{"a speed in other units", "", "Forklifts drive at most 6 km/h indoors.", "Forklifts drive at most 6 m/s indoors.", Disagree, "km"},
		{"every third", "", "Rotate the logs after each deploy.", "Rotate the logs after every third deploy.", Disagree, "third"},
		{"a reference is no number", "", "Visitors sign in at the front desk.", "Section 2.3: visitors must sign in at the front desk.", Agree, ""},
		{"seconds without a unit", "", "Static files are served with Cache-Control max-age=86400.",
			"static files: Cache-Control max-age=86400 (one day)", Agree, ""},
		{"times of day make a rate", "", "Feed the fish at 07:00 and 19:00.", "Feed the fish twice a day, at 7:00 and 19:00.", Agree, ""},
		{"times of day against another rate", "", "Feed the fish at 07:00 and 19:00.", "Feed the fish three times a day, at 7:00 and 19:00.", Unsure, ""},
		{"the one number said again", "", "Harvest starts as soon as the grapes reach 22 Brix.",
			"We wait for the must to hit 22 Brix, then the crews go out.", Agree, ""},
		// Little in common and a bare number changed: parley cannot tell,
		// and says so rather than agree.
		{"the one number changed", "", "Harvest starts as soon as the grapes reach 22 Brix.",
			"We wait for the must to hit 24 Brix, then the crews go out.", Unsure, ""},

		// Negations moved within a paraphrase.
		{"rather than using a list", "", "Store sessions in Redis, not in cookies or local storage.",
			"I'll keep sessions in Redis rather than using cookies or local storage.", Agree, ""},
		{"two negations cancel", "", "Every deploy to production is announced in the ops channel.",
			"No deploy to production happens without an announcement in the ops channel.", Agree, ""},
		{"not even carries the negation", "", "Passwords are never logged, even hashed.",
			"Never log a password, not even hashed.", Agree, ""},
		{"a determiner only", "", "A job may use at most 4 GB of memory.", "Each job may use at most 4 GB of memory.", Agree, ""},
		{"without asking negates the approval", "", "Production database changes need approval from a DBA.",
			"Anyone can change the production database without asking a DBA for approval.", Disagree, "approval"},

		// Options set aside.
		{"instead of the filed option", "", "Send alerts to the on-call pager.",
			"I'll send alerts to a Slack channel instead of the on-call pager.", Disagree, "→ slack channel"},
		{"both set the same option aside", "", "Nightly jobs read from the replica instead of the primary.",
			"Nightly jobs read from the replica rather than the primary.", Agree, ""},
		{"every against only", "", "Lint every commit in CI.", "Lint only commits that touch Go files in CI.", Disagree, "only"},
	})
}

// comparisonCase is a position compared with the filed rule of a record
// whose topic is topic ("" for none).
type comparisonCase struct {
	why, topic, filed, position string
	want                        Agreement
	diff                        string // a substring of one difference, for conflicts
}

// checkComparisons compares each case's position with its filed rule
// (ComparePositionsOn), in a subtest named by why, and reports an answer
// that differs, and a conflict found without the difference diff names
// or without any.
func checkComparisons(t *testing.T, cases []comparisonCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got := ComparePositionsOn(c.topic, c.filed, c.position)
			if got.Agreement != c.want {
				t.Fatalf("%q against %q: %s %v, want %s", c.position, c.filed, got.Agreement, got.Differences, c.want)
			}
			if c.want == Disagree && !strings.Contains(strings.Join(got.Differences, " | "), c.diff) {
				t.Errorf("%q against %q: differences %q, want one with %q", c.position, c.filed, got.Differences, c.diff)
			}
			if c.want == Disagree && len(got.Differences) == 0 {
				t.Errorf("a conflict without its difference: %+v", got)
			}
		})
	}
}

// TestComparePositionsRestatedEdges reads the new forms where they end a
// text or stand alone: no panic, and a text never conflicts with itself
// (a text of no content words is unclear against itself).
func TestComparePositionsRestatedEdges(t *testing.T) {
	for _, s := range []string{
		"half past", "half past three", "quarter past 13", "every other", "every other Tuesday", "every", "6 in the", "10 at night",
		"five a.m.", "a.m.", "11 pm pm", `cron: "0 7 * * 2"`, "* * * * *", "99 99 * * 9", "*/0 * * * *",
		"no X without", "without", "no rope climbing without it", "not even", "rather than using", "instead of",
		"since", "so", "because", "- exception:", "exception", "Clause 4.1", "PR #", "1.0 m/s", "m/s", "5 km", "6mo",
		"3 sizes (", "the second", "every third", "max-age=31536000", "twice a day", "SHA-256", "sha256",
	} {
		if c := ComparePositions(s, s+" "); c.Agreement == Disagree {
			t.Errorf("%q against itself: %+v", s, c)
		}
		ComparePositions(s, "Retry 5 times, every other Tuesday at half past three, rather than using cron.")
		ComparePositions("Retry 5 times, every other Tuesday at half past three, rather than using cron.", s)
	}
}
