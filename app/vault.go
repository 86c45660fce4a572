package app

import (
	"context"
	"fmt"
	"os"
)

// The kinds of a LintFinding.
const (
	LintContradiction = "contradiction" // two active records of one question conflict
	LintBrokenLink    = "broken_link"   // a wikilink to no page, or to a name several pages share
	LintOrphan        = "orphan"        // a page no other page links to
	LintStale         = "stale"         // an active record's cited lines changed or are gone
)

// LintFinding is one thing vault lint found: a line of "vault lint --json".
type LintFinding struct {
	Kind        string   `json:"kind"`
	Page        string   `json:"page"`
	Other       string   `json:"other,omitempty"` // the contradicting record
	Link        string   `json:"link,omitempty"`
	Ref         string   `json:"ref,omitempty"`
	Problem     string   `json:"problem"`
	Differences []string `json:"differences,omitempty"`
}

// Lint reads the whole vault and reports contradicting active records
// (compared as Check compares), broken wikilinks, orphan pages and stale
// records, whose cited lines (path:from-to, relative to workspace; ""
// is the current directory) changed since they were filed. No finding is
// a clean vault.
func (c *Consensus) Lint(ctx context.Context, workspace string) ([]LintFinding, error) {
	if workspace == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		workspace = wd
	}
	var found []LintFinding
	contra, err := c.s.Contradictions(ctx)
	if err != nil {
		return nil, err
	}
	for _, x := range contra {
		found = append(found, LintFinding{Kind: LintContradiction, Page: x.A.Path, Other: x.B.Path, Differences: x.Differences,
			Problem: fmt.Sprintf("%q and %q answer the same question (topic score %.2f) with conflicting positions", x.A.Topic, x.B.Topic, x.TopicScore)})
	}
	links, err := c.s.Vault().LintLinks(ctx)
	if err != nil {
		return nil, err
	}
	for _, b := range links.Broken {
		found = append(found, LintFinding{Kind: LintBrokenLink, Page: b.Page, Link: b.Link, Problem: b.Reason})
	}
	for _, o := range links.Orphans {
		found = append(found, LintFinding{Kind: LintOrphan, Page: o, Problem: "no other page links to it"})
	}
	stale, err := c.s.Stale(ctx, workspace)
	if err != nil {
		return nil, err
	}
	for _, st := range stale {
		found = append(found, LintFinding{Kind: LintStale, Page: st.Record.Path, Ref: st.Ref, Problem: st.Problem})
	}
	return found, nil
}
