package main

import (
	"math/rand/v2"
	"strings"

	"github.com/parleyhq/parley/gating"
)

// ------------------------------------------------------------ shared pools

var openers = []string{
	"I re-read {check} against the answer.",
	"I went back over {check} before settling on this.",
	"Reviewing the answer once more, point by point.",
	"I looked for a reason to change the answer and did not find one.",
	"Checking the answer against what the code and the docs say:",
	"I re-examined the main claim from the other side.",
	"Second pass over the answer.",
	"I tried to break the answer before committing to it.",
	"The critique below is what I checked, in order.",
	"",
}

var closers = []string{
	"The answer stands.",
	"I stand by the answer.",
	"Therefore the answer holds as written.",
	"I recommend we go with it.",
	"Nothing in this review changes the answer.",
	"So the answer stays as it is.",
	"I am keeping the answer.",
	"That settles it for me; no change.",
	"The conclusion is unchanged.",
	"No change to the answer.",
}

var objectionsHandled = []string{
	"The obvious objection is that {r1}. I checked that, and it does not apply here: {f3l}",
	"I considered whether {r1}. That case is handled, because {f3l}",
	"One concern raised earlier was that {r1}; {check} shows that is not the case.",
	"The risk that {r2} is real in general, but {f3l}",
	"A reviewer might point out that {r1}. That was fixed before this change landed.",
}

var hedgySentences = []string{
	"I think {s} is probably right, but I'm not sure it survives the case where {r1}.",
	"It seems likely that {r1}, which would change the answer.",
	"Maybe that is enough, but it might not cover the case where {r2}.",
	"I suspect {r2}.",
	"This could be fine in practice, but perhaps we are missing what happens when {r1}.",
	"My impression is that the answer is roughly right, although it may need a second look.",
	"It is possible that {r1}; someone should argue the other side.",
	"I guess the answer holds for the common case.",
	"I believe {f1l} That said, if {r2}, that would probably undermine it.",
	"Presumably this is handled by {check}, but I have not looked closely.",
	"It looks like {r1}, and that would matter.",
	"The answer is more or less right, I think.",
	"Possibly {r2}; I would want a second opinion.",
	"I'm fairly confident in the main path, but the edge cases seem shaky.",
}

var unknownSentences = []string{
	"Whether {r1} is still unknown.",
	"I have not verified {check}.",
	"The owners of this area have not answered yet, so the behaviour when {r2} is TBD.",
	"It is unclear how the answer holds up if {r2}.",
	"There is an open question about whether {r1}.",
	"I couldn't reproduce the original report, so the case where {r2} is unverified.",
	"TODO: confirm with the team whether {r1}.",
	"The case where {r2} is untested.",
	"The docs are ambiguous on this point, and the answer depends on how they are read.",
	"I did not run {check}, so that part is unconfirmed.",
	"Nobody has measured this; the real behaviour is unknown.",
}

var flipSentences = []string{
	"On reflection, my first answer was wrong: {r1}.",
	"{R1}, which clearly breaks the first answer.",
	"I went through {check} again and the correct answer is the opposite.",
	"The initial answer missed that {r1}. That settles it.",
	"I now think the other option is right, because {r2}.",
	"Having gone through {check}, {r1}. The answer has to change.",
	"{R2}. With that in view the first answer does not hold.",
	"I was wrong about this earlier; {r1}.",
	"The facts cut the other way: {r1}.",
}

var confidentFiller = []string{
	"This is clear once the details are laid out.",
	"There is no ambiguity about it.",
	"The evidence points one way.",
	"I am confident in the revised answer.",
	"This is definitely the better answer.",
	"",
}

var noEvidenceClaims = []string{
	"I verified {check} and everything works as described.",
	"I ran the tests and they pass.",
	"I confirmed that the change does what the task says.",
	"{S} works.",
	"I checked the fix myself and it is correct.",
	"All good: the change behaves as claimed.",
	"No issues found.",
	"I tested the main path and the edge cases; both behave correctly.",
	"The closure is accurate.",
	"I reproduced the original failure before the fix and it no longer happens.",
	"Everything the task lists has been done.",
}

var balanced = []string{
	"There are reasonable arguments on both sides here.",
	"On the one hand, {f1l}",
	"On the other hand, {r1}, and that cuts the other way.",
	"The alternative also has merit, since it avoids the problem that {r2}.",
	"Much depends on how much weight the team gives to the fact that {r2}.",
	"Both approaches have trade-offs that are worth spelling out.",
	"A case could be made for either option, and the team's priorities will decide.",
	"If {r1}, the second option looks better; if not, the first one does.",
	"It is worth noting that {f2l}",
	"Equally, {r3}, which the first option does nothing about.",
	"The choice depends on context that this review does not settle.",
	"Each option shifts the risk somewhere else rather than removing it.",
	"Reasonable engineers would land on different sides of this.",
	"The costs of the two options are of a similar order, and they fall on different teams.",
	"One option is cheaper now; another option is cheaper later.",
	"Taken together, the considerations pull in different directions.",
}

var neverCommitFinals = []string{
	"It depends on whether {r1}.",
	"Either option is defensible.",
	"Both options remain open; the team should weigh the trade-offs.",
	"",
}

var openQuestions = []string{
	"What happens if {r1}?",
	"Has anyone checked whether {r2}?",
	"Who decides what we do when {r1}?",
	"Is {check} enough to rule that out?",
	"How would we notice if {r2}?",
	"Does the answer still hold when {r3}?",
	"Why did the earlier review not mention this?",
	"What is the rollback if this turns out wrong?",
}

var negatedBoosters = []string{
	"I'm not certain that {s} holds when {r1}.",
	"It isn't clear that {f1l}",
	"I am not confident about {s}.",
	"Not sure the answer covers the case where {r2}.",
	"It is not obvious that the answer survives if {r1}.",
	"I'm not convinced {check} tells the whole story.",
	"We can't be sure the answer holds once {r2}.",
	"It's not definitely wrong, but it isn't clearly right either.",
}

var notUnlikely = []string{
	"It is not unlikely that {r1}.",
	"I can't rule out that {r2}.",
	"We cannot rule out that {r1}, and nothing in {check} addresses it.",
	"It's not impossible that {r3}.",
	"That {r2} is not unlikely either.",
}

var quotedBoosterLines = []string{
	"The task closure says \"this is definitely fixed and verified\", but I think {r1} could still happen.",
	"The author wrote \"no doubt this is correct\" in the description; I am less sure, since {r2} might matter.",
	"The ticket claims `always safe`, yet it seems {r1}.",
	"> Confirmed, works in all cases.\n\nThat is the author's comment. My own reading is that it probably misses how {r2}.",
}

var quotedHedgeLines = []string{
	"The original report said \"this might be flaky\" and \"we probably lost some writes\"; both claims were checked against {check}.",
	"A reviewer asked \"could it be that {r1}?\" The answer is no: {f3l}",
	"The comment in the diff reads `// TODO: maybe revisit the limit`, but it refers to a tuning knob, not to correctness.",
	"The design note's wording, \"I think this should be fine, not sure\", predates the tests that now settle the question.",
	"> Maybe we should double-check {s}?\n\nThat question from the review is answered by {check}: {f1l}",
	"The old runbook says 'this may or may not work'; it describes the previous version.",
}

// codeBlocks are snippets an agent quotes, per layer; their comments hedge.
var codeBlocks = map[string][]string{
	"spec": {
		"```yaml\nresponses:\n  \"422\": { description: validation failed }  # TBD: maybe 409 for conflicts?\n```",
		"```\n# draft: this might need a v2 prefix, not sure\nPOST /v1/resources\n```",
	},
	"plan": {
		"```yaml\n- step: backfill\n  # perhaps split this step? unclear how long it takes\n  flag: backfill_enabled\n```",
		"```\n# TODO: maybe add a manual approval gate here\nstage 3 -> stage 4\n```",
	},
	"verify": {
		"```go\n// might be flaky on slow machines?\nif got != want {\n\tt.Fatalf(\"got %d, want %d\", got, want)\n}\n```",
		"```\n$ go test ./... -count=1\nok  \t(probably cached before; I think -count=1 fixes that)\n```",
	},
}

var negatedHedges = []string{
	"There is no doubt that {xl}",
	"I have no doubt about {s}: {xl}",
	"This is not a guess: {xl}",
	"Without question, {xl}",
	"I don't doubt {check}; {xl}",
	"I'm not guessing here. {x}",
	"It is not speculative; {xl}",
	"Nothing about this is unclear: {xl}",
}

var conditionalFacts = []string{
	"If {r1}, the answer would be different; {f3l}",
	"Even if {r2}, {f1l}",
	"Only if {r1} would this matter, and {check} shows it does not.",
	"If the case where {r2} came up, the existing safeguards catch it, since {f3l}",
}

var rhetorical = []string{
	"Does the answer survive the case where {r1}? Yes: {f3l}",
	"Is {check} enough? It is, because {f1l}",
	"What if {r2}? That is covered: {f2l}",
}

var alternativesRejected = []string{
	"I weighed the alternative ({altl}) before settling.",
	"The alternative avoids the problem that {r1}. However, {f1l}",
	"It is also true that {r2}; even so, {f2l}",
	"On balance the trade-off favours the answer, because {f3l}",
}

// ------------------------------------------------------------ skip

var skipScenarios = []scenario{
	{name: "clean", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		refs := skipRefs(c)
		e.Critique = sentences(c.pick(openers), c.withRef(c.fill("{f1}"), refs), c.fill("{f2}"), maybe(c, 40, c.pick(objectionsHandled)), c.pick(closers))
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = skipConf(c)
		e.EvidenceRefs = refs
		return e
	}},
	{name: "minor_caveat", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		refs := skipRefs(c)
		caveat := c.pick([]string{
			"The wording of the docs could be clearer, but that does not affect the answer.",
			"The log message might confuse an operator; that is cosmetic.",
			"There may be a small cost in latency, which is acceptable.",
			"A follow-up could tidy the naming; it is not a correctness issue.",
			"The test names would read better with the task number, which is a nit.",
		})
		e.Critique = sentences(c.pick(openers), c.withRef(c.fill("{f1}"), refs), c.fill("{f2}"), caveat, c.pick(closers))
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = skipConf(c)
		e.EvidenceRefs = refs
		return e
	}},
	{name: "quoted_hedge", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		refs := skipRefs(c)
		var q string
		if c.chance(35) {
			q = c.pick(codeBlocks[t.layer]) + "\n\n" + c.pick([]string{
				"The comment in that snippet is old and refers to a tuning question, not to the behaviour under review.",
				"That comment's doubt was resolved when the tests were added.",
				"The hedging in the snippet is the previous author's; the behaviour itself is pinned by tests.",
			})
		} else {
			q = c.pick(quotedHedgeLines)
		}
		e.Critique = paragraphs(sentences(c.pick(openers), c.withRef(c.fill("{f1}"), refs)), q, sentences(c.fill("{f2}"), c.pick(closers)))
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = skipConf(c)
		e.EvidenceRefs = refs
		return e
	}},
	{name: "negated_hedge", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		refs := skipRefs(c)
		nh := c.pickN(negatedHedges, 2)
		e.Critique = sentences(withFact(nh[0], c.facts[0]), c.withRef(c.facts[1], refs), withFact(nh[1], c.facts[2]), c.pick(closers))
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = skipConf(c)
		e.EvidenceRefs = refs
		return e
	}},
	{name: "low_confidence_no_hedges", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		refs := skipRefs(c)
		e.Critique = sentences(c.pick(openers), c.withRef(c.fill("{f1}"), refs), c.fill("{f2}"), c.fill("{f3}"), c.pick(closers))
		e.FinalAnswer = t.final
		e.FinalConfidence = c.conf(0.35, 0.65)
		if c.chance(50) {
			e.InitialConfidence = c.conf(0.3, 0.7)
		}
		e.EvidenceRefs = refs
		return e
	}},
	{name: "conditional_fact", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		refs := skipRefs(c)
		e.Critique = sentences(c.pick(openers), c.withRef(c.fill("{f1}"), refs), c.pick(conditionalFacts), c.pick(closers))
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = skipConf(c)
		e.EvidenceRefs = refs
		return e
	}},
	{name: "rhetorical_question", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		refs := skipRefs(c)
		e.Critique = sentences(c.withRef(c.fill("{f1}"), refs), c.pick(rhetorical), c.pick(closers))
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = skipConf(c)
		e.EvidenceRefs = refs
		return e
	}},
	{name: "refined_answer", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.InitialAnswer = t.answer
		refs := skipRefs(c)
		e.Critique = sentences(c.pick(openers), c.withRef(c.fill("{f1}"), refs),
			c.pick([]string{
				"The answer is right but incomplete, so I added the detail that {f2l}",
				"I tightened the wording of the answer; the substance is the same.",
				"The final answer states the same conclusion more precisely.",
			}), c.pick(closers))
		e.FinalAnswer = strings.TrimSuffix(t.final, ".") + " (" + strings.TrimSuffix(lowerFirst(c.facts[1]), ".") + ")."
		e.InitialConfidence = c.conf(0.7, 0.85)
		e.FinalConfidence = c.conf(0.85, 0.95)
		e.EvidenceRefs = refs
		return e
	}},
	{name: "long_committed", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		refs := skipRefs(c)
		e.Critique = paragraphs(
			sentences(c.pick(openers), c.withRef(c.fill("{f1}"), refs), c.fill("{f2}")),
			sentences(c.pickN(alternativesRejected, 3)...),
			sentences(c.pick(objectionsHandled), c.pick([]string{"Therefore I stand by the answer.", "I recommend we keep the answer.", "So the answer stays."})),
		)
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = skipConf(c)
		e.EvidenceRefs = refs
		return e
	}},
}

func maybe(c *ctx, pct int, s string) string {
	if c.chance(pct) {
		return s
	}
	return ""
}

// skipRefs: verify-layer skips always cite evidence; others usually do.
func skipRefs(c *ctx) []string {
	if c.t.layer == "verify" || c.chance(75) {
		return c.someRefs()
	}
	return nil
}

// skipConf: high confidence, sometimes missing.
func skipConf(c *ctx) (ini, fin *float64) {
	if c.chance(8) {
		return nil, nil
	}
	fin = c.conf(0.8, 0.97)
	if c.chance(60) {
		ini = c.conf(0.7, 0.95)
	}
	return ini, fin
}

// ------------------------------------------------------------ debate

var debateScenarios = []scenario{
	{name: "hedgy", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.Critique = sentences(c.pickN(hedgySentences, 3+c.r.IntN(2))...)
		e.FinalAnswer = maybe(c, 80, t.final)
		e.InitialConfidence, e.FinalConfidence = debateConf(c, 0.45, 0.78)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "unknown_markers", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.Critique = sentences(append([]string{c.fill("{f1}")}, c.pickN(unknownSentences, 2+c.r.IntN(2))...)...)
		e.FinalAnswer = maybe(c, 85, t.final)
		e.InitialConfidence, e.FinalConfidence = debateConf(c, 0.5, 0.85)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "flip_confident", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.InitialAnswer = t.answer
		e.Critique = sentences(append(c.pickN(flipSentences, 2), c.pick(confidentFiller))...)
		e.FinalAnswer = t.alt
		e.InitialConfidence = c.conf(0.82, 0.95)
		e.FinalConfidence = c.conf(0.85, 0.97)
		if c.chance(50) {
			e.EvidenceRefs = c.someRefs()
		}
		return e
	}},
	{name: "high_confidence_hedged", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.Critique = sentences(c.pickN(hedgySentences, 3+c.r.IntN(3))...)
		e.FinalAnswer = t.final
		e.InitialConfidence = c.conf(0.85, 0.95)
		e.FinalConfidence = c.conf(0.88, 0.97)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "verify_no_evidence", layers: "verify", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := gating.Example{}
		e.Question = t.question
		e.InitialAnswer = t.answer
		e.Critique = sentences(c.pickN(noEvidenceClaims, 2+c.r.IntN(3))...)
		e.FinalAnswer = t.final
		e.FinalConfidence = c.conf(0.85, 0.97)
		if c.chance(50) {
			e.InitialConfidence = c.conf(0.85, 0.95)
		}
		return e
	}},
	{name: "never_commits", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		ps := c.pickN(balanced, 6+c.r.IntN(4))
		cut := len(ps) / 2
		e.Critique = paragraphs(sentences(ps[:cut]...), sentences(ps[cut:]...))
		e.FinalAnswer = c.pick(neverCommitFinals)
		if c.chance(70) {
			e.FinalConfidence = c.conf(0.55, 0.85)
		}
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "self_contradiction", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.Critique = sentences(
			c.fill("The {cs} is {cp}: {f1l}"),
			c.fill("{f2}"),
			c.pick([]string{
				"That said, the {cs} is not {cp} when {r1}.",
				"Looking at it again, the {cs} is not {cp} once {r1}.",
				"Then again, the {cs} isn't {cp} if {r2}.",
			}),
			c.pick([]string{
				"So the {cs} is {cp} in the normal path, and the answer stands.",
				"Overall the {cs} is {cp}.",
				"I'll keep the answer.",
			}),
		)
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = debateConf(c, 0.72, 0.92)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "open_questions", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.Critique = sentences(append([]string{c.fill("{f1}")}, c.pickN(openQuestions, 3+c.r.IntN(2))...)...)
		e.FinalAnswer = maybe(c, 80, t.final)
		e.InitialConfidence, e.FinalConfidence = debateConf(c, 0.55, 0.82)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "negated_booster", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		nb := c.pickN(negatedBoosters, 2+c.r.IntN(2))
		e.Critique = sentences(append([]string{c.fill("{f1}")}, nb...)...)
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = debateConf(c, 0.6, 0.88)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "not_unlikely", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		nu := c.pickN(notUnlikely, 2)
		e.Critique = sentences(c.fill("{f1}"), nu[0], c.fill("{f2}"), nu[1])
		e.FinalAnswer = t.final
		e.InitialConfidence, e.FinalConfidence = debateConf(c, 0.7, 0.9)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "quoted_booster", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.Critique = paragraphs(c.pick(quotedBoosterLines), sentences(c.pickN(hedgySentences, 2)...))
		e.FinalAnswer = maybe(c, 80, t.final)
		e.InitialConfidence, e.FinalConfidence = debateConf(c, 0.6, 0.85)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
	{name: "low_confidence_hedged", write: func(t topic, r *rand.Rand) gating.Example {
		c := newCtx(t, r)
		e := c.base()
		e.Critique = sentences(c.pickN(append(append([]string(nil), hedgySentences...), unknownSentences...), 3+c.r.IntN(2))...)
		e.FinalAnswer = maybe(c, 70, t.final)
		e.InitialConfidence, e.FinalConfidence = debateConf(c, 0.2, 0.5)
		e.EvidenceRefs = debateRefs(c)
		return e
	}},
}

func debateRefs(c *ctx) []string {
	if c.chance(35) {
		return c.someRefs()
	}
	return nil
}

// debateConf: a final confidence in [lo, hi], sometimes with an initial
// one, sometimes neither.
func debateConf(c *ctx, lo, hi float64) (ini, fin *float64) {
	if c.chance(10) {
		return nil, nil
	}
	fin = c.conf(lo, hi)
	if c.chance(50) {
		ini = c.conf(lo, hi)
	}
	return ini, fin
}

// withFact fills {x} and {xl} (lower-case start) with a fact.
func withFact(s, fact string) string {
	return strings.NewReplacer("{x}", fact, "{xl}", lowerFirst(fact)).Replace(s)
}
