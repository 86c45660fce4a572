package web

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// ErrNoVault: the vault the pages would show does not exist.
var ErrNoVault = errors.New("there is no vault")

// FromApp builds a Server over what the service layer a opens: the
// debates of its root, its vault and their consensus records, with
// config.json's seal key and budgets. close releases them after the
// Server's own Close. A root that does not exist is an error wrapping
// fs.ErrNotExist; a vault that does not exist, ErrNoVault.
func FromApp(a *app.App, allowRemote bool) (srv *Server, close func(), err error) {
	cfg, err := a.Config()
	if err != nil {
		return nil, nil, err
	}
	st, err := a.OpenDebates()
	if err != nil {
		return nil, nil, err
	}
	v, err := vault.Open(a.Vault(), vault.WithLogger(a.Logger()))
	if err != nil {
		st.Close()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w at %s", ErrNoVault, a.Vault())
		}
		return nil, nil, err
	}
	cs, err := consensus.Open(a.Root(), v, consensus.WithLogger(a.Logger()), consensus.WithReadOnlyRoot()) // serve only reads
	if err == nil {
		srv, err = New(Config{Debates: st, Vault: v, Consensus: cs, PublicKey: cfg.SealPublicKey(), AllowRemote: allowRemote,
			Logger: a.Logger(), Budget: func(l debate.Layer) int { return cfg.Budget(l).MaxTokens }})
		if err != nil {
			cs.Close()
		}
	}
	if err != nil {
		v.Close()
		st.Close()
		return nil, nil, err
	}
	return srv, func() { srv.Close(); cs.Close(); v.Close(); st.Close() }, nil
}
