package consensus

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parleyhq/parley/debate"
)

// TestVoicePosition: an agent's framing, hedges, markup, list markers and
// configuration syntax are read as the words they say; the rule itself is
// left as written.
func TestVoicePosition(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, in, want string }{
		{"plain", "Partition the table by event date.", "Partition the table by event date."},
		{"I plan to", "I plan to cache search results for 5 minutes.", "cache search results for 5 minutes."},
		{"I'll", "I'll cache search results for 5 minutes.", "cache search results for 5 minutes."},
		{"we're going to", "We're going to shard by tenant.", "shard by tenant."},
		{"proposed approach", "Proposed approach: shard by tenant.", "shard by tenant."},
		{"my plan is to", "My plan is to shard by tenant.", "shard by tenant."},
		{"PR framing", "Implementing PR #412 — shard by tenant.", "shard by tenant."},
		{"PR framing colon", "PR #7: shard by tenant.", "shard by tenant."},
		{"per a file", "Per CONTRIBUTING.md, squash before merging.", "squash before merging."},
		{"per a doc", "per the style guide: squash before merging.", "squash before merging."},
		{"as discussed", "As discussed in the design doc, squash before merging.", "squash before merging."},
		{"as agreed", "As agreed, squash before merging.", "squash before merging."},
		{"source at the end", "Squash before merging, per CONTRIBUTING.md.", "Squash before merging."},
		{"as discussed at the end", "Squash before merging, as discussed in the design doc.", "Squash before merging."},
		{"see a source", "Squash before merging (see the style guide).", "Squash before merging."},
		{"as agreed with someone stays", "As agreed with the team we ship weekly.", "As agreed with the team we ship weekly."},
		{"framing after a clause", "Rebase first; I think we should squash before merging.", "Rebase first; squash before merging."},
		{"I think we should", "I think we should squash before merging, because history stays linear.", "squash before merging, because history stays linear."},
		{"to be safe", "To be safe, I'll keep 3 replicas.", "keep 3 replicas."},
		{"let's", "Let's keep 3 replicas.", "keep 3 replicas."},
		{"leaning towards", "I'm leaning towards keeping 3 replicas.", "keeping 3 replicas."},
		{"backticks and bold", "Set `timeout` to **2 seconds**.", "Set timeout to 2 seconds."},
		{"bullets", "- shard by tenant; - 3 replicas; - no cross-region reads", "shard by tenant; 3 replicas; no cross-region reads"},
		{"bullet lines", "* shard by tenant\n* 3 replicas", "shard by tenant; 3 replicas"},
		{"numbered steps", "1. Drain the node. 2. Upgrade it. 3. Uncordon it.", "Drain the node. Upgrade it. Uncordon it."},
		{"numbered lines", "1) Drain the node\n2) Upgrade it", "Drain the node; Upgrade it"},
		{"step n", "Step 1: drain the node. Step 2: upgrade it.", "drain the node. upgrade it."},
		{"config key = value", "max_retries = 5; backoff = exponential", "max retries 5; backoff exponential"},
		{"typed field", "retry_limit: int = 5; backoff_base_s: float = 1.5", "retry limit 5; backoff base s 1.5"},
		{"typed field, Kotlin", "data class Lockout(val maxAttempts: Int = 5, val windowMinutes: Int = 15)", "data class Lockout(val max attempts 5, val window minutes 15)"},
		{"typed field with no value", "retry_limit: int", "retry limit int"},
		{"dotted and camel keys", "log.format = json, cacheTTL: 60s", "log format json, cache ttl 60s"},
		{"flags", "--max-connections=50 --idle-timeout=30s", "max connections 50; idle timeout 30s"},
		{"env var", "SESSION_TTL=8h", "session ttl 8h"},
		{"keys on one line", "max_batch_rows = 500 min_gap_s = 30", "max batch rows 500; min gap s 30"},
		{"JSON keys", `{"retry_limit": 4, "backoff": "exponential", "enabled": true}`, "{retry limit 4, backoff exponential, enabled}"},
		{"a quoted value with a space", `{"hold_period": "14 days", "max_holds": 2}`, "{hold period 14 days, max holds 2}"},
		{"boolean false", "automerge: false", "not automerge"},
		{"boolean true", "gzip_enabled = true", "gzip enabled"},
		{"never", "commit_secrets = never", "never commit secrets"},
		{"code comment", "// retries: 5, exponential backoff", "// retries: 5, exponential backoff"},
		// What must stay as written: the rule's own words.
		{"per in the rule", "Allow 5 attempts per account per 15 minutes.", "Allow 5 attempts per account per 15 minutes."},
		{"negative number", "-16 LUFS integrated; -1 dBTP peaks", "-16 LUFS integrated; -1 dBTP peaks"},
		{"a number after a sentence", "Keep backups. 30 days of them.", "Keep backups. 30 days of them."},
		{"we should stays", "We should never log card numbers.", "We should never log card numbers."},
		{"none is an option", "SameSite=None", "same site None"},
		{"plain colon", "Scope: this applies to prod.", "Scope: this applies to prod."},
		{"an equals sign in prose", "Region = wherever the leader pings lowest", "region wherever the leader pings lowest"},
		{"a quote that opens no key", `He said "ok": fine`, `He said "ok": fine`},
		{"url", "Send to https://example.com/hook", "Send to https://example.com/hook"},
		{"file extensions", "Reject .exe, .js or .vbs attachments.", "Reject .exe, .js or .vbs attachments."},
		{"clock", "Run at 02:00 UTC.", "Run at 02:00 UTC."},
		{"only framing", "I plan to", "I plan to"},
		{"only markup", "``` ** ``", "``` ** ``"},
	} {
		if got := voicePosition(c.in); got != c.want {
			t.Errorf("%s: voicePosition(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// TestVoiceTopic: a topic written as a task title or framed as a piece of
// work asks what its object is about; a topic's own words stay.
func TestVoiceTopic(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, in, want string }{
		{"plain", "Retry policy for outgoing webhooks", "Retry policy for outgoing webhooks"},
		{"task title", "Add retry logic to the webhook sender", "retry logic to the webhook sender"},
		{"set up", "Set up the CI workflow for feature branches", "CI workflow for feature branches"},
		{"PR framing", "Implementing PR #412 — retry policy for webhooks", "retry policy for webhooks"},
		{"backticks", "Implement pagination for `GET /v1/orders`", "pagination for GET /v1/orders"},
		{"question", "How many times should I retry a webhook?", "How many times should I retry a webhook?"},
		{"gerund stays", "Removing stale feature flags", "Removing stale feature flags"},
		{"task in the present", "Adding request IDs to the checkout logger", "request IDs to the checkout logger"},
		{"task in the present, article", "Wiring the updater to release channels", "updater to release channels"},
		{"gerund of a record's topic", "Running database migrations during deploys", "Running database migrations during deploys"},
		{"gerund before an article", "Building the payout job for sellers", "payout job for sellers"},
		{"commit subject", "feat(api): CORS policy", "api CORS policy"},
		{"commit subject, no scope", "fix: add a timeout to the inventory client", "timeout to the inventory client"},
		{"work in brackets", "Keep-alive for the live-updates socket (implementing RT-57)", "Keep-alive for the live-updates socket"},
		{"component tag", "Testing the new `<DatePicker>` in the component library", "new DatePicker in the component library"},
		{"brackets that ask", "Retention (in days) of audit logs", "Retention (in days) of audit logs"},
		{"only a label", "fix:", "fix:"},
		{"verb alone", "Deploy", "Deploy"},
		{"noun, not a verb", "Review of translated documents", "Review of translated documents"},
		{"noun before a noun", "Change freeze over the holidays", "Change freeze over the holidays"},
		{"verb before an article", "Drop the legacy_status column", "legacy_status column"},
		{"verb and nothing", "Add the", "Add the"},
		{"only a PR number", "PR #12", "PR #12"},
		{"plan label", "Plan: relax the photo rule for rentals", "relax the photo rule for rentals"},
		{"question label", "Q: which origins can call the public API?", "which origins can call the public API?"},
		{"todo label, any case", "TODO: rotate the signing keys", "rotate the signing keys"},
		{"label alone", "Plan:", "Plan:"},
		{"a label word inside", "Disaster recovery plan: scope", "Disaster recovery plan: scope"},
		{"work verb in the present", "Reducing checkpoint latency on the fraud job", "checkpoint latency on the fraud job"},
		{"work verb, label and verb", "Plan: automating more fee waivers", "more fee waivers"},
		{"work verb alone", "Tuning", "Tuning"},
	} {
		if got := voiceTopic(c.in); got != c.want {
			t.Errorf("%s: voiceTopic(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// TestVoiceHostile: huge, binary, markup-only or framing-only input is
// read without panicking, in bounded output, as valid text when it was.
func TestVoiceHostile(t *testing.T) {
	t.Parallel()
	inputs := hostilePositions()
	inputs["only markup"] = strings.Repeat("``` ** __ ~~ - * + • // /* */ ", 5000)
	inputs["only framing"] = strings.Repeat("I plan to; Proposed approach: As agreed, Implementing PR #1 — ", 3000)
	inputs["config soup"] = strings.Repeat("a=b:c=--d=e_f.g=true;", 8000)
	inputs["steps"] = strings.Repeat("1. 2) (3) Step 4: ", 8000)
	inputs["calendar soup"] = "RRULE:FREQ=YEARLY;BYMONTH=" + strings.Repeat("1,", 8000) + " " + strings.Repeat("DTSTART:--1227T1600 X-A:BYDAY=MO,TU ", 500) + " DURATION:P" + strings.Repeat("1Y", 3000)
	inputs["turtle soup"] = strings.Repeat(":a :b [ :c \"d ; e\" ; :f :g , :h ] . ", 4000) + strings.Repeat("[", 3000) + " :x :y \""
	inputs["spreadsheet soup"] = "=" + strings.Repeat("IF(A1>TIME(99,99,99),B2-TIME(1,0,0)+TIME(0,30,0),", 2000) + strings.Repeat(")", 2000)
	inputs["section soup"] = strings.Repeat("Rule: a. Because: b. Next action: c.\n", 3000) + strings.Repeat(`\\ \hline & `, 3000)
	inputs["pair soup"] = "'(" + strings.Repeat("(a . #t) (b-c . \"x\") .d = 1, ", 4000) + ")"
	inputs["confidence soup"] = strings.Repeat("x. Confidence: 0.9 (confidence: high) ", 3000) + "Confidence: 0.5"
	inputs["binary"] = string([]byte{0, 1, 2, 0xff, '`', '=', ':', '\n', 0xc3})
	inputs["cut inside a rune"] = strings.Repeat("é", maxVoiced)
	for name, in := range inputs {
		for _, f := range []func(string) string{voicePosition, voiceTopic} {
			out := f(in)
			if len(out) > max(len(in), 2*maxVoiced) {
				t.Errorf("%s: %d bytes in, %d out", name, len(in), len(out))
			}
			if utf8.ValidString(in) && !utf8.ValidString(out) {
				t.Errorf("%s: valid text in, invalid out", name)
			}
		}
	}
}

// TestCheckReadsAgentVoice: a question asked in an agent's voice is
// answered as the same question in plain words is: framing, plan steps,
// markup and configuration syntax neither hide the record nor read as a
// change of the rule; a change said in that voice is still a conflict,
// and another object is still none.
func TestCheckReadsAgentVoice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	o := outcome("20261202-spec-drain-abcdef", "Draining nodes before an upgrade", debate.LayerSpec, debate.ConsensusReached, false)
	o.FinalPosition = "Drain a node before upgrading it, wait at most 10 minutes for its pods to move, and never drain two nodes of one zone at once."
	o.FinalPositionHash = debate.PositionHash(o.FinalPosition)
	e.file(t, o)
	for _, c := range []struct {
		name, topic, position string
		want                  CheckStatus
	}{
		{"steps", "Draining nodes before an upgrade", "1. Drain the node before upgrading it. 2. Wait at most 10 minutes for its pods to move. 3. Never drain two nodes of one zone at once.", CheckConsistent},
		{"framing", "draining nodes before an upgrade", "As discussed in the design doc, I plan to drain a node before upgrading it, wait at most 10 minutes for its pods to move, and never drain two nodes of one zone at once.", CheckConsistent},
		{"config", "Draining nodes before an upgrade", "drain_before_upgrade = true; drain_timeout = 10m; drain_two_nodes_of_one_zone_at_once = never", CheckConsistent},
		{"framed change", "Draining nodes before an upgrade", "Proposed approach: drain a node before upgrading it, wait at most 30 minutes for its pods to move, and never drain two nodes of one zone at once.", CheckConflict},
		{"config change", "Draining nodes before an upgrade", "`drain_timeout = 30m`; drain before the upgrade; never two nodes of one zone at once", CheckConflict},
		{"other object", "Implementing PR #12 — draining databases before an upgrade", "I plan to drain database connections before upgrading.", CheckNone},
	} {
		res, err := e.s.Check(ctx, debate.LayerSpec, c.topic, c.position)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Status != c.want {
			t.Errorf("%s: %s (%v), want %s", c.name, res.Status, res.Comparison.Differences, c.want)
		}
		if res.Topic != c.topic || res.Position != c.position {
			t.Errorf("%s: the result does not give the question as asked: %q %q", c.name, res.Topic, res.Position)
		}
	}
}

// TestCheckHostileAgentInput: a check whose topic or position is huge,
// binary or only markup answers without error or panic.
func TestCheckHostileAgentInput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.file(t, outcome("20261202-spec-hostile-abcdef", "Retry policy for outgoing webhooks", debate.LayerSpec, debate.ConsensusReached, false))
	inputs := hostilePositions()
	inputs["only markup"] = strings.Repeat("``` ** __ - * ", 20000)
	inputs["binary"] = string([]byte{0, 1, 2, 0xff, '`', '=', ':', '\n', 0xc3})
	for name, in := range inputs {
		for _, q := range [][2]string{{"Implementing PR #4 — " + in, defPos}, {"Retry policy for outgoing webhooks", "I plan to " + in}, {in, in}} {
			res, err := e.s.Check(ctx, debate.LayerSpec, q[0], q[1])
			if err != nil && err != ErrEmptyQuestion {
				t.Errorf("%s: %v", name, err)
			}
			if err == nil && res.Status == "" {
				t.Errorf("%s: no status", name)
			}
		}
	}
}

// BenchmarkVoice measures the reading of an agent's wording: a plain
// position (nothing to rewrite) and an ordinary agent-worded one beside
// 100 KiB of hostile text, of which only the first maxVoiced bytes are
// read.
func BenchmarkVoice(b *testing.B) {
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			voicePosition("Retry a failed webhook delivery at most 5 times with exponential backoff starting at 2 seconds; after the fifth failure mark the endpoint disabled.")
		}
	})
	b.Run("ordinary", func(b *testing.B) {
		for b.Loop() {
			voicePosition("As discussed in the design doc, I plan to set `max_retries = 5`; - backoff: exponential, base 2s; - 1. disable the endpoint after that")
		}
	})
	for _, name := range []string{"words 100 KiB", "symbols", "invalid utf-8"} {
		in := hostilePositions()[name]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				voicePosition(in)
			}
		})
	}
}

// TestConfigComparedAsSaid compares rules given as configuration
// fragments, as a check reads them (voicePosition): keys on one line and
// JSON with quoted keys and values.
func TestConfigComparedAsSaid(t *testing.T) {
	t.Parallel()
	checkAgreements(t, []agreementCase{
		{"Exam halls are filled to at most 50% of capacity, with seats at least 1.2 m apart.", "max_fill_pct = 50 min_seat_gap_m = 1.2", Agree},
		{"Exam halls are filled to at most 50% of capacity, with seats at least 1.2 m apart.", "max_fill_pct = 60 min_seat_gap_m = 1.2", Disagree},
		{"A hold lasts 14 days and a patron may have at most 2 holds at a time.", `{"hold_period": "14 days", "max_holds": 2}`, Agree},
		{"A hold lasts 14 days and a patron may have at most 2 holds at a time.", `{"hold_period": "21 days", "max_holds": 2}`, Disagree},
	})
}

// FuzzVoicePosition reads arbitrary positions and topics in every voice:
// no panic, valid text stays valid, and the output stays bounded.
func FuzzVoicePosition(f *testing.F) {
	f.Add(":Thing :minTemperatureC 80 ; :nested [ :a :B ; :c \"x y\" ] .")
	f.Add("=IF(C2>TIME(6,0,0), B2-TIME(0,30,0), TIME(1,2))")
	f.Add("Answer: keep 3 cats. Confidence: 0.8")
	f.Add("'((max-nights . 14) (ok . #f)) .{ .max_nights = 14 }")
	f.Add("Assumptions: x. Rule: 14 nights & from 2 pm \\\\ \\hline Next action: y.")
	f.Add("BEGIN:VEVENT RRULE:FREQ=WEEKLY;BYDAY=MO DTSTART:--1227T160000 END:VEVENT")
	f.Add("Thought: x Action: consensus_check Action Input: {\"max_retries\": 3}")
	f.Add("<134>1 2025-03-04T10:12:00Z host app 4411 ID [g@32473 a=\"1\" b=\"x\\\"]\"][h c=\"2\"] msg")
	f.Add("[step 2/3] applying rule: gates close at 10 pm; boxes 30x20x10 cm")
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range []func(string) string{voicePosition, voiceTopic} {
			out := v(s)
			if utf8.ValidString(s) && !utf8.ValidString(out) {
				t.Fatalf("valid text in, invalid out: %q", out)
			}
			if len(out) > max(len(s), 2*maxVoiced) {
				t.Fatalf("%d bytes in, %d out", len(s), len(out))
			}
		}
	})
}

// voicedCase is a text and the words voicePosition must say it in.
type voicedCase struct{ in, want string }

// checkVoiced says each case's text as a position and reports the ones
// said otherwise.
func checkVoiced(t *testing.T, cases []voicedCase) {
	t.Helper()
	for _, c := range cases {
		if got := voicePosition(c.in); got != c.want {
			t.Errorf("voicePosition(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
