package transcripts

import (
	"context"
	"fmt"
	"time"
)

// ChangeGrace is how long after a debate's file was last modified an audit
// that finds the debate tampered looks again before it says so: a tool that
// rewrites a file in place (truncates it, then writes it in pieces: cp,
// an editor, a sync tool) shows a reader a torn file meanwhile, which is
// no tampering until the tool is done.
const ChangeGrace = 500 * time.Millisecond

// ChangeLimit bounds how long an audit waits for a debate's files to stop
// changing; past it the audit is ErrChanging rather than a verdict.
const ChangeLimit = 5 * time.Second

// changeRetry is how often an audit of changing files looks again.
const changeRetry = 20 * time.Millisecond

// stamp is what says that a debate's file changed: its identity, size,
// and modification and change times.
type stamp struct {
	ino, size    int64
	mtime, ctime time.Time
	present      bool
}

// stamps are the stamps of debate id's own files (transcript.jsonl,
// session.json, verdict.json).
type stamps [3]stamp

func (s *Store) stamps(id string) stamps {
	var out stamps
	for i, name := range []string{TranscriptFile, SessionFile, VerdictFile} {
		fi, err := s.root.Lstat(fileOf(id, name))
		if err != nil {
			continue
		}
		st := stamp{size: fi.Size(), mtime: fi.ModTime(), present: true}
		st.ino, st.ctime = inodeAndCtime(fi)
		out[i] = st
	}
	return out
}

// newest is the latest modification time among the files.
func (ss stamps) newest() time.Time {
	var t time.Time
	for _, s := range ss {
		if s.mtime.After(t) {
			t = s.mtime
		}
	}
	return t
}

// auditSettled is audit, looked at again while its answer may be a file
// caught mid-rewrite: when the debate reads as tampered and one of its
// files changed during the read or within ChangeGrace of it, the audit is
// repeated (every changeRetry) until the files verify, or have stood still
// for ChangeGrace (then "tampered" is the answer), or ChangeLimit passed
// (ErrChanging).
func (s *Store) auditSettled(ctx context.Context, id string, w Witnesses) (*Transcript, error) {
	start := s.now()
	for {
		before := s.stamps(id)
		t, err := s.audit(ctx, id, w, false)
		if err != nil || !IntegrityOf(t).Tampered() {
			return t, err
		}
		after := s.stamps(id)
		now := s.now()
		if before == after && now.Sub(after.newest()) >= ChangeGrace {
			return t, nil
		}
		if now.Sub(start) >= ChangeLimit {
			return nil, fmt.Errorf("debate %s: %w (still changing after %s: verify it again once that program is done)", id, ErrChanging, ChangeLimit)
		}
		if err := s.sleep(ctx, changeRetry); err != nil {
			return t, nil
		}
	}
}

// sleepCtx waits d, or until ctx is done (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}
