package vocab

import "time"

// TimeLayout is the format of every timestamp parley writes (messages,
// registrations, transcript events, sessions, decisions): RFC 3339, UTC,
// milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Now returns the current time in TimeLayout.
func Now() string { return time.Now().UTC().Format(TimeLayout) }
