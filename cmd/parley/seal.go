package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/trust"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// witnesses opens what a debate's seal is checked against: the vault and
// its consensus records (when the vault exists: a read-only command never
// creates one) and the public key of config.json. close releases them.
func (a *app) witnesses() (transcripts.Witnesses, func(), error) {
	var w transcripts.Witnesses
	cfg, err := a.config()
	if err != nil {
		return w, nil, err
	}
	w.PublicKey = cfg.SealPublicKey()
	v, err := vault.Open(a.vaultDir(), vault.WithLogger(a.logger()))
	if err != nil {
		return w, func() {}, nil
	}
	w.Vault = v
	cs, err := consensus.Open(a.rootDir(), v, consensus.WithLogger(a.logger()))
	if err != nil {
		return w, func() { v.Close() }, nil
	}
	w.Records = cs
	return w, func() { cs.Close(); v.Close() }, nil
}

// audit reads debate id and checks every file it produced against its
// seal (transcripts.Store.Audit).
func (a *app) audit(ctx context.Context, st *transcripts.Store, id string) (*transcripts.Transcript, error) {
	w, done, err := a.witnesses()
	if err != nil {
		return nil, err
	}
	defer done()
	return st.Audit(ctx, id, w)
}

// integrity audits each debate and returns its integrity in a few words
// ("verified", "verified so far", "verdict.json differs", …), the same
// judgement transcripts verify, show and the web pages make.
func (a *app) integrity(ctx context.Context, st *transcripts.Store, ids []string) (map[string]string, error) {
	w, done, err := a.witnesses()
	if err != nil {
		return nil, err
	}
	defer done()
	out := make(map[string]string, len(ids))
	for _, id := range ids {
		t, err := st.Audit(ctx, id, w)
		if err != nil {
			out[id] = "unreadable"
			continue
		}
		in := transcripts.NewView(t).Integrity
		out[id] = in.Summary()
		if in.Tampered() {
			out[id] = "TAMPERED: " + in.Summary()
		}
	}
	return out, nil
}

// recordSeal checks, for "consensus check", that a record's debate
// verifies against its seal and that the seal names this record.
type recordSeal struct {
	a  *app
	cs *consensus.Store
}

var _ consensus.SealChecker = recordSeal{}

func (c recordSeal) CheckSeal(ctx context.Context, r *consensus.Record) error {
	if r.DebateID == "" {
		return fmt.Errorf("%s names no debate: nothing binds it", r.Path)
	}
	st, err := c.a.store()
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: there is no parley root at %s", consensus.ErrNoSeal, c.a.rootDir())
	}
	if err != nil {
		return err
	}
	defer st.Close()
	cfg, err := c.a.config()
	if err != nil {
		return err
	}
	w := transcripts.Witnesses{Vault: c.cs.Vault(), Records: c.cs, PublicKey: cfg.SealPublicKey()}
	t, err := st.Audit(ctx, r.DebateID, w)
	if errors.Is(err, debate.ErrInvalidID) {
		return fmt.Errorf("%s names %q, which is not a debate id", r.Path, r.DebateID)
	}
	if errors.Is(err, transcripts.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: debate %s is not under %s", consensus.ErrNoSeal, r.DebateID, c.a.rootDir())
	}
	if err != nil {
		return err
	}
	in := transcripts.NewView(t).Integrity
	if in.Tampered() {
		return errors.New(in.Trouble())
	}
	for _, f := range in.Files {
		// Pending: filed by "consensus file --from-debate" before the seal,
		// bound to the chain's verdict line by its head.
		if f.File == r.Path && (f.Status == transcripts.FileIntact || f.Status == transcripts.FilePending) {
			return nil
		}
	}
	return fmt.Errorf("debate %s's seal does not vouch for %s (parley transcripts verify %s)", r.DebateID, r.Path, r.DebateID)
}

// writeStore opens the debates of the root for running debates: their
// seals are signed with config.json's seal.signingKey when it has one.
func (a *app) writeStore() (*transcripts.Store, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	key, err := cfg.SealSigningKey()
	if err != nil {
		return nil, err
	}
	st, err := a.store()
	if err != nil {
		return nil, err
	}
	if key != nil {
		st.SignWith(key)
	}
	return st, nil
}

// trustRoot refuses, before any command runs, a root that someone else
// could have written (writable by group or others, or owned by another
// user), and a default vault (<root>/vault) that is a symbolic link out of
// the root: a vault elsewhere is used only when --vault or PARLEY_VAULT
// names it.
func (a *app) trustRoot() error {
	root := a.rootDir()
	if err := trust.Path("the parley root", root); err != nil {
		return err
	}
	if a.vaultFlag != "" || os.Getenv("PARLEY_VAULT") != "" {
		return nil
	}
	vault := a.vaultDir()
	inside, real, err := trust.Inside(root, vault)
	if err == nil && !inside {
		return fmt.Errorf("the vault %s is a symbolic link to %s, out of the root; give --vault %s to use it", vault, real, real)
	}
	return nil
}
