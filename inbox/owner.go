package inbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"strings"

	"github.com/parleyhq/parley/internal/durable"
)

// maxOwnerBytes bounds the .owner file: room for any session id a
// registration (at most 64 KiB) can carry.
const maxOwnerBytes = 80 << 10

// Adopt hands agent's inbox (created if missing) to the session sessionID.
// The inbox remembers its owner in a .owner file. When the inbox has no
// owner yet (made by Create, for an agent that comes later) or already
// belongs to sessionID, its mail stays. When it belonged to another session
// (a recycled name), the unclaimed messages are moved aside to
// aside/<old-session>/, kept, never lost, and the count is returned; the new
// session starts with an empty inbox.
//
// Adopt takes the inbox's receiver lock for the move, so it fails with
// ErrBusy while a receiver holds the inbox.
func (t *FileTransport) Adopt(ctx context.Context, agent, sessionID string) (int, error) {
	if sessionID == "" {
		return 0, &DeliveryError{Op: "adopt", Agent: agent, Err: errors.New("empty session id")}
	}
	if err := t.Create(ctx, agent); err != nil {
		return 0, err
	}
	lock, err := t.lockInbox(agent)
	if err != nil {
		return 0, err
	}
	defer lock.Close()
	dir := inboxPath(agent)
	d, err := t.root.Open(dir)
	if err != nil {
		return 0, &DeliveryError{Op: "adopt", Agent: agent, Path: dir, Err: err}
	}
	defer d.Close()
	owner := ""
	if f, err := openNoFollow(d, ownerFile); err == nil {
		b, rerr := io.ReadAll(io.LimitReader(f, maxOwnerBytes))
		f.Close()
		if rerr != nil {
			return 0, &DeliveryError{Op: "adopt", Agent: agent, Path: dir + "/" + ownerFile, Err: rerr}
		}
		// Exactly what was written, less its newline: a session id may
		// have spaces at either end.
		owner = strings.TrimSuffix(string(b), "\n")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return 0, &DeliveryError{Op: "adopt", Agent: agent, Path: dir + "/" + ownerFile, Err: err}
	}
	if owner == sessionID {
		return 0, nil
	}
	moved := 0
	if owner != "" {
		aside := AsideDir + "/" + AsideName(owner)
		for _, sub := range []string{dir + "/" + AsideDir, dir + "/" + aside} {
			if err := mkdirSafe(t.root, t.fsys, sub); err != nil {
				return 0, &DeliveryError{Op: "adopt", Agent: agent, Path: sub, Err: err}
			}
		}
		ents, err := listDir(d)
		if err != nil {
			return 0, &DeliveryError{Op: "adopt", Agent: agent, Path: dir, Err: err}
		}
		for _, e := range ents {
			if !IsMessageName(e.name) || (e.kind != kindFile && e.kind != kindUnknown) {
				continue
			}
			err := t.fsys.Rename(dir+"/"+e.name, dir+"/"+aside+"/"+e.name)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return moved, &DeliveryError{Op: "adopt", Agent: agent, Path: dir + "/" + e.name, Err: err}
			}
			moved++
		}
		if err := durable.SyncDir(t.fsys, dir+"/"+aside); err != nil {
			return moved, &DeliveryError{Op: "adopt", Agent: agent, Path: dir + "/" + aside, Err: err}
		}
	}
	// Written last: a crash before this point leaves the old owner in
	// place, and the next Adopt moves what is left.
	if err := durable.WriteFile(t.fsys, dir+"/"+ownerFile, []byte(sessionID+"\n"), 0o600); err != nil {
		return moved, &DeliveryError{Op: "adopt", Agent: agent, Path: dir + "/" + ownerFile, Err: err}
	}
	return moved, nil
}

// AsideName turns a session id into the name under which the mail set
// aside for that session is kept (a directory under aside/, a subject token
// in the JetStream transport): the id itself when it is a valid agent name
// (a UUID is), else a digest of it.
func AsideName(session string) string {
	if ValidateName(session) == nil {
		return session
	}
	sum := sha256.Sum256([]byte(session))
	return "session-" + hex.EncodeToString(sum[:8])
}

// Count reports how many messages wait in agent's inbox, how many are
// acknowledged in cur/ and how many files are quarantined in bad/.
func (t *FileTransport) Count(ctx context.Context, agent string) (waiting, acked, bad int, err error) {
	if err := ValidateName(agent); err != nil {
		return 0, 0, 0, err
	}
	count := func(dir string, keep func(string) bool) (int, error) {
		n, _, err := t.countIn(dir, keep)
		return n, err
	}
	dir := inboxPath(agent)
	if waiting, err = count(dir, IsMessageName); err != nil {
		return 0, 0, 0, &DeliveryError{Op: "count", Agent: agent, Path: dir, Err: err}
	}
	if acked, err = count(dir+"/"+CurDir, IsMessageName); err != nil {
		return 0, 0, 0, &DeliveryError{Op: "count", Agent: agent, Path: dir, Err: err}
	}
	notReason := func(n string) bool { return n[0] != '.' && !strings.HasSuffix(n, ReasonSuffix) }
	if bad, err = count(dir+"/"+BadDir, notReason); err != nil {
		return 0, 0, 0, &DeliveryError{Op: "count", Agent: agent, Path: dir, Err: err}
	}
	return waiting, acked, bad, nil
}

// AsideTotal counts the messages set aside in agent's inbox for its
// earlier holders (aside/<session>/, one folder per session): mail no
// receiver claims, kept for whoever looks. An inbox without aside/ has 0.
func (t *FileTransport) AsideTotal(ctx context.Context, agent string) (int, error) {
	if err := ValidateName(agent); err != nil {
		return 0, err
	}
	dir := inboxPath(agent) + "/" + AsideDir
	_, sessions, err := t.countIn(dir, func(string) bool { return false })
	if err != nil {
		return 0, &DeliveryError{Op: "count", Agent: agent, Path: dir, Err: err}
	}
	total := 0
	for _, s := range sessions {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		n, _, err := t.countIn(dir+"/"+s, IsMessageName)
		if err != nil {
			return 0, &DeliveryError{Op: "count", Agent: agent, Path: dir + "/" + s, Err: err}
		}
		total += n
	}
	return total, nil
}

// countIn counts the regular files of dir whose names keep takes (what a
// receiver would claim: a symbolic link, a FIFO or a directory named like
// a message never is), and lists its subdirectories. A dir that does not
// exist has none.
func (t *FileTransport) countIn(dir string, keep func(string) bool) (n int, subdirs []string, err error) {
	if err := checkDir(t.root, dir); err != nil {
		if errors.Is(err, ErrNotFound) {
			return 0, nil, nil
		}
		return 0, nil, err
	}
	d, err := t.root.Open(dir)
	if err != nil {
		return 0, nil, err
	}
	defer d.Close()
	ents, err := listDir(d)
	if err != nil {
		return 0, nil, err
	}
	for _, e := range ents {
		switch {
		case e.kind == kindDir:
			subdirs = append(subdirs, e.name)
		case e.kind == kindFile && keep(e.name):
			n++
		}
	}
	return n, subdirs, nil
}

// Owner is the session that last adopted agent's inbox: "" when no session
// ever registered under the name (the inbox was made ahead by Create, or
// does not exist). An agent that stopped cleanly leaves no registration,
// but its inbox keeps its owner: this is how "stopped" is told apart from
// "never registered".
func (t *FileTransport) Owner(ctx context.Context, agent string) (string, error) {
	if err := ValidateName(agent); err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	dir := inboxPath(agent)
	d, err := t.root.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", &DeliveryError{Op: "owner", Agent: agent, Path: dir, Err: err}
	}
	defer d.Close()
	f, err := openNoFollow(d, ownerFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", &DeliveryError{Op: "owner", Agent: agent, Path: dir + "/" + ownerFile, Err: err}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxOwnerBytes))
	if err != nil {
		return "", &DeliveryError{Op: "owner", Agent: agent, Path: dir + "/" + ownerFile, Err: err}
	}
	return strings.TrimSuffix(string(b), "\n"), nil
}
