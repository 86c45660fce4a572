package main

import (
	"context"

	"github.com/parleyhq/parley/consensus"
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
