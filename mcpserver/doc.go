// Package mcpserver serves parley over the Model Context Protocol, so that
// coding agents (any MCP client) can look up consensus before they decide,
// ask the gate, start debates and take part in them.
//
// A Server is built from the parley root's messenger (inbox transport and
// registry), its consensus store and its transcript store. It offers tools
// (consensus_check, consensus_search, consensus_show, gate, debate_start,
// debate_status, debate_join, debate_next_turn, debate_submit_turn,
// debate_leave, transcript_show, send, recv) whose inputs and results have
// JSON schemas, and resources (parley://consensus/NAME, parley://debates/ID)
// whose content is Markdown. Bad input is refused as a tool error (IsError)
// with the message the command line would print, using the same validators.
//
// Taking part in a debate: debate_join registers the calling agent under a
// name and runs an agent.Runner for it in the server process (it heartbeats
// and listens on the agent's inbox); every turn_request the runner receives
// waits in the server until the client fetches it with debate_next_turn and
// answers it with debate_submit_turn. The answer is checked with the
// coordinator's own validation (debate.DecodeTurn) and sent by the runner as
// a debate_turn reply, so an MCP agent argues exactly like a registered
// agent: same messages, same request_id idempotency, same liveness rules.
package mcpserver
