package jetstream

import "time"

// SetClock makes r read the time from now (tests of heartbeat age).
func SetClock(r *Registry, now func() time.Time) { r.now = now }

// SetNames makes r draw its memorable base names from next.
func SetNames(r *Registry, next func() string) {
	r.mu.Lock()
	r.nextName = next
	r.mu.Unlock()
}
