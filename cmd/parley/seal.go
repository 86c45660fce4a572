package main

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"path/filepath"

	"errors"
	"fmt"
	"github.com/spf13/cobra"
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
func (a *factory) witnesses() (transcripts.Witnesses, func(), error) {
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
func (a *factory) audit(ctx context.Context, st *transcripts.Store, id string) (*transcripts.Transcript, error) {
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
func (a *factory) integrity(ctx context.Context, st *transcripts.Store, ids []string) (map[string]string, error) {
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
	a  *factory
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
func (a *factory) writeStore() (*transcripts.Store, error) {
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
func (a *factory) trustRoot() error {
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

// newTranscriptsKeygenCmd is "parley transcripts keygen FILE": a new
// ed25519 key for signing seals, written to FILE (0600, never replaced),
// and the config.json lines that use it.
func newTranscriptsKeygenCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "keygen FILE",
		Short: "Make an ed25519 key that signs every debate's seal, and print the config.json lines that use it",
		Long: "Writes a new ed25519 private key (base64) to FILE, readable by you only, and prints\n" +
			"the \"seal\" section for config.json: signingKey (FILE) and publicKey. With it, every\n" +
			"verdict.json parley writes is signed, and every seal read must carry a valid\n" +
			"signature: a debate rewritten by someone with write access but not the key shows\n" +
			"as tampered. Keep FILE out of reach of those you do not trust; give readers only\n" +
			"the publicKey.",
		Example: "  parley transcripts keygen ~/.parley-seal.key",
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pub, priv, err := ed25519.GenerateKey(nil)
			if err != nil {
				return err
			}
			f, err := os.OpenFile(args[0], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if errors.Is(err, fs.ErrExist) {
				return usagef("%s exists; parley never replaces a key (give another file)", args[0])
			}
			if err != nil {
				return err
			}
			if _, err := f.WriteString(base64.StdEncoding.EncodeToString(priv.Seed()) + "\n"); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			abs, _ := filepath.Abs(args[0])
			section := map[string]any{"seal": map[string]string{"signingKey": abs, "publicKey": base64.StdEncoding.EncodeToString(pub)}}
			if a.json {
				return a.emit(section)
			}
			data, _ := json.MarshalIndent(section, "", "  ")
			a.printf("key written to %s; add to %s:\n%s\n", abs, filepath.Join(a.rootDir(), "config.json"), data)
			return nil
		},
	}
}
