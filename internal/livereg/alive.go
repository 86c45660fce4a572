package livereg

import "time"

// DefaultTTL is how old a heartbeat may be before its agent counts as dead.
const DefaultTTL = 30 * time.Second

// Alive is the liveness rule of a registration's head seen from host at
// now: the heartbeat, when present, must be within ttl of now (see Fresh);
// the PID must run (pidAlive) when the registration is of host or names no
// host. A registration of another host without a heartbeat cannot be
// checked and counts as alive (parley never prunes on a guess). A
// heartbeat that is no RFC 3339 time is dead. registry's IsAlive is this
// rule.
func Alive(h Head, host string, now time.Time, ttl time.Duration, pidAlive func(int) bool) bool {
	if h.HeartbeatAt != "" {
		t, err := time.Parse(time.RFC3339Nano, h.HeartbeatAt)
		if err != nil || !Fresh(t, now, ttl) {
			return false
		}
	}
	if h.Host != "" && h.Host != host {
		return true
	}
	return pidAlive(h.PID)
}

// Fresh reports whether a heartbeat at t counts at now: it is at most ttl
// old, and at most ttl ahead. A writer whose clock is a little ahead of
// the reader's beats as usual (the clocks must agree to well under the
// TTL); a heartbeat further ahead (a clock far off, a hand edit) would
// otherwise count as fresh for as long as it stays in the future.
func Fresh(t, now time.Time, ttl time.Duration) bool {
	age := now.Sub(t)
	return age <= ttl && age >= -ttl
}
