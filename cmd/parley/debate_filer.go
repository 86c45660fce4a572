package main

import (
	"context"
	"errors"
	"fmt"
	"time"

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
func (a *app) openFiler(store *transcripts.Store) (*debateFiler, func(), error) {
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

// File files the record, then writes the transcript page, and returns the
// record's vault-relative path.
func (f *debateFiler) File(ctx context.Context, o *debate.Outcome) (string, error) {
	record, err := f.cs.File(ctx, o)
	if err != nil {
		return "", fmt.Errorf("file the consensus record: %w", err)
	}
	if err := f.writePage(o, record); err != nil {
		return "", err
	}
	return record, nil
}

// transcriptPage is the vault path of a debate's readable transcript.
func transcriptPage(id string) string { return "wiki/debates/" + id + ".md" }

func (f *debateFiler) writePage(o *debate.Outcome, record string) error {
	t, err := f.store.Read(o.DebateID)
	if err != nil {
		return fmt.Errorf("read the transcript of %s: %w", o.DebateID, err)
	}
	if t.Verdict == nil {
		t.Verdict = &transcripts.Verdict{Outcome: *o, Record: record}
	}
	s := t.Session
	fm := vault.Frontmatter{
		{Key: "type", Value: "debate"},
		{Key: "layer", Value: string(s.Layer)},
		{Key: "verdict", Value: string(o.Verdict)},
		{Key: "action", Value: string(o.Action)},
		{Key: "date", Value: vault.Date(dateOf(o.Closed))},
		{Key: "topic", Value: s.Topic},
		{Key: "debate_id", Value: s.ID},
	}
	if record != "" {
		fm = append(fm, vault.Field{Key: "related", Value: []string{"[[" + trimMD(record) + "]]"}})
	}
	fm = append(fm, vault.Field{Key: "tags", Value: []string{"debate", string(s.Layer)}})
	if err := f.v.WritePage(transcriptPage(o.DebateID), fm, transcripts.RenderMarkdown(t)); err != nil {
		return fmt.Errorf("write the transcript page of %s: %w", o.DebateID, err)
	}
	return nil
}

func dateOf(ts string) string {
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return t.UTC().Format("2006-01-02")
	}
	return time.Now().UTC().Format("2006-01-02")
}

// trimMD turns "wiki/consensus/spec-x.md" into the link "consensus/spec-x".
func trimMD(p string) string {
	if len(p) > 3 && p[len(p)-3:] == ".md" {
		p = p[:len(p)-3]
	}
	if len(p) > 5 && p[:5] == "wiki/" {
		p = p[5:]
	}
	return p
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
type transcriptLoader struct{ a *app }

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
