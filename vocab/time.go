package vocab

import "github.com/parleyhq/parley/vocab/wire"

// TimeLayout is the format of every timestamp parley writes (messages,
// registrations, transcript events, sessions, decisions): RFC 3339, UTC,
// milliseconds (vocab/wire's).
const TimeLayout = wire.TimeLayout

// Now returns the current time in TimeLayout.
func Now() string { return wire.Now() }
