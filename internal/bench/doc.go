// Package bench is "parley bench": parley measured as a user runs it,
// whole processes where it matters, each figure beside a baseline
// measured in the same run (the disk's own durable write, a server's own
// publish rate, a minimal program, the in-memory transport).
//
// It owns the benchmarks' logic and their results: RunMessenger (and
// RunSender, the process it re-executes), RunCLI, RunDebate, RunGate and
// the consensus benchmark return typed results (JSON through their field
// tags; the first four also render their text, WriteText). The parley
// commands only parse flags and print.
// Messenger backends are opened by name through app (Backend), on a root
// whose config.json the parley processes a benchmark starts share, so a
// backend registered with app.RegisterBackend is measured like the
// shipped ones.
//
// bench must not import cobra or anything under cmd; a timing measured
// here never decides whether a test passes.
package bench
