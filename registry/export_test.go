package registry

import (
	"math/rand/v2"
	"time"
)

// SetClock makes r read the time from now (tests of heartbeat age).
func SetClock(r *Registry, now func() time.Time) { r.now = now }

// SeedNames makes r's memorable names deterministic.
func SeedNames(r *Registry, seed uint64) { r.rng = rand.New(rand.NewPCG(seed, seed)) }

// FirstName returns the first memorable name a registry seeded with seed
// draws.
func FirstName(seed uint64) string { return memorableName(rand.New(rand.NewPCG(seed, seed))) }
