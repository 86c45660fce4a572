package consensus

import (
	"strings"
	"testing"
)

// TestComparePositionsMechanisms pins each way a position is read, one
// pair per mechanism, with the difference the answer must name.
func TestComparePositionsMechanisms(t *testing.T) {
	for _, c := range []struct {
		why, filed, position string
		want                 Agreement
		diff                 string // a substring of one difference, for conflicts
	}{
		{"unit conversion", "Expire idle sessions after 5 min.", "Idle sessions expire after 300 s.", Agree, ""},
		{"number words and once", "Links can be used once and expire after thirty minutes.", "A link is single use and expires 30 minutes after it is sent.", Agree, ""},
		{"once against twice", "Links can be used once.", "Links can be used twice.", Disagree, "→"},
		{"negated bound", "Each instance keeps at most 20 connections.", "An instance must not have more than twenty connections.", Agree, ""},
		{"bound reversed", "Each instance keeps at most 20 connections.", "Each instance keeps at least 20 connections.", Disagree, "at most → at least"},
		{"lower bound written after", "Support iOS 16 and later.", "Support iOS 16 or newer.", Agree, ""},
		{"sign for a bound", "Reject bodies larger than 1 MB.", "Bodies > 1 MB are rejected.", Agree, ""},
		{"rate written with a slash", "Allow 60 requests per minute.", "Allow 60 requests/min.", Agree, ""},
		{"rate period changed", "Allow 60 requests per minute.", "Allow 60 requests per second.", Disagree, "per"},
		{"24/7 is always", "Page the on-call engineer at any hour.", "Page the on-call engineer 24/7.", Agree, ""},
		{"immediately is no time", "Purge deleted rows after 90 days.", "Purge deleted rows immediately.", Disagree, "90 days → immediately"},
		{"exception closed after its words", "Abort queries longer than 30 s, except for nightly reports.", "Queries over 30 s are aborted; nightly reports are exempt.", Agree, ""},
		{"exception dropped", "Abort queries longer than 30 s, except for nightly reports.", "Abort queries longer than 30 s.", Disagree, "exception dropped"},
		{"exception put back into the rule", "Commit lockfiles for applications, but not for libraries.", "Commit lockfiles for applications and for libraries.", Disagree, "exception dropped"},
		{"exception as a trailing negation", "Commit lockfiles for applications, but not for libraries.", "Applications commit their lockfile; libraries do not.", Agree, ""},
		{"a default is an exception", "Return 50 items per page by default, at most 200.", "Return 50 items per page unless the client asks for more, up to 200.", Agree, ""},
		{"list item dropped", "Never log email addresses or phone numbers.", "Never log email addresses.", Disagree, "dropped"},
		{"negated part left out", "Authenticate with mutual TLS; API keys are not accepted.", "Authenticate with API keys.", Disagree, "dropped"},
		{"negation covers its clause", "Retry a failed job 5 times unless the error is permanent.", "Failed jobs are retried 5 times; permanent errors are not retried.", Agree, ""},
		{"one use negated", "Access tokens expire after 15 minutes; refresh tokens expire after 7 days.", "Access tokens never expire; refresh tokens expire after 7 days.", Disagree, "not"},
		{"relation with its things swapped", "Every pull request needs 2 approvals before it is merged.", "A pull request is merged only after 2 approvals.", Agree, ""},
		{"direction reversed", "Environment variables override values from the file.", "Values from the file override environment variables.", Disagree, "override"},
		{"passive keeps the direction", "Environment variables override values from the file.", "Values from the file are overridden by environment variables.", Agree, ""},
		{"loose swap is a rewording", "Cache product pages at the CDN for 10 minutes.", "The CDN keeps product pages for 10 minutes.", Agree, ""},
		{"other option", "Serve thumbnails as WebP.", "Serve thumbnails as AVIF.", Disagree, "webp → avif"},
		{"a number said on one side only", "Retry failed jobs.", "Retry failed jobs 3 times.", Unsure, "not said"},
		{"a determiner no bounds the number", "Run at most 4 export jobs at a time per tenant.", "No tenant may have more than four export jobs running at a time.", Agree, ""},
		{"made optional", "Run a load test before every major release.", "Load tests before major releases are optional.", Disagree, "optional"},
		{"a number left out of the same sentence", "Run a load test at twice the last peak traffic before every major release.", "Run a load test at the last peak traffic before every major release.", Disagree, "twice"},
		{"nowhere else is only", "Store EU customers' data only in EU regions.", "Data of EU customers is kept in EU regions and nowhere else.", Agree, ""},
		{"only against any", "Allow cross-origin requests only from app.example.com.", "Allow cross-origin requests from any origin.", Disagree, "only → any"},
		{"an option used fewer times", "Store EU customers' data only in EU regions.", "Store EU customers' data only in US regions.", Disagree, "→"},
		{"one after a verb counts", "On-call shifts last one week.", "An on-call shift lasts 7 days.", Agree, ""},
		{"an ordinal counts", "Stop sending email after 3 hard bounces.", "Stop sending email after the first hard bounce.", Disagree, "3 → first"},
		{"on and off", "New feature flags default to off.", "New feature flags default to on.", Disagree, "→"},
		{"a cipher's size is not a ticket", "Encrypt backups with AES-256.", "Encrypt backups with AES-128.", Disagree, "256 → 128"},
		{"once as a conjunction", "Delete application logs after 90 days.", "Delete application logs once they are 90 days old.", Agree, ""},
		{"a time of day in both clocks", "Send the daily digest at 18:00.", "The daily digest goes out at 6 pm.", Agree, ""},
		{"another time of day", "Send the daily digest at 18:00.", "Send the daily digest at 8pm.", Disagree, "18:00 → 8pm"},
		{"a month is thirty days", "Archive tickets 30 days after they close.", "Tickets are archived a month after closing.", Agree, ""},
		{"a month is not a week", "Archive tickets 30 days after they close.", "Tickets are archived a week after closing.", Disagree, "→ a week"},
		{"at once after a count is at the same time", "Run at most 3 builds at once per branch.", "No more than three builds of a branch run at the same time.", Agree, ""},
		{"a verb's negation covers its object", "Do not store card numbers; keep only their last four digits.", "Store card numbers.", Disagree, "not card"},
		{"a negated verb is named without its object", "Use a signed URL for downloads.", "Do not use a signed URL for downloads.", Disagree, "use → not use"},
		{"rather than says not", "Shard by tenant, not by region.", "Shard by tenant rather than by region.", Agree, ""},
		{"first and later in the other order", "Drain the node first and upgrade it later.", "Upgrade the node first and drain it later.", Disagree, "upgrade"},
		{"a part of the rule left out", "Each tenant may run 4 exports at a time; bigger batches need a support ticket.", "Each tenant may run 4 exports at a time.", Disagree, "dropped"},
		{"a number left out of a rule that keeps its others", "Lock an account after 5 failed logins within 10 minutes.", "Lock an account after 5 failed logins.", Disagree, "10 minutes → (not said)"},
		{"a thing treated apart now included", "Compress responses with gzip, but send images as they are.", "Compress every response with gzip, images included.", Disagree, "images included"},
		{"an inclusion that loses nothing", "Log every request at info level.", "Every request is logged at info level, including health checks.", Agree, ""},
		{"no as the answer to a question", "Do not deploy on Fridays.", "No — nobody deploys on a Friday.", Agree, ""},
		{"a doubled rate is two", "Scale out when the queue length doubles.", "Scale out once the queue is twice as long.", Agree, ""},
	} {
		got := ComparePositions(c.filed, c.position)
		if got.Agreement != c.want {
			t.Errorf("%s: %q vs %q: %s %v, want %s", c.why, c.filed, c.position, got.Agreement, got.Differences, c.want)
			continue
		}
		if c.diff != "" && !strings.Contains(strings.Join(got.Differences, "; "), c.diff) {
			t.Errorf("%s: differences %v lack %q", c.why, got.Differences, c.diff)
		}
	}
}
