// Package agent keeps one debate agent alive: the Runner registers it,
// heartbeats, answers the turn_requests in its inbox through a Responder,
// answers a repeated request from its cache, and unregisters when its
// context ends.
//
// Responders are the adapters of SPEC §8, one file each: script
// (deterministic turns from a JSON file), exec (a command per turn), openai
// (an OpenAI-compatible chat-completions endpoint; openai*.go). An
// adapter kind is looked up by the prefix of an agent spec ("script:FILE",
// "exec:COMMAND", "openai:MODEL"); "@NAME" names an agent that is already
// running and needs no adapter.
package agent
