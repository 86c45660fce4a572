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

// LintLinks reads every page of the vault (as Pages does, one page at a
// time: it keeps each page's links, not its text, so a vault of any size
// is linted in the memory of its links; a page whose frontmatter does not
// parse links what its body links) and resolves every wikilink and
// embed as Obsidian would (by name, as Resolve does, in one walk of the
// vault's names): links to no page and ambiguous links are broken, and
// pages that no other page links to are orphans. A link to a heading of
// the same page links nothing.
func (v *Vault) LintLinks(ctx context.Context) (*LinkReport, error) {
	type linking struct {
		path  string
		index bool
		links []Link
	}
	var pages []linking
	// Lenient: a page whose frontmatter does not parse still links what
	// its body links, as in Obsidian.
	err := v.EachPage(ctx, Query{Lenient: true}, func(p *Page) error {
		var links []Link
		written := map[string]bool{} // a link written twice is one finding
		for _, l := range p.Links() {
			if l.Target != "" && !written[l.Target] {
				written[l.Target] = true
				links = append(links, l)
			}
		}
		pages = append(pages, linking{path: p.Path, index: p.Type() == "index", links: links})
		return nil
	})
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
		for _, l := range p.links {
			target, err := names.lookup(l.Target)
			switch {
			case errors.Is(err, ErrAmbiguous):
				rep.Broken = append(rep.Broken, LinkProblem{Page: p.path, Link: l.String(), Reason: "ambiguous: several pages have this name"})
			case err != nil:
				rep.Broken = append(rep.Broken, LinkProblem{Page: p.path, Link: l.String(), Reason: "no such page"})
			case target != p.path && !seen[target]:
				seen[target] = true
				inbound[target]++
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for _, p := range pages {
		if inbound[p.path] == 0 && !p.index {
			rep.Orphans = append(rep.Orphans, p.path)
		}
	}
	sort.Strings(rep.Orphans)
	return rep, nil
}
