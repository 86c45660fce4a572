package consensus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/vault"
)

// File writes the consensus record of a closed debate and returns its path
// relative to the vault ("wiki/consensus/spec-x.md"). It implements
// debate.Filer.
//
// The first record of a question (layer, TopicSlug(topic)) is
// <layer>-<slug>.md; a later debate on it files <layer>-<slug>-2.md (-3 …),
// whose supersedes names the previous head, and flips that one to status
// superseded with superseded_by. Filing the same debate again rewrites its
// record in place (same name, same place in the chain); a sealed debate
// (o.Filing names its record) none of whose records is in the folder any
// more fails with ErrSealedRecordGone and writes nothing. Every filing then
// repairs what an interrupted filing may have left (a superseded record
// still marked active) and rewrites the index page.
//
// Each file is replaced atomically: a crash leaves every record whole, and
// the next filing, or filing the same debate again, completes the rest.
func (s *Store) File(ctx context.Context, o *debate.Outcome) (string, error) {
	res, err := s.fileAll(ctx, []*debate.Outcome{o})
	if err != nil {
		return "", err
	}
	return res[0].Path, nil
}

// FileStatus says what filing did with a debate's record.
type FileStatus string

// The FileStatus values.
const (
	// FiledNew: the debate's record is written now (it had none, or its
	// page was gone).
	FiledNew FileStatus = "filed"
	// FiledAlready: the debate's record was filed before and is there; it
	// is left as it is (with whatever a person added to it).
	FiledAlready FileStatus = "already_filed"
)

// Filing is what filing one debate did.
type Filing struct {
	// Path is the record's vault path ("wiki/consensus/spec-x.md").
	Path   string
	Status FileStatus
	// OvertakenBy is the record that stays the question's current one
	// because its debate started after this one (see Record.OvertakenBy):
	// this record was filed superseded by it. "" when the record is the
	// question's current one, or was filed before.
	OvertakenBy string
}

// FileAll files several outcomes in order under one lock, with one repair
// and one index rewrite at the end: what File does for each, faster (an
// import of past debates, a generated vault). It stops at the first error;
// the records filed before it stay filed, and the next filing completes the
// index.
func (s *Store) FileAll(ctx context.Context, outcomes []*debate.Outcome) ([]string, error) {
	res, err := s.fileAll(ctx, outcomes)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(res))
	for i, f := range res {
		paths[i] = f.Path
	}
	return paths, nil
}

// fileAll is FileAll, saying what it did with each record.
func (s *Store) fileAll(ctx context.Context, outcomes []*debate.Outcome) ([]Filing, error) {
	for _, o := range outcomes {
		if err := validateOutcome(o); err != nil {
			return nil, err
		}
	}
	done, err := s.beginWrite(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	// Whatever happens from here on must finish: a half-done filing is
	// repaired by the next one, but there is no reason to leave one.
	ctx = context.WithoutCancel(ctx)
	now := s.now()
	filings := make([]Filing, 0, len(outcomes))
	// The names of the vault outside the records folder, walked once, when
	// a new record first needs a name: this filing writes only into the
	// records folder itself.
	elsewhere := sync.OnceValues(func() (map[string]bool, error) { return s.namesElsewhere(ctx) })
	for _, o := range outcomes {
		f, err := s.fileOne(ctx, o, now, elsewhere)
		if err != nil {
			return nil, err
		}
		filings = append(filings, f)
	}
	if err := s.repair(ctx); err != nil {
		return nil, err
	}
	if err := s.writeIndexPage(now); err != nil {
		return nil, err
	}
	s.step("index")
	// The index knows every change this filing made: record the folder's
	// state, so that lookups need not list it again.
	s.noteOwnWrites(ctx)
	return filings, nil
}

// fileOne writes one record (and flips the one it supersedes) and brings
// the index up to date with both; a new record takes no name of
// elsewhere's (namesElsewhere). Callers hold the locks.
func (s *Store) fileOne(ctx context.Context, o *debate.Outcome, now time.Time, elsewhere func() (map[string]bool, error)) (Filing, error) {
	var written []string
	var place recordPlace
	prev, err := s.byDebate(o.DebateID)
	if err != nil {
		return Filing{}, s.indexErr(err)
	}
	if r := prev; r != nil {
		// Filed already (a filing finished again, consensus file
		// --from-debate): the page stands as it is, with whatever a
		// person added to it; only a page that is gone is written again.
		place = recordPlace{name: r.Name, status: r.Status, created: r.Created, supersedes: r.Supersedes, supersededBy: r.SupersededBy, overtakenBy: r.OvertakenBy}
		if _, err := s.dir.Lstat(r.Name + ".md"); !errors.Is(err, fs.ErrNotExist) {
			s.touch(ctx, []string{r.Name + ".md"})
			return Filing{Path: Folder + "/" + r.Name + ".md", Status: FiledAlready}, nil
		}
		if place.created == "" {
			place.created = now.UTC().Format(timeFormat)
		}
		fm, body := renderRecord(o, place, now)
		if err := s.v.WritePage(Folder+"/"+r.Name+".md", fm, body); err != nil {
			return Filing{}, &RecordError{Op: "file", Path: r.Path, Err: err}
		}
	} else if f := o.Filing; f != nil && f.Record != "" {
		// Sealed, yet no record of the folder is this debate's: a new
		// record could not match the seal (its content hash covers when it
		// was filed) and would take the place of the records filed since.
		return Filing{}, fmt.Errorf("%w: debate %s filed and sealed %s, which is no longer a record of %s (removed, moved away, or its frontmatter broken: parley vault lint names a record it skips); filing it again would not match its seal: put the file back (from git, a backup or Obsidian's .trash)",
			ErrSealedRecordGone, o.DebateID, f.Record, Folder)
	} else {
		layer := debate.Layer(string(o.Session.Layer))
		slug := TopicSlug(o.Session.Topic)
		chain := s.chain(string(layer) + "/" + slug)
		head := headOf(chain)
		place = recordPlace{status: StatusActive, created: now.UTC().Format(timeFormat)}
		switch {
		case head != nil && overtaken(o, head):
			// A debate that started before the current record's (resumed
			// late) does not replace it: its record is filed beside it,
			// superseded by it, and the current record is not touched.
			place.status, place.supersededBy, place.overtakenBy = StatusSuperseded, head.Name, head.Name
			head = nil
		case head != nil:
			place.supersedes = head.Name
		}
		filed := filedNames(chain)
		for n := 1; ; n++ {
			place.name = recordName(layer, slug, n)
			if n <= filed.count || filed.named[strings.ToLower(place.name)] {
				continue // a record of the question renamed by hand was filed under it
			}
			if taken, err := s.known(place.name + ".md"); err != nil {
				return Filing{}, err
			} else if taken {
				continue
			}
			moved, err := elsewhere()
			if err != nil {
				return Filing{}, err
			}
			if moved[strings.ToLower(place.name)] {
				continue // a record moved to another folder (an archive/) keeps its name
			}
			fm, body := renderRecord(o, place, now)
			err = s.v.CreatePage(Folder+"/"+place.name+".md", fm, body)
			if errors.Is(err, fs.ErrExist) {
				continue // a file that is not a record, or a link, holds the name
			}
			if err != nil {
				return Filing{}, &RecordError{Op: "file", Path: Folder + "/" + place.name + ".md", Err: err}
			}
			break
		}
		s.step("record")
		// The new record names the one it supersedes, which makes it the
		// question's current record whatever the old one's status says; a
		// page whose frontmatter cannot be edited in place keeps its own
		// words and is left for vault lint to report (Unsuperseded), never
		// a reason to fail this filing or the next ones. The disk's
		// failures fail the filing, and the next filing repairs them.
		if head != nil {
			switch err := s.rewrite(head.Name, supersededBy(place.name, now)); {
			case uneditable(err):
				s.log.Warn("consensus: could not mark the superseded record", "path", head.Path, "superseded_by", place.name, "err", err)
			case err != nil: // the disk's trouble: the next filing repairs it
				return Filing{}, &RecordError{Op: "supersede", Path: head.Path, Err: err}
			default:
				written = append(written, head.Name+".md")
			}
			s.step("supersede")
		}
	}
	written = append(written, place.name+".md")
	s.touch(ctx, written)
	return Filing{Path: Folder + "/" + place.name + ".md", Status: FiledNew, OvertakenBy: place.overtakenBy}, nil
}

// overtaken reports whether the debate of o started before the debate of
// head, the current record of its question: o's verdict came late (a
// debate resumed after a later debate of the question was filed), and
// must not replace head. When either start is unknown (a record filed
// before records said when their debate started), filing order decides.
func overtaken(o *debate.Outcome, head *Record) bool {
	mine, err1 := time.Parse(time.RFC3339Nano, o.Session.Created)
	theirs, err2 := time.Parse(time.RFC3339Nano, head.DebateStarted)
	return err1 == nil && err2 == nil && mine.Before(theirs)
}

// FileFrom loads a closed debate's outcome from src and files it, like
// "parley consensus file --from-debate ID": the way to finish a filing that
// a crash interrupted. It is idempotent: a record already filed and in
// place is left as it is (FiledAlready), and the filing still repairs
// the chains and the index page.
func (s *Store) FileFrom(ctx context.Context, src OutcomeLoader, debateID string) (Filing, error) {
	if err := debate.ValidateID(debateID); err != nil {
		return Filing{}, err
	}
	o, err := src.LoadOutcome(ctx, debateID)
	if err != nil {
		return Filing{}, err
	}
	res, err := s.fileAll(ctx, []*debate.Outcome{o})
	if err != nil {
		return Filing{}, err
	}
	return res[0], nil
}

// OutcomeLoader loads the outcome of a closed debate with its Session,
// Turns and Forfeits filled in; a debate without a verdict yields an error
// wrapping ErrNotClosed. Package transcripts provides one over
// <root>/debates/<id>/.
type OutcomeLoader interface {
	LoadOutcome(ctx context.Context, debateID string) (*debate.Outcome, error)
}

func recordName(l debate.Layer, slug string, n int) string {
	if n == 1 {
		return string(l) + "-" + slug
	}
	return fmt.Sprintf("%s-%s-%d", l, slug, n)
}

// head is the current record of a question (headOf its chain). nil if
// none. Callers hold s.mu.
func (s *Store) head(key string) *Record { return headOf(s.chain(key)) }

// headOf is the current record of a chain: among the records no other
// record of the chain supersedes and that were not filed overtaken
// (Record.OvertakenBy: a late verdict never answers), the latest created. Of two files of one
// debate created at once, a copy made by hand (Obsidian's "Make a copy"
// writes "<name> 1.md") is not the head: the file parley named is
// (filedName), else the first name.
func headOf(chain []*Record) *Record {
	referenced := map[string]bool{}
	for _, r := range chain {
		if r.Supersedes != "" {
			referenced[r.Supersedes] = true
		}
	}
	var best *Record
	for _, r := range chain {
		if referenced[r.Name] || r.OvertakenBy != "" {
			continue
		}
		switch {
		case best == nil || r.Created > best.Created:
			best = r
		case r.Created != best.Created:
		case r.DebateID != "" && r.DebateID == best.DebateID:
			if fr, fb := filedName(r), filedName(best); fr && !fb || fr == fb && r.Name < best.Name {
				best = r
			}
		case r.Name > best.Name:
			best = r
		}
	}
	return best
}

// filedName reports whether r's file has a name filing gives a record of
// its question: <layer>-<slug>, or <layer>-<slug>-<n> (recordName).
func filedName(r *Record) bool {
	base := string(r.Layer) + "-" + r.Slug
	n, ok := strings.CutPrefix(r.Name, base+"-")
	if !ok {
		return r.Name == base
	}
	_, err := strconv.Atoi(n)
	return err == nil && n != "" && n[0] != '0' && n[0] != '-' && n[0] != '+'
}

// active is the record that answers a question: the head, if its status is
// active. Callers hold s.mu.
func (s *Store) active(key string) *Record {
	if h := s.head(key); h != nil && h.Status == StatusActive {
		return h
	}
	return nil
}

// known reports whether the index has a file of that name (a record or
// not). Callers hold s.mu.
func (s *Store) known(name string) (bool, error) {
	var n int
	if err := s.idx.db.QueryRow(`SELECT count(*) FROM files WHERE name = ?`, name).Scan(&n); err != nil {
		return false, s.indexErr(err)
	}
	return n > 0, nil
}

// chainNames are the record names a question's records were filed under,
// as far as the records still say: the first count names (each debate of
// the chain took one, <layer>-<slug> then -2, -3 …) and the names the
// records' supersedes and superseded_by link (in lower case).
type chainNames struct {
	count int
	named map[string]bool
}

// filedNames says which names the records of chain were filed under. A
// record a person renamed by hand (outside Obsidian, which would update
// the links) still has its debate's page link the name it was filed
// under: a new record of that name would take the link, and the old
// debate would no longer verify (its page would lead to another debate's
// record).
func filedNames(chain []*Record) chainNames {
	debates := map[string]bool{}
	named := map[string]bool{}
	for _, r := range chain {
		if r.DebateID != "" {
			debates[r.DebateID] = true
		}
		for _, l := range []string{r.Supersedes, r.SupersededBy} {
			if l != "" {
				named[strings.ToLower(l)] = true
			}
		}
	}
	return chainNames{count: len(debates), named: named}
}

// namesElsewhere are the names (in lower case, without ".md", as a
// [[link]] matches them) of the vault's files that are not directly in the
// records folder (whose files the index knows): a record a person moved
// to another folder, under the records folder (archive/) or anywhere in
// the vault (Archive/ at its top, as Obsidian users keep one), keeps its
// name there, and a new record of that name would make every [[name]] link
// to it ambiguous. One walk of the vault, which lists neither the records
// folder (its folders, which the index knows, are walked) nor the debate
// pages' folder (pages named by debate ids, as many as the records): the
// cost is the size of the rest of the vault. Hidden folders such as
// .trash are left out. Callers hold s.mu.
func (s *Store) namesElsewhere(ctx context.Context) (map[string]bool, error) {
	names := map[string]bool{}
	add := func(p string) { names[strings.ToLower(strings.TrimSuffix(path.Base(p), ".md"))] = true }
	skip := func(dir string) bool { return dir == Folder || dir == debatePages }
	if err := s.v.WalkNames(ctx, ".", skip, add); err != nil {
		return nil, err
	}
	folders, err := s.folders(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range folders {
		if err := s.v.WalkNames(ctx, Folder+"/"+f, nil, add); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// repair marks every record that another record of its question
// supersedes as superseded by it, finishing a filing that stopped between
// writing the new record and flipping the old one. The index finds them:
// a record named by another's supersedes and not marked superseded by the
// latest such record.
func (s *Store) repair(ctx context.Context) error {
	keys, err := s.repairKeys(ctx)
	if err != nil {
		return err
	}
	var fixed []string
	for _, key := range keys {
		for r, newer := range unrepaired(s.chain(key)) {
			if err := s.rewrite(r.Name, supersededBy(newer.Name, s.now())); uneditable(err) {
				s.log.Warn("consensus: could not repair a supersession", "path", r.Path, "superseded_by", newer.Name, "err", err)
				continue
			} else if err != nil {
				return &RecordError{Op: "repair", Path: r.Path, Err: err}
			}
			s.log.Info("consensus: repaired an interrupted supersession", "path", r.Path, "superseded_by", newer.Name)
			fixed = append(fixed, r.Name+".md")
		}
	}
	if len(fixed) > 0 {
		s.touch(ctx, fixed)
	}
	return nil
}

// uneditable says err is about the page itself, which a person must fix
// (frontmatter that cannot be edited in place, a page too large), not
// about the disk.
func uneditable(err error) bool {
	return err != nil && (errors.Is(err, vault.ErrFrontmatter) || errors.Is(err, vault.ErrNoFrontmatter) ||
		errors.Is(err, vault.ErrTooLarge) || errors.Is(err, vault.ErrInvalidPath) || errors.Is(err, vault.ErrNotPage))
}

// supersededBy is what a record superseded by the record name says of it.
func supersededBy(name string, now time.Time) map[string]any {
	return map[string]any{"status": string(StatusSuperseded), "superseded_by": "[[" + name + "]]", "updated": now.UTC().Format(timeFormat)}
}

// Unsuperseded is a record another one supersedes whose page still says
// otherwise: a filing stopped between the two writes (the next filing
// finishes it), or the page's frontmatter cannot be edited in place
// (Why says why, and a person fixes it).
type Unsuperseded struct {
	Record Record
	Newer  string // the superseding record's name
	Why    string // why parley cannot edit it; "" when it can
}

// Unsuperseded lists the records another record supersedes whose pages
// do not say so.
func (s *Store) Unsuperseded(ctx context.Context) ([]Unsuperseded, error) {
	return retryLost(ctx, s, func() ([]Unsuperseded, error) { return s.unsuperseded(ctx) })
}

func (s *Store) unsuperseded(ctx context.Context) ([]Unsuperseded, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.refresh(ctx); err != nil {
		return nil, err
	}
	keys, err := s.repairKeys(ctx)
	if err != nil {
		return nil, err
	}
	var out []Unsuperseded
	for _, key := range keys {
		for r, newer := range unrepaired(s.chain(key)) {
			u := Unsuperseded{Record: *r, Newer: newer.Name}
			data, _, err := s.dir.ReadFile(r.Name + ".md")
			if err == nil {
				_, err = vault.EditFrontmatter(data, vault.Frontmatter{{Key: "status", Value: string(StatusSuperseded)}})
			}
			if err != nil {
				u.Why = err.Error()
			}
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(a, b Unsuperseded) int { return strings.Compare(a.Record.Name, b.Record.Name) })
	return out, nil
}

// repairKeys are the questions whose chains the index found a record of
// not marked superseded by its successor (recomputeHead), in order.
// Callers hold s.mu.
func (s *Store) repairKeys(ctx context.Context) ([]string, error) {
	rows, err := s.idx.db.QueryContext(ctx, `SELECT qkey FROM repairs ORDER BY qkey`)
	if err != nil {
		return nil, s.indexErr(err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if rows.Scan(&k) == nil {
			keys = append(keys, k)
		}
	}
	return keys, rows.Err()
}

// rewrite changes some of parley's frontmatter keys of a record and keeps
// every other byte of the page: the user's keys and values exactly as
// written (nested, aliased, commented, in any style), their order and the
// body (vault.EditFrontmatter).
func (s *Store) rewrite(name string, set map[string]any) error {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fm := make(vault.Frontmatter, 0, len(keys))
	for _, k := range keys {
		fm = append(fm, vault.Field{Key: k, Value: set[k]})
	}
	return s.v.UpdateFrontmatter(Folder+"/"+name+".md", fm)
}

// IndexPageRows is how many records the index page lists, newest first.
const IndexPageRows = 500

// writeIndexPage rewrites wiki/consensus/consensus-records.md from the
// index: one row per record, newest first, at most IndexPageRows.
func (s *Store) writeIndexPage(now time.Time) error {
	now = now.UTC()
	total, active := int(s.df(context.Background(), "#docs")), int(s.df(context.Background(), "#active"))
	created := now.Format(timeFormat)
	if data, _, err := s.dir.ReadFile(IndexName); err == nil {
		var old struct {
			Created string `yaml:"created"`
		}
		if _, err := vault.DecodeFrontmatter(data, &old); err == nil && old.Created != "" {
			created = old.Created
		}
	}
	fm := vault.Frontmatter{
		{Key: "type", Value: "index"},
		{Key: "title", Value: "Consensus Records"},
		{Key: "created", Value: created},
		{Key: "updated", Value: now.Format(timeFormat)},
		{Key: "status", Value: "active"},
		{Key: "tags", Value: []string{"consensus", "debate", "alignment", "index"}},
	}
	var head strings.Builder
	head.WriteString("# Consensus Records\n\n")
	head.WriteString("Permanent alignment records of every debate verdict: win, lose, deadlock or timeout. ")
	head.WriteString("Before deciding, check whether a filed consensus settles the question:\n\n")
	head.WriteString("```sh\nparley consensus check --layer LAYER --topic TOPIC --position POSITION\n```\n\n")
	head.WriteString("It exits 3 when the position contradicts an active consensus. parley rewrites this page on every filing; edits to it are lost.\n\n")
	fmt.Fprintf(&head, "%d record(s), %d active.\n\n", total, active)
	head.WriteString("| Date | Layer | Topic | Verdict | Status |\n|------|-------|-------|---------|--------|\n")
	var rows strings.Builder
	budget := vault.MaxPageBytes - 8<<10 - head.Len()
	listed := 0
	// Newest first, by the files_created index: at most IndexPageRows
	// rows, so that a filing costs the same in a vault of any size.
	q, err := s.idx.db.Query(`SELECT date, layer, substr(name, 1, length(name) - 3), topic, verdict, status FROM files
		WHERE qkey IS NOT NULL ORDER BY created DESC, name LIMIT ?`, IndexPageRows)
	if err != nil {
		return s.indexErr(err)
	}
	for q.Next() {
		var r Record
		if q.Scan(&r.Date, &r.Layer, &r.Name, &r.Topic, &r.Verdict, &r.Status) != nil {
			continue
		}
		row := fmt.Sprintf("| %s | %s | %s | %s | %s |\n", inline(r.Date, 20), r.Layer, indexLink(r.Name, r.Topic), r.Verdict, r.Status)
		if rows.Len()+len(row) > budget {
			break
		}
		rows.WriteString(row)
		listed++
	}
	q.Close()
	body := head.String() + rows.String()
	if listed < total {
		body += fmt.Sprintf("\n%d older record(s) are not listed on this page; `parley consensus list` shows them all.\n", total-listed)
	}
	if skipped := s.skippedFiles(); len(skipped) > 0 {
		body += fmt.Sprintf("\n%d file(s) in this folder are not valid records and are skipped by lookup; `parley consensus list` names them.\n", len(skipped))
	}
	if err := s.v.WritePage(Folder+"/"+IndexName, fm, []byte(body)); err != nil {
		return &RecordError{Op: "index", Path: Folder + "/" + IndexName, Err: err}
	}
	return nil
}

// indexLink is the index page's link to the record of file name (without
// ".md") and topic, in a table cell: a wikilink [[name|topic]], or, for a
// file a person named with characters a wikilink cannot hold ("ADR
// #12", "spec-x [draft]": vault.Linkable), a Markdown link to its
// percent-encoded file name, which Obsidian resolves as it is.
func indexLink(name, topic string) string {
	if vault.Linkable(name) {
		return "[[" + name + "\\|" + linkAlias(topic) + "]]"
	}
	return "[" + vault.EscapeInline(linkAlias(topic)) + "](" + url.PathEscape(name+".md") + ")"
}

// linkAlias makes a topic safe as the alias of a wikilink inside a table
// cell: one line, no brackets or pipes, at most 120 runes.
func linkAlias(topic string) string {
	r := strings.NewReplacer("[", "(", "]", ")", "|", "/", "\\", "/")
	s := strings.Join(strings.Fields(r.Replace(strings.ToValidUTF8(topic, "\uFFFD"))), " ")
	var b strings.Builder
	for _, c := range s {
		if c >= 0x20 && c != 0x7f && c != '\u2028' && c != '\u2029' && c != '\uFFFD' {
			b.WriteRune(c)
		}
	}
	return orText(clip.Runes(b.String(), 120), "(untitled)")
}
