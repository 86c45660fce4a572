package gating

import (
	"strings"
	"testing"
)

// readerCase is one text a reader would judge; the feature must fire on
// fire (with text among its cue text) and not on noFire.
type readerCase struct {
	feature string
	fire    []SelfCritique
	text    string
	noFire  []SelfCritique
}

func TestFeaturesReadDoubtAsAReaderDoes(t *testing.T) {
	t.Parallel()
	for _, c := range readerCases() {
		t.Run(c.feature, func(t *testing.T) {
			t.Parallel()
			idx := featureIndex(t, c.feature)
			for k, sc := range c.fire {
				f := Extract(sc)
				if f.Values[idx] == 0 {
					t.Errorf("did not fire on %q", sc.Critique)
				}
				if k == 0 && !strings.Contains(f.Text(idx), c.text) {
					t.Errorf("cue text %q lacks %q", f.Text(idx), c.text)
				}
			}
			for _, sc := range c.noFire {
				if f := Extract(sc); f.Values[idx] != 0 {
					t.Errorf("fired on %q: %v (%s)", sc.Critique, f.Values[idx], f.Text(idx))
				}
			}
		})
	}
}

func readerCases() []readerCase {
	return []readerCase{
		{
			feature: "settled_doubts",
			fire: []SelfCritique{
				crit("Could the worker pick up the same job twice? I ran TestClaimIsExclusive with -count=200 and it never did."),
				crit("I wasn't sure the header survives the proxy. Checked with `curl -sI https://staging.example/api` and it is there."),
				crit("Is the index actually used? EXPLAIN shows an Index Scan on orders_created_at_idx, 3 ms."),
				crit("Might the migration lock the table? No: it uses CREATE INDEX CONCURRENTLY, see db/migrations/0042_orders.sql:3."),
			},
			text: "Could the worker pick up the same job twice?",
			noFire: []SelfCritique{
				crit("Could the worker pick up the same job twice? I have not looked."),
				crit("I think the header survives the proxy, probably."),
				crit("The retry loop is bounded. The tests pass."),
			},
		},
		{
			feature: "modal_density",
			fire: []SelfCritique{
				crit("The cache might serve stale rows after a failover."),
				crit("It could be that the consumer drops messages on rebalance."),
			},
			text: "might",
			noFire: []SelfCritique{
				crit("Per the spec, the client may retry idempotent requests."),
				crit("A worker may lease at most 4 jobs at once; the fifth lease waits."),
				crit("A token may only be used once; the second use is rejected."),
				crit("Could the lock be taken twice? TestLockIsReentrantSafe covers it and passes."),
			},
		},
		{
			feature: "unknown_markers",
			fire: []SelfCritique{
				crit("The root cause is still unknown."),
				crit("It is unclear whether the backfill ran on all shards."),
				crit("Unknown: whether prod has the flag on."),
			},
			text: "unknown",
			noFire: []SelfCritique{
				crit("Requests naming an unknown region get a 422 that lists the valid ones."),
				crit("If the tenant is unknown, the middleware answers 404."),
				crit("The decoder maps unknown enum values to UNSPECIFIED."),
			},
		},
		{
			feature: "hedge_density",
			fire: []SelfCritique{
				crit("This is probably fine, I think."),
				crit("I assume the queue is drained before deploy."),
				crit("It's possible the job ran twice."),
			},
			text: "probably",
			noFire: []SelfCritique{
				crit("Nothing else is possible here: the enum has two members and both are handled."),
				crit("The parser assumes UTF-8 input and rejects anything else."),
				crit("Retries are spread where possible with jitter from the config."),
				crit("I was unsure whether the migration was applied. `psql -c '\\d orders'` lists the new column."),
			},
		},
		{
			feature: "evidence_specificity",
			fire: []SelfCritique{
				crit("See internal/billing/charge.go:41 for the idempotency key."),
				crit("TestRefundTwice passes."),
				crit("Ran `go test ./billing/...` and it is green."),
				crit("Replayed 1,000 requests; p99 stayed at 180 ms."),
				crit("$ make check\nok  all 212 tests"),
			},
			text: "internal/billing/charge.go:41",
			noFire: []SelfCritique{
				crit("I had a look and it is fine."),
				crit("The code looks right and the tests should pass."),
				crit("See the billing package."),
			},
		},
		{
			feature: "unchecked_confidence",
			fire: []SelfCritique{
				{Critique: "Right answer, looked at it myself.", FinalConfidence: conf(0.95)},
				crit("This is definitely right; there is no doubt about it."),
				{Critique: "Clear. The flag is off by default.", FinalConfidence: conf(0.9)},
			},
			text: "no check named",
			noFire: []SelfCritique{
				{Critique: "Correct: config/defaults.go:12 declares the flag false.", FinalConfidence: conf(0.95)},
				{Critique: "I'm not sure the flag is off.", FinalConfidence: conf(0.5)},
				{Critique: "Definitely right: TestDefaultsFlagOff asserts it.", FinalConfidence: conf(0.9)},
			},
		},
		{
			feature: "silent_answer_change",
			fire: []SelfCritique{
				{InitialAnswer: "Yes, the endpoint is idempotent.", Critique: "The handler writes a row per call.", FinalAnswer: "No, it is not idempotent."},
				{InitialAnswer: "Use Redis for the session store.", Critique: "Sessions are small and short-lived.", FinalAnswer: "Keep sessions in Postgres."},
			},
			text: "initial",
			noFire: []SelfCritique{
				{InitialAnswer: "Yes, the endpoint is idempotent.", Critique: "I was wrong: the handler writes a row per call.", FinalAnswer: "No, it is not idempotent."},
				{InitialAnswer: "Use Redis for the session store.", Critique: "I changed my mind after reading the ops notes.", FinalAnswer: "Keep sessions in Postgres."},
				{InitialAnswer: "Yes, it is idempotent.", Critique: "The upsert keys on the request id.", FinalAnswer: "Yes, idempotent."},
			},
		},
		{
			feature: "failure_reports",
			fire: []SelfCritique{
				crit("TestExport still fails on CI about one run in ten."),
				crit("The staging deploy panicked on start-up."),
				crit("The dashboard still shows timeouts after the fix."),
			},
			text: "fails",
			noFire: []SelfCritique{
				crit("The suite ran with no failures."),
				crit("0 failures across 50 runs."),
				crit("It never fails on an empty batch; the loop is skipped."),
			},
		},
	}
}

// TestEveryCueNamesItsText: on every example of the corpus, every cue the
// gate reports carries the text (or the value description) that fired it.
func TestEveryCueNamesItsText(t *testing.T) {
	t.Parallel()
	ex, err := Corpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ex {
		d, err := Default().Decide(e.SelfCritique)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range d.Cues {
			if strings.TrimSpace(c.Text) == "" {
				t.Errorf("%s: cue %s has no text", e.ID, c.Feature)
			}
		}
	}
}
