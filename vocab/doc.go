// Package vocab is parley's shared vocabulary: the words every other
// package uses to talk about agents and debates, defined once.
//
// It owns the timestamp layout, agent-name validation, debate ids, layers,
// role names, verdicts and actions, slugs, how positions are normalised
// and hashed, and how a count is said ("1 line", "2 lines"). Every parley package may import it; it imports no parley
// package (only the standard library and golang.org/x/text's Unicode
// normalisation, which positions and slugs are defined by), so nothing
// borrows a word from a peer.
//
// Everything here is a pure value or function: no I/O, no state, nothing
// built at initialisation (the id pattern is compiled on first use).
package vocab
