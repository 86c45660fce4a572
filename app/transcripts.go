package app

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// WriteDebates opens the debates of the root to run debates: their seals
// are signed with config.json's seal.signingKey when it has one.
func (a *App) WriteDebates() (*transcripts.Store, error) { return a.debates(true) }

// Witnesses opens what a debate's seal is checked against: the vault and
// its consensus records (when the vault exists: reading never creates
// one; a vault that does not exist is named, so that what the seal names
// in it is missing) and config.json's public key. done releases them; it is never nil
// when err is nil.
func (a *App) Witnesses() (w transcripts.Witnesses, done func(), err error) {
	cfg, err := a.Config()
	if err != nil {
		return w, nil, err
	}
	w.PublicKey = cfg.SealPublicKey()
	v, err := vault.Open(a.vault, vault.WithLogger(a.log))
	if err != nil {
		if _, serr := os.Stat(a.vault); errors.Is(serr, fs.ErrNotExist) {
			w.NoVault = a.vault // what the seal names there is missing
		}
		return w, func() {}, nil
	}
	w.Vault = v
	cs, err := consensus.Open(a.root, v, consensus.WithLogger(a.log))
	if err != nil {
		return w, func() { v.Close() }, nil
	}
	w.Records = cs
	return w, func() { cs.Close(); v.Close() }, nil
}

// Audit reads debate id from st and checks every file it produced against
// its seal (transcripts.Store.Audit). A debate that is not there is
// transcripts.ErrNotFound or fs.ErrNotExist (see IsNoDebate).
func (a *App) Audit(ctx context.Context, st *transcripts.Store, id string) (*transcripts.Transcript, error) {
	w, done, err := a.Witnesses()
	if err != nil {
		return nil, err
	}
	defer done()
	return st.Audit(ctx, id, w)
}

// IsNoDebate reports whether err says the debate asked for is not there.
func IsNoDebate(err error) bool {
	return errors.Is(err, transcripts.ErrNotFound) || errors.Is(err, fs.ErrNotExist)
}

// TranscriptQuery selects debates to list; every field is optional.
type TranscriptQuery struct {
	// Layer and Verdict are as the user typed them ("spec",
	// "CONSENSUS_REACHED"); Since is a date, an RFC 3339 time or an age
	// ("36h", "7d").
	Layer, Verdict, Since string
	// Now is what an age counts back from (zero: time.Now).
	Now time.Time
}

// Filter parses q. A bad field is an *Error (ProblemInvalid) naming it.
func (q TranscriptQuery) Filter() (transcripts.Filter, error) {
	var f transcripts.Filter
	var err error
	if f.Layer, f.Verdict, err = parseLayerVerdict(q.Layer, q.Verdict, debateVerdicts); err != nil {
		return f, err
	}
	if q.Since != "" {
		now := q.Now
		if now.IsZero() {
			now = time.Now()
		}
		if f.Since, err = transcripts.ParseSince(q.Since, now); err != nil {
			// ParseSince's error names the value; the field is named once.
			return f, refuseValue(ProblemInvalid, "since", q.Since, errors.New(strings.TrimPrefix(err.Error(), fmt.Sprintf("since %q: ", q.Since))))
		}
	}
	return f, nil
}

// ListTranscripts is the debates under the root that q selects, newest
// first, each with its integrity (as ListDebates has it). With no root the error
// is fs.ErrNotExist.
func (a *App) ListTranscripts(ctx context.Context, q TranscriptQuery) ([]transcripts.Summary, error) {
	f, err := q.Filter()
	if err != nil {
		return nil, err
	}
	st, err := a.OpenDebates()
	if err != nil {
		return nil, err
	}
	defer st.Close()
	list, err := st.Find(f)
	if err != nil {
		return nil, err
	}
	err = a.withIntegrity(ctx, st, len(list), func(i int) (string, *string, *bool) { return list[i].DebateID, &list[i].Integrity, nil })
	return list, err
}

// ReadTranscript is debate id as a reader follows it, its integrity
// checked against its seal on the way (View.Integrity.Tampered says
// whether anything differs). A debate that is not there: see IsNoDebate.
func (a *App) ReadTranscript(ctx context.Context, id string) (*transcripts.View, error) {
	t, err := a.auditOne(ctx, id)
	if err != nil {
		return nil, err
	}
	return transcripts.NewView(t), nil
}

// auditOne opens the debates' store and audits debate id (App.Audit).
func (a *App) auditOne(ctx context.Context, id string) (*transcripts.Transcript, error) {
	st, err := a.OpenDebates()
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return a.Audit(ctx, st, id)
}

// Verification is every file of a debate checked against its seal: what
// "transcripts verify --json" prints.
type Verification struct {
	transcripts.Report
	Tampered  bool                    `json:"tampered"`
	Files     []transcripts.FileCheck `json:"files"`
	Signature transcripts.SigStatus   `json:"signature,omitempty"`
	// Integrity is the whole judgement, for a front end to word.
	Integrity transcripts.Integrity `json:"-"`
}

// VerifyTranscript checks every file debate id produced (its hash chain,
// session.json, verdict.json, its vault page, its consensus record) against
// its seal. A tampered debate is a result (Tampered), not an error.
func (a *App) VerifyTranscript(ctx context.Context, id string) (*Verification, error) {
	t, err := a.auditOne(ctx, id)
	if err != nil {
		return nil, err
	}
	in := transcripts.IntegrityOf(t)
	return &Verification{Report: *t.Report, Tampered: in.Tampered(), Files: in.Files, Signature: in.Signature, Integrity: in}, nil
}

// SealKey is a new key for signing seals, as config.json's seal section
// names it.
type SealKey struct {
	PublicKey  string `json:"publicKey"`  // base64
	SigningKey string `json:"signingKey"` // the private key's file, absolute
}

// NewSealKey makes an ed25519 key for signing every debate's seal and
// writes its private half (base64) to file, readable by its owner only. It
// never replaces a file: one that exists is fs.ErrExist. The file appears
// whole or not at all (a durable write): a disk that fails or fills
// leaves nothing that a later keygen would take for a key.
func NewSealKey(file string) (*SealKey, error) {
	if strings.TrimSpace(file) == "" {
		return nil, errors.New("no file named for the key")
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	dir, name := filepath.Split(abs)
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if _, err := r.Lstat(name); err == nil {
		// Said before anything is written (the write would say it too,
		// after using the disk, or fail first on a full one).
		return nil, &fs.PathError{Op: "create", Path: file, Err: fs.ErrExist}
	}
	return writeSealKey(durable.Root(r), name, abs, file)
}

// writeSealKey makes a key and creates name in fsys with its private half;
// abs is the file's absolute path, shown the one the user gave.
func writeSealKey(fsys durable.FS, name, abs, shown string) (*SealKey, error) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		return nil, err
	}
	err = durable.CreateFile(fsys, name, []byte(base64.StdEncoding.EncodeToString(priv.Seed())+"\n"), 0o600)
	var pe *durable.PathError
	switch {
	case errors.As(err, &pe):
		// Named as the user gave it, not by the staging file's name.
		cause := pe.Err
		if ope := (*fs.PathError)(nil); errors.As(cause, &ope) {
			cause = ope.Err
		}
		return nil, fmt.Errorf("%s %s: %w", pe.Op, shown, cause)
	case err != nil:
		return nil, err
	}
	return &SealKey{SigningKey: abs, PublicKey: base64.StdEncoding.EncodeToString(pub)}, nil
}
