package app

// Debate ids and record names as a user types them: whole, or a unique
// prefix. An unknown or ambiguous one is ProblemNotFound or
// ProblemAmbiguous, like every other name that names nothing.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// maxCandidates bounds the candidates an ambiguous prefix lists.
const maxCandidates = 5

// MatchPrefix returns the one name of names equal to arg, else the names
// that start with it, sorted.
func MatchPrefix(arg string, names []string) []string {
	var out []string
	for _, n := range names {
		if n == arg {
			return []string{n}
		}
		if strings.HasPrefix(n, arg) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// matchFold is the names arg names, as Obsidian resolves a note's name:
// the one equal to arg, else those equal to it ignoring case and Unicode
// form (vault.FoldName: a name synced from a Mac spells "é" as "e" and an
// accent), else those that start with it so, sorted.
func matchFold(arg string, names []string) []string {
	la := vault.FoldName(arg)
	var equal, prefixed []string
	for _, n := range names {
		if n == arg {
			return []string{n}
		}
		switch ln := vault.FoldName(n); {
		case ln == la:
			equal = append(equal, n)
		case strings.HasPrefix(ln, la):
			prefixed = append(prefixed, n)
		}
	}
	if len(equal) > 0 {
		prefixed = equal
	}
	sort.Strings(prefixed)
	return prefixed
}

// ambiguous is the error of a prefix that several names start with.
func ambiguous(what, arg string, names []string) *Error {
	return ambiguousAs("the start", what, arg, names)
}

// ambiguousAs is ambiguous for an arg that is how ("the start", "part")
// of each of names.
func ambiguousAs(how, what, arg string, names []string) *Error {
	shown := names
	if len(shown) > maxCandidates {
		shown = shown[:maxCandidates]
	}
	more := ""
	if len(names) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(names)-len(shown))
	}
	return newError(ProblemAmbiguous, "", fs.ErrNotExist, "%q is %s of %d %ss: %s%s; give more of it",
		termsafe.Clean(arg, ""), how, len(names), what, strings.Join(shown, ", "), more)
}

// DebateIDs lists the names under <root>/debates that are debate ids.
func (a *App) DebateIDs() ([]string, error) {
	return DebateIDsIn(filepath.Join(a.root, transcripts.Dir))
}

// DebateIDsIn lists the names in dir, a root's debates directory, that are
// debate ids; none when dir does not exist.
func DebateIDsIn(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(ents))
	for _, e := range ents {
		if e.IsDir() && debate.ValidateID(e.Name()) == nil {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// ResolveDebate turns what a user typed into the id of one debate under
// the root: the id itself, or the one id it is a prefix of. With no root
// it is ErrNoRoot; with no such debate ProblemNotFound, whose message
// names {parley debate list}, the command that lists the debates.
func (a *App) ResolveDebate(arg string) (string, error) {
	if !a.HaveRoot() {
		return "", a.noRoot("")
	}
	ids, err := a.DebateIDs()
	if err != nil {
		return "", Explain(err)
	}
	return MatchDebate(arg, ids, a.root)
}

// MatchDebate is the one debate of ids that arg names: the id itself, or
// the one id it is a prefix of; failing that, the one id it ends (the
// random part, "4znt2r", which the agents' names carry too) or, of three
// characters or more, is a part of ("rate-limiting"), in any case. None
// is ProblemNotFound (under names the root the message names), several
// ProblemAmbiguous naming them.
func MatchDebate(arg string, ids []string, under string) (string, error) {
	if lower := strings.ToLower(arg); !validPrefix(arg) && validPrefix(lower) {
		arg = lower
	}
	if err := debate.ValidateID(arg); err != nil && !validPrefix(arg) {
		return "", newError(ProblemNotFound, "", fs.ErrNotExist, "no debate %s: %v ({parley debate list} lists them)", termsafe.Clean(arg, ""), err)
	}
	m, how := MatchPrefix(arg, ids), "the start"
	if len(m) == 0 {
		m, how = matchPart(arg, ids), "part"
	}
	switch len(m) {
	case 1:
		return m[0], nil
	case 0:
		return "", newError(ProblemNotFound, "", fs.ErrNotExist, "no debate %s under %s ({parley debate list} lists them)", termsafe.Clean(arg, ""), under)
	}
	return "", ambiguousAs(how, "debate", arg, m)
}

// matchPart is the ids that end with arg after a dash, else, for an arg
// of three characters or more, the ids that hold it, sorted.
func matchPart(arg string, ids []string) []string {
	var ends, holds []string
	for _, id := range ids {
		switch {
		case strings.HasSuffix(id, "-"+strings.TrimPrefix(arg, "-")):
			ends = append(ends, id)
		case len(arg) >= 3 && strings.Contains(id, arg):
			holds = append(holds, id)
		}
	}
	if len(ends) == 0 {
		ends = holds
	}
	sort.Strings(ends)
	return ends
}

// validPrefix reports whether s could start a debate id: the id's own
// characters only.
func validPrefix(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// ResolveRecord finds the record named by arg in s: by its name, file
// name, wikilink or debate id, or by a unique prefix of a name or an id,
// in any case, as Obsidian resolves a note's name ("Spec-Cache-TTL" is
// spec-cache-ttl), a name of the exact case first.
// A name that matches nothing is returned as it is, for the store to say
// it is not there.
func ResolveRecord(ctx context.Context, s *consensus.Store, arg string) (string, error) {
	if s.NamesRecord(arg) != nil {
		return arg, nil // a page of another folder or vault: the store says it is no record
	}
	// A whole name or id, as a script gives it: one lookup in the index.
	if name, err := s.Named(ctx, arg); err != nil || name != "" {
		return name, err
	}
	recs, err := s.Names(ctx)
	if err != nil {
		return "", err
	}
	names := make([]string, 0, len(recs))
	byID := map[string]string{}
	for _, r := range recs {
		names = append(names, r.Name)
		if _, seen := byID[r.DebateID]; r.DebateID != "" && !seen {
			byID[r.DebateID] = r.Name // the first by name, as the store finds a debate's record
		}
	}
	trimmed := consensus.LinkName(arg)
	if m := matchFold(trimmed, names); len(m) == 1 {
		return m[0], nil
	} else if len(m) > 1 {
		return "", ambiguous("record", arg, m)
	}
	var ids []string
	for id := range byID {
		ids = append(ids, id)
	}
	switch m := matchFold(trimmed, ids); len(m) {
	case 0:
		return arg, nil
	case 1:
		return byID[m[0]], nil
	default:
		return "", ambiguous("debate", arg, m)
	}
}
