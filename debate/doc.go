// Package debate runs budgeted debates between one defender and one or more
// attackers: the session and its budget, the turn protocol over the
// messenger, the end rules of SPEC §5.4, verdicts and actions, and resume
// after a crash.
//
// The coordinator needs only small things from the rest of parley, each an
// interface defined here: a Messenger to reach agents, a Journal to record
// every event (package transcripts implements it), and a Filer that files the
// verdict (package consensus implements it).
//
// It owns the judgement of a debate: the role table (RoleSpec: what each
// role is told and which end rules apply after its turns), the end rules
// as a table of named rule functions, what each turn counted as
// (Outcome.Decisions, AgreedRound) and the one JSON view of a debate
// (Summary). Records, pages and views format what it decided; none of them
// decides it again. Its words (layers, roles, verdicts, ids, position
// hashes) are package vocab's, aliased here. It imports inbox and vocab
// only: never transcripts, consensus, vault, agent or a front end.
package debate
