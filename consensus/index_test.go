package consensus

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/filesig"
)

// agreed is a closed debate that agreed on position.
func agreed(id, topic, position string) *debate.Outcome {
	o := outcome(id, topic, debate.LayerPlan, debate.ConsensusReached, false)
	o.DefenderPosition, o.FinalPosition, o.FinalPositionHash = position, position, debate.PositionHash(position)
	return o
}

func mustCheck(t *testing.T, s *Store, topic, position string) *CheckResult {
	t.Helper()
	res, err := s.Check(context.Background(), debate.LayerPlan, topic, position)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// editInPlace rewrites a vault file the way Obsidian saves a note: the
// same file, truncated and written again (its folder does not change).
func (e *env) editInPlace(t *testing.T, p, old, new string) {
	t.Helper()
	full := filepath.Join(e.vaultDir, filepath.FromSlash(p))
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not hold %q", p, old)
	}
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.ReplaceAll(string(data), old, new)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Another process's Store, warmed before the vault changes, sees every
// change at its next check: a filing, a supersession, a record edited in
// place by hand (same size), its status edited by hand, a record saved
// by an editor that writes a new file and renames it over the old one, a
// record created and one deleted by hand.
func TestIndexSeesEveryChangeAtTheNextCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := e.open(t)
	const topic = "Upload size cap for avatars"
	if res := mustCheck(t, other, topic, "Reject avatar uploads above 25 MB"); res.Status != CheckNone {
		t.Fatalf("empty vault: %v", res.Status)
	}

	e.file(t, agreed("20261130-plan-avatars-aaaaaa", topic, "Reject avatar uploads above 25 MB"))
	if res := mustCheck(t, other, topic, "Reject avatar uploads above 25 MB"); res.Status != CheckConsistent {
		t.Fatalf("after a filing: %v", res.Status)
	}

	p2 := e.file(t, agreed("20261201-plan-avatars-bbbbbb", topic, "Reject avatar uploads above 40 MB"))
	res := mustCheck(t, other, topic, "Reject avatar uploads above 25 MB")
	if res.Status != CheckConflict || res.Record == nil || res.Record.Path != p2 {
		t.Fatalf("after a supersession: %v %+v", res.Status, res.Record)
	}

	// Obsidian: the same file rewritten, here with the same size.
	e.editInPlace(t, p2, "above 40 MB", "above 60 MB")
	for name, s := range map[string]*Store{"other": other, "filer": e.s} {
		res := mustCheck(t, s, topic, "Reject avatar uploads above 60 MB")
		if res.Status != CheckConsistent || res.Record.FinalPosition != "Reject avatar uploads above 60 MB" {
			t.Errorf("%s store, after an edit in place: %v %q", name, res.Status, res.Record.FinalPosition)
		}
	}

	// A status edited by hand is seen; nothing supersedes the record, so
	// it stays the question's record (the seal check, absent here, calls
	// it tampered) rather than leaving the question unanswered.
	e.editInPlace(t, p2, `status: "active"`, `status: "superseded"`)
	if res := mustCheck(t, other, topic, "Reject avatar uploads above 60 MB"); res.Record == nil || res.Record.Path != p2 || res.Record.Status != StatusSuperseded {
		t.Errorf("after its status was edited by hand: %v %+v", res.Status, res.Record)
	}
	e.editInPlace(t, p2, `status: "superseded"`, `status: "active"`)

	// An editor that saves by writing a new file and renaming it over.
	full := filepath.Join(e.vaultDir, filepath.FromSlash(p2))
	data, _ := os.ReadFile(full)
	tmp := full + ".swp"
	if err := os.WriteFile(tmp, []byte(strings.ReplaceAll(string(data), "above 60 MB", "above 75 MB")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, full); err != nil {
		t.Fatal(err)
	}
	if res := mustCheck(t, other, topic, "Reject avatar uploads above 75 MB"); res.Status != CheckConsistent {
		t.Errorf("after a save by rename: %v", res.Status)
	}

	// A record created by hand, under a name and topic of its own.
	const handTopic = "Thumbnail cache lifetime"
	hand := strings.NewReplacer("Upload size cap for avatars", handTopic, "above 75 MB", "for 7 days",
		"plan-avatars-bbbbbb", "plan-thumbs-cccccc").Replace(string(data))
	hand = strings.ReplaceAll(hand, "Reject avatar uploads above 60 MB", "Keep thumbnails for 7 days")
	e.page(t, Folder+"/plan-thumbnail-cache-lifetime.md", hand)
	res = mustCheck(t, other, handTopic, "Keep thumbnails for 7 days")
	if res.Record == nil || res.Record.Name != "plan-thumbnail-cache-lifetime" {
		t.Errorf("a record created by hand: %v %+v", res.Status, res.Record)
	}

	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	res = mustCheck(t, other, topic, "Reject avatar uploads above 75 MB")
	if res.Record != nil && res.Record.Path == p2 {
		t.Errorf("a deleted record still answers: %v", res.Status)
	}
}

// Filing into a settled vault neither lists nor re-reads the records
// folder: its cost does not grow with the vault, and the next lookup does
// not list it either.
func TestFilingDoesNotScanTheFolder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	var batch []*debate.Outcome
	for i := range 60 {
		batch = append(batch, agreed(fmt.Sprintf("20261130-plan-batch%d-aaaaaa", i), fmt.Sprintf("Retry budget for queue %d", i), "Retry three times"))
	}
	if _, err := e.s.FileAll(ctx, batch); err != nil {
		t.Fatal(err)
	}
	mustCheck(t, e.s, "Retry budget for queue 3", "Retry three times")
	time.Sleep(2 * filesig.FineMargin)
	mustCheck(t, e.s, "Retry budget for queue 4", "Retry three times")
	listed, reads := e.s.idx.listings, e.s.FilesRead()

	e.file(t, agreed("20261201-plan-single-bbbbbb", "Retry budget for the mailer", "Retry five times"))
	if res := mustCheck(t, e.s, "Retry budget for the mailer", "Retry five times"); res.Status != CheckConsistent {
		t.Fatalf("the new record: %v", res.Status)
	}
	if e.s.idx.listings != listed {
		t.Errorf("a filing and the check after it listed the folder %d times", e.s.idx.listings-listed)
	}
	if n := e.s.FilesRead() - reads; n > 4 {
		t.Errorf("a filing and the check after it read %d record files", n)
	}
	// A new process after the filing does not list the folder either.
	fresh := e.open(t)
	mustCheck(t, fresh, "Retry budget for the mailer", "Retry five times")
	if fresh.idx.listings != 0 {
		t.Errorf("a new Store listed the folder %d times", fresh.idx.listings)
	}
}

// Import writes the records FileAll would, supersession chains included,
// and its index answers as a filed one does.
func TestImportMatchesFileAll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var outs []*debate.Outcome
	for i := range 12 {
		topic := fmt.Sprintf("Session lifetime for tier %d", i%5) // chains of two and three
		outs = append(outs, agreed(fmt.Sprintf("20261130-plan-imp%d-aaaaaa", i), topic, fmt.Sprintf("Expire sessions after %d hours", i+1)))
	}
	filed, imported := newEnv(t), newEnv(t)
	pf, err := filed.s.FileAll(ctx, outs)
	if err != nil {
		t.Fatal(err)
	}
	pi, err := imported.s.Import(ctx, outs)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pf, " ") != strings.Join(pi, " ") {
		t.Fatalf("paths differ:\n%v\n%v", pf, pi)
	}
	summary := func(s *Store) string {
		recs, err := s.Records(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range recs {
			fmt.Fprintf(&b, "%s %s %s %s %s\n", r.Name, r.Status, r.Supersedes, r.SupersededBy, r.FinalPosition)
		}
		return b.String()
	}
	if a, b := summary(filed.s), summary(imported.s); a != b {
		t.Errorf("records differ:\nfiled:\n%s\nimported:\n%s", a, b)
	}
	res := mustCheck(t, imported.s, "Session lifetime for tier 2", "Expire sessions after 13 hours")
	if res.Status != CheckConflict || res.Record.FinalPosition != "Expire sessions after 8 hours" {
		t.Errorf("check on the imported vault: %v %+v", res.Status, res.Record)
	}
	if _, err := imported.s.Import(ctx, outs[:1]); err != ErrNotEmpty {
		t.Errorf("a second import: %v", err)
	}
}

// The bounded topic lookup of a large vault (by the specific words' key,
// the intersection of all the words, the key less one word) answers the
// questions a small vault's lookup answers, the same way.
func TestBoundedTopicLookupAnswersAsTheFullOne(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	filed := map[string]string{
		"Thumbnail cache lifetime":                "Keep cached thumbnails for 7 days",
		"Retry budget for outgoing webhooks":      "Retry a failed webhook 5 times with exponential backoff",
		"Password reset token expiry":             "Reset tokens expire after 30 minutes",
		"Default page size of the orders export":  "Export orders in pages of 500 rows",
		"Which region stores EU customer backups": "EU backups stay in eu-west-1",
		"Log retention for the payments service":  "Keep payment logs for 90 days",
		"Invoice numbering scheme":                "Number invoices per tenant and year",
	}
	i := 0
	for topic, pos := range filed {
		e.file(t, agreed(fmt.Sprintf("20261130-plan-bounded%d-aaaaaa", i), topic, pos))
		i++
	}
	questions := []struct{ topic, position string }{
		{"Thumbnail cache lifetime", "Keep cached thumbnails for 7 days"},
		{"How long do we cache thumbnails?", "Cached thumbnails are kept for a week"},
		{"lifetime of the thumbnail cache", "Keep cached thumbnails for 14 days"},
		{"Retry budget for outgoing webhooks in the EU", "Retry a failed webhook 5 times"},
		{"Webhook retry budget", "Retry a failed webhook 3 times"},
		{"Expiry of password reset tokens", "Reset tokens expire after 30 minutes"},
		{"Password reset email wording", "Say who asked for the reset"},
		{"Page size of the orders export", "Export orders in pages of 500 rows"},
		{"Where are EU customer backups stored?", "EU backups stay in eu-west-1"},
		{"Retention of payments service logs", "Keep payment logs for 30 days"},
		{"Invoice numbering", "Number invoices per tenant"},
		{"Hero image format", "Serve hero images as AVIF"},
	}
	answer := func() []string {
		s := e.open(t)
		var out []string
		for _, q := range questions {
			res, err := s.Check(ctx, debate.LayerPlan, q.topic, q.position)
			if err != nil {
				t.Fatal(err)
			}
			name := ""
			if res.Record != nil {
				name = res.Record.Name
			}
			out = append(out, fmt.Sprintf("%s: %s %s", q.topic, res.Status, name))
		}
		return out
	}
	full := answer()
	defer func(old int64) { topicPostings = old }(topicPostings)
	topicPostings = 0
	bounded := answer()
	matched := 0
	for i := range full {
		if full[i] != bounded[i] {
			t.Errorf("full lookup %q, bounded lookup %q", full[i], bounded[i])
		}
		if !strings.Contains(full[i], " none ") && !strings.HasSuffix(full[i], "none ") {
			matched++
		}
	}
	if matched < 8 {
		t.Errorf("only %d of %d questions found their record:\n%s", matched, len(full), strings.Join(full, "\n"))
	}
}

// Opening a Store costs no database: a command that opens one and asks
// nothing of it (or only files through it later) never opens the index.
func TestOpenDoesNotOpenTheIndex(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := e.open(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.root, CacheFile)); !os.IsNotExist(err) {
		t.Errorf("Open and Close made %s: %v", CacheFile, err)
	}
	mustCheck(t, e.open(t), "Anything at all", "Some position")
	if _, err := os.Stat(filepath.Join(e.root, CacheFile)); err != nil {
		t.Errorf("the first lookup did not open the index: %v", err)
	}
}

// indexDump is what the index holds, in a stable order: every row of the
// files table but when it was read, the document frequencies and the
// questions to repair. It fails the test when a full-text table does not
// match the rows it indexes (FTS5's integrity-check reads both).
func indexDump(t *testing.T, s *Store) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	db := s.idx.db
	for _, ft := range []string{"search", "topics"} {
		if _, err := db.Exec(`INSERT INTO ` + ft + `(` + ft + `, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Errorf("%s does not match the rows it indexes: %v", ft, err)
		}
	}
	var b strings.Builder
	for _, q := range []string{
		`SELECT name, size, mtime_ns, skip, layer, qkey, debate_id, status, verdict, created, date, topic, topic_words, spec_key, terms, head, rec, text, topic_tokens FROM files ORDER BY name`,
		`SELECT term, n FROM df ORDER BY term`,
		`SELECT qkey FROM repairs ORDER BY qkey`,
		`SELECT count(*) FROM search WHERE search MATCH 'rollout'`,
		`SELECT count(*) FROM topics WHERE topics MATCH 'layer_plan'`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if x, ok := v.([]byte); ok {
					vals[i] = string(x)
				}
			}
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
		b.WriteString("--\n")
	}
	return b.String()
}

// An index kept up to date filing by filing and edit by edit holds what a
// rebuild from the folder holds: the same rows, heads, repairs and term
// counts, and full-text tables that match their rows.
func TestRebuiltIndexEqualsTheMaintainedOne(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	const rollout = "Rollout window for the billing service"
	e.file(t, agreed("20261130-plan-rollout-aaaaaa", rollout, "Roll out billing changes on Tuesdays only"))
	e.file(t, agreed("20261130-plan-cache-aaaaaa", "Cache lifetime for catalogue pages", "Cache catalogue pages for 10 minutes"))
	e.file(t, agreed("20261130-plan-quota-aaaaaa", "Upload quota per tenant", "Cap uploads at 5 GB per tenant"))
	first := e.file(t, agreed("20261130-plan-retries-aaaaaa", "Retry budget for webhooks", "Retry webhooks three times"))
	mustCheck(t, e.s, rollout, "Roll out billing changes on Tuesdays only")
	// A chain of three, then the same debate filed again (its record is
	// rewritten in place).
	e.file(t, agreed("20261201-plan-rollout-bbbbbb", rollout, "Roll out billing changes on Tuesdays and Thursdays"))
	e.file(t, agreed("20261202-plan-rollout-cccccc", rollout, "Roll out billing changes any weekday before noon"))
	e.file(t, agreed("20261202-plan-rollout-cccccc", rollout, "Roll out billing changes any weekday before 11:00"))
	// By hand: a record deleted, one edited, one put back to active
	// although a later record supersedes it, a broken page, a note.
	e.file(t, agreed("20261201-plan-retries-bbbbbb", "Retry budget for webhooks", "Retry webhooks five times"))
	if err := os.Remove(filepath.Join(e.vaultDir, filepath.FromSlash("wiki/consensus/plan-upload-quota-per-tenant.md"))); err != nil {
		t.Fatal(err)
	}
	e.editInPlace(t, "wiki/consensus/plan-cache-lifetime-for-catalogue-pages.md", "10 minutes", "15 minutes")
	e.editInPlace(t, first, `status: "superseded"`, `status: "active"`)
	e.page(t, "wiki/consensus/broken.md", "---\ntype: consensus\nlayer: [\n---\n")
	e.page(t, "wiki/consensus/notes.md", "Just a note about rollouts.\n")
	if err := e.s.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	maintained := indexDump(t, e.s)
	if !strings.Contains(maintained, "plan/retry-budget-for-webhooks") || !strings.Contains(maintained, "broken.md") {
		t.Fatalf("the maintained index misses what the test set up:\n%s", maintained)
	}

	e.s.Close()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(filepath.Join(e.root, CacheFile+suffix)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	fresh := e.open(t)
	if err := fresh.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if rebuilt := indexDump(t, fresh); rebuilt != maintained {
		t.Errorf("the rebuilt index differs from the maintained one:\nmaintained:\n%s\nrebuilt:\n%s", maintained, rebuilt)
	}
}

// A filing records the folder's state without waiting out the timestamp
// margin, yet a record another program creates or removes right after
// it, in a later clock tick of the folder, is seen by the next check,
// in this process and in a new one.
func TestChangeRightAfterAFilingIsSeen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const topic = "Session timeout for the admin console"
	p := e.file(t, agreed("20261130-plan-admin-aaaaaa", topic, "Sign admins out after 15 minutes idle"))
	e.s.mu.Lock()
	recorded := e.s.idx.dir.ModNs
	e.s.mu.Unlock()
	folder := filepath.Join(e.vaultDir, filepath.FromSlash(Folder))
	laterTick := func() {
		t.Helper()
		// However fast the machine, the change lands in a tick after the
		// filing's last write.
		st, err := os.Stat(folder)
		if err != nil {
			t.Fatal(err)
		}
		mod := time.Unix(0, max(st.ModTime().UnixNano(), recorded+int64(time.Millisecond)))
		if err := os.Chtimes(folder, mod, mod); err != nil {
			t.Fatal(err)
		}
		recorded = mod.UnixNano()
	}

	const handTopic = "Audit log retention for the admin console"
	hand := strings.NewReplacer(topic, handTopic, "Sign admins out after 15 minutes idle", "Keep audit logs for 400 days",
		"plan-admin-aaaaaa", "plan-audit-bbbbbb").Replace(e.read(t, p))
	e.page(t, Folder+"/plan-audit-log-retention-for-the-admin-console.md", hand)
	laterTick()
	for name, s := range map[string]*Store{"same": e.s, "new": e.open(t)} {
		res := mustCheck(t, s, handTopic, "Keep audit logs for 400 days")
		if res.Status != CheckConsistent {
			t.Errorf("%s store: a record created right after a filing: %v", name, res.Status)
		}
	}

	p2 := e.file(t, agreed("20261201-plan-admin-cccccc", topic, "Sign admins out after 30 minutes idle"))
	e.s.mu.Lock()
	recorded = e.s.idx.dir.ModNs
	e.s.mu.Unlock()
	if err := os.Remove(filepath.Join(e.vaultDir, filepath.FromSlash(p2))); err != nil {
		t.Fatal(err)
	}
	laterTick()
	for name, s := range map[string]*Store{"same": e.s, "new": e.open(t)} {
		if res := mustCheck(t, s, topic, "Sign admins out after 30 minutes idle"); res.Record != nil && res.Record.Path == p2 {
			t.Errorf("%s store: a record removed right after its filing still answers", name)
		}
	}
}

// A search whose terms are in few records reads them unranked and ranks
// them itself: the related records of a check, its answer and a search's
// hits are those the ranked query gives.
func TestUnrankedSearchAnswersAsTheRankedOne(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	outcomes, _ := consensustest.Outcomes(600, 7)
	s := e.open(t)
	if _, err := s.Import(ctx, outcomes); err != nil {
		t.Fatal(err)
	}
	type question struct {
		layer           debate.Layer
		topic, position string
	}
	var qs []question
	for i, o := range outcomes[:120] {
		q := question{o.Session.Layer, o.Session.Topic, o.DefenderPosition}
		switch i % 3 {
		case 1: // another wording: the position's words alone find it
			q.topic = "What do we do about " + strings.ToLower(o.Session.Topic) + "?"
		case 2: // a question no record asks
			q.topic, q.position = fmt.Sprintf("Quota of widget %d uploads", i), fmt.Sprintf("Allow %d uploads per hour", i)
		}
		qs = append(qs, q)
	}
	answer := func() []string {
		s := e.open(t)
		var out []string
		for _, q := range qs {
			res, err := s.Check(ctx, q.layer, q.topic, q.position)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
			hits, err := s.Search(ctx, q.position, Filter{}, 10)
			if err != nil {
				t.Fatal(err)
			}
			b, err = json.Marshal(hits)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
		return out
	}
	unranked := answer()
	defer func(old bool) { unrankedSearch = old }(unrankedSearch)
	unrankedSearch = false
	ranked := answer()
	related := 0
	for i := range ranked {
		if ranked[i] != unranked[i] {
			t.Errorf("ranked query:\n%s\nunranked:\n%s", ranked[i], unranked[i])
		}
		if strings.Contains(ranked[i], `"Related":[{`) {
			related++
		}
	}
	if related < 40 {
		t.Errorf("only %d of %d checks listed related records", related, len(qs))
	}
}

// A record copied by hand in the records folder (Obsidian's "Make a
// copy" writes "<name> 1.md", same debate, same created time) is not the
// question's record: check answers from the record parley filed, and the
// next filing supersedes that record, not the copy, so no record of the
// question is left saying active beside the new one.
func TestACopyOfARecordIsNotTheQuestionsRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const topic = "Upload size cap for avatars"
	p := e.file(t, agreed("20261130-plan-avatars-aaaaaa", topic, "Reject avatar uploads above 25 MB"))
	cp := strings.TrimSuffix(p, ".md") + " 1.md"
	e.page(t, cp, e.read(t, p))
	res := mustCheck(t, e.s, topic, "Reject avatar uploads above 25 MB")
	if res.Status != CheckConsistent || res.Record == nil || res.Record.Path != p {
		t.Fatalf("check after a copy: %v %+v", res.Status, res.Record)
	}
	p2 := e.file(t, agreed("20261201-plan-avatars-bbbbbb", topic, "Reject avatar uploads above 40 MB"))
	if got := e.read(t, p); !strings.Contains(got, `status: "superseded"`) || !strings.Contains(got, "[["+strings.TrimSuffix(path.Base(p2), ".md")+"]]") {
		t.Errorf("the filed record was not superseded:\n%s", got)
	}
	if got := e.read(t, p2); !strings.Contains(got, "supersedes: \"[["+strings.TrimSuffix(path.Base(p), ".md")+"]]\"") {
		t.Errorf("the new record does not supersede the filed one:\n%s", got)
	}
}
