// Package inbox delivers messages between agents: one inbox per agent,
// atomic and durable delivery, claim in send order, acknowledgement, and
// quarantine of anything that is not a valid message.
//
// The Transport interface is what the rest of parley uses; FileTransport is
// the pi-messenger-compatible directory layout of SPEC §3 and MemTransport an
// in-memory fake with the same semantics. Both pass the conformance suite in
// package inboxtest.
//
// Agent names, their validation and the time layout are package vocab's
// (aliased here). inbox imports vocab and parley's internal helpers only.
package inbox
