package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// debateFiler is the filing step of a debate (SPEC §5.5, §6): the
// consensus record in <vault>/wiki/consensus/, then the readable transcript
// page <vault>/wiki/debates/<id>.md that the record links to. Both are
// idempotent: filing a debate again rewrites its record and its page.
type debateFiler struct {
	v     *vault.Vault
	cs    *consensus.Store
	store *transcripts.Store
}

var _ debate.Filer = (*debateFiler)(nil)

// openFiler opens the vault and the consensus store; close releases them.
func (a *factory) openFiler(store *transcripts.Store) (*debateFiler, func(), error) {
	v, err := vault.Create(a.vaultDir(), vault.WithLogger(a.logger()))
	if err != nil {
		return nil, nil, err
	}
	cs, err := consensus.Open(a.rootDir(), v, consensus.WithLogger(a.logger()))
	if err != nil {
		v.Close()
		return nil, nil, err
	}
	return &debateFiler{v: v, cs: cs, store: store}, func() { cs.Close(); v.Close() }, nil
}

// File files through transcripts.Filer: the record, then the page, both
// bound to the transcript's seal.
func (f *debateFiler) File(ctx context.Context, o *debate.Outcome) (string, error) {
	return (&transcripts.Filer{Store: f.store, Vault: f.v, Records: f.cs}).File(ctx, o)
}

// vaultPages checks [[page]] evidence against the vault.
type vaultPages struct{ v *vault.Vault }

func (p vaultPages) PageExists(ctx context.Context, name string) (bool, error) {
	_, err := p.v.Resolve(name)
	switch {
	case err == nil, errors.Is(err, vault.ErrAmbiguous):
		return true, nil
	case errors.Is(err, vault.ErrNotFound):
		return false, nil
	}
	return false, err
}

// transcriptLoader gives "consensus file --from-debate" the verified
// outcome of a debate (transcripts.Store.LoadOutcome): a tampered
// transcript is refused, naming its first bad line.
type transcriptLoader struct{ a *factory }

var _ consensus.OutcomeLoader = transcriptLoader{}

func (l transcriptLoader) LoadOutcome(ctx context.Context, id string) (*debate.Outcome, error) {
	st, err := l.a.store()
	if err != nil {
		return nil, err
	}
	defer st.Close()
	o, err := st.LoadOutcome(ctx, id)
	if errors.Is(err, transcripts.ErrNotSealed) {
		return nil, fmt.Errorf("%w: %v", consensus.ErrNotClosed, err)
	}
	return o, err
}
