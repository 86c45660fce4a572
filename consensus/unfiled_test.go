package consensus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/debate"
)

// An UNAVAILABLE outcome is never filed: File refuses it and writes
// nothing in the vault.
func TestUnavailableIsNotFiled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := e.open(t)
	o := outcome("20261130-spec-keys-abcdef", "Idempotency keys", debate.LayerSpec, debate.Unavailable, false)
	o.Unavailable = &debate.UnavailableError{Agent: "GoldFalcon", Kind: debate.UnavailableAuth, Detail: "HTTP 401"}
	if _, err := s.File(context.Background(), o); !errors.Is(err, ErrNotFiled) {
		t.Fatalf("File(UNAVAILABLE) = %v, want ErrNotFiled", err)
	}
	ents, _ := os.ReadDir(filepath.Join(e.vaultDir, "wiki", "consensus"))
	for _, en := range ents {
		t.Errorf("the vault holds %s", en.Name())
	}
}
