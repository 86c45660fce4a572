package consensus

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/debate"
)

// CheckStatus is the answer of Check.
type CheckStatus string

// The answers of SPEC §6.
const (
	// CheckConsistent: the active record binds the same position (up to case,
	// spacing and trailing punctuation).
	CheckConsistent CheckStatus = "consistent"
	// CheckConflict: the active record binds a different position. The caller
	// must not proceed (the CLI exits 3).
	CheckConflict CheckStatus = "conflict"
	// CheckOpen: the active record bound nothing (DEADLOCK, TIMEOUT, or an
	// exhausted budget without agreement); the question is still open.
	CheckOpen CheckStatus = "open"
	// CheckNone: no active record for the question.
	CheckNone CheckStatus = "none"
	// CheckTampered: the active record's debate does not verify against
	// its seal (the record, its transcript or another of its files was
	// changed after filing): it binds nothing until it does. The caller
	// must not proceed (the CLI exits 3).
	CheckTampered CheckStatus = "tampered"
)

// SealChecker tells whether the debate a record was filed from still
// verifies against its seal, the record included: nil when it does, else
// an error saying which file differs. The CLI, the MCP server and the web
// pages provide one over the parley root.
type SealChecker interface {
	CheckSeal(ctx context.Context, r *Record) error
}

// WithSealCheck makes Check verify the active record's seal before
// answering consistent, conflict or open.
func WithSealCheck(c SealChecker) Option { return func(s *Store) { s.seal = c } }

// relatedLimit is how many related records a check lists.
const relatedLimit = 5

// CheckResult is what Check found.
type CheckResult struct {
	Status   CheckStatus
	Layer    debate.Layer
	Slug     string
	Position string
	// Record is the active record of the question; nil for None.
	Record *Record
	// Related are other records ranked by relevance to the topic and the
	// position, best first (the active record itself is not among them).
	Related []Hit
	// Problem says why a Tampered record's seal fails.
	Problem string
	// Unsealed says why the record's seal could not be checked (its
	// debate is not under the root: ErrNoSeal), "" when it was.
	Unsealed string
}

// Check answers whether a filed consensus settles a question before a
// decision (SPEC §6): it finds the active record of (layer,
// TopicSlug(topic)) and compares position's normalized hash with the
// record's final position. With WithSealCheck, a record whose seal fails
// is CheckTampered whatever it says. It always lists related records. A record
// edited in place is read again before it is used; the lookup otherwise
// reads no record file when nothing changed.
func (s *Store) Check(ctx context.Context, layer debate.Layer, topic, position string) (*CheckResult, error) {
	res, err := s.check(ctx, layer, topic, position)
	if err != nil || res.Record == nil || s.seal == nil {
		return res, err
	}
	// Outside the store's lock: the seal check reads the records too.
	switch err := s.seal.CheckSeal(ctx, res.Record); {
	case errors.Is(err, ErrNoSeal):
		res.Unsealed = err.Error()
	case err != nil:
		res.Status, res.Problem = CheckTampered, err.Error()
	}
	return res, nil
}

// check is Check without the seal.
func (s *Store) check(ctx context.Context, layer debate.Layer, topic, position string) (*CheckResult, error) {
	l, err := debate.ParseLayer(string(layer))
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(topic) == "" || debate.PositionHash(position) == "" {
		return nil, ErrEmptyQuestion
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.flush()
	if err := s.ensure(ctx); err != nil {
		return nil, err
	}
	res := &CheckResult{Layer: l, Slug: TopicSlug(topic), Position: position}
	key := string(l) + "/" + res.Slug
	var chain []string
	for _, e := range s.idx.byKey[key] {
		chain = append(chain, e.Name)
	}
	s.touch(ctx, chain)
	if r := s.active(key); r != nil {
		cp := *r
		res.Record = &cp
	}
	switch {
	case res.Record == nil:
		res.Status = CheckNone
	case !res.Record.Binding():
		res.Status = CheckOpen
	case debate.PositionHash(position) == res.Record.FinalPositionHash:
		res.Status = CheckConsistent
	default:
		res.Status = CheckConflict
	}
	self := ""
	if res.Record != nil {
		self = res.Record.Name
	}
	res.Related = s.search(ctx, topic+"\n"+position, relatedLimit, func(e *entry) bool { return e.Name != self+".md" })
	return res, nil
}

// String is a one-line summary of the result.
func (r *CheckResult) String() string {
	switch r.Status {
	case CheckConflict:
		return fmt.Sprintf("conflict with %s: the filed consensus is %q", r.Record.Path, r.Record.FinalPosition)
	case CheckConsistent:
		return fmt.Sprintf("consistent with %s", r.Record.Path)
	case CheckOpen:
		return fmt.Sprintf("open: %s records %s without a binding position", r.Record.Path, r.Record.Verdict)
	case CheckTampered:
		return fmt.Sprintf("tampered: %s does not verify against its debate's seal: %s", r.Record.Path, r.Problem)
	}
	return fmt.Sprintf("none: no consensus filed for %s/%s", r.Layer, r.Slug)
}
