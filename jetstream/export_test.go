package jetstream

import (
	"time"

	"github.com/parleyhq/parley/inbox"
)

// SetClock makes r read the time from now (tests of heartbeat age).
func SetClock(r *Registry, now func() time.Time) { r.now = now }

// SetNames makes r draw its memorable base names from next.
func SetNames(r *Registry, next func() string) { r.nextName = next }

// DecodeHold and DecodeBox expose the bucket value decoders to the fuzz tests.
func DecodeHold(data []byte) (holder, host string, pid int) {
	v := decodeHold(data)
	return v.Holder, v.Host, v.PID
}

func DecodeBox(data []byte) (owner string, err error) {
	b, err := decodeBox(data)
	return b.Owner, err
}

// StaleHold makes r's hold look as if no renewal had reached the server
// for a whole TTL (a receiver cut off from the server), without stopping
// its renewals.
func StaleHold(r inbox.Receiver) {
	h := r.(*receiver).hold
	h.mu.Lock()
	h.confirmedAt = time.Time{}
	h.mu.Unlock()
}

// ParseCredentials exposes the credentials file check to the fuzz tests.
func ParseCredentials(b []byte) error { return parseCredentials("fuzz.creds", b) }
