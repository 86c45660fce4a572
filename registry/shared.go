package registry

import (
	"iter"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/parleyhq/parley/inbox"
)

// These helpers hold the rules every registry backend shares (the file
// registry here, the JetStream one in package jetstream), so that the two
// cannot drift apart.

// FillDefaults completes a registration about to be claimed: an empty PID,
// SessionID, Host, Cwd, StartedAt or Activity.LastActivityAt is filled in
// (this process, a new session, host, the working directory, now), Protocol
// is set, and HeartbeatAt is now.
func (reg *Registration) FillDefaults(host string, now time.Time) {
	now = now.UTC()
	if reg.PID == 0 {
		reg.PID = os.Getpid()
	}
	if reg.SessionID == "" {
		reg.SessionID = inbox.NewID()
	}
	if reg.Host == "" {
		reg.Host = host
	}
	if reg.Cwd == "" {
		reg.Cwd, _ = os.Getwd()
	}
	if reg.StartedAt == "" {
		reg.StartedAt = now.Format(TimeLayout)
	}
	if reg.Activity.LastActivityAt == "" {
		reg.Activity.LastActivityAt = now.Format(TimeLayout)
	}
	reg.Protocol = Protocol
	reg.HeartbeatAt = now.Format(TimeLayout)
}

// IsAlive is the liveness rule of SPEC §4, seen from host at now: the
// heartbeat, when present, must be younger than ttl; the PID must run when
// the registration is of host or names no host. A registration of another
// host without a heartbeat cannot be checked and counts as alive (parley
// never prunes on a guess).
func IsAlive(reg *Registration, host string, now time.Time, ttl time.Duration) bool {
	return isAlive(reg, host, now, ttl, pidAlive)
}

func isAlive(reg *Registration, host string, now time.Time, ttl time.Duration, pidAlive func(int) bool) bool {
	if reg.HeartbeatAt != "" {
		t, err := time.Parse(time.RFC3339Nano, reg.HeartbeatAt)
		if err != nil || now.Sub(t) > ttl {
			return false
		}
	}
	if reg.Host != "" && reg.Host != host {
		return true
	}
	return pidAlive(reg.PID)
}

// PIDAlive reports whether a process with this id runs on this host. A
// process of another user counts as alive.
func PIDAlive(pid int) bool { return pidAlive(pid) }

// MemorableName draws a random Adjective+Noun name ("SwiftRaven") from rng.
func MemorableName(rng *rand.Rand) string { return memorableName(rng) }

// memorableBases bounds how many base names a memorable claim draws.
const memorableBases = 64

// MemorableCandidates yields, in order, the names a registration without a
// name tries: a base drawn from next, then base2 … base9, then another
// base, up to 64 bases. The caller stops at the first name it can claim.
func MemorableCandidates(next func() string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for range memorableBases {
			base := next()
			for n := 1; n <= maxSuffix; n++ {
				name := base
				if n > 1 {
					name = base + strconv.Itoa(n)
				}
				if !yield(name) {
					return
				}
			}
		}
	}
}
