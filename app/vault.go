package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parleyhq/parley/consensus"
)

// The kinds of a LintFinding.
const (
	LintContradiction = "contradiction" // two active records of one question conflict
	LintBrokenLink    = "broken_link"   // a wikilink to no page, or to a name several pages share
	LintOrphan        = "orphan"        // a page no other page links to
	LintStale         = "stale"         // an active record's cited lines changed or are gone
	// LintUnsuperseded: a record another one supersedes whose page does not say so.
	LintUnsuperseded = "unsuperseded"
	// LintSkipped: a file of the records folder that lookups skip (its
	// frontmatter does not parse, it lacks a record's keys, it is a
	// symbolic link): its question has no record until it is fixed.
	LintSkipped = "skipped"
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
// (compared as Check compares), records lookups skip (Skipped), broken
// wikilinks, orphan pages and stale records, whose cited lines (path:from-to) changed since they were
// filed. The lines are read under workspace; with workspace "", under each
// record's debate's workspace as its session.json records it, or the
// current directory for a debate not under the root (or whose workspace
// is gone). No finding is a clean vault.
func (c *Consensus) Lint(ctx context.Context, workspace string) ([]LintFinding, error) {
	dir := workspace
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	} else if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if err == nil {
			err = fmt.Errorf("%s is not a directory", dir)
		}
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	workspaceOf := func(consensus.Record) string { return dir }
	if workspace == "" && c.app != nil {
		if st, err := c.app.OpenDebates(); err == nil {
			defer st.Close()
			workspaceOf = func(r consensus.Record) string {
				sess, err := st.Session(r.DebateID)
				if err != nil || sess.Workspace == "" || !filepath.IsAbs(sess.Workspace) {
					return dir
				}
				if fi, err := os.Stat(sess.Workspace); err != nil || !fi.IsDir() {
					return dir
				}
				return sess.Workspace
			}
		}
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
	// Contradictions checked every file of the records folder: the
	// files it skipped are those of now.
	for _, sk := range c.s.Skipped() {
		found = append(found, LintFinding{Kind: LintSkipped, Page: sk.Path, Problem: "lookups skip it: " + sk.Reason})
	}
	unsup, err := c.s.Unsuperseded(ctx)
	if err != nil {
		return nil, err
	}
	for _, u := range unsup {
		f := LintFinding{Kind: LintUnsuperseded, Page: u.Record.Path, Other: consensus.Folder + "/" + u.Newer + ".md",
			Problem: fmt.Sprintf("superseded by [[%s]], but its page says status %s; the next filing marks it", u.Newer, u.Record.Status)}
		if u.Why != "" {
			f.Problem = fmt.Sprintf("superseded by [[%s]], but its page says status %s and parley cannot edit it (%s): set status: superseded and superseded_by: \"[[%s]]\" by hand",
				u.Newer, u.Record.Status, u.Why, u.Newer)
		}
		found = append(found, f)
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
	stale, err := c.s.StaleIn(ctx, workspaceOf)
	if err != nil {
		return nil, err
	}
	for _, st := range stale {
		found = append(found, LintFinding{Kind: LintStale, Page: st.Record.Path, Ref: st.Ref, Problem: st.Problem})
	}
	return found, nil
}
