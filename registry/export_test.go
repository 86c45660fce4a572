package registry

import (
	"math/rand/v2"
	"time"

	"github.com/parleyhq/parley/internal/livereg"
)

// SetClock makes r read the time from now (tests of heartbeat age).
func SetClock(r *Registry, now func() time.Time) { r.now = now }

// SeedNames makes r's memorable names deterministic.
func SeedNames(r *Registry, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, seed))
	r.nextName = func() string { return MemorableName(rng) }
}

// SetNames makes r draw its memorable base names from next.
func SetNames(r *Registry, next func() string) { r.nextName = next }

// FirstName returns the first memorable name a registry seeded with seed
// draws.
func FirstName(seed uint64) string { return MemorableName(rand.New(rand.NewPCG(seed, seed))) }

// ZombieStat exposes the /proc/PID/stat state check.
var ZombieStat = livereg.ZombieStat
