package registry

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"os"
	"strconv"
	"time"

	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/livereg"
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

// Beat is a heartbeat's change to a registration: heartbeatAt and
// pi-messenger's activity.lastActivityAt are now, so that pi shows a live
// parley agent as active rather than away.
func (reg *Registration) Beat(now time.Time) {
	t := now.UTC().Format(TimeLayout)
	reg.HeartbeatAt = t
	reg.Activity.LastActivityAt = t
}

// Restoring is the file form of reg as a holder restores it (Restore, in
// either backend) at now: a valid name, beaten now.
func Restoring(reg Registration, now time.Time) ([]byte, error) {
	if err := inbox.ValidateName(reg.Name); err != nil {
		return nil, err
	}
	reg.Beat(now)
	return reg.Encode()
}

// IsAlive is the liveness rule of SPEC §4, seen from host at now: the
// heartbeat, when present, must be within ttl of now (see Fresh); the PID
// must run when
// the registration is of host or names no host. A registration of another
// host without a heartbeat cannot be checked and counts as alive (parley
// never prunes on a guess).
func IsAlive(reg *Registration, host string, now time.Time, ttl time.Duration) bool {
	return isAlive(reg, host, now, ttl, livereg.PIDAlive)
}

func isAlive(reg *Registration, host string, now time.Time, ttl time.Duration, pidAlive func(int) bool) bool {
	return livereg.Alive(livereg.Head{Name: reg.Name, PID: reg.PID, Host: reg.Host, HeartbeatAt: reg.HeartbeatAt}, host, now, ttl, pidAlive)
}

// SameHolder reports whether reg, claiming a name that cur holds, comes
// from cur's holder: the same session in the same process (PID, and host
// when cur names one). Only that holder re-registers over a live
// registration. A session id alone cannot tell two processes apart (every
// watch of a name shares one), and a second process of a live session that
// overwrote the first's registration would leave it registered under the
// wrong PID, or not at all once that second process gives up.
func SameHolder(cur, reg *Registration) bool {
	return cur.SessionID != "" && cur.SessionID == reg.SessionID &&
		cur.PID == reg.PID && (cur.Host == "" || cur.Host == reg.Host)
}

// Refusal is the error of a claim of reg refused because cur, alive and
// not reg's holder (see SameHolder), holds the name: ErrSessionBusy when
// cur is the same session in another process, else ErrNameTaken.
func Refusal(cur, reg *Registration) error {
	if cur.SessionID != "" && cur.SessionID == reg.SessionID {
		return fmt.Errorf("%w: %s (pid %d on %s)", ErrSessionBusy, reg.Name, cur.PID, hostOf(cur))
	}
	return fmt.Errorf("%w: %s (pid %d on %s)", ErrNameTaken, reg.Name, cur.PID, hostOf(cur))
}

// Fresh reports whether a heartbeat at t counts at now: it is at most ttl
// old, and at most ttl ahead. A writer whose clock is a little ahead of
// the reader's beats as usual (the clocks must agree to well under the
// TTL); a heartbeat further ahead (a clock far off, a hand edit) would
// otherwise count as fresh for as long as it stays in the future.
func Fresh(t, now time.Time, ttl time.Duration) bool { return livereg.Fresh(t, now, ttl) }

// PIDAlive reports whether a process with this id runs on this host. A
// process of another user counts as alive.
func PIDAlive(pid int) bool { return livereg.PIDAlive(pid) }

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

// ClaimName is the claim step of Register: it takes reg.Name with claim
// (after checking the name), or, when reg.Name is empty, the first of the
// MemorableCandidates of next that claim does not find taken. claim
// returns ErrNameTaken when a live agent other than reg's holder holds the
// name (see SameHolder and Refusal),
// and prev, the stored registration it replaced (nil when the name was
// free).
func ClaimName(ctx context.Context, reg Registration, next func() string,
	claim func(ctx context.Context, reg Registration) (res *Registered, prev []byte, err error)) (*Registered, []byte, error) {
	if reg.Name != "" {
		if err := inbox.ValidateName(reg.Name); err != nil {
			return nil, nil, err
		}
		return claim(ctx, reg)
	}
	for name := range MemorableCandidates(next) {
		reg.Name = name
		res, prev, err := claim(ctx, reg)
		if errors.Is(err, ErrNameTaken) {
			continue
		}
		return res, prev, err
	}
	return nil, nil, fmt.Errorf("register: no free memorable name after many tries: %w", ErrNameTaken)
}

// AdoptInbox is the last step of Register: it hands the inbox of the name
// res claimed to res's session (mail.Adopt; nothing when mail is nil) and
// returns res with MovedAside set. If that fails (inbox.ErrBusy: the
// previous holder's receiver still holds the inbox), the name is given back
// as it was: giveBack writes prev (what the claim replaced) back, or
// removes the registration when prev is nil, provided it is still res's
// session's; then the error is returned.
func AdoptInbox(ctx context.Context, mail Mailboxes, res *Registered, prev []byte,
	giveBack func(ctx context.Context, name, sessionID string, prev []byte) error, log *slog.Logger) (*Registered, error) {
	if mail == nil {
		return res, nil
	}
	n, err := mail.Adopt(ctx, res.Name, res.SessionID)
	if err != nil {
		// Give the name back as it was rather than hold it without an
		// inbox: the replaced registration (a stalled holder whose receiver
		// still holds the inbox) is put back.
		if gerr := giveBack(context.WithoutCancel(ctx), res.Name, res.SessionID, prev); gerr != nil {
			log.Error("cannot give a name back after a failed registration", "op", "register", "agent", res.Name, "err", gerr)
		}
		return nil, fmt.Errorf("register %s: inbox: %w", res.Name, err)
	}
	res.MovedAside = n
	if n > 0 {
		log.Info("a recycled name's unclaimed mail was moved aside", "op", "register", "agent", res.Name, "count", n)
	}
	return res, nil
}

// AliveOf is Alive from Get's answer: an unregistered or malformed name is
// not alive, and not an error.
func AliveOf(e *Entry, err error) (bool, error) {
	switch {
	case errors.Is(err, ErrNotRegistered), errors.Is(err, ErrMalformed):
		return false, nil
	case err != nil:
		return false, err
	}
	return e.Alive, nil
}

// Entries is All from the registered names: the registration of each name
// that read finds, in the order of names, with alive's judgement. A name
// whose registration is gone meanwhile is skipped; one that cannot be read
// or does not decode is logged and skipped.
func Entries(names []string, read func(name string) (*Registration, error), alive func(*Registration) bool, log *slog.Logger) []Entry {
	var out []Entry
	for _, n := range names {
		reg, err := read(n)
		if errors.Is(err, ErrNotRegistered) {
			continue
		}
		if err != nil {
			log.Warn("skipping an unreadable registration", "op", "list", "agent", n, "err", err)
			continue
		}
		out = append(out, Entry{Registration: *reg, Alive: alive(reg)})
	}
	return out
}

// ListLive is List: it prunes dead registrations, then returns the live
// entries of all, in its order. Dead registrations that prune could not
// remove (a *PruneError) are logged and do not stop the listing: they are
// not live.
func ListLive(ctx context.Context, prune func(context.Context) ([]string, error), all func(context.Context) ([]Entry, error), log *slog.Logger) ([]Entry, error) {
	if _, err := prune(ctx); err != nil {
		var pe *PruneError
		if !errors.As(err, &pe) {
			return nil, err
		}
		log.Warn("listing past dead registrations that cannot be pruned", "op", "list", "err", err)
	}
	entries, err := all(ctx)
	if err != nil {
		return nil, err
	}
	live := entries[:0]
	for _, e := range entries {
		if e.Alive {
			live = append(live, e)
		}
	}
	return live, nil
}
