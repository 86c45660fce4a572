// Package escalation turns a mini-verifier's DRIFT verdicts into proceed or
// hold (SPEC §9). It reads the verifier's telemetry JSONL (ParseRecord,
// Scanner, Follow), applies the cascade (Escalator): only DRIFT is
// escalated; L priority holds without a debate; M or none goes through the
// gate and, when the gate says so, a verify-layer debate between a defender
// (the task's claims hold) and an attacker (the verifier's reasons);
// H/BLOCKER are skipped. "proceed" is answered only when the debate reaches
// CONSENSUS_REACHED on the defender's claims, unchanged, with no evidence
// found missing; every other outcome — a gate skip, DEADLOCK,
// BUDGET_EXHAUSTED, TIMEOUT, the attacker's position adopted, agents that
// cannot be reached — is "hold" with its reason: an abstention is never a
// pass.
//
// Each record is decided once: decisions are appended to the Ledger
// (<root>/escalations.jsonl), and a record whose key (task id, timestamp)
// is in it is not decided again. The debate id is derived from the record,
// so a crash between the debate and its ledger line resumes (or reads) that
// same debate instead of debating twice.
package escalation
