package config

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Upper bounds of config.json's millisecond settings. A value over its
// bound is a slip (seconds typed as milliseconds, a stray digit) rather
// than a wish: parley never needs to wait that long, and far enough over,
// the milliseconds overflow a time.Duration (a negative heartbeat interval
// once made "parley watch" panic). The debate budgets' wall clock has its
// bound in package debate (debate.MaxWallClock, a week), where the budget
// flags meet it too.
const (
	// MaxReconcileMs bounds messenger.reconcileMs: an hour. The scan
	// catches what the file watcher missed; a longer period leaves such a
	// message unseen for longer than anyone waits.
	MaxReconcileMs = 60 * 60 * 1000
	// MaxHeartbeatTTLMs bounds messenger.heartbeatTtlMs: a day, the
	// longest an agent that died may still count as running.
	MaxHeartbeatTTLMs = 24 * 60 * 60 * 1000
	// MinHeartbeatTTLMs is the shortest messenger.heartbeatTtlMs: a
	// second. An agent renews its registration every third of the TTL,
	// each renewal a durable write; under a second (a slip of units:
	// seconds typed as milliseconds) the renewals cannot keep up, and
	// every running agent counts as dead: sends warn that it is not
	// running, and its registration is pruned while it runs.
	MinHeartbeatTTLMs = 1000
	// MaxRetryMs bounds nats.retryMs: an hour of waiting for a server
	// that does not answer, in every command.
	MaxRetryMs = 60 * 60 * 1000
	// MaxRequestTimeoutMs bounds openai.requestTimeoutMs (and each
	// model's): a day for one request.
	MaxRequestTimeoutMs = 24 * 60 * 60 * 1000
)

// msSetting is one millisecond setting of config.json as Parse checks it.
type msSetting struct {
	key        string // its dotted path in config.json
	value, max int
	maxInWords string // the bound in words: "an hour"
	def        string // what 0 means: "30000", "the openai section's"
	// min is the shortest value that works, when it is more than 1 ms;
	// minInWords says it in words ("a second").
	min        int
	minInWords string
}

// check refuses a value below zero, under the setting's minimum or over
// its bound; zero (or no key) means the default.
func (s msSetting) check() error {
	if s.value == 0 || s.value >= max(s.min, 1) && s.value <= s.max {
		return nil
	}
	from := "1"
	if s.min > 1 {
		from = fmt.Sprintf("%d (%s)", s.min, s.minInWords)
	}
	return fmt.Errorf("%w: %s %d: use %s to %d (%s), or 0 for the default (%s)", ErrInvalid, s.key, s.value, from, s.max, s.maxInWords, s.def)
}

// millis converts a millisecond setting to a time.Duration, kept between
// zero and the setting's bound, so that the conversion cannot overflow
// even for a Config built in code that Parse never checked. It is the one
// conversion of config.json's milliseconds; zero means "the default" to
// the caller.
func millis(ms, bound int) time.Duration {
	return time.Duration(min(max(ms, 0), bound)) * time.Millisecond
}

// Reconcile is the period of the inbox reconciliation scan; zero means
// the scanning package's default.
func (m Messenger) Reconcile() time.Duration { return millis(m.ReconcileMs, MaxReconcileMs) }

// HeartbeatTTL is how old a heartbeat may be before its agent counts as
// dead; zero means the registry's default.
func (m Messenger) HeartbeatTTL() time.Duration { return millis(m.HeartbeatTTLMs, MaxHeartbeatTTLMs) }

// Retry is how long the NATS transport retries while the server does not
// answer; zero means the transport's default.
func (n NATS) Retry() time.Duration { return millis(n.RetryMs, MaxRetryMs) }

// RequestTimeout caps one HTTP request of the endpoint; zero means none
// beyond the turn's deadline.
func (e OpenAIEndpoint) RequestTimeout() time.Duration {
	return millis(e.RequestTimeoutMs, MaxRequestTimeoutMs)
}

// msSettings lists the millisecond settings of c outside the debate
// budgets (which debate.ConsensusBudget.Validate checks), models in name
// order so that the first one refused is always the same.
func (c *Config) msSettings() []msSetting {
	s := []msSetting{
		{"messenger.reconcileMs", c.Messenger.ReconcileMs, MaxReconcileMs, "an hour", fmt.Sprint(DefaultReconcileMs), 0, ""},
		{"messenger.heartbeatTtlMs", c.Messenger.HeartbeatTTLMs, MaxHeartbeatTTLMs, "a day", fmt.Sprint(DefaultHeartbeatTTLMs), MinHeartbeatTTLMs, "a second"},
		{"nats.retryMs", c.NATS.RetryMs, MaxRetryMs, "an hour", fmt.Sprint(DefaultNATSRetryMs), 0, ""},
		{"openai.requestTimeoutMs", c.OpenAI.RequestTimeoutMs, MaxRequestTimeoutMs, "a day", fmt.Sprint(DefaultRequestTimeoutMs), 0, ""},
	}
	for _, name := range slices.Sorted(maps.Keys(c.OpenAI.Models)) {
		s = append(s, msSetting{"openai.models." + name + ".requestTimeoutMs", c.OpenAI.Models[name].RequestTimeoutMs,
			MaxRequestTimeoutMs, "a day", "the openai section's", 0, ""})
	}
	return s
}
