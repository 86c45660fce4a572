package vault

import (
	"context"
	"errors"
	"sort"
)

// LinkProblem is a wikilink that leads nowhere, or nowhere certain.
type LinkProblem struct {
	Page   string // the page that holds the link
	Link   string // as written, [[…]]
	Reason string // "no such page" or "ambiguous: …"
}

// LinkReport is what LintLinks found.
type LinkReport struct {
	Broken []LinkProblem
	// Orphans are pages no other page links to (index pages, which exist
	// to be opened, are not counted).
	Orphans []string
}

// LintLinks reads every page of the vault (as Pages does) and resolves
// every wikilink as Obsidian would (by name, as Resolve does, in one walk
// of the vault's names): links to no page
// and ambiguous links are broken, and pages that no other page links to
// are orphans. A link to a heading of the same page links nothing.
func (v *Vault) LintLinks(ctx context.Context) (*LinkReport, error) {
	pages, err := v.Pages(ctx, Query{})
	if err != nil {
		return nil, err
	}
	// One walk for the names, right after the pages were read, and every
	// link looked up in it: Resolve checks every folder again for each
	// link it does not find, which in a vault of many folders and many
	// broken links cost minutes.
	v.mu.Lock()
	v.names = v.buildNames()
	names := v.names
	v.mu.Unlock()
	rep := &LinkReport{}
	inbound := map[string]int{}
	for _, p := range pages {
		seen := map[string]bool{}
		reported := map[string]bool{} // a link written twice is one finding
		for _, l := range p.Links() {
			if l.Target == "" || reported[l.Target] {
				continue
			}
			target, err := names.lookup(l.Target)
			switch {
			case errors.Is(err, ErrAmbiguous):
				reported[l.Target] = true
				rep.Broken = append(rep.Broken, LinkProblem{Page: p.Path, Link: l.String(), Reason: "ambiguous: several pages have this name"})
			case err != nil:
				reported[l.Target] = true
				rep.Broken = append(rep.Broken, LinkProblem{Page: p.Path, Link: l.String(), Reason: "no such page"})
			case target != p.Path && !seen[target]:
				seen[target] = true
				inbound[target]++
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for _, p := range pages {
		if inbound[p.Path] == 0 && p.Type() != "index" {
			rep.Orphans = append(rep.Orphans, p.Path)
		}
	}
	sort.Strings(rep.Orphans)
	return rep, nil
}
