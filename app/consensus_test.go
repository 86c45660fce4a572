package app

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/debate"
)

// fileRecords opens the App's consensus store and files one record per
// outcome (no debate behind them: their seals cannot be checked).
func fileRecords(t testing.TB, a *App, outcomes ...*debate.Outcome) *Consensus {
	t.Helper()
	c, err := a.OpenConsensus()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for _, o := range outcomes {
		if _, err := c.Store().File(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// outcome is a reached consensus on topic, in the spec layer.
func outcome(id, topic, position string) *debate.Outcome {
	return &debate.Outcome{
		DebateID: id, Verdict: debate.ConsensusReached, Action: debate.ActionProceed, Rule: debate.RuleConceded,
		FinalPosition: position,
		Session: &debate.DebateSession{
			Topic: topic, Layer: debate.LayerSpec,
			Participants: []debate.Participant{{Name: "AmberOtter", Role: debate.RoleDefender}, {Name: "SlateHeron", Role: debate.RoleAttacker}},
		},
	}
}

// uploadSizeCap is the record most lookup tests file beside the one they
// are about.
func uploadSizeCap() *debate.Outcome {
	return outcome("20261201-spec-upload-size-cap-m4n5b6", "Upload size cap", "Uploads stop at 50 MB")
}

// recordsDir is the folder of a's consensus records.
func recordsDir(a *App) string { return filepath.Join(a.Vault(), "wiki", "consensus") }

func newApp(t testing.TB) *App {
	dir := t.TempDir()
	return New(Options{Root: filepath.Join(dir, "root"), Vault: filepath.Join(dir, "vault")})
}

// A record is found by its name, its file name, its wikilink, its debate
// id, or a unique prefix of a name or an id; a prefix several share is
// ambiguous, naming them, which is also "not there".
func TestShowResolvesNamesAndPrefixes(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a,
		outcome("20261201-spec-session-cookie-lifetime-q7w2ea", "Session cookie lifetime", "Session cookies last eight hours"),
		outcome("20261201-spec-session-storage-x3k5pa", "Session storage backend", "Sessions live in Redis"),
		uploadSizeCap())
	ctx := context.Background()
	for _, arg := range []string{
		"spec-upload-size-cap", "spec-upload-size-cap.md", "[[spec-upload-size-cap]]", "spec-upl",
		"20261201-spec-upload-size-cap-m4n5b6", "20261201-spec-upl",
	} {
		p, err := c.Show(ctx, arg)
		if err != nil {
			t.Errorf("Show(%q): %v", arg, err)
			continue
		}
		if p.Name != "spec-upload-size-cap" || p.FinalPosition != "Uploads stop at 50 MB" || !strings.Contains(p.Body, "50 MB") {
			t.Errorf("Show(%q) = %s %q", arg, p.Name, p.FinalPosition)
		}
		if p.File != filepath.Join(a.Vault(), "wiki", "consensus", "spec-upload-size-cap.md") {
			t.Errorf("Show(%q).File = %s", arg, p.File)
		}
	}
	for arg, what := range map[string]string{"spec-session": "record", "20261201-spec-session": "debate"} {
		_, err := c.Show(ctx, arg)
		if !IsProblem(err, ProblemAmbiguous) || !strings.Contains(err.Error(), "2 "+what+"s") || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Show(%q): %v, want an ambiguous %s of 2", arg, err, what)
		}
	}
	if _, err := c.Show(ctx, "spec-rate-limits"); !errors.Is(err, consensus.ErrNoRecord) {
		t.Errorf("Show of no record: %v", err)
	}
	var ie *Error
	if _, err := c.Show(ctx, "  "); !errors.As(err, &ie) || ie.Field != "name" || ie.Problem != ProblemMissing {
		t.Errorf("Show of a blank name: %v", err)
	}
}

// A record's name is found in any case, as Obsidian finds a note by its
// name ("[[Spec-Upload-Size-Cap]]" opens spec-upload-size-cap.md): by its
// name, file name (".md" in any case), wikilink, vault path, prefix or
// debate id. A name equal
// to one record ignoring case is that record, not a prefix of another.
func TestShowIgnoresCase(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a,
		uploadSizeCap(),
		outcome("20261201-spec-upload-size-cap-for-admins-k2j3h4", "Upload size cap for admins", "Admins upload up to 2 GB"))
	ctx := context.Background()
	for _, arg := range []string{
		"SPEC-UPLOAD-SIZE-CAP", "Spec-Upload-Size-Cap.md", "[[Spec-Upload-Size-Cap|the cap]]",
		"wiki/consensus/Spec-Upload-Size-Cap.md", "20261201-SPEC-UPLOAD-SIZE-CAP-M4N5B6",
		// The extension in any case too (a name typed with caps lock on,
		// a link copied from a file manager that shows ".MD").
		"spec-upload-size-cap.MD", "[[Spec-Upload-Size-Cap.MD]]", "wiki/consensus/SPEC-UPLOAD-SIZE-CAP.Md",
	} {
		p, err := c.Show(ctx, arg)
		if err != nil {
			t.Errorf("Show(%q): %v", arg, err)
			continue
		}
		if p.Name != "spec-upload-size-cap" {
			t.Errorf("Show(%q) = %s, want spec-upload-size-cap", arg, p.Name)
		}
	}
	if p, err := c.Show(ctx, "Spec-Upload-Size-Cap-F"); err != nil || p.Name != "spec-upload-size-cap-for-admins" {
		t.Errorf("Show of a prefix in another case: %v, %v", p, err)
	}
}

// What the user must correct comes back as an *Error of a request's
// mistake (missing or invalid) naming the field, for every front end to
// word; nothing is looked up.
func TestConsensusRefusesBadInput(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a, uploadSizeCap())
	ctx := context.Background()
	field := func(err error) string {
		var ie *Error
		if !errors.As(err, &ie) || (ie.Problem != ProblemMissing && ie.Problem != ProblemInvalid) {
			return "(not a refused request)"
		}
		return ie.Field
	}
	checks := map[string]struct {
		in   CheckInput
		want string
	}{
		"no layer":        {CheckInput{Topic: "Upload size cap", Position: "50 MB"}, ""},
		"blank topic":     {CheckInput{Layer: "spec", Topic: " \t", Position: "50 MB"}, ""},
		"unknown layer":   {CheckInput{Layer: "code", Topic: "Upload size cap", Position: "50 MB"}, "layer"},
		"empty meaning":   {CheckInput{Layer: "spec", Topic: "Upload size cap", Position: "?! …"}, ""},
		"a control layer": {CheckInput{Layer: "spec\x1b[2J", Topic: "Upload size cap", Position: "50 MB"}, "layer"},
	}
	for name, tc := range checks {
		_, err := c.Check(ctx, tc.in)
		if err == nil || field(err) != tc.want {
			t.Errorf("%s: %v (field %q), want a refusal of %q", name, err, field(err), tc.want)
		}
	}
	searches := map[string]struct {
		in   SearchInput
		want string
	}{
		"no query":        {SearchInput{Query: " ", Limit: 5}, "query"},
		"zero limit":      {SearchInput{Query: "upload", Limit: 0}, "limit"},
		"unknown verdict": {SearchInput{Query: "upload", Limit: 5, RecordQuery: RecordQuery{Verdict: "MAYBE"}}, "verdict"},
		"unknown status":  {SearchInput{Query: "upload", Limit: 5, RecordQuery: RecordQuery{Status: "stale"}}, "status"},
	}
	for name, tc := range searches {
		_, err := c.Search(ctx, tc.in)
		if err == nil || field(err) != tc.want {
			t.Errorf("%s: %v, want a refusal of %q", name, err, tc.want)
		}
	}
}

// Check gives the whole answer as data: the record, its file, the
// differences, the related records rounded as every front end shows
// them; and, opened by the App, it says when a record's debate is not
// there to vouch for it rather than trusting it silently.
func TestCheckResultIsTheWholeAnswer(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a,
		uploadSizeCap(),
		outcome("20261201-spec-upload-formats-r2t5ya", "Which upload formats are accepted?", "PNG and JPEG only"))
	res, err := c.Check(context.Background(), CheckInput{Layer: "spec", Topic: "The upload size cap", Position: "Uploads stop at 80 MB"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != consensus.CheckConflict || res.Record != "wiki/consensus/spec-upload-size-cap.md" || res.FinalPosition != "Uploads stop at 50 MB" {
		t.Fatalf("check = %+v", res)
	}
	if res.File != filepath.Join(a.Vault(), "wiki", "consensus", "spec-upload-size-cap.md") {
		t.Errorf("file %s", res.File)
	}
	if len(res.Differences) == 0 || !strings.Contains(strings.Join(res.Differences, " "), "80") {
		t.Errorf("differences %q do not name the changed size", res.Differences)
	}
	if res.Unsealed == "" || !strings.Contains(res.Unsealed, "20261201-spec-upload-size-cap-m4n5b6") {
		t.Errorf("a record without its debate checked as sealed: %q", res.Unsealed)
	}
	for _, r := range res.Related {
		if r.Score != round3(r.Score) {
			t.Errorf("related score %v not rounded", r.Score)
		}
	}

	// A near miss (another object in the same place) is none, with the
	// record it nearly asked among the related ones and how close it
	// came as the question.
	miss, err := c.Check(context.Background(), CheckInput{Layer: "spec", Topic: "Download size cap", Position: "Downloads stop at 50 MB"})
	if err != nil {
		t.Fatal(err)
	}
	if miss.Status != consensus.CheckNone || miss.Record != "" || len(miss.Related) == 0 {
		t.Fatalf("near miss = %+v", miss)
	}
	if r := miss.Related[0]; r.Record != "wiki/consensus/spec-upload-size-cap.md" || r.TopicScore <= 0 || r.TopicScore >= consensus.TopicThreshold {
		t.Errorf("near miss related %+v: want the upload record with its topic score below %v", r, consensus.TopicThreshold)
	}

	// The same store wrapped by a server (ConsensusOf) gives the same
	// answer, without the seal check it was opened without.
	res2, err := ConsensusOf(c.Store()).Check(context.Background(), CheckInput{Layer: "spec", Topic: "The upload size cap", Position: "Uploads stop at 80 MB"})
	if err != nil || res2.Status != res.Status || res2.Record != res.Record {
		t.Errorf("ConsensusOf: %+v %v", res2, err)
	}
	if _, err := ConsensusOf(c.Store()).FileFrom(context.Background(), "20261201-spec-upload-size-cap-m4n5b6"); err == nil {
		t.Error("FileFrom without an App filed")
	}
}

// A default vault that is gone after a debate under the root filed its
// record there (removed, or moved away without --vault following it) is
// not made again, empty, by a call that only reads: an empty vault would
// answer "none" to the question the record settled. A root that never
// filed anything still gets its default vault.
func TestReadConsensusDoesNotRemakeAGoneVault(t *testing.T) {
	t.Parallel()
	debateWith := func(t *testing.T, root, id, verdict string) {
		t.Helper()
		dir := filepath.Join(root, "debates", id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "verdict.json"), []byte(verdict), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("filed", func(t *testing.T) {
		t.Parallel()
		root := filepath.Join(t.TempDir(), "root")
		debateWith(t, root, "20261201-spec-upload-size-cap-m4n5b6", `{"debate_id":"20261201-spec-upload-size-cap-m4n5b6","verdict":"CONSENSUS_REACHED","record":"wiki/consensus/spec-upload-size-cap.md"}`)
		a := New(Options{Root: root})
		c, err := a.ReadConsensus()
		if err == nil {
			c.Close()
		}
		if !errors.Is(err, ErrNoVault) || !strings.Contains(err.Error(), "20261201-spec-upload-size-cap-m4n5b6") || !strings.Contains(err.Error(), "wiki/consensus/spec-upload-size-cap.md") {
			t.Errorf("ReadConsensus with the vault gone: %v, want ErrNoVault naming the debate and its record", err)
		}
		if _, err := os.Stat(a.Vault()); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the vault was made again: %v", err)
		}
	})
	t.Run("never filed", func(t *testing.T) {
		t.Parallel()
		root := filepath.Join(t.TempDir(), "root")
		// A debate that ended unavailable files nothing.
		debateWith(t, root, "20261201-spec-upload-size-cap-m4n5b6", `{"debate_id":"20261201-spec-upload-size-cap-m4n5b6","verdict":"UNAVAILABLE","record":""}`)
		a := New(Options{Root: root})
		c, err := a.ReadConsensus()
		if err != nil {
			t.Fatalf("ReadConsensus of a root that filed nothing: %v", err)
		}
		defer c.Close()
		if recs, err := c.List(context.Background(), RecordQuery{}); err != nil || len(recs) != 0 {
			t.Errorf("List = %v, %v, want no records", recs, err)
		}
	})
}

// A path names the record in it: one into another folder (an archive/
// under the records folder, the debates' pages, a note elsewhere) is no
// record, rather than the record of the same name in wiki/consensus/.
func TestShowTakesAPathAsAPath(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a, uploadSizeCap())
	ctx := context.Background()
	records := recordsDir(a)
	if err := os.MkdirAll(filepath.Join(records, "archive"), 0o700); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(records, "spec-upload-size-cap.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(records, "archive", "spec-upload-size-cap.md"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"wiki/consensus/archive/spec-upload-size-cap.md", "[[archive/spec-upload-size-cap]]", "notes/spec-upload-size-cap", "wiki/debates/spec-upload-size-cap.md"} {
		if p, err := c.Show(ctx, arg); !errors.Is(err, consensus.ErrNoRecord) {
			t.Errorf("Show(%q) = %v, %v; want no record", arg, p, err)
		}
	}
	for _, arg := range []string{"wiki/consensus/spec-upload-size-cap.md", "[[consensus/spec-upload-size-cap]]", "./spec-upload-size-cap.md", filepath.Join(records, "spec-upload-size-cap.md")} {
		if p, err := c.Show(ctx, arg); err != nil || p.Name != "spec-upload-size-cap" {
			t.Errorf("Show(%q) = %v, %v; want the record", arg, p, err)
		}
	}
}

// A plan debated twice: the second record supersedes the first. The
// first record removed by hand, filing its debate again (consensus file
// --from-debate) wrote a new record at the head of the question, which
// did not match the first debate's seal (tampered) and flipped the second
// debate's record to superseded, so the question's answer became a
// tampered record of the older decision. Now it writes nothing and says
// to put the sealed file back; the newer record still answers.
func TestFileFromASealedDebateWhoseRecordIsGone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := New(Options{Root: filepath.Join(dir, "root")})
	runAgent(t, a, "Skeptic", debate.RoleAttacker, yieldingCritic)
	runAgent(t, a, "Planner", debate.RoleDefender, adjustingDefender)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var outcomes []*debate.Outcome
	for _, pos := range []string{"Compact the log every hour", "Compact the log every day"} {
		s, err := a.NewSession(ctx, DebateRequest{Layer: "plan", Topic: "Log compaction", Position: pos,
			Agents: []string{"attacker=@Skeptic", "defender=@Planner"}, Workspace: dir})
		if err != nil {
			t.Fatal(err)
		}
		o, err := a.RunDebate(ctx, s, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		outcomes = append(outcomes, o)
	}
	first, second := outcomes[0], outcomes[1]
	if first.Record != "wiki/consensus/plan-log-compaction.md" || second.Record != "wiki/consensus/plan-log-compaction-2.md" {
		t.Fatalf("records %s, %s", first.Record, second.Record)
	}
	folder := filepath.Join(a.Vault(), "wiki", "consensus")
	newer, err := os.ReadFile(filepath.Join(folder, "plan-log-compaction-2.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(a.Vault(), filepath.FromSlash(first.Record))); err != nil {
		t.Fatal(err)
	}

	c, err := a.OpenConsensus()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.FileFrom(ctx, first.DebateID)
	if !errors.Is(err, consensus.ErrSealedRecordGone) || !strings.Contains(err.Error(), first.Record) {
		t.Fatalf("filing again a debate whose sealed record is gone: %v", err)
	}
	ents, err := os.ReadDir(folder)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 2 { // the newer record and the index page
		t.Errorf("files in the records folder: %v", ents)
	}
	if b, err := os.ReadFile(filepath.Join(folder, "plan-log-compaction-2.md")); err != nil || string(b) != string(newer) {
		t.Errorf("the newer record changed: %v\n%s", err, b)
	}
	res, err := c.Check(ctx, CheckInput{Layer: "plan", Topic: "Log compaction", Position: second.FinalPosition})
	if err != nil || res.Status != consensus.CheckConsistent || !strings.HasSuffix(res.Record, "plan-log-compaction-2.md") {
		t.Errorf("check after the refusal: %+v %v", res, err)
	}
	// The newer debate, whose record is there, files again as before.
	if f, err := c.FileFrom(ctx, second.DebateID); err != nil || f.Record != second.Record {
		t.Errorf("filing the newer debate again: %+v %v", f, err)
	}
}

// Showing one record costs a lookup of its name, not a check of every
// record in the vault: with thousands of records, "consensus show NAME"
// checked and re-read every file that had changed, and unmarshalled every
// record, to find the one named (about a second and 120 MB at 30,000
// records). Records edited since the last lookup are not read to show
// another, whether it is named whole, by its debate id or by a prefix.
func TestShowReadsNoOtherRecord(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a,
		outcome("20261201-spec-session-cookie-lifetime-q7w2ea", "Session cookie lifetime", "Session cookies last eight hours"),
		outcome("20261201-spec-session-storage-x3k5pa", "Session storage backend", "Sessions live in Redis"),
		uploadSizeCap())
	ctx := context.Background()
	if _, err := c.Show(ctx, "spec-upload-size-cap"); err != nil {
		t.Fatal(err)
	}
	records := recordsDir(a)
	for _, name := range []string{"spec-session-cookie-lifetime.md", "spec-session-storage-backend.md"} {
		f, err := os.OpenFile(filepath.Join(records, name), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("\nA note of my own.\n"); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for _, arg := range []string{"spec-upload-size-cap", "20261201-spec-upload-size-cap-m4n5b6", "spec-upl", "Spec-Upload-Size-Cap"} {
		before := c.Store().FilesRead()
		p, err := c.Show(ctx, arg)
		if err != nil || p.Name != "spec-upload-size-cap" {
			t.Fatalf("Show(%q) = %v, %v", arg, p, err)
		}
		if n := c.Store().FilesRead() - before; n != 0 {
			t.Errorf("Show(%q) read %d other record(s)", arg, n)
		}
	}
}

// A record file that lookups skip (frontmatter a hand edit broke, a
// symbolic link) is named by a prefix as by its whole name: Show says why
// it cannot be read, rather than that there is no such record.
func TestShowSaysWhyAPrefixsRecordIsSkipped(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a,
		outcome("20261201-spec-cache-warmup-q7w2ea", "Cache warmup", "Warm the cache at deploy"),
		uploadSizeCap())
	ctx := context.Background()
	records := recordsDir(a)
	broken := filepath.Join(records, "spec-upload-quota.md")
	data, err := os.ReadFile(filepath.Join(records, "spec-upload-size-cap.md"))
	if err != nil {
		t.Fatal(err)
	}
	// A quote left open by hand.
	data = []byte(strings.Replace(string(data), `topic: "Upload size cap"`, `topic: "Upload size cap`, 1))
	if err := os.WriteFile(broken, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("spec-upload-size-cap.md", filepath.Join(records, "spec-linked.md")); err != nil {
		t.Fatal(err)
	}
	for arg, why := range map[string]string{
		"spec-upload-quota": "spec-upload-quota.md: not a consensus record: invalid frontmatter", "spec-upload-q": "spec-upload-quota.md: not a consensus record: invalid frontmatter",
		"SPEC-UPLOAD-Q": "spec-upload-quota.md: not a consensus record: invalid frontmatter",
		"spec-linked":   "spec-linked.md: not a regular page file: it is a symbolic link", "spec-lin": "spec-linked.md: not a regular page file: it is a symbolic link",
	} {
		p, err := c.Show(ctx, arg)
		if err == nil || !strings.Contains(err.Error(), why) || errors.Is(err, consensus.ErrNoRecord) {
			t.Errorf("Show(%q) = %v, %v; want the file and why it is skipped (%s)", arg, p, err, why)
		}
	}
	if p, err := c.Show(ctx, "spec-cache"); err != nil || p.Name != "spec-cache-warmup" {
		t.Errorf("Show of a prefix of a good record = %v, %v", p, err)
	}
}

// A record's name is found whichever Unicode form spells its accents, as
// the vault's links find it: a record renamed on a Mac, or synced from
// one, has "é" as "e" and a combining accent in its file name, and the
// name typed on a keyboard has it as one letter (and the other way
// round).
func TestShowFindsANameInEitherUnicodeForm(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a,
		outcome("20261201-spec-cache-decision-q7w2ea", "Cache decision", "Cache for five minutes"),
		uploadSizeCap())
	ctx := context.Background()
	records := recordsDir(a)
	const decomposed, composed = "Cache de\u0301cision", "Cache d\u00e9cision"
	if err := os.Rename(filepath.Join(records, "spec-cache-decision.md"), filepath.Join(records, decomposed+".md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(records, "spec-upload-size-cap.md"), filepath.Join(records, "Upload r\u00e8gle.md")); err != nil {
		t.Fatal(err)
	}
	for arg, want := range map[string]string{
		composed: decomposed, composed + ".md": decomposed, "[[" + composed + "]]": decomposed, "cache d\u00e9": decomposed, "CACHE D\u00c9CISION": decomposed,
		"Upload re\u0300gle": "Upload r\u00e8gle", "upload re\u0300": "Upload r\u00e8gle",
	} {
		p, err := c.Show(ctx, arg)
		if err != nil || p.Name != want {
			t.Errorf("Show(%q) = %v, %v; want %q", arg, p, err, want)
		}
	}
}

// An absolute path names the file at that path: one into another vault's
// records folder (a path copied from another project's output) is no
// record of this vault, rather than this vault's record of the same name,
// shown with exit 0 as if it were the one asked for. A path into this
// vault's records folder, also through a symbolic link, is its record.
func TestShowOfAPathIntoAnotherVaultIsNoRecord(t *testing.T) {
	t.Parallel()
	here, other := newApp(t), newApp(t)
	c := fileRecords(t, here, uploadSizeCap())
	fileRecords(t, other, outcome("20261202-spec-upload-size-cap-k2j3h4", "Upload size cap", "Uploads stop at 10 MB"))
	ctx := context.Background()
	elsewhere := filepath.Join(other.Vault(), "wiki", "consensus", "spec-upload-size-cap.md")
	for _, arg := range []string{elsewhere, "[[" + elsewhere + "]]", filepath.Join(t.TempDir(), "wiki", "consensus", "spec-upload-size-cap.md")} {
		p, err := c.Show(ctx, arg)
		if !errors.Is(err, consensus.ErrNoRecord) || !strings.Contains(err.Error(), "is not in this vault's records folder") {
			t.Errorf("Show(%q) = %v, %v; want no record of this vault", arg, p, err)
		}
	}
	link := filepath.Join(t.TempDir(), "vault-link")
	if err := os.Symlink(here.Vault(), link); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{filepath.Join(here.Vault(), "wiki", "consensus", "spec-upload-size-cap.md"), filepath.Join(link, "wiki", "consensus", "spec-upload-size-cap.md")} {
		if p, err := c.Show(ctx, arg); err != nil || p.FinalPosition != "Uploads stop at 50 MB" {
			t.Errorf("Show(%q) = %v, %v; want this vault's record", arg, p, err)
		}
	}
}

// check --json names the record it answers from as list, show and search
// name a record: the same key holds the same thing in every answer about
// a record, so a script reads the path of either the same way.
func TestCheckNamesItsRecordAsListDoes(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c := fileRecords(t, a,
		outcome("20261201-spec-upload-size-cap-m4n5b6", "Upload size cap", "Uploads stop at 50 MB"),
		outcome("20261201-spec-upload-formats-r2t5ya", "Which upload formats are accepted?", "PNG and JPEG only"))
	ctx := context.Background()
	recs, err := c.List(ctx, RecordQuery{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]map[string]any{}
	for _, r := range recs {
		listed[r.Name] = jsonObject(t, r)
	}
	res, err := c.Check(ctx, CheckInput{Layer: "spec", Topic: "The upload size cap", Position: "Uploads stop at 80 MB"})
	if err != nil {
		t.Fatal(err)
	}
	got := jsonObject(t, res)
	want := listed["spec-upload-size-cap"]
	for _, key := range []string{"name", "path", "topic", "debate_id", "verdict", "final_position"} {
		if got[key] != want[key] || want[key] == nil {
			t.Errorf("check --json %s = %v, list --json %s = %v", key, got[key], key, want[key])
		}
	}
	if got["record"] != want["path"] || got["record_topic"] != want["topic"] {
		t.Errorf("the documented record and record_topic changed: %v %v", got["record"], got["record_topic"])
	}
	miss, err := c.Check(ctx, CheckInput{Layer: "spec", Topic: "Download size cap", Position: "Downloads stop at 50 MB"})
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := jsonObject(t, miss)["related"].([]any)
	if len(rel) == 0 {
		t.Fatalf("no related records: %v", got)
	}
	for _, r := range rel {
		r := r.(map[string]any)
		name, _ := r["name"].(string)
		if listed[name] == nil || r["path"] != listed[name]["path"] || r["record"] != r["path"] {
			t.Errorf("related %v: want the name and path list gives", r)
		}
	}
}

func jsonObject(t testing.TB, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
