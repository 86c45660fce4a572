package transcripts

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/vault"
)

// FileStatus is how one file a debate produced compares with the seal.
type FileStatus string

// The statuses of a FileCheck.
const (
	// FileIntact: the file says what the seal says it should.
	FileIntact FileStatus = "intact"
	// FileDiffers: the file was changed after the seal (or the seal
	// rewritten without it).
	FileDiffers FileStatus = "differs"
	// FileMissing: the seal says the file exists, and it does not.
	FileMissing FileStatus = "missing"
	// FilePending: not written yet, and that is no tampering: the debate
	// runs, or its filing was interrupted (parley debate resume completes
	// it).
	FilePending FileStatus = "pending"
	// FileUnchecked: there is nothing to check the file against (a debate
	// sealed before seals bound the vault files, or no vault to look in).
	FileUnchecked FileStatus = "unchecked"
)

// Bad reports whether the status is evidence of tampering.
func (s FileStatus) Bad() bool { return s == FileDiffers || s == FileMissing }

// FileCheck is one file of a debate checked against the seal: the
// transcript, session.json and verdict.json (paths relative to the parley
// root), the vault page and the consensus record (relative to the vault).
type FileCheck struct {
	File    string     `json:"file"`
	Status  FileStatus `json:"status"`
	Problem string     `json:"problem,omitempty"`
	// Want says what an intact file would say.
	Want string `json:"want,omitempty"`
	// FiledAs is the path the seal names for a record found, intact, under
	// another name (renamed in the vault since it was filed); "" otherwise.
	FiledAs string `json:"filed_as,omitempty"`
}

// SigStatus is what the signature of verdict.json showed.
type SigStatus string

// The statuses of a seal's signature.
const (
	// SigNone: no key to check with and no signature.
	SigNone SigStatus = ""
	// SigValid: signed by the configured public key.
	SigValid SigStatus = "valid"
	// SigInvalid: a signature the configured key did not make, over
	// this chain: someone with write access rewrote the seal.
	SigInvalid SigStatus = "invalid"
	// SigMissing: a public key is configured and the seal is not signed.
	SigMissing SigStatus = "unsigned"
	// SigUnchecked: signed, but no public key is configured to check it.
	SigUnchecked SigStatus = "unchecked"
	// SigNotSealed: a public key is configured and the debate is not
	// sealed yet (running, interrupted, or a filing a crash cut short):
	// no signature vouches for any of its files until it is. Not in
	// itself tampering: every debate is in this state until its verdict.
	SigNotSealed SigStatus = "not_sealed"
)

// Bad reports whether the signature is evidence of tampering.
func (s SigStatus) Bad() bool { return s == SigInvalid || s == SigMissing }

// RecordFinder finds the consensus record filed for a debate (a
// vault-relative path), so that a record survives as a witness when the
// seal naming it is gone. consensus.Store provides one.
type RecordFinder interface {
	RecordOf(ctx context.Context, debateID string) (string, error)
}

// Witnesses are what an audit checks a debate's own files against. Every
// field may be nil: a nil Vault leaves the page and the record unchecked,
// unless NoVault says the vault is gone.
type Witnesses struct {
	Vault   *vault.Vault
	Records RecordFinder
	// NoVault, with a nil Vault, is the vault's directory when it does not
	// exist: the page and the record the seal names are missing from it
	// (a vault removed, or misspelt, is no pass).
	NoVault string
	// PublicKey, when set, must have signed every seal.
	PublicKey ed25519.PublicKey
}

// Audit reads debate id's files and checks every one against the seal: the
// transcript's hash chain; session.json against the chain's open event
// (field by field) and the session hash the seal records; verdict.json
// against the chain's verdict event (field by field), its end and the
// seal's record; the vault page and the consensus record against the head,
// length and session hash their frontmatter must record and the body
// hashes in the chain's seal event; and, with a public key, the seal's
// signature. A vault page or record that names a chain the transcript does
// not have (lines cut after filing) is tampering, not an interruption.
//
// A debate whose own files (transcript.jsonl, session.json, verdict.json)
// another program is rewriting in place is read again until they stand
// still (ChangeGrace) before it is called tampered; files that keep
// changing for ChangeLimit are ErrChanging, never a verdict.
//
// The Transcript is as Read returns it (with Integrity's Files and
// Signature filled in on its view by Integrate). A debate with neither a
// session.json nor a transcript is ErrNotFound.
func (s *Store) Audit(ctx context.Context, id string, w Witnesses) (*Transcript, error) {
	return s.auditSettled(ctx, id, w)
}

// audit is Audit; nested says it checks a debate whose record a page of
// another debate links (renamesIn), and looks no further.
func (s *Store) audit(ctx context.Context, id string, w Witnesses, nested bool) (*Transcript, error) {
	if err := debate.ValidateID(id); err != nil {
		return nil, err
	}
	sessRaw, sessErr := s.readState(id, SessionFile)
	t, data, err := s.readChainOnly(id)
	switch {
	case errors.Is(err, ErrNotFound) && sessErr != nil:
		return nil, err
	case errors.Is(err, ErrNotFound):
		t = &Transcript{State: StateInterrupted, Report: &Report{ID: id, BadLine: 1, Problem: "missing: the transcript is gone"}}
		t.Audit = append(t.Audit, FileCheck{File: Path(id, TranscriptFile), Status: FileMissing,
			Problem: "the debate's session.json exists but its transcript does not", Want: "a hash chain opening with this debate's session"})
	case err != nil:
		problem, ok := replaced(err)
		if !ok {
			return nil, err
		}
		// A pipe, a directory or a link out of the root in the
		// transcript's place: the evidence was replaced, which is
		// tampering, not a failure to read.
		t = &Transcript{State: StateInterrupted, Report: &Report{ID: id, BadLine: 1, Problem: "not a transcript: " + problem}}
		t.Audit = append(t.Audit, FileCheck{File: Path(id, TranscriptFile), Status: FileDiffers, Problem: problem,
			Want: "a regular file holding a hash chain opening with this debate's session"})
	}
	if sessErr == nil {
		var sess debate.DebateSession
		if json.Unmarshal(sessRaw, &sess) == nil {
			t.Session = &sess
		}
	}
	a := &auditor{s: s, id: id, t: t, w: w, ctx: ctx, nested: nested}
	a.chain(data)
	if t.Session == nil && a.open != nil {
		// The chain's own session stands in for a missing one.
		var sess debate.DebateSession
		if json.Unmarshal(a.open, &sess) == nil {
			t.Session = &sess
		}
	}
	if t.Session == nil {
		return nil, fmt.Errorf("%w: %s has neither a readable session.json nor an open event", ErrNotFound, id)
	}
	a.session(sessRaw, sessErr)
	a.verdict()
	switch {
	case w.PublicKey == nil || t.Verdict != nil:
		// verdict checked the signature of the verdict.json there is.
	case t.VerdictErr != nil:
		// A seal there is, and no signature in it can be read: nothing
		// the key made vouches for it (it is no debate still to seal).
		t.Signature = SigMissing
	default:
		t.Signature = SigNotSealed
	}
	switch {
	case w.Vault != nil:
		a.vaultFiles()
	case w.NoVault != "" && a.filing != nil:
		for _, f := range []struct{ kind, path string }{{"vault page", a.filing.Page}, {"record", a.filing.Record}} {
			if f.path != "" {
				a.add(FileCheck{File: f.path, Status: FileMissing, Problem: fmt.Sprintf("the seal names the %s %s and there is no vault at %s", f.kind, f.path, w.NoVault)})
			}
		}
	}
	return t, nil
}

// readChainOnly reads verdict.json and the transcript as readChain does,
// but verifies the chain alone: the audit compares verdict.json with it
// and names whichever of the two is wrong.
func (s *Store) readChainOnly(id string) (*Transcript, []byte, error) {
	t := &Transcript{State: StateInterrupted}
	switch v, state, err := s.seal(id); {
	case err == nil:
		t.Verdict, t.State = v, state
	case errors.Is(err, ErrMalformed):
		t.VerdictErr = err
	default:
		return nil, nil, err
	}
	data, err := readFile(s.root, fileOf(id, TranscriptFile))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w: %s has no transcript", ErrNotFound, id)
		}
		return nil, nil, err
	}
	// A sealed transcript's last line that lost its newline is read whole
	// (sealedLines). Otherwise an incomplete last line is a write in
	// progress, or one a crash cut short (resume sets it aside): no
	// evidence of tampering either way.
	var noNewline bool
	if t.Verdict != nil {
		data, noNewline = sealedLines(data)
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		if t.State != StateRunning {
			t.Audit = append(t.Audit, FileCheck{File: Path(id, TranscriptFile), Status: FilePending,
				Problem: "every complete line verifies; the last line is incomplete (a write cut short by a crash; parley debate resume sets it aside)"})
		}
		data = data[:i+1]
	}
	rep, err := Verify(bytes.NewReader(data), id, nil)
	if err != nil {
		return nil, nil, err
	}
	rep.Sealed = t.Verdict != nil
	t.Report = &rep
	if noNewline && rep.Intact {
		t.Audit = append(t.Audit, FileCheck{File: Path(id, TranscriptFile), Status: FileIntact,
			Problem: "its last line lacks its final newline, which no hash covers (an editor's or a copy's doing)"})
	}
	return t, data, nil
}

// auditor holds what one Audit learnt so far.
type auditor struct {
	ctx context.Context
	s   *Store
	id  string
	t   *Transcript
	w   Witnesses
	// hashes are the verified lines' hashes; kinds their event kinds.
	hashes []string
	kinds  []debate.EventKind
	// open and verdictData are the open and verdict events' data, nil if
	// the verified chain has none; verdictLine the verdict's line.
	open, verdictData json.RawMessage
	verdictLine       int
	outcome           *debate.Outcome
	filing            *debate.Filing
	// nested: this audit is of a debate a page of another links; it
	// undoes no renames of records of other debates (renamesIn).
	nested bool
}

func (a *auditor) add(fc FileCheck) { a.t.Audit = append(a.t.Audit, fc) }

// has reports whether file was checked already (one line per file).
func (a *auditor) has(file string) bool {
	return slices.ContainsFunc(a.t.Audit, func(fc FileCheck) bool { return fc.File == file })
}

// replace puts fc in the place of the check of file made so far, or adds
// it: one line per file.
func (a *auditor) replace(file string, fc FileCheck) {
	for i := range a.t.Audit {
		if a.t.Audit[i].File == file {
			a.t.Audit[i] = fc
			return
		}
	}
	a.add(fc)
}

func (a *auditor) transcriptPath() string { return Path(a.id, TranscriptFile) }

// chain walks the verified lines, and reports a broken chain.
func (a *auditor) chain(data []byte) {
	rep := a.t.Report
	if data == nil {
		// Gone: Audit has said so.
	} else if !rep.Intact {
		want := fmt.Sprintf("line %d continuing the chain from line %d's hash", rep.BadLine, rep.BadLine-1)
		if rep.BadLine == 1 {
			want = "line 1 opening this debate's chain from its genesis hash"
		}
		a.replace(a.transcriptPath(), FileCheck{File: a.transcriptPath(), Status: FileDiffers, Problem: fmt.Sprintf("line %d %s", rep.BadLine, rep.Problem), Want: want})
	} else if data != nil && !a.has(a.transcriptPath()) {
		a.add(FileCheck{File: a.transcriptPath(), Status: FileIntact})
	}
	n := 0
	for line := range bytes.Lines(data) {
		if n == rep.Events {
			break
		}
		n++
		line = bytes.TrimSuffix(line, []byte("\n"))
		a.hashes = append(a.hashes, string(line[len(line)-tailLen+len(hashPrefix):len(line)-len(hashSuffix)]))
		e, err := decodeVerified(line)
		if err != nil {
			a.kinds = append(a.kinds, "")
			continue
		}
		a.kinds = append(a.kinds, e.Kind)
		a.t.Events = append(a.t.Events, e)
		switch e.Kind {
		case debate.EventOpen:
			a.open = e.Data
		case debate.EventVerdict:
			a.verdictData, a.verdictLine = e.Data, n
			var o debate.Outcome
			if json.Unmarshal(e.Data, &o) == nil {
				a.outcome = &o
			}
		case debate.EventSeal:
			var f debate.Filing
			if json.Unmarshal(e.Data, &f) == nil {
				a.filing = &f
			}
		}
	}
	if !rep.Intact {
		a.t.Events = readLenient(data)
	}
}

// head returns the chain's hash after n events ("" if it has fewer).
func (a *auditor) head(n int) string {
	if n < 1 || n > len(a.hashes) {
		return ""
	}
	return a.hashes[n-1]
}

// session compares session.json with the chain's open event and the hash
// the seal records.
func (a *auditor) session(raw []byte, err error) {
	p := Path(a.id, SessionFile)
	want := ""
	if a.open != nil {
		want = "the session the chain's open event records: " + describeSession(a.open)
	}
	switch {
	case errors.Is(err, ErrNotFound) || errors.Is(err, fs.ErrNotExist):
		a.add(FileCheck{File: p, Status: FileMissing, Problem: "session.json is gone", Want: want})
		return
	case err != nil:
		problem, ok := replaced(err)
		if !ok {
			problem = err.Error()
		}
		a.add(FileCheck{File: p, Status: FileDiffers, Problem: problem, Want: want})
		return
	}
	if a.open != nil {
		if field, got, exp, ok := firstDiff(raw, a.open); !ok {
			a.add(FileCheck{File: p, Status: FileDiffers, Problem: fmt.Sprintf("session.json says %s = %s; the chain's open event says %s", field, got, exp), Want: want})
			return
		}
	}
	if f := a.filing; f != nil && f.SessionHash != "" && HashBytes(raw) != f.SessionHash {
		a.add(FileCheck{File: p, Status: FileDiffers, Problem: fmt.Sprintf("its bytes hash to %s; the seal records %s", short(HashBytes(raw)), short(f.SessionHash)), Want: want})
		return
	}
	a.add(FileCheck{File: p, Status: FileIntact})
}

// describeSession is a session in a few words, for saying what an intact
// session.json holds.
func describeSession(raw []byte) string {
	var s debate.DebateSession
	if json.Unmarshal(raw, &s) != nil {
		return "(unreadable)"
	}
	return fmt.Sprintf("topic %q, layer %s, %d participants", s.Topic, s.Layer, len(s.Participants))
}

// firstDiff compares two JSON objects key by key and returns the first key
// whose values differ, with both values; ok when none. The debate's id
// (a session's id, an outcome's debate_id) comes first, so that a file of
// another debate put in this one's place reads as that rather than as
// whatever key sorts first; then the keys in sorted order.
func firstDiff(got, want []byte) (field, g, w string, ok bool) {
	var gm, wm map[string]any
	if json.Unmarshal(got, &gm) != nil {
		return "(the whole file)", "not a JSON object", "an object", false
	}
	if json.Unmarshal(want, &wm) != nil {
		return "", "", "", true
	}
	keys := map[string]bool{}
	for k := range gm {
		keys[k] = true
	}
	for k := range wm {
		keys[k] = true
	}
	for _, k := range append([]string{"id", "debate_id"}, slices.Sorted(mapsKeys(keys))...) {
		if !reflect.DeepEqual(gm[k], wm[k]) {
			return k, shown(gm[k]), shown(wm[k]), false
		}
	}
	return "", "", "", true
}

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func shown(v any) string {
	if v == nil {
		return "(nothing)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// verdict compares verdict.json with the chain: its outcome with the
// verdict event, its record with the seal's, its end with the chain's.
func (a *auditor) verdict() {
	p := Path(a.id, VerdictFile)
	t := a.t
	n := len(a.hashes)
	intactEnd := t.Report.Intact
	want := ""
	if a.outcome != nil {
		want = fmt.Sprintf("verdict %s, action %s, final position hash %s", a.outcome.Verdict, a.outcome.Action, short(a.outcome.FinalPositionHash))
		if a.filing != nil && intactEnd {
			want += fmt.Sprintf(", %d events, head %s", n, short(a.head(n)))
		}
	}
	if t.VerdictErr != nil {
		problem, ok := replaced(t.VerdictErr)
		if !ok {
			problem = t.VerdictErr.Error()
		}
		a.add(FileCheck{File: p, Status: FileDiffers, Problem: problem, Want: want})
		return
	}
	v := t.Verdict
	if v == nil {
		switch {
		case a.filing != nil && t.State != StateRunning:
			// A crash between the seal event and verdict.json leaves this
			// too; resume writes it again from the chain.
			a.add(FileCheck{File: p, Status: FileMissing, Problem: "the chain is sealed (its last event is the seal) and verdict.json is gone (parley debate resume writes it again from the chain)", Want: want})
		case a.outcome != nil:
			a.add(FileCheck{File: p, Status: FilePending, Problem: "the verdict is recorded and not filed yet (parley debate resume files it)"})
		}
		return
	}
	// verdict.json exists: its signature covers what it says (the id, the
	// end it records) whatever the chain now says.
	a.signature(v)
	if v.Events > n && intactEnd && a.kind(n) != debate.EventSeal {
		// The transcript's lines that verify were called intact; its end is
		// missing, which replaces that. verdict.json is what says so, and
		// has nothing left in the chain to be checked against.
		lines := fmt.Sprintf("lines %d to %d are missing", n+1, v.Events)
		if v.Events == n+1 {
			lines = fmt.Sprintf("line %d is missing", n+1)
		}
		a.replace(a.transcriptPath(), FileCheck{File: a.transcriptPath(), Status: FileMissing,
			Problem: fmt.Sprintf("%s: verdict.json records %d events, the transcript ends after %d", lines, v.Events, n),
			Want:    fmt.Sprintf("%d events ending at head %s", v.Events, short(v.Head))})
		a.t.Report.Intact, a.t.Report.BadLine, a.t.Report.Problem = false, n+1, fmt.Sprintf("missing: verdict.json records %d events, the transcript ends after %d", v.Events, n)
		problem := fmt.Sprintf("the chain's verdict is among the missing lines; verdict.json records %d events ending at head %s", v.Events, short(v.Head))
		if a.outcome != nil {
			// The verdict event verified; what is gone is the end
			// verdict.json seals.
			problem = fmt.Sprintf("the chain's verdict (line %d) is there; the end verdict.json records, %d events ending at head %s, is among the missing lines", a.verdictLine, v.Events, short(v.Head))
		}
		a.add(FileCheck{File: p, Status: FileUnchecked, Problem: problem})
		return
	}
	if a.outcome == nil {
		if intactEnd {
			a.add(FileCheck{File: p, Status: FileDiffers, Problem: "verdict.json exists but the chain records no verdict", Want: "no verdict.json until the chain records a verdict"})
		} else {
			a.add(FileCheck{File: p, Status: FileUnchecked, Problem: fmt.Sprintf("the chain breaks before its verdict; verdict.json records %d events ending at head %s", v.Events, short(v.Head))})
		}
		return
	}
	vj, _ := json.Marshal(v.Outcome)
	if field, got, exp, ok := firstDiff(vj, a.verdictData); !ok {
		a.add(FileCheck{File: p, Status: FileDiffers, Problem: fmt.Sprintf("verdict.json says %s = %s; the chain's verdict event (line %d) says %s", field, got, a.verdictLine, exp), Want: want})
		return
	}
	if intactEnd && (v.Events != n || v.Head != a.head(n)) {
		a.add(FileCheck{File: p, Status: FileDiffers, Problem: fmt.Sprintf("verdict.json records %d events ending at head %s; the chain has %d ending at %s", v.Events, short(v.Head), n, short(a.head(n))), Want: want})
		return
	}
	if v.Transcript != a.transcriptPath() {
		a.add(FileCheck{File: p, Status: FileDiffers, Problem: fmt.Sprintf("verdict.json names the transcript %q", v.Transcript), Want: want})
		return
	}
	if f := a.filing; f != nil && v.Record != f.Record {
		a.add(FileCheck{File: p, Status: FileDiffers, Problem: fmt.Sprintf("verdict.json names the record %q; the seal names %q", v.Record, f.Record), Want: want})
		return
	}
	if !intactEnd && v.Events > n {
		// The end verdict.json seals is past the chain's break: its
		// verdict agrees, its end has nothing to be checked against.
		a.add(FileCheck{File: p, Status: FileUnchecked,
			Problem: fmt.Sprintf("its verdict agrees with the chain's verdict event (line %d); the end it records, %d events ending at head %s, cannot be checked: the transcript breaks at line %d", a.verdictLine, v.Events, short(v.Head), t.Report.BadLine)})
		return
	}
	a.add(FileCheck{File: p, Status: FileIntact})
}

// signature checks verdict.json's signature against the configured key.
func (a *auditor) signature(v *Verdict) {
	switch {
	case a.w.PublicKey == nil && v.Signature == "":
		a.t.Signature = SigNone
	case a.w.PublicKey == nil:
		a.t.Signature = SigUnchecked
	case v.Signature == "":
		a.t.Signature = SigMissing
	default:
		sig, err := base64.StdEncoding.DecodeString(v.Signature)
		a.t.Signature = SigInvalid
		if err == nil && ed25519.Verify(a.w.PublicKey, SealMessage(a.id, v.Events, v.Head), sig) {
			a.t.Signature = SigValid
		}
	}
}

// witness is what a vault page or record must record of the chain.
type witness struct {
	kind string // "vault page" or "record"
	path string
	hash string // body hash the seal records, "" when unsealed
	// filedAs is the path the seal names for a record found under path
	// since; own is that rename, undone in the links of the debate's page.
	filedAs string
	own     renames
}

// vaultFiles checks the debate's vault page and consensus record.
func (a *auditor) vaultFiles() {
	pagePath := PagePath(a.id)
	var record string
	if f := a.filing; f != nil {
		if f.Page != "" {
			pagePath = f.Page
		}
		record = f.Record
	}
	var filedAs string
	var own renames
	if f := a.filing; f != nil && f.Record != "" && a.w.Records != nil {
		// A record gone from the name its seal records may have been
		// renamed: found by its debate id, it is checked where it is.
		if _, err := a.w.Vault.ReadPage(f.Record); vault.IsNotExist(err) {
			if p, _ := a.w.Records.RecordOf(a.ctx, a.id); p != "" && p != f.Record && RecordLink(p) != RecordLink(f.Record) {
				record, filedAs = p, f.Record
				own = renames{RecordLink(p): RecordLink(f.Record)}
			}
		}
	}
	page := a.checkWitness(witness{kind: "vault page", path: pagePath, hash: a.filingHash(true), own: own}, a.filing != nil && a.filing.Page != "")
	if a.filing == nil {
		// The seal is gone or was never written: a record found some other
		// way is a witness all the same.
		if a.w.Records != nil {
			record, _ = a.w.Records.RecordOf(a.ctx, a.id)
		}
		if record == "" && a.t.Verdict != nil {
			record = a.t.Verdict.Record
		}
		if record == "" && page != nil {
			if l, ok := page.Meta["record"].(string); ok {
				if link, err := vault.ParseLink(l); err == nil {
					record, _ = a.w.Vault.Resolve(link.Target)
				}
			}
		}
	}
	if record != "" {
		a.checkWitness(witness{kind: "record", path: record, hash: a.filingHash(false), filedAs: filedAs}, a.filing != nil && a.filing.Record != "")
	}
}

func (a *auditor) filingHash(page bool) string {
	if a.filing == nil {
		return ""
	}
	if page {
		return a.filing.PageHash
	}
	return a.filing.RecordHash
}

// checkWitness reads one vault file and checks it; sealed says the seal
// names it. It returns the page when it could be read.
func (a *auditor) checkWitness(w witness, sealed bool) *vault.Page {
	f := a.filing
	want := ""
	if f != nil {
		want = fmt.Sprintf("a %s whose frontmatter records %s %s, %s %d, %s %s, and whose content hashes to %s",
			w.kind, PageHeadKey, short(f.Head), PageEventsKey, f.Events, PageSessionKey, short(f.SessionHash), short(w.hash))
	}
	page, err := a.w.Vault.ReadPage(w.path)
	if err != nil {
		switch {
		case vault.IsNotExist(err) && sealed:
			a.add(FileCheck{File: w.path, Status: FileMissing, Problem: fmt.Sprintf("the seal names the %s %s and it is gone", w.kind, w.path), Want: want})
		case vault.IsNotExist(err):
			// Not written: the debate has not been filed.
		default:
			a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: err.Error(), Want: want})
		}
		return nil
	}
	if id, _ := page.Meta["debate_id"].(string); id != a.id {
		a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: fmt.Sprintf("its debate_id is %q, not %s", id, a.id), Want: want})
		return page
	}
	head, _ := page.Meta[PageHeadKey].(string)
	events, okEvents := intOf(page.Meta[PageEventsKey])
	// What the page says of the verdict is the chain's verdict event's,
	// sealed or not: a filing that has no seal event yet (or whose seal
	// event was cut off) is no licence to say another verdict or position.
	if o := a.outcome; o != nil {
		if problem := outcomeDiff(page.Meta, o, w.kind == "record"); problem != "" {
			a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: problem, Want: want})
			return page
		}
	}
	if f == nil {
		a.unsealedWitness(w, page, head, events, okEvents)
		return page
	}
	sh, _ := page.Meta[PageSessionKey].(string)
	switch {
	case head != f.Head || !okEvents || events != f.Events:
		a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: fmt.Sprintf("it records head %s at %d events; the seal says %s at %d", short(head), events, short(f.Head), f.Events), Want: want})
	case sh != f.SessionHash:
		a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: fmt.Sprintf("it records session hash %s; the seal says %s", short(sh), short(f.SessionHash)), Want: want})
	case w.hash != "" && !SealMatches(page, w.hash) && !a.matchesRenamed(page, w):
		a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: fmt.Sprintf("it was edited after filing (its content hashes to %s; the seal records %s)", short(ContentHash(page)), short(w.hash)), Want: want})
	case f.Head != a.head(f.Events) || a.kind(f.Events) != debate.EventVerdict:
		// The seal event and the files agree with each other but not with
		// the chain they sit in.
		a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: fmt.Sprintf("it records head %s at %d events, which is not the chain's verdict line", short(f.Head), f.Events), Want: want})
	default:
		if w.kind == "record" {
			if problem := a.unsuperseded(page, w.filedAs); problem != "" {
				a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: problem, Want: want + `, and status "active" until a later record supersedes it`})
				return page
			}
		}
		a.add(FileCheck{File: w.path, Status: FileIntact, FiledAs: w.filedAs})
	}
	return page
}

// matchesRenamed reports whether page holds what the seal hashed once the
// link rewrites of renamed records are undone (renamesIn).
func (a *auditor) matchesRenamed(page *vault.Page, w witness) bool {
	r := a.renamesIn(page, w.own)
	return len(r) > 0 && SealMatches(r.undo(page), w.hash)
}

// unsuperseded says why a record that no longer says active was not
// superseded ("" when it was, or still says active): the seal leaves
// status and superseded_by out of its hash because a later filing flips
// them, so only a record of the vault whose supersedes names this one may
// have flipped them. A status changed by hand would otherwise take a
// binding consensus out of every lookup unnoticed.
func (a *auditor) unsuperseded(page *vault.Page, filedAs string) string {
	status, _ := page.Meta["status"].(string)
	if status == statusActive {
		return ""
	}
	by, _ := page.Meta["superseded_by"].(string)
	link, err := vault.ParseLink(by)
	if by == "" || err != nil {
		return fmt.Sprintf("it says status %q but names no record that supersedes it (superseded_by %q)", status, by)
	}
	// A record filed overtaken (its debate started before the question's
	// current record's, and ended after it was filed) was filed superseded
	// by that record, which names nothing of it; overtaken_by is in the
	// seal's hash, so it says so for the filing, not for a person.
	over, _ := page.Meta["overtaken_by"].(string)
	if ol, err := vault.ParseLink(over); err == nil && strings.EqualFold(RecordLink(ol.Target), RecordLink(link.Target)) {
		return ""
	}
	// Filing writes the newer record beside this one; a name several
	// pages of the vault share still finds it there.
	newer := path.Join(path.Dir(page.Path), link.Target+".md")
	np, err := a.w.Vault.ReadPage(newer)
	if vault.IsNotExist(err) || strings.Contains(link.Target, "/") {
		if newer, err = a.w.Vault.Resolve(link.Target); err != nil {
			return fmt.Sprintf("it says status %q, superseded by %s, which is no page of the vault", status, by)
		}
		np, err = a.w.Vault.ReadPage(newer)
	}
	if err != nil {
		return fmt.Sprintf("it says status %q, superseded by %s, which cannot be read: %v", status, by, err)
	}
	sup, _ := np.Meta["supersedes"].(string)
	if l, err := vault.ParseLink(sup); err == nil {
		// The newer record names this one by its name, or, when it was
		// renamed by hand (which rewrites no link), by its filed name.
		target := RecordLink(l.Target)
		if strings.EqualFold(target, RecordLink(page.Path)) || (filedAs != "" && strings.EqualFold(target, RecordLink(filedAs))) {
			return ""
		}
	}
	return fmt.Sprintf("it says status %q, superseded by %s, but %s supersedes %q, not this record", status, by, newer, sup)
}

// statusActive is a consensus record's status while it answers its
// question (consensus.StatusActive).
const statusActive = "active"

func (a *auditor) kind(n int) debate.EventKind {
	if n < 1 || n > len(a.kinds) {
		return ""
	}
	return a.kinds[n-1]
}

// unsealedWitness checks a vault file of a debate whose chain has no seal
// event: it must name the chain's verdict line (a filing interrupted
// before the seal), or, for a debate sealed before seals bound the vault
// files, the chain's end.
func (a *auditor) unsealedWitness(w witness, page *vault.Page, head string, events int, okEvents bool) {
	n := len(a.hashes)
	switch {
	case head == "" || !okEvents:
		a.add(FileCheck{File: w.path, Status: FileUnchecked, Problem: "it records no transcript head"})
	case !a.t.Report.Intact && events >= a.t.Report.BadLine:
		a.add(FileCheck{File: w.path, Status: FileDiffers,
			Problem: fmt.Sprintf("it records head %s at %d events; the transcript breaks at line %d, so the chain it was filed from is gone", short(head), events, a.t.Report.BadLine)})
	case events > n:
		a.replace(a.transcriptPath(), FileCheck{File: a.transcriptPath(), Status: FileMissing,
			Problem: fmt.Sprintf("the %s %s records %d events ending at head %s; the transcript ends after %d: lines were cut after filing", w.kind, w.path, events, short(head), n),
			Want:    fmt.Sprintf("%d events or more, line %d hashing to %s", events, events, short(head))})
		if a.t.Report.Intact {
			a.t.Report.Intact, a.t.Report.BadLine, a.t.Report.Problem = false, n+1, fmt.Sprintf("missing: the %s records %d events, the transcript ends after %d", w.kind, events, n)
		}
	case a.head(events) != head:
		a.add(FileCheck{File: w.path, Status: FileDiffers,
			Problem: fmt.Sprintf("it records head %s at %d events; the transcript's line %d hashes to %s (the transcript or the %s was rewritten)", short(head), events, events, short(a.head(events)), w.kind)})
	case a.kind(events) == debate.EventVerdict && a.t.Verdict == nil:
		a.add(FileCheck{File: w.path, Status: FilePending, Problem: "filed, not sealed yet (parley debate resume seals it)"})
	case a.t.Verdict != nil && events == n && a.t.Verdict.Events > n:
		// verdict.json seals lines past the verdict: the seal event that
		// holds this file's content hash was there, and is what is lost.
		a.add(FileCheck{File: w.path, Status: FileUnchecked,
			Problem: fmt.Sprintf("its head matches the chain's verdict (line %d), but the seal event after it, which holds the %s's content hash, is lost with line %d of the transcript: its content cannot be checked until the transcript is restored", events, w.kind, a.t.Report.BadLine)})
	case a.t.Verdict != nil && events == n:
		// Sealed before seals bound the vault files: the head is all there
		// is to compare.
		a.add(FileCheck{File: w.path, Status: FileIntact, Problem: "checked by its head only (sealed before body hashes were kept)"})
	default:
		a.add(FileCheck{File: w.path, Status: FileDiffers, Problem: fmt.Sprintf("it records head %s at %d events, which is not where the chain's verdict is", short(head), events)})
	}
}

// outcomeDiff compares the verdict fields a vault file shows with the
// chain's verdict event; "" when they agree.
func outcomeDiff(meta map[string]any, o *debate.Outcome, record bool) string {
	str := func(k string) string { s, _ := meta[k].(string); return s }
	if v := str("verdict"); v != string(o.Verdict) {
		return fmt.Sprintf("it says verdict %q; the chain's verdict event says %s", v, o.Verdict)
	}
	if !record {
		if v := str("action"); v != string(o.Action) {
			return fmt.Sprintf("it says action %q; the chain's verdict event says %s", v, o.Action)
		}
		return ""
	}
	hash := debate.PositionHash(o.FinalPosition)
	if v := str("final_position_hash"); v != hash {
		return fmt.Sprintf("it says final_position_hash %q; the chain's final position hashes to %q", short(v), short(hash))
	}
	if fp := strings.TrimSuffix(str("final_position"), "…"); hash != "" && !strings.HasPrefix(strings.TrimSpace(o.FinalPosition), strings.TrimSpace(fp)) {
		return fmt.Sprintf("it says final_position %q; the chain's verdict event says %q", clip.Runes(fp, 80), clip.Runes(o.FinalPosition, 80))
	}
	return ""
}

// MutableKeys are the frontmatter keys a consensus record may change
// after filing (supersession flips status, superseded_by and updated): a
// seal leaves them out of the record's hash.
var MutableKeys = []string{"status", "superseded_by", "updated"}

// ContentHash is the hash a seal records of a vault file: the SHA-256 of
// its frontmatter (as decoded, in canonical JSON, without MutableKeys) and
// its body, so that a change to any other key or to the text shows, while
// a rewrite of the frontmatter's layout that keeps every value does not.
func ContentHash(page *vault.Page) string {
	meta := make(map[string]any, len(page.Meta))
	for k, v := range page.Meta {
		if !slices.Contains(MutableKeys, k) {
			meta[k] = v
		}
	}
	fm, err := stdjson.Marshal(meta)
	if err != nil {
		fm = []byte(fmt.Sprint(meta))
	}
	h := sha256.New()
	h.Write(fm)
	h.Write([]byte{'\n'})
	h.Write(page.Body)
	return hex.EncodeToString(h.Sum(nil))
}

// OwnKeys are the frontmatter keys parley writes on the pages a seal
// binds (consensus records and debate pages); any other key is one a
// person added. TestAPersonsOwnKeysAreNotTampering (cmd/parley) keeps the
// list whole.
var OwnKeys = []string{
	"type", "title", "layer", "verdict", "action", "date", "participants", "topic", "related", "record", "status",
	"created", "updated", "tags", "debate_id", "final_position", "final_position_hash", "supersedes",
	"superseded_by", "evidence_lines", "debate_started", "overtaken_by", PageHeadKey, PageEventsKey, PageSessionKey,
}

// SealMatches reports whether a vault file a seal binds still holds what
// was filed: its ContentHash is the one sealed, or would be without what
// a person may add to a page without changing what the debate decided —
// keys of their own (Obsidian properties, aliases, cssclasses), CRLF line
// ends (an editor's or git's) and blank lines at the end of the file (an
// editor's or a hook's "one final newline", such as pre-commit's
// end-of-file-fixer). parley's own keys and the body's text, blank lines
// within it included, are bound either way. (A page as filed holds
// parley's keys alone, so both hashes are the same until someone adds
// one.)
func SealMatches(page *vault.Page, hash string) bool {
	if ContentHash(page) == hash {
		return true
	}
	own := &vault.Page{Meta: make(map[string]any, len(OwnKeys))}
	for _, k := range OwnKeys {
		if v, ok := page.Meta[k]; ok {
			own.Meta[k] = v
		}
	}
	body := bytes.TrimRight(bytes.ReplaceAll(page.Body, []byte("\r\n"), []byte("\n")), "\n")
	for _, end := range filedEndings {
		own.Body = append(body[:len(body):len(body)], end...)
		if ContentHash(own) == hash {
			return true
		}
	}
	return false
}

// filedEndings are the ways a page parley files may end: one newline, or
// a blank line after the last (a consensus record).
var filedEndings = []string{"\n", "\n\n"}

// FileHash reads the vault file at p and returns its ContentHash; "" for
// p "".
func FileHash(v *vault.Vault, p string) (string, error) {
	if p == "" {
		return "", nil
	}
	page, err := v.ReadPage(p)
	if err != nil {
		return "", fmt.Errorf("read back %s: %w", p, err)
	}
	return ContentHash(page), nil
}

// OnlyVerdictMissing reports whether the one file found bad is a sealed
// debate's missing verdict.json: what a crash between the seal event and
// verdict.json leaves, and what resume repairs from the chain.
func OnlyVerdictMissing(files []FileCheck) bool {
	n := 0
	for _, f := range files {
		if f.Status.Bad() {
			if f.Status != FileMissing || path.Base(f.File) != VerdictFile {
				return false
			}
			n++
		}
	}
	return n == 1
}

// FirstBad is the first check that found tampering, nil when none did.
func FirstBad(files []FileCheck) *FileCheck {
	for i := range files {
		if files[i].Status.Bad() {
			return &files[i]
		}
	}
	return nil
}
