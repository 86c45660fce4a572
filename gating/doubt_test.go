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
		// Reading fixes found by the blind set (testdata/blind): each
		// case is written afresh, not copied from it.
		{
			feature: "settled_doubts", // the check may come a few sentences later
			fire: []SelfCritique{
				crit("Can the cache hand out a stale token? The spec forbids it. TestTokenRefreshOrder covers exactly that and passes."),
				crit("Is a negative count possible? Answer. The column is declared unsigned (schema.sql:12) and the decoder rejects -1."),
			},
			noFire: []SelfCritique{
				crit("Can the cache hand out a stale token? The spec forbids it, I think."),
				crit("Did the copy finish? It did. Row counts are 1,000,120 vs 1,000,020 but that's close enough."),
			},
		},
		{
			feature: "questions", // a new doubt between a question and a check leaves the question open
			fire:    []SelfCritique{crit("Can the cache hand out a stale token? I might be wrong about the spec. TestTokenRefreshOrder passes.")},
			noFire:  []SelfCritique{crit("Can the cache hand out a stale token? The spec forbids it. TestTokenRefreshOrder passes.")},
		},
		{
			feature: "failure_reports",
			fire:    []SelfCritique{crit("TestUpload fails with a deadline error."), crit("The e2e job timed out twice.")},
			noFire: []SelfCritique{
				crit("Do we crash on an empty body? The handler checks the length first. TestEmptyBody sends one and passes."),
				crit("The regression suite is green and the timeout test passes."),
			},
		},
		{
			feature: "dismissals",
			fire:    []SelfCritique{crit("TestLogin fails but that does not matter."), crit("Totals are off by a cent on 3 invoices, ignoring that for now.")},
			text:    "does not matter",
			noFire: []SelfCritique{
				crit("Receivers MUST ignore unknown message types, and ours do (recv.go:88)."),
				crit("I checked the renderer: it sorts by date (list.tsx:40), so the order the API returns does not matter."),
			},
		},
		{
			feature: "failure_overruled",
			fire: []SelfCritique{
				crit("TestSessionExpiry: FAIL. Everything else works, ship it."),
				crit("The e2e payment test times out, probably slow runners. All good."),
				crit("Heap still climbs about 30 MB an hour, so the leak is fixed."),
			},
			text: "FAIL",
			noFire: []SelfCritique{
				crit("TestParseEmpty fails on main and passes on this branch."),
				crit("It failed 17/200 before the fix. Now 0/200, all pass."),
				crit("TestUpload fails with a deadline error. I don't know why yet."),
				crit("Does it crash on empty input? I ran the fuzzer for 10 minutes without a crash. Works."),
			},
		},
		{
			feature: "settled_doubts", // a cited section is no check; a hedge soon after reopens the doubt
			fire:    []SelfCritique{crit("Could the index slow writes? I measured 20k inserts: 1.91 s without it, 1.97 s with it.")},
			noFire: []SelfCritique{
				crit("- [?] page size cap: I think it's 100, the code might use 200\n- [ ] §4.3 error format"),
				crit("My timings above may be wrong, I ran them on a laptop on battery. Someone saw the opposite. I haven't rerun yet."),
			},
		},
		{
			feature: "failure_reports", // discrepancies and errors are failures too
			fire:    []SelfCritique{crit("37 of the invoices differ by a cent."), crit("The call errored with NonExistentQueue.")},
			noFire:  []SelfCritique{crit("No invoice differs from the reference.")},
		},
		{
			feature: "unchecked_confidence", // a file cited in the text names where the check was made
			fire:    []SelfCritique{{Critique: "The dedup is right.", FinalConfidence: conf(0.95)}},
			noFire:  []SelfCritique{{Critique: "The dedup is right, verified in webhooks/dedup.go.", FinalConfidence: conf(0.95)}},
		},
		{
			feature: "unknown_markers", // a label's "none"
			fire:    []SelfCritique{crit("Open questions: the retention period.")},
			noFire:  []SelfCritique{crit("Open questions: none.\nTODOs: 0")},
		},
		{
			feature: "hedge_density", // "kind of" as a noun phrase
			fire:    []SelfCritique{crit("The endpoint is kind of slow.")},
			noFire:  []SelfCritique{crit("This kind of bug is fixed by the lock at cache.go:40.")},
		},
		{
			feature: "evidence_specificity",
			fire: []SelfCritique{
				crit("- ran: curl -s localhost:8080/health"),
				crit("88 pass, 0 fail."),
				crit("go test ./cache -run TTL\nPASS"),
			},
			noFire: []SelfCritique{crit("RESULT: PASS"), crit("Make sure the docs are updated."), crit("Go to the settings page.")},
		},
		{
			feature: "silent_answer_change", // the figure changed, the words did not
			fire: []SelfCritique{
				{InitialAnswer: "At most 1,000 rows per page.", Critique: "Looked at the docs again.", FinalAnswer: "At most 500 rows per page."},
				{InitialAnswer: "The timeout is 30s.", Critique: "Read the config.", FinalAnswer: "The timeout is 60s."},
			},
			noFire: []SelfCritique{
				{InitialAnswer: "3 retries within 10 s.", Critique: "Checked retry.go:20.", FinalAnswer: "3 retries within 10 s, with jitter."},
				{InitialAnswer: "At most 1,000 rows.", Critique: "Looked at the docs again.", FinalAnswer: "At most 1000 rows per page."},
			},
		},
		{
			feature: "numbers", // an answer's own figures are the claim, not evidence
			fire:    []SelfCritique{{Critique: "It took 3 tries.", FinalAnswer: "Yes."}},
			noFire:  []SelfCritique{{Critique: "Re-read the config.", FinalAnswer: "The pool holds 25 connections."}},
		},
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
