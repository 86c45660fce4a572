// Package debate runs budgeted debates between one defender and one or more
// attackers: the session and its budget, the turn protocol over the
// messenger, the end rules of SPEC §5.4, verdicts and actions, and resume
// after a crash.
//
// The coordinator needs only small things from the rest of parley, each an
// interface defined here: a Messenger to reach agents, a Journal to record
// every event (package transcripts implements it), and a Filer that files the
// verdict (package consensus implements it).
package debate
