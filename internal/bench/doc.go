// Package bench is "parley bench": parley measured as a user runs it,
// whole processes where it matters, each figure beside a baseline
// measured in the same run (the disk's own durable write, a server's own
// publish rate, a minimal program, the in-memory transport).
//
// It owns the benchmarks' logic and their results: RunMessenger (and
// RunSender, the process it re-executes), RunCLI, RunDebate, RunGate and
// RunConsensus return typed results (JSON through their field tags; each
// renders its text, WriteText). The options check themselves as the
// command line gives them (Check). The parley commands only parse flags
// and choose JSON or text.
// Messenger backends are opened by name through app (Backend), on a root
// whose config.json the parley processes a benchmark starts share, so a
// backend registered with app.RegisterBackend is measured like the
// shipped ones.
//
// bench must not import cobra or anything under cmd; a timing measured
// here never decides whether a test passes.
package bench
