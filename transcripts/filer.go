package transcripts

import (
	"context"
	"fmt"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// Filer files a closed debate (SPEC §5.5, §6) and binds what it wrote to
// the transcript: the consensus record (through Records, the consensus
// store), then the readable transcript page in the vault (WritePage).
// Both record the chain's head, length and session hash at the verdict in
// their frontmatter, and o.Filing carries the ContentHash of each for the
// seal event Log.Seal appends next. A transcript that does not verify
// gets neither, and the debate is not closed. Filing again leaves the
// record as it stands (consensus.Store.File) and rewrites the page.
type Filer struct {
	Store   *Store
	Vault   *vault.Vault
	Records debate.Filer
}

var _ debate.Filer = (*Filer)(nil)

// File files o and returns the record's vault-relative path.
func (f *Filer) File(ctx context.Context, o *debate.Outcome) (string, error) {
	id := o.DebateID
	t, err := f.Store.Read(id)
	if err != nil {
		return "", fmt.Errorf("read the transcript of %s: %w", id, err)
	}
	if rep := t.Report; !rep.Intact {
		return "", &TamperError{ID: id, Line: rep.BadLine, Problem: rep.Problem}
	}
	sh, err := f.Store.SessionHash(id)
	if err != nil {
		return "", err
	}
	o.Filing = &debate.Filing{Head: t.Report.Head, Events: t.Report.Events, SessionHash: sh}
	record, err := f.Records.File(ctx, o)
	if err != nil {
		return "", fmt.Errorf("file the consensus record: %w", err)
	}
	if err := WritePage(f.Vault, t, o, record); err != nil {
		return "", err
	}
	o.Filing.Record, o.Filing.Page = record, PagePath(id)
	if o.Filing.RecordHash, err = FileHash(f.Vault, record); err != nil {
		return "", err
	}
	if o.Filing.PageHash, err = FileHash(f.Vault, o.Filing.Page); err != nil {
		return "", err
	}
	return record, nil
}
