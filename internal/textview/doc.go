// Package textview renders parley's typed results as plain text for a
// person: the lines "parley" prints on a terminal or into a pipe when --json
// is not given. Each function takes a result of the service layer (package
// app) or of the package that owns it, and an io.Writer; it decides nothing
// (every judgement arrives computed) and never prints agent-written text
// without making it safe for a terminal.
//
// It must not import cobra or any front end (cmd, mcpserver, web).
package textview
