// Package gating decides, before a debate is spent, whether a question
// deserves one (SPEC §7): an iMAD-style gate that reads one agent's
// structured self-critique, extracts interpretable hesitation cues from it,
// and answers debate or skip with the cues that fired and the text that
// fired them.
//
// The pieces, in the order a decision uses them:
//
//   - [Parse] reads a self-critique in either input form (a JSON object or
//     Markdown/plain text with section headings and Confidence lines) into a
//     [SelfCritique]; malformed input is an error, never a default decision.
//   - [Extract] computes the named [Features] (lengths and sentence
//     statistics, readability, hedge/booster/contrast densities, first-person
//     uncertainty, questions, conditionals, unknown markers, answer flip,
//     stated confidences, evidence, self-contradiction, layer). Quoted text and
//     code are masked out; negation flips a cue ("not sure" is a hedge, "no
//     doubt" a booster).
//   - A [Gate] scores the features with a logistic-regression [Model] (the
//     embedded one by default, see [Default]) or applies the seed's starter
//     rule ([Rules]); the [Decision] is JSON-encodable.
//   - [Train] fits a model deterministically on a labeled corpus and picks
//     the threshold for a target recall of "debate" under cross-validation;
//     [Evaluate] measures a gate on labeled examples.
//   - [AppendLog], [ReadLog] and [Summarize] keep and read gate.jsonl.
//
// A Gate is immutable and safe for concurrent use.
//
// It takes layers from package vocab and reads a debate's Outcome (package
// debate) only to label a past decision; it never imports transcripts,
// consensus, agent or a front end.
package gating
