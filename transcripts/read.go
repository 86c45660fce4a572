package transcripts

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// Transcript is a debate as read back from its directory.
type Transcript struct {
	Session *debate.DebateSession
	// Events are the transcript's events. When the transcript verifies,
	// they are all of them; when it does not, they are every line that
	// still decodes as an event, each with Seq set to its line number, so
	// that a reader can see what the tampered transcript now says.
	Events []debate.Event
	// Verdict is verdict.json, nil while the debate has none.
	Verdict *Verdict
	// Report is the verification of the transcript, nil if not verified.
	Report *Report
	// State is running, closed or interrupted, as when it was read.
	State State
	// Audit is every file checked against the seal, and Signature the
	// seal's signature; both are set by Store.Audit only.
	Audit     []FileCheck
	Signature SigStatus
	// VerdictErr is set when verdict.json exists but cannot be decoded
	// (Audit only).
	VerdictErr error
}

// Read reads debate id's session, verdict and transcript, and verifies the
// transcript, every time it is called (nothing is cached: a page showing
// the result shows the file as it is now). A transcript that does not
// verify is still returned, with its report saying where it breaks.
//
// verdict.json is read before the transcript, so that a debate closing
// while it is read is seen either unsealed (and verified so far) or sealed
// whole. The incomplete last line of a debate that is running (a write in
// progress) is left out; that of an interrupted debate is reported, as
// Verify does.
func (s *Store) Read(id string) (*Transcript, error) {
	sess, err := s.Session(id)
	if err != nil {
		return nil, err
	}
	t, data, err := s.readChain(id)
	if err != nil {
		return nil, err
	}
	t.Session = sess
	if !t.Report.Intact {
		t.Events = readLenient(data)
		return t, nil
	}
	if t.Events, _ = decodeChain(data, id, t.Report.Events); t.Events == nil {
		// A chain that verifies over lines that are not events: show what
		// does decode.
		t.Events = readLenient(data)
	}
	return t, nil
}

// readChain reads debate id's verdict.json (into Verdict) and then its
// transcript, verifies the one against the other (into Report), and
// returns the transcript's bytes. verdict.json is read first, so that a
// debate closing meanwhile is seen either unsealed (and verified so far)
// or sealed whole. The incomplete last line of a debate that is running is
// left out of the bytes; that of an interrupted debate is reported.
func (s *Store) readChain(id string) (*Transcript, []byte, error) {
	v, state, err := s.seal(id)
	if err != nil {
		return nil, nil, err
	}
	t := &Transcript{State: state, Verdict: v}
	var seal *Seal
	if v != nil {
		seal = &Seal{Events: v.Events, Head: v.Head}
	}
	data, err := readFile(s.root, fileOf(id, TranscriptFile))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w: %s has no transcript", ErrNotFound, id)
		}
		return nil, nil, err
	}
	switch {
	case t.State == StateRunning:
		if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
			data = data[:i+1]
		}
	case seal != nil:
		data, _ = sealedLines(data)
	}
	rep, err := Verify(bytes.NewReader(data), id, seal)
	if err != nil {
		return nil, nil, err
	}
	t.Report = &rep
	return t, data, nil
}

// decodeChain decodes the n lines of debate id's transcript that Verify
// found intact. A line that is not an event gives nil and a TamperError
// naming it.
func decodeChain(data []byte, id string, n int) ([]debate.Event, error) {
	events := make([]debate.Event, 0, n)
	for line := range bytes.Lines(data) {
		// Verify checked every line's structure and hash: decode only.
		e, err := decodeVerified(bytes.TrimSuffix(line, []byte("\n")))
		if err != nil {
			return nil, &TamperError{ID: id, Line: len(events) + 1, Problem: err.Error()}
		}
		events = append(events, e)
	}
	return events, nil
}

// decodeVerified decodes a line that Verify already checked.
func decodeVerified(line []byte) (debate.Event, error) {
	var r rawLine
	if err := json.Unmarshal(line, &r); err != nil {
		return debate.Event{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if r.Kind == "" || len(r.Data) == 0 {
		return debate.Event{}, fmt.Errorf("%w: no kind or data", ErrMalformed)
	}
	return debate.Event{Seq: r.Seq, Kind: r.Kind, At: r.At, ElapsedMs: r.ElapsedMs, Data: r.Data}, nil
}

// sealedLines returns the bytes of a sealed transcript (one verdict.json
// closes) as its chain is read, and whether its last line had lost its
// final newline. verdict.json is written only after the seal line is
// fsynced, and nothing is appended after it, so a sealed transcript's last
// line is never a write in progress: a missing final newline is an
// editor's or a copy's doing, and no hash covers it. The line is read as
// the complete line it must be; every byte a hash covers is still checked
// (a line cut shorter than its newline does not verify).
func sealedLines(data []byte) ([]byte, bool) {
	if len(data) == 0 || data[len(data)-1] == '\n' {
		return data, false
	}
	return append(data[:len(data):len(data)], '\n'), true
}
