// Package consensus files every debate verdict as a consensus record in the
// vault and answers, before a decision, whether a filed consensus already
// settles the question (SPEC §6).
//
// A record is a Markdown page with YAML frontmatter at
// <vault>/wiki/consensus/<layer>-<topic-slug>.md. Records are keyed by
// (layer, TopicSlug(topic)): a later debate on the same key files
// <layer>-<slug>-2.md (then -3 …) which supersedes the previous one; the
// older record is flipped to status superseded, never deleted. The index
// page wiki/consensus/consensus-records.md lists every record and is
// rewritten on each filing.
//
// A Store keeps an index of all records in memory and in
// <root>/cache/consensus-index.json, refreshed from the files' sizes and
// modification times, so that a warm check reads no record file. Search
// ranks records by BM25 over their topic, positions and rationale; Check
// tells whether a position is consistent with, conflicts with, or is left
// open by the active record of its question.
//
// A record formats what the debate decided (the Outcome's Decisions,
// AgreedRound and Rule); it never works out again what a turn counted as.
// It imports debate, vault, vocab and parley's internal helpers, never
// transcripts, agent or a front end.
package consensus
