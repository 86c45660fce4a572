// Command corpusgen writes the gate's labeled corpus, gating/corpus/
// train.jsonl and heldout.jsonl, from the topics in topics.go and the
// hand-written fragments of each scenario below. It is deterministic: the
// same source always writes the same bytes (a test checks the committed
// files against it).
//
//	go run ./gating/internal/corpusgen -out gating/corpus
//
// Labels are the project's judgement of whether a debate is worth its cost:
// "debate" when the self-critique shows the answer is unsettled (it hedges,
// leaves something unknown, flips, contradicts itself, never commits, or
// claims verification without evidence), "skip" when the critique checked
// the answer and commits to it, whatever the stated confidence says.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
)

func main() {
	out := flag.String("out", "gating/corpus", "directory for train.jsonl and heldout.jsonl")
	flag.Parse()
	train, heldout, err := generate()
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "train.jsonl"), train, 0o644)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "heldout.jsonl"), heldout, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpusgen:", err)
		os.Exit(1)
	}
}

// perTopic is how many examples each topic yields.
const perTopic = 11

// generate returns the two corpus files. Every fourth topic is held out
// whole (see heldOutTopic); the training file is shuffled with a fixed seed
// so that the training folds mix topics.
func generate() (train, heldout []byte, err error) {
	r := rand.New(rand.NewPCG(20261130, 7))
	var all []gating.Example
	// Each split cycles through the scenarios on its own, so that both see
	// every kind of example.
	type rotation struct {
		heldOut bool
		label   gating.Outcome
	}
	next := map[rotation]int{}
	forced := map[int]bool{}
	for ti, t := range topics {
		for k := 0; k < perTopic; k++ {
			label := gating.Skip
			if (k+ti)%2 == 1 {
				label = gating.Debate
			}
			list := skipScenarios
			if label == gating.Debate {
				list = debateScenarios
			}
			var sc scenario
			if t.layer == "verify" && label == gating.Debate && !forced[ti] {
				// Every verify topic has one verification claim without
				// evidence, the hard case the verify layer is about.
				forced[ti] = true
				sc = scenarioNamed("verify_no_evidence")
			}
			for sc.write == nil {
				rot := rotation{heldOutTopic(ti), label}
				sc = list[next[rot]%len(list)]
				next[rot]++
				if sc.layers != "" && !strings.Contains(sc.layers, t.layer) {
					sc = scenario{}
				}
			}
			e := sc.write(t, r)
			e.Label, e.Case = label, sc.name
			e.ID = fmt.Sprintf("%s-%s-%02d", t.layer, t.id, k+1)
			if r.IntN(100) < 6 {
				e.Layer = ""
			} else {
				e.Layer = debate.Layer(t.layer)
			}
			if _, perr := gating.ParseExample(mustLine(e)); perr != nil {
				return nil, nil, fmt.Errorf("%s: %w", e.ID, perr)
			}
			all = append(all, e)
		}
	}
	var tr, ho []gating.Example
	for i, e := range all {
		if heldOutTopic(i / perTopic) {
			ho = append(ho, e)
		} else {
			tr = append(tr, e)
		}
	}
	r.Shuffle(len(tr), func(i, j int) { tr[i], tr[j] = tr[j], tr[i] })
	var a, b bytes.Buffer
	if err := gating.WriteCorpus(&a, tr); err != nil {
		return nil, nil, err
	}
	if err := gating.WriteCorpus(&b, ho); err != nil {
		return nil, nil, err
	}
	return a.Bytes(), b.Bytes(), nil
}

// heldOutTopic says whether all the examples of topic i are held out:
// every fourth topic of each layer, so that the held-out split measures the
// gate on questions (and facts, risks, evidence) that training never saw.
func heldOutTopic(i int) bool { return i%4 == 3 }

func mustLine(e gating.Example) []byte {
	b, err := e.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return b
}

// scenario writes one kind of self-critique.
type scenario struct {
	name   string
	layers string // the layers it applies to; "" for all
	write  func(t topic, r *rand.Rand) gating.Example
}

// ctx fills the placeholders of a fragment from a topic: {s} subject, {S}
// capitalised, {f1}…{f3} facts, {f1l}… with a lower-case start, {r1} {r2}
// risks, {R1} capitalised, {alt} {altl}, {check}, {cs} {cp}, {ref}.
type ctx struct {
	t     topic
	r     *rand.Rand
	facts []string
	risks []string
	refs  []string
}

func newCtx(t topic, r *rand.Rand) *ctx {
	c := &ctx{t: t, r: r}
	c.facts = shuffled(r, t.facts)
	c.risks = shuffled(r, t.risks)
	c.refs = shuffled(r, t.refs)
	return c
}

func shuffled(r *rand.Rand, s []string) []string {
	out := append([]string(nil), s...)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func (c *ctx) fill(s string) string {
	at := func(list []string, i int) string { return list[i%len(list)] }
	rep := strings.NewReplacer(
		"{s}", c.t.subject, "{S}", upperFirst(c.t.subject),
		"{f1}", at(c.facts, 0), "{f2}", at(c.facts, 1), "{f3}", at(c.facts, 2),
		"{f1l}", lowerFirst(at(c.facts, 0)), "{f2l}", lowerFirst(at(c.facts, 1)), "{f3l}", lowerFirst(at(c.facts, 2)),
		"{r1}", at(c.risks, 0), "{r2}", at(c.risks, 1), "{r3}", at(c.risks, 2),
		"{R1}", upperFirst(at(c.risks, 0)), "{R2}", upperFirst(at(c.risks, 1)),
		"{alt}", c.t.alt, "{altl}", lowerFirst(c.t.alt), "{check}", c.t.check,
		"{cs}", c.t.cs, "{cp}", c.t.cp, "{ref}", at(c.refs, 0), "{ref2}", at(c.refs, 1),
	)
	return rep.Replace(s)
}

func (c *ctx) pick(list []string) string { return c.fill(list[c.r.IntN(len(list))]) }

// pickN picks n distinct fragments in a random order. The i-th fragment
// sees the facts and risks rotated by i, so that fragments placed side by
// side talk about different facts and risks.
func (c *ctx) pickN(list []string, n int) []string {
	idx := c.r.Perm(len(list))
	if n > len(idx) {
		n = len(idx)
	}
	out := make([]string, n)
	for i := 0; i < n; i++ {
		rot := *c
		rot.facts = rotate(c.facts, i)
		rot.risks = rotate(c.risks, i)
		out[i] = rot.fill(list[idx[i]])
	}
	return out
}

func rotate(s []string, k int) []string {
	k %= len(s)
	return append(append([]string(nil), s[k:]...), s[:k]...)
}

func (c *ctx) chance(pct int) bool { return c.r.IntN(100) < pct }

// conf returns a confidence in [lo, hi], usually a multiple of 0.05.
func (c *ctx) conf(lo, hi float64) *float64 {
	v := lo + c.r.Float64()*(hi-lo)
	if c.chance(70) {
		v = float64(int(v*20+0.5)) / 20
	} else {
		v = float64(int(v*100+0.5)) / 100
	}
	v = max(lo, min(hi, v))
	return &v
}

// someRefs returns 1–3 of the topic's refs.
func (c *ctx) someRefs() []string {
	n := 1 + c.r.IntN(min(3, len(c.refs)))
	return append([]string(nil), c.refs[:n]...)
}

// base fills the parts every scenario shares: the question, the initial
// answer (usually), the reasoning (usually).
func (c *ctx) base() gating.Example {
	e := gating.Example{}
	e.Question = c.t.question
	if c.chance(95) {
		e.InitialAnswer = c.t.answer
	}
	if c.chance(75) {
		last := c.facts[len(c.facts)-1]
		e.Reasoning = c.pick([]string{
			last,
			last + " That is the main reason for the answer.",
			"The answer rests on one observation: " + lowerFirst(last),
			"I started from how " + c.t.subject + " works today. " + last,
		})
	}
	return e
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// lowerFirst lower-cases a sentence's first letter unless the first word
// is an acronym or a name (has another capital letter, or is listed).
func lowerFirst(s string) string {
	w, _, _ := strings.Cut(s, " ")
	if strings.IndexFunc(w[1:], unicode.IsUpper) >= 0 || properNouns[strings.Trim(w, ".,;:'s")] {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

var properNouns = map[string]bool{"Stripe-style": true, "YAML": true, "TOML": true, "OWASP": true, "Production": false, "Ninety": false, "Sixty-four": false}

func sentences(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// paragraphs joins groups of sentences with blank lines.
func paragraphs(ps ...string) string {
	var out []string
	for _, p := range ps {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}

// withRef appends a reference to a fact now and then.
func (c *ctx) withRef(fact string, refs []string) string {
	if len(refs) == 0 || !c.chance(50) {
		return fact
	}
	ref := refs[c.r.IntN(len(refs))]
	if strings.HasPrefix(ref, "[[") {
		return strings.TrimSuffix(fact, ".") + " (" + ref + ")."
	}
	return strings.TrimSuffix(fact, ".") + " (see `" + ref + "`)."
}

func scenarioNamed(name string) scenario {
	for _, s := range debateScenarios {
		if s.name == name {
			return s
		}
	}
	panic("no scenario " + name)
}
