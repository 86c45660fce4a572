// Package transcripts keeps each debate's directory under <root>/debates/:
// session.json (written once, when the debate opens), transcript.jsonl (the
// hash-chained, append-only event log, the source of truth), and
// verdict.json (written once, at close). It verifies transcripts, lists
// debates, and renders a transcript as Markdown.
//
// Log implements debate.Journal. One process at a time may write a debate:
// Open takes an advisory lock on the transcript, which the kernel releases
// when the process dies, so a crashed coordinator never blocks its resume.
//
// Its views (text, Markdown, HTML, JSON, the vault debate page) show what
// the debate decided each turn counted as (Entry.Decision, from
// debate.Analyze); they never judge a turn themselves. Its listing is the
// debate's one JSON view (debate.Summary) with the state, record and
// integrity beside it. It imports debate, vault, vocab and parley's
// internal helpers, never consensus, agent or a front end.
package transcripts
