package transcripts

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/flock"
	"github.com/parleyhq/parley/vocab"
)

// File names inside a debate's directory (SPEC §3).
const (
	Dir            = "debates"
	SessionFile    = "session.json"
	TranscriptFile = "transcript.jsonl"
	VerdictFile    = "verdict.json"
	// MaxStateBytes bounds session.json and verdict.json.
	MaxStateBytes = 4 << 20
)

// Store is the debates directory of a parley root: one directory per
// debate, opened under an os.Root so that neither a debate id nor a
// symbolic link leads out of it. A Store is safe for concurrent use; each
// debate's Log has one writer at a time, across processes (an advisory
// lock on its transcript).
type Store struct {
	root *os.Root
	fs   durable.FS
	log  *slog.Logger
	// open opens a transcript for appending; tests replace it to inject
	// write and sync failures.
	open func(r *os.Root, name string) (appendFile, error)
	// signer signs verdict.json when set (SignWith).
	signer ed25519.PrivateKey
	// now is the time a running debate's active time is read at; tests
	// replace it.
	now func() time.Time
	// sleep waits between two looks at changing files (Audit); tests
	// replace it.
	sleep func(ctx context.Context, d time.Duration) error
	// betweenLooks, when set (tests only), runs after seal's first look
	// for verdict.json found none: a debate closes there.
	betweenLooks func()
}

// SignWith makes every Seal sign verdict.json with key (ed25519), so that
// a reader holding the public key can tell a seal parley wrote from one
// rewritten by someone with write access to the files. Call it before the
// store is used.
func (s *Store) SignWith(key ed25519.PrivateKey) { s.signer = key }

// appendFile is what a Log needs of its transcript file.
type appendFile interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Close() error
	Fd() uintptr
	SyscallConn() (syscall.RawConn, error)
}

// OpenStore opens the debates of the parley root directory root, which
// must exist; <root>/debates is created (0700) when the first debate is.
// logger may be nil.
func OpenStore(root string, logger *slog.Logger) (*Store, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open the parley root: %w", err)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Store{root: r, fs: durable.Root(r), log: logger, open: openAppend, now: time.Now, sleep: sleepCtx}, nil
}

// Dir returns the parley root directory the store was opened on.
func (s *Store) Dir() string { return s.root.Name() }

func openAppend(r *os.Root, name string) (appendFile, error) {
	// A named pipe in the transcript's place fails here (ENXIO)
	// instead of blocking until something reads it.
	f, err := openFile(r, name, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Close releases the root.
func (s *Store) Close() error { return s.root.Close() }

func dirOf(id string) string        { return path.Join(Dir, id) }
func fileOf(id, name string) string { return path.Join(Dir, id, name) }

// Path returns the path of a debate's file relative to the parley root,
// e.g. "debates/<id>/transcript.jsonl".
func Path(id, name string) string { return fileOf(id, name) }

// Create makes the directory of a new debate with its session.json
// (written once) and an empty transcript, and returns the Log to record it
// in, locked for writing. The session must validate; a debate that
// already has its session.json is ErrExists (a directory without one, left
// by a create cut short, is taken over).
func (s *Store) Create(ctx context.Context, sess *debate.DebateSession) (l *Log, err error) {
	if err := sess.Validate(); err != nil {
		return nil, err
	}
	// A debate that cannot be opened (a full disk, a failing one) leaves
	// nothing behind: what this call made is removed again.
	var made []string
	defer func() {
		if err == nil {
			return
		}
		for i := len(made) - 1; i >= 0; i-- {
			if rerr := s.root.Remove(made[i]); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				s.log.Warn("cannot remove what a failed create left", "debate_id", sess.ID, "path", made[i], "err", rerr)
			}
		}
		if debate.IsDiskFault(err) && !errors.Is(err, debate.ErrStorage) {
			err = &debate.StorageError{DebateID: sess.ID, Path: filepath.Join(s.Dir(), filepath.FromSlash(dirOf(sess.ID))), Err: err, NotOpened: true}
		}
	}()
	id := sess.ID
	if err := s.root.Mkdir(Dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create %s: %w", Dir, err)
	}
	if err := s.root.Mkdir(dirOf(id), 0o700); err == nil {
		made = append(made, dirOf(id))
	} else {
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create the directory of %s: %w", id, err)
		}
		// session.json is the claim on an id. A directory without it is a
		// create cut short by a crash: finish it (an id derived from its
		// question, as an escalation's, would otherwise be refused for
		// ever). Anything else there is someone's debate.
		if !s.unclaimed(id) {
			return nil, fmt.Errorf("%w: %s", ErrExists, id)
		}
		s.log.Warn("finishing the creation of a debate cut short", "debate_id", id, "op", "create")
	}
	if err := durable.SyncDir(s.fs, Dir); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(sess, "", "  ")
	if err != nil {
		return nil, err
	}
	// The empty transcript first: writing session.json syncs the directory,
	// which makes both names durable. An empty one left by a crash is kept.
	_, terr := s.root.Lstat(fileOf(id, TranscriptFile))
	f, err := s.root.OpenFile(fileOf(id, TranscriptFile), os.O_WRONLY|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create the transcript of %s: %w", id, err)
	}
	f.Close()
	if errors.Is(terr, fs.ErrNotExist) {
		made = append(made, fileOf(id, TranscriptFile))
	}
	if err := durable.CreateFile(s.fs, fileOf(id, SessionFile), append(data, '\n'), 0o600); err != nil {
		if durable.IsExist(err) {
			return nil, fmt.Errorf("%w: %s", ErrExists, id)
		}
		return nil, fmt.Errorf("write the session of %s: %w", id, err)
	}
	return s.Open(ctx, id)
}

// unclaimed reports whether debate id's directory is what a Create cut
// short leaves: a real directory without session.json whose transcript,
// if any, is an empty regular file.
func (s *Store) unclaimed(id string) bool {
	if st, err := s.root.Lstat(dirOf(id)); err != nil || !st.IsDir() {
		return false
	}
	if _, err := s.root.Lstat(fileOf(id, SessionFile)); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	st, err := s.root.Lstat(fileOf(id, TranscriptFile))
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	return err == nil && st.Mode().IsRegular() && st.Size() == 0
}

// Open opens an existing debate's Log for writing (to resume it): it takes
// the debate's lock (ErrBusy while another process holds it), reads and
// verifies the transcript, and sets aside an incomplete last line left by a
// crash (moved to transcript.jsonl.torn-<ms>, never deleted). A transcript
// that fails verification anywhere else, or does not end where its
// verdict.json says, is ErrTampered.
func (s *Store) Open(ctx context.Context, id string) (*Log, error) {
	if err := debate.ValidateID(id); err != nil {
		return nil, err
	}
	f, err := s.open(s.root, fileOf(id, TranscriptFile))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return nil, err
	}
	ok, err := flock.Try(f, flock.Exclusive)
	// A coordinator holds the lock for as long as it runs; a reader asking
	// whether one does (running) holds it shared for an instant, longer
	// on a busy machine. So a refused lock is tried again for a short
	// grace before the debate counts as busy: the process "debate start"
	// hands a debate to must not be turned away because its caller polls
	// the debate's state meanwhile.
	for deadline := time.Now().Add(busyGrace); err == nil && !ok && time.Now().Before(deadline) && ctx.Err() == nil; {
		time.Sleep(5 * time.Millisecond)
		ok, err = flock.Try(f, flock.Exclusive)
	}
	if err != nil || !ok {
		f.Close()
		if err == nil {
			return nil, fmt.Errorf("%w: %s", ErrBusy, id)
		}
		return nil, fmt.Errorf("lock the transcript of %s: %w", id, err)
	}
	// A sealed debate's transcript must end where verdict.json says.
	var seal *Seal
	switch v, err := s.Verdict(id); {
	case err == nil:
		seal = &Seal{Events: v.Events, Head: v.Head}
	case !errors.Is(err, ErrNotSealed):
		f.Close()
		return nil, err
	}
	l := &Log{s: s, id: id, f: f, sealed: seal != nil}
	if err := l.load(seal); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// busyGrace is how long Open tries again for a debate's lock that
// another process refused before it answers ErrBusy.
const busyGrace = time.Second

// Log is one debate's transcript opened for writing; it implements
// debate.Journal. It is used by one goroutine at a time (the coordinator's).
type Log struct {
	s      *Store
	id     string
	f      appendFile
	events []debate.Event
	head   string
	size   int64
	sealed bool
	dirty  bool  // an appended request event is not fsynced yet
	broken error // set after a failed write: nothing more is appended
	mu     sync.Mutex
}

var (
	_ debate.Journal      = (*Log)(nil)
	_ debate.StorageProbe = (*Log)(nil)
)

// load reads the transcript, verifies it (against seal, if the debate is
// sealed), and sets aside a torn last line.
func (l *Log) load(seal *Seal) error {
	data, err := readFile(l.s.root, fileOf(l.id, TranscriptFile))
	if err != nil {
		return err
	}
	good := data
	if seal != nil {
		// Nothing is appended to a sealed chain: its last line is read
		// whole, never set aside (sealedLines).
		good, _ = sealedLines(data)
	} else if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		good = data[:i+1]
		if err := l.setAside(data[i+1:], int64(len(good))); err != nil {
			return err
		}
	}
	rep, err := Verify(bytes.NewReader(good), l.id, seal)
	if err != nil {
		return err
	}
	if !rep.Intact {
		return &TamperError{ID: l.id, Line: rep.BadLine, Problem: rep.Problem}
	}
	l.head, l.size = rep.Head, int64(min(len(good), len(data)))
	if l.head == "" {
		l.head = Genesis(l.id)
	}
	for line := range bytes.Lines(good) {
		e, err := DecodeLine(bytes.TrimSuffix(line, []byte("\n")))
		if err != nil {
			return &TamperError{ID: l.id, Line: len(l.events) + 1, Problem: err.Error()}
		}
		l.events = append(l.events, e)
	}
	return nil
}

// setAside moves the torn tail of a transcript to a file of its own and
// truncates the transcript to its last complete line.
func (l *Log) setAside(torn []byte, keep int64) error {
	name := fileOf(l.id, TranscriptFile+".torn-"+strconv.FormatInt(time.Now().UnixMilli(), 10))
	if err := durable.CreateFile(l.s.fs, name, torn, 0o600); err != nil && !durable.IsExist(err) {
		return fmt.Errorf("set aside the incomplete last line of %s: %w", l.id, err)
	}
	if err := l.f.Truncate(keep); err != nil {
		return fmt.Errorf("truncate the incomplete last line of %s: %w", l.id, err)
	}
	if err := l.f.Sync(); err != nil {
		return err
	}
	l.s.log.Warn("set aside an incomplete last line", "debate_id", l.id, "path", name, "op", "resume")
	return nil
}

// Append records an event. The line is written with one write call and
// fsynced before Append returns, except for an EventRequest, which becomes
// durable with the next event's fsync (a request is derived again from the
// rest of the transcript after a crash). After a failed write or sync the
// Log refuses further appends; the transcript is cut back to its last
// complete line where possible, and Open sets aside whatever remains.
func (l *Log) Append(ctx context.Context, kind debate.EventKind, elapsedMs int64, data any) (debate.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.appendLocked(kind, elapsedMs, data)
}

// appendLocked is Append; l.mu is held.
func (l *Log) appendLocked(kind debate.EventKind, elapsedMs int64, data any) (debate.Event, error) {
	if l.broken != nil {
		return debate.Event{}, fmt.Errorf("transcript of %s: an earlier write failed: %w", l.id, l.broken)
	}
	if l.f == nil {
		return debate.Event{}, fmt.Errorf("transcript of %s is closed", l.id)
	}
	// Marshal's output is compact (it compacts what a MarshalJSON or a
	// RawMessage returns too): no newline reaches the line.
	raw, err := json.Marshal(data)
	if err != nil {
		return debate.Event{}, fmt.Errorf("encode the %s event: %w", kind, err)
	}
	e := debate.Event{Seq: len(l.events) + 1, Kind: kind, At: time.Now().UTC().Format(vocab.TimeLayout), ElapsedMs: elapsedMs, Data: raw}
	line, hash, err := encodeLine(l.head, &e)
	if err != nil {
		return debate.Event{}, err
	}
	line = append(line, '\n')
	// What a disk fault stops: the verdict is recorded once it is the
	// last event.
	afterVerdict := len(l.events) > 0 && l.events[len(l.events)-1].Kind == debate.EventVerdict
	if _, err := l.f.Write(line); err != nil {
		l.fail(err)
		if debate.IsDiskFault(err) {
			return debate.Event{}, &debate.StorageError{DebateID: l.id, Path: l.path(), Err: err, AfterVerdict: afterVerdict}
		}
		return debate.Event{}, fmt.Errorf("append to the transcript of %s: %w", l.id, err)
	}
	l.dirty = true
	if kind != debate.EventRequest {
		if err := l.f.Sync(); err != nil {
			l.fail(err)
			if debate.IsDiskFault(err) {
				return debate.Event{}, &debate.StorageError{DebateID: l.id, Path: l.path(), Err: err, AfterVerdict: afterVerdict}
			}
			return debate.Event{}, fmt.Errorf("sync the transcript of %s: %w", l.id, err)
		}
		l.dirty = false
	}
	l.events = append(l.events, e)
	l.head = hash
	l.size += int64(len(line))
	return e, nil
}

// Writable reports whether the transcript's disk can still take a write:
// a *debate.StorageError when the file system holding it has (almost) no
// space left, or an earlier write failed on the disk. It implements
// debate.StorageProbe.
func (l *Log) Writable() error {
	l.mu.Lock()
	broken := l.broken
	l.mu.Unlock()
	if broken != nil && debate.IsDiskFault(broken) {
		return &debate.StorageError{DebateID: l.id, Path: l.path(), Err: broken}
	}
	if l.f == nil {
		return nil
	}
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(l.f.Fd()), &st); err == nil && uint64(st.Bsize)*st.Bavail < minFreeBytes {
		return &debate.StorageError{DebateID: l.id, Path: l.path(), Err: syscall.ENOSPC}
	}
	return nil
}

// minFreeBytes is the free space below which a transcript's disk counts as
// full: less than one more event of the largest size.
const minFreeBytes = MaxLineBytes

// path is the transcript's path, under the root's directory, as a
// storage error names it.
func (l *Log) path() string {
	return filepath.Join(l.s.Dir(), filepath.FromSlash(fileOf(l.id, TranscriptFile)))
}

func (l *Log) fail(err error) {
	l.broken = err
	if terr := l.f.Truncate(l.size); terr != nil {
		l.s.log.Warn("cannot cut the transcript back after a failed write", "debate_id", l.id, "err", terr)
	}
}

// Events returns the recorded events, in order (a copy).
func (l *Log) Events() []debate.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]debate.Event(nil), l.events...)
}

// Head returns the hash of the last line (the genesis when empty).
func (l *Log) Head() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.head
}

// ID returns the debate's id.
func (l *Log) ID() string { return l.id }

// Verdict is the content of verdict.json: the outcome, where it was filed,
// and the end of the transcript it closed.
type Verdict struct {
	debate.Outcome
	// Record is where the Filer filed the outcome ("" if it filed none).
	Record string `json:"record"`
	// Transcript is the transcript's path relative to the parley root.
	Transcript string `json:"transcript"`
	// Events and Head are the transcript's length and last hash at close.
	Events int    `json:"events"`
	Head   string `json:"head"`
	// Signature is the ed25519 signature of SealMessage(id, Events, Head)
	// by the key of the root's config (base64), "" when unsigned;
	// PublicKey is that key's public half (base64), for the reader.
	Signature string `json:"signature,omitempty"`
	PublicKey string `json:"public_key,omitempty"`
}

// SealMessage is what a signed seal signs: the debate, and the length and
// head of its chain, which covers every event, the session's and the
// filed pages' hashes (in the seal event) and the verdict.
func SealMessage(id string, events int, head string) []byte {
	return []byte("parley/seal/v1\n" + id + "\n" + strconv.Itoa(events) + "\n" + head)
}

// Seal closes the chain and writes verdict.json once. The chain's last
// event must be the verdict; Seal appends the seal event after it
// (debate.EventSeal, with o.Filing: what the filing wrote, and the
// session's hash), unless a Seal cut short by a crash already did, then
// writes verdict.json with the chain's final length and head, signed when
// the store has a signing key. A second Seal (in any process) fails with
// debate.ErrSealed.
func (l *Log) Seal(ctx context.Context, o *debate.Outcome, record string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sealed {
		return debate.ErrSealed
	}
	if l.f == nil {
		return fmt.Errorf("transcript of %s is closed", l.id)
	}
	if n := len(l.events); n == 0 || l.events[n-1].Kind != debate.EventSeal {
		if n == 0 || l.events[n-1].Kind != debate.EventVerdict {
			return fmt.Errorf("seal %s: the transcript does not end with its verdict", l.id)
		}
		f := debate.Filing{Record: record}
		if o.Filing != nil {
			f = *o.Filing
		}
		f.Head, f.Events = l.head, n
		sh, err := l.s.SessionHash(l.id)
		if err != nil {
			return err
		}
		f.SessionHash = sh
		if _, err := l.appendLocked(debate.EventSeal, l.events[n-1].ElapsedMs, f); err != nil {
			return err
		}
	}
	if l.dirty {
		if err := l.f.Sync(); err != nil {
			return fmt.Errorf("sync the transcript of %s: %w", l.id, err)
		}
		l.dirty = false
	}
	v := Verdict{Outcome: *o, Record: record, Transcript: fileOf(l.id, TranscriptFile), Events: len(l.events), Head: l.head}
	if key := l.s.signer; key != nil {
		v.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, SealMessage(l.id, v.Events, v.Head)))
		v.PublicKey = base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey))
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := durable.CreateFile(l.s.fs, fileOf(l.id, VerdictFile), append(data, '\n'), 0o600); err != nil {
		if durable.IsExist(err) {
			l.sealed = true
			return debate.ErrSealed
		}
		return fmt.Errorf("write the verdict of %s: %w", l.id, err)
	}
	l.sealed = true
	return nil
}

// Sealed reports whether verdict.json exists.
func (l *Log) Sealed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sealed
}

// Close releases the transcript and its lock.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// Session reads a debate's session.json.
func (s *Store) Session(id string) (*debate.DebateSession, error) {
	var sess debate.DebateSession
	if err := s.readJSON(id, SessionFile, &sess); err != nil {
		return nil, err
	}
	return &sess, nil
}

// SessionHash is the SHA-256 (hex) of debate id's session.json as it is
// on disk.
func (s *Store) SessionHash(id string) (string, error) {
	data, err := s.readState(id, SessionFile)
	if err != nil {
		return "", err
	}
	return HashBytes(data), nil
}

// HashBytes is the hex SHA-256 of data, as seals record file contents.
func HashBytes(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Verdict reads a debate's verdict.json; a debate without one is
// ErrNotSealed.
func (s *Store) Verdict(id string) (*Verdict, error) {
	var v Verdict
	if err := s.readJSON(id, VerdictFile, &v); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", ErrNotSealed, id)
		}
		return nil, err
	}
	return &v, nil
}

func (s *Store) readJSON(id, name string, v any) error {
	data, err := s.readState(id, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: %s of %s: %v", ErrMalformed, name, id, err)
	}
	return nil
}

// readState reads session.json or verdict.json of debate id, at most
// MaxStateBytes.
func (s *Store) readState(id, name string) ([]byte, error) {
	if err := debate.ValidateID(id); err != nil {
		return nil, err
	}
	f, err := openRead(s.root, fileOf(id, name))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && name == SessionFile {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxStateBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxStateBytes {
		return nil, fmt.Errorf("%w: %s of %s is larger than %d bytes", ErrMalformed, name, id, MaxStateBytes)
	}
	return data, nil
}

// Verify verifies debate id's transcript against its verdict.json, if any.
// The incomplete last line of a debate that is running (a write in
// progress) is left out, as Read does; that of an interrupted debate is
// reported.
func (s *Store) Verify(id string) (Report, error) {
	if err := debate.ValidateID(id); err != nil {
		return Report{}, err
	}
	// verdict.json before the transcript: a debate closing meanwhile is
	// seen unsealed (verified so far) or sealed whole.
	var seal *Seal
	v, err := s.Verdict(id)
	switch {
	case err == nil:
		seal = &Seal{Events: v.Events, Head: v.Head}
	case !errors.Is(err, ErrNotSealed):
		return Report{}, err
	}
	f, err := openRead(s.root, fileOf(id, TranscriptFile))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Report{}, fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return Report{}, err
	}
	defer f.Close()
	if seal == nil {
		if running, err := s.Running(id); err == nil && running {
			data, err := io.ReadAll(f)
			if err != nil {
				return Report{}, err
			}
			if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
				data = data[:i+1]
			}
			return Verify(bytes.NewReader(data), id, nil)
		}
		return Verify(f, id, nil)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return Report{}, err
	}
	data, _ = sealedLines(data)
	return Verify(bytes.NewReader(data), id, seal)
}

// Events reads debate id's events without taking its lock (the debate may
// be running). A torn last line is left out (a sealed transcript's last
// line that lost its newline is read whole: sealedLines); a line that does not decode
// ends the list with ErrTampered.
func (s *Store) Events(id string) ([]debate.Event, error) {
	if err := debate.ValidateID(id); err != nil {
		return nil, err
	}
	data, err := readFile(s.root, fileOf(id, TranscriptFile))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return nil, err
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		if _, err := s.Verdict(id); err == nil {
			data, _ = sealedLines(data)
		} else {
			data = data[:i+1]
		}
	}
	var out []debate.Event
	for line := range bytes.Lines(data) {
		e, err := DecodeLine(bytes.TrimSuffix(line, []byte("\n")))
		if err != nil {
			return out, &TamperError{ID: id, Line: len(out) + 1, Problem: err.Error()}
		}
		out = append(out, e)
	}
	return out, nil
}

// Running reports whether a process holds debate id's lock: a coordinator
// is running it now.
func (s *Store) Running(id string) (bool, error) {
	if err := debate.ValidateID(id); err != nil {
		return false, err
	}
	return running(s.root, fileOf(id, TranscriptFile))
}

// running reports whether a process holds the lock of the transcript at
// name under r.
func running(r *os.Root, name string) (bool, error) {
	f, err := openRead(r, name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	ok, err := flock.Try(f, flock.Shared)
	if err != nil {
		return false, err
	}
	if !ok {
		return true, nil
	}
	_ = flock.Unlock(f)
	return false, nil
}

// Stamp is what tells, cheaply, that a debate changed: its transcript's
// size and modification time, and its state. Watchers poll it and re-read
// the transcript only when it moved.
type Stamp struct {
	Size    int64
	ModTime time.Time
	State   State
}

// Stamp stats debate id's transcript and seal and asks its lock whether it
// runs; nothing is read.
func (s *Store) Stamp(id string) (Stamp, error) {
	var st Stamp
	if err := debate.ValidateID(id); err != nil {
		return st, err
	}
	fi, err := s.root.Stat(fileOf(id, TranscriptFile))
	if err != nil {
		return st, err
	}
	st.Size, st.ModTime = fi.Size(), fi.ModTime()
	switch _, err := s.root.Stat(fileOf(id, VerdictFile)); {
	case err == nil:
		st.State = StateClosed
	case !errors.Is(err, fs.ErrNotExist):
		return st, err
	default:
		if st.State, err = s.unsealedState(id); err != nil {
			return st, err
		}
	}
	return st, nil
}

// unsealedState is the state of debate id, whose verdict.json was not
// there a moment ago: running while a coordinator holds it; else closed
// when verdict.json is there now (its coordinator wrote it, then let go,
// in between), else interrupted. Asked the other way round, a debate
// closing between the two looks at neither and is called interrupted.
// A transcript that is gone, or that is not a regular file (a pipe
// planted in its place), is held by no one: the debate is listed, and its
// audit says what is wrong, rather than left out of every listing.
func (s *Store) unsealedState(id string) (State, error) {
	if err := debate.ValidateID(id); err != nil {
		return "", err
	}
	return s.unsealedStateIn(s.root, dirOf(id))
}

// unsealedStateIn is unsealedState of the debate whose directory is dir
// under r ("." when r is the debate's directory).
func (s *Store) unsealedStateIn(r *os.Root, dir string) (State, error) {
	if s.betweenLooks != nil {
		s.betweenLooks()
	}
	running, err := running(r, path.Join(dir, TranscriptFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrMalformed) {
		return "", err
	}
	if running {
		return StateRunning, nil
	}
	switch _, err := r.Stat(path.Join(dir, VerdictFile)); {
	case err == nil:
		return StateClosed, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	return StateInterrupted, nil
}

// seal reads debate id's verdict.json and says where the debate stands:
// closed with its verdict, or, when there is none, running or interrupted
// as unsealedState finds it; a verdict.json that appeared meanwhile is
// read. A verdict.json that does not decode is ErrMalformed, its state
// left interrupted for the caller to judge.
func (s *Store) seal(id string) (*Verdict, State, error) {
	v, err := s.Verdict(id)
	if !errors.Is(err, ErrNotSealed) {
		if err != nil {
			return nil, StateInterrupted, err
		}
		return v, StateClosed, nil
	}
	st, err := s.unsealedState(id)
	if err != nil || st != StateClosed {
		return nil, st, err
	}
	switch v, err := s.Verdict(id); {
	case err == nil:
		return v, StateClosed, nil
	case errors.Is(err, ErrNotSealed):
		// Gone again (removed by hand): unsealed after all.
		return nil, StateInterrupted, nil
	default:
		return nil, StateInterrupted, err
	}
}

// State says where a debate stands.
type State string

// The states of a debate in a listing.
const (
	StateRunning     State = "running"     // a coordinator holds it
	StateClosed      State = "closed"      // verdict.json written
	StateInterrupted State = "interrupted" // neither: resume it
)

// Summary is one debate in a listing.
type Summary struct {
	// Summary is what the debate was about and, once it is sealed, how it
	// ended (the verdict, action, rounds and tokens of verdict.json; the
	// rounds and tokens so far while it runs).
	debate.Summary
	Created string `json:"created"`
	State   State  `json:"state"`
	Record  string `json:"record,omitempty"`
	// Integrity is the audit's summary ("verified", "verdict.json
	// differs", …) when the caller audited the debate (Integrity.Summary).
	Integrity string                `json:"integrity,omitempty"`
	Session   *debate.DebateSession `json:"-"`
}

// List summarises every debate under debates/, newest first. Entries whose
// name is not a valid debate id, or without a readable session.json, are
// skipped and logged.
func (s *Store) List() ([]Summary, error) {
	return s.list(true)
}

// list is List; withProgress as for summary.
func (s *Store) list(withProgress bool) ([]Summary, error) {
	ids, err := s.debateIDs()
	if err != nil {
		return nil, err
	}
	var out []Summary
	for _, id := range ids {
		sum, err := s.summary(id, withProgress)
		if err != nil {
			s.log.Warn("skipped a debate directory", "debate_id", id, "err", err)
			continue
		}
		out = append(out, sum)
	}
	sort.SliceStable(out, func(i, j int) bool { return newer(&out[i], &out[j]) })
	return out, nil
}

// debateIDs are the names of the directories under debates/ that are valid
// debate ids, in directory order; none when there is no debates/.
func (s *Store) debateIDs() ([]string, error) {
	entries, err := fs.ReadDir(s.root.FS(), Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if id := e.Name(); e.IsDir() && debate.ValidateID(id) == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// newer is the order of a listing: newest first, by creation time, then
// by id.
func newer(a, b *Summary) bool {
	if a.Created != b.Created {
		return a.Created > b.Created
	}
	return a.DebateID > b.DebateID
}

// Summary summarises one debate. Its verdict, rounds and tokens come from
// verdict.json for a closed debate, else from the transcript so far
// (unverified): the verdict its verdict event records, when the debate
// stopped after recording it, else none, and the rounds and tokens so far.
func (s *Store) Summary(id string) (Summary, error) {
	return s.summary(id, true)
}

// summary is Summary; without withProgress, an unclosed debate's rounds and
// tokens are left at zero and its transcript is not read (for a caller that
// reads the events itself).
func (s *Store) summary(id string, withProgress bool) (Summary, error) {
	sess, err := s.Session(id)
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrMalformed) {
		// session.json gone: the chain's open event still says what the
		// debate was, so that a listing shows it (and its audit says what
		// is missing) rather than hiding it.
		sess, err = s.openedSession(id)
	}
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{Summary: debate.Summary{DebateID: id, Topic: sess.Topic, Layer: sess.Layer}, Created: sess.Created, Session: sess}
	v, state, err := s.seal(id)
	switch {
	case err == nil && v != nil:
		sum.Summary = debate.SummaryOf(sess, &v.Outcome)
		sum.DebateID = id
		sum.State, sum.Record = StateClosed, v.Record
		return sum, nil
	case errors.Is(err, ErrMalformed):
		// A verdict.json that does not decode: listed (its audit says
		// what is wrong), as a debate without a readable verdict.
		if state, err = s.unsealedState(id); err != nil {
			return Summary{}, err
		}
		if state == StateClosed {
			state = StateInterrupted
		}
	case err != nil:
		return Summary{}, err
	}
	sum.State = state
	if !withProgress {
		return sum, nil
	}
	if data, err := readFile(s.root, fileOf(id, TranscriptFile)); err == nil {
		rounds, tokens, o := progress(data)
		if o != nil {
			// A verdict recorded, not yet filed and sealed (its
			// coordinator stopped in between): it is how the debate
			// ended, as the chain says, whatever its state.
			sum.Summary = debate.SummaryOf(sess, o)
			sum.DebateID = id
		} else {
			sum.Rounds, sum.Tokens = rounds, tokens
		}
	}
	return sum, nil
}

// openedSession is the session the first line of debate id's transcript
// (its open event) records; ErrNotFound when there is none.
func (s *Store) openedSession(id string) (*debate.DebateSession, error) {
	f, err := openRead(s.root, fileOf(id, TranscriptFile))
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	defer f.Close()
	line, err := bufio.NewReader(io.LimitReader(f, MaxLineBytes)).ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	var sess debate.DebateSession
	e, err := DecodeLine(bytes.TrimSuffix(line, []byte("\n")))
	if err != nil || e.Kind != debate.EventOpen || json.Unmarshal(e.Data, &sess) != nil || sess.ID != id {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return &sess, nil
}

// LoadOutcome returns the outcome of a closed debate as its transcript
// records it, with the session, turns and forfeits filled in, for filing
// (again): it is what "consensus file --from-debate" needs. The transcript
// must verify (else ErrTampered); a debate without a verdict event is
// ErrNotSealed.
func (s *Store) LoadOutcome(ctx context.Context, id string) (*debate.Outcome, error) {
	// One read of the transcript, verified, then decoded.
	t, data, err := s.readChain(id)
	if err != nil {
		return nil, err
	}
	if rep := t.Report; !rep.Intact {
		return nil, &TamperError{ID: id, Line: rep.BadLine, Problem: rep.Problem}
	}
	events, err := decodeChain(data, id, t.Report.Events)
	if err != nil {
		return nil, err
	}
	st, err := debate.Replay(events)
	if err != nil {
		return nil, fmt.Errorf("transcript of %s: %w", id, err)
	}
	if st.Verdict == nil {
		return nil, fmt.Errorf("%w: %s has no verdict event (parley debate resume %s closes it)", ErrNotSealed, id, id)
	}
	if t.Verdict != nil {
		st.Verdict.Record = t.Verdict.Record
	}
	// The chain at the verdict, for the record's frontmatter; of a sealed
	// debate also what its filing wrote (the record and its hash), so
	// that filing it again knows the record it must find.
	switch {
	case st.Filing != nil:
		f := *st.Filing
		st.Verdict.Filing = &f
	case events[len(events)-1].Kind == debate.EventVerdict:
		sh, err := s.SessionHash(id)
		if err != nil {
			return nil, err
		}
		st.Verdict.Filing = &debate.Filing{Head: t.Report.Head, Events: t.Report.Events, SessionHash: sh}
	}
	return st.Verdict, nil
}

// LogsDir is the folder of a debate's agent logs.
const LogsDir = "logs"

// AgentLog opens (creating it, 0600) the log file of an agent a debate
// started: <root>/debates/<id>/logs/<name>.log, appended to.
func (s *Store) AgentLog(id, name string) (*os.File, error) {
	if err := debate.ValidateID(id); err != nil {
		return nil, err
	}
	if err := vocab.ValidateName(name); err != nil {
		return nil, err
	}
	if err := s.root.Mkdir(fileOf(id, LogsDir), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	// A named pipe planted in the log's place fails at once (no reader)
	// instead of blocking the debate in open(2).
	return openFile(s.root, fileOf(id, LogsDir+"/"+name+".log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
}

// RemoveStaleStaging removes the staging files (durable.IsStagingName)
// older than durable.StaleStaging that writers killed mid-write left in
// the debates' folders (a session.json or verdict.json being written),
// and returns how many it removed. Anything else, a symbolic link with a
// staging name included, stays. A folder or a file it cannot clean does
// not stop it: the rest is cleaned and every failure returned, joined.
func (s *Store) RemoveStaleStaging(ctx context.Context, now time.Time) (int, error) {
	d, err := s.root.Open(Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	des, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return 0, err
	}
	cutoff := now.Add(-durable.StaleStaging)
	n := 0
	var errs []error
	for _, de := range des {
		if err := ctx.Err(); err != nil {
			return n, errors.Join(append(errs, err)...)
		}
		if !de.IsDir() {
			continue
		}
		m, err := durable.RemoveStale(s.root, Dir+"/"+de.Name(), cutoff)
		n += m
		if err != nil {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}
