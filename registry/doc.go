// Package registry keeps the agents' registrations: one JSON file per agent
// at <root>/registry/<Name>.json in pi-messenger's format plus parley's keys
// (SPEC §3.1), memorable names claimed without a race, liveness by PID on
// this host and heartbeat age, heartbeats from a running agent, and pruning
// of dead registrations.
//
// A name is claimed by creating its file exclusively (the file is complete
// when it appears; of two racing claimers exactly one wins). Every change
// to an existing registration — a takeover of a dead one, a heartbeat, an
// unregistration, a prune — happens under one flock on registry/.lock and
// re-reads the file under it, so a stalled agent can never overwrite the
// agent that took its name over.
package registry
