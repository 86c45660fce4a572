package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
)

// The vocabulary of the generated vault: questions teams debate about
// their systems, in several forms (a noun phrase, a "how long", a
// "which", a "should we"), with positions that carry numbers and units,
// options and conditions.
var (
	genAreas   = []string{"billing", "checkout", "search", "catalogue", "inventory", "shipping", "payments", "auth", "onboarding", "notifications", "reporting", "analytics", "messaging", "uploads", "thumbnails", "exports", "imports", "invoices", "refunds", "ledger", "scheduler", "webhooks", "gateway", "registry", "sessions", "profiles", "comments", "reviews", "feeds", "media"}
	genThings  = []string{"token", "cache", "session", "key", "index", "queue", "job", "event", "log", "backup", "snapshot", "replica", "certificate", "secret", "cookie", "image", "thumbnail", "report", "export", "invoice", "receipt", "webhook", "retry", "lock", "lease", "cursor", "migration", "schema", "table", "partition", "shard", "bucket", "topic", "stream", "batch"}
	genAspects = []string{"lifetime", "retention period", "rotation schedule", "storage format", "compression level",
		"retry budget", "timeout", "page size", "batch size", "rate limit", "sort order", "naming scheme",
		"encryption", "region", "ownership", "alert threshold", "cleanup cadence", "fallback", "versioning", "quota"}
	genOptions = [][2]string{{"WebP", "AVIF"}, {"JSON", "protobuf"}, {"gzip", "zstd"}, {"ascending", "descending"},
		{"UTC", "local time"}, {"Postgres", "SQLite"}, {"push", "pull"}, {"hourly", "daily"}, {"soft delete", "hard delete"},
		{"per tenant", "shared"}, {"optimistic locking", "pessimistic locking"}, {"cursor pagination", "offset pagination"}}
	genUnits  = []string{"seconds", "minutes", "hours", "days", "weeks", "MB", "GB", "requests per second", "items", "percent"}
	genVerbs  = []string{"keep", "expire", "rotate", "store", "compress", "retry", "batch", "page", "encrypt", "archive", "purge", "cap", "limit"}
	genUnless = []string{"the tenant is on the enterprise plan", "the request carries an idempotency key", "an operator overrides it",
		"the region is under legal hold", "the job is marked urgent", "the client is a mobile app", "a replay is in progress"}
)

// genQuestion is one generated question: its layer, topic and the words
// it was made of (to reword it).
type genQuestion struct {
	layer               debate.Layer
	area, thing, aspect string
	topic               string
}

// topicForms are the ways a question is asked.
var topicForms = []func(q *genQuestion) string{
	func(q *genQuestion) string { return fmt.Sprintf("%s %s %s", title(q.area), q.thing, q.aspect) },
	func(q *genQuestion) string { return fmt.Sprintf("%s of %s %ss", title(q.aspect), q.area, q.thing) },
	func(q *genQuestion) string {
		return fmt.Sprintf("What %s should %s %ss use?", q.aspect, q.area, q.thing)
	},
	func(q *genQuestion) string {
		return fmt.Sprintf("Choosing the %s for the %s %s", q.aspect, q.area, q.thing)
	},
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// genPosition is a position on a question: a rule with a number and unit,
// an option and sometimes a condition.
func genPosition(r *rand.Rand, q *genQuestion) string {
	n, unit := 1+r.IntN(120), genUnits[r.IntN(len(genUnits))]
	opt := genOptions[r.IntN(len(genOptions))][r.IntN(2)]
	verb := genVerbs[r.IntN(len(genVerbs))]
	var p string
	switch r.IntN(4) {
	case 0:
		p = fmt.Sprintf("%s %s %ss for %d %s", title(verb), q.area, q.thing, n, unit)
	case 1:
		p = fmt.Sprintf("Use %s for the %s of %s %ss, with a limit of %d %s", opt, q.aspect, q.area, q.thing, n, unit)
	case 2:
		p = fmt.Sprintf("The %s %s %s is %d %s, set per environment", q.area, q.thing, q.aspect, n, unit)
	default:
		p = fmt.Sprintf("Never %s %s %ss more often than every %d %s", verb, q.area, q.thing, n, unit)
	}
	if r.IntN(3) == 0 {
		p += ", unless " + genUnless[r.IntN(len(genUnless))]
	}
	return p
}

// consensusVault is a generated set of closed debates with the questions
// they answer.
type consensusVault struct {
	outcomes  []*debate.Outcome
	questions []*genQuestion // of each outcome
}

// genConsensus generates n closed debates, deterministic for a seed:
// distinct questions in varied forms over the three layers, about one in
// ten debated again (a supersession chain), 60% agreed, the rest
// deadlocks, exhausted budgets and timeouts.
func genConsensus(n int, seed uint64) *consensusVault {
	r := rand.New(rand.NewPCG(seed, seed^0x51ed27))
	cv := &consensusVault{}
	used := map[string]bool{}
	for i := range n {
		var q *genQuestion
		if i > 20 && r.IntN(10) == 0 {
			q = cv.questions[r.IntN(len(cv.questions))] // debated again
		} else {
			for {
				q = &genQuestion{layer: debate.Layers[r.IntN(len(debate.Layers))], area: genAreas[r.IntN(len(genAreas))],
					thing: genThings[r.IntN(len(genThings))], aspect: genAspects[r.IntN(len(genAspects))]}
				q.topic = topicForms[r.IntN(len(topicForms))](q)
				// Past the distinct combinations, a region or tier tells
				// questions apart, as it does in a large organisation.
				if used[string(q.layer)+q.area+q.thing+q.aspect] {
					q.area = fmt.Sprintf("%s-%s%d", q.area, []string{"eu", "us", "apac", "tier"}[r.IntN(4)], r.IntN(400))
					q.topic = topicForms[r.IntN(len(topicForms))](q)
				}
				if !used[string(q.layer)+q.area+q.thing+q.aspect] {
					used[string(q.layer)+q.area+q.thing+q.aspect] = true
					break
				}
			}
		}
		v, agreed := consensustest.RandomVerdict(r)
		id := fmt.Sprintf("20261130-%s-g%d-%s", q.layer, i, consensustest.Suffix(r))
		o := consensustest.Outcome(id, q.topic, q.layer, v, genPosition(r, q), genPosition(r, q), agreed)
		cv.outcomes = append(cv.outcomes, o)
		cv.questions = append(cv.questions, q)
	}
	return cv
}

// consensusQuery is one check a user or agent might run.
type consensusQuery struct {
	kind     string // same, changed, reworded, unfiled
	layer    debate.Layer
	topic    string
	position string
}

// queries draws n checks: the filed topic with its position (same), with
// a number changed (changed), the question asked in another form
// (reworded), and a question nobody filed (unfiled), a quarter each.
func (cv *consensusVault) queries(n int, seed uint64) []consensusQuery {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]consensusQuery, 0, n)
	for i := range n {
		k := r.IntN(len(cv.outcomes))
		o, q := cv.outcomes[k], cv.questions[k]
		pos := o.DefenderPosition
		switch i % 4 {
		case 0:
			out = append(out, consensusQuery{"same", q.layer, o.Session.Topic, pos})
		case 1:
			out = append(out, consensusQuery{"changed", q.layer, o.Session.Topic, changeNumber(pos)})
		case 2:
			form := topicForms[r.IntN(len(topicForms))](q)
			out = append(out, consensusQuery{"reworded", q.layer, form, pos})
		default:
			nq := &genQuestion{layer: q.layer, area: q.area, thing: "unfiled " + genThings[r.IntN(len(genThings))], aspect: genAspects[r.IntN(len(genAspects))]}
			out = append(out, consensusQuery{"unfiled", q.layer, topicForms[r.IntN(len(topicForms))](nq), genPosition(r, nq)})
		}
	}
	return out
}

// changeNumber adds 5 to the first number of a position.
func changeNumber(p string) string {
	f := strings.Fields(p)
	for i, w := range f {
		var n int
		if _, err := fmt.Sscanf(w, "%d", &n); err == nil && fmt.Sprint(n) == w {
			f[i] = fmt.Sprint(n + 5)
			return strings.Join(f, " ")
		}
	}
	return p + " within 5 minutes"
}
