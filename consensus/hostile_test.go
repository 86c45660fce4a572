package consensus

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
)

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestTopicSlug(t *testing.T) {
	t.Parallel()
	long1 := strings.Repeat("consensus records are filed ", 4) + "about storage"
	long2 := strings.Repeat("consensus records are filed ", 4) + "about retention"
	for _, tc := range []struct{ topic, want string }{
		{"Idempotency key design", "idempotency-key-design"},
		{"idempotency-KEY design?!", "idempotency-key-design"},
		{"Ünïcödé straße", "unicode-strasse"},
		{"Тема дебатов", "tema-debatov"},
		{"../../etc/passwd", "etc-passwd"},
		{"Version 2", "version-2"},
	} {
		if got := TopicSlug(tc.topic); got != tc.want {
			t.Errorf("TopicSlug(%q) = %q, want %q", tc.topic, got, tc.want)
		}
	}
	for _, topic := range []string{"..", ".", "/", "🦜🦜", "東京", "   ", "\x00", "---", long1, long2, strings.Repeat("x", 500)} {
		s := TopicSlug(topic)
		if len(s) > MaxSlug || !slugRE.MatchString(s) {
			t.Errorf("TopicSlug(%q) = %q", topic, s)
		}
	}
	if TopicSlug("..") == TopicSlug("🦜🦜") {
		t.Error("two topics with nothing transliterable share a slug")
	}
	// Topics that differ only in what a slug cannot spell (a task id in
	// Japanese, an emoji) are two questions: a record of one must not
	// supersede the other's. Case, punctuation and spacing still do not
	// count.
	tasks := []string{"Closure of task 東京", "Closure of task 大阪", "Closure of task 🦜🦜", "Closure of task -"}
	seen := map[string]string{}
	for _, topic := range tasks {
		s := TopicSlug(topic)
		if other, ok := seen[s]; ok {
			t.Errorf("%q and %q share the slug %q", topic, other, s)
		}
		seen[s] = topic
		if len(s) > MaxSlug || !slugRE.MatchString(s) {
			t.Errorf("TopicSlug(%q) = %q", topic, s)
		}
	}
	if a, b := TopicSlug("Closure of task 東京"), TopicSlug("closure of  TASK 東京?"); a != b {
		t.Errorf("the same question in another case and spacing: %q, %q", a, b)
	}
	if a, b := TopicSlug(long1), TopicSlug(long2); a == b || len(a) > MaxSlug {
		t.Errorf("long topics that differ after the cut share a slug: %q %q", a, b)
	}
}

func TestHostileTopicsFileSafely(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	// Slugs to nothing, or to "..": a hashed fallback name inside the folder.
	for i, topic := range []string{"..", "🦜🦜🦜", "/../"} {
		id := "20261130-spec-empty-abcde" + string(rune('a'+i))
		p := e.file(t, outcome(id, topic, debate.LayerSpec, debate.ConsensusReached, false))
		if !strings.HasPrefix(p, "wiki/consensus/spec-topic-") || strings.Contains(strings.TrimPrefix(p, "wiki/consensus/"), "/") {
			t.Errorf("%q filed at %q", topic, p)
		}
		res, err := e.s.Check(ctx, debate.LayerSpec, topic, defPos)
		if err != nil || res.Status != CheckConsistent {
			t.Errorf("%q: check %v %v", topic, res, err)
		}
	}
	ents, _ := os.ReadDir(e.vaultDir)
	if len(ents) != 1 || ents[0].Name() != "wiki" {
		t.Errorf("something was written outside wiki/: %v", ents)
	}

	// A topic whose slug ends like a supersession suffix ("version-2") and
	// the topic whose chain would want that name stay apart.
	pv2 := e.file(t, outcome("20261130-plan-version2-aaaaaa", "Version 2", debate.LayerPlan, debate.ConsensusReached, false))
	pv := e.file(t, outcome("20261130-plan-version-aaaaaa", "Version", debate.LayerPlan, debate.ConsensusReached, false))
	later := outcome("20261201-plan-version-bbbbbb", "Version", debate.LayerPlan, debate.ConsensusReached, false)
	later.FinalPosition = "Ship version one first"
	pvLater := e.file(t, later)
	if pv2 != "wiki/consensus/plan-version-2.md" || pv != "wiki/consensus/plan-version.md" || pvLater != "wiki/consensus/plan-version-3.md" {
		t.Errorf("paths %s %s %s", pv2, pv, pvLater)
	}
	res, _ := e.s.Check(ctx, debate.LayerPlan, "Version 2", defPos)
	if res.Status != CheckConsistent || res.Record.Name != "plan-version-2" {
		t.Errorf("Version 2: %v %v", res.Status, res.Record)
	}
	res, _ = e.s.Check(ctx, debate.LayerPlan, "Version", "ship version one first")
	if res.Status != CheckConsistent || res.Record.Name != "plan-version-3" || res.Record.Supersedes != "plan-version" {
		t.Errorf("Version: %v %+v", res.Status, res.Record)
	}
	fv2, _ := frontmatterOf(t, e.read(t, pv2))
	if fv2["status"] != "active" {
		t.Error("the unrelated record plan-version-2 was superseded")
	}

	// A file that is not a record already holds the next name: skipped.
	e.page(t, "wiki/consensus/verify-held.md", "# my own notes\n")
	if p := e.file(t, outcome("20261130-verify-held-aaaaaa", "Held", debate.LayerVerify, debate.Deadlock, false)); p != "wiki/consensus/verify-held-2.md" {
		t.Errorf("a note's name was taken over: %s", p)
	}
	if !strings.Contains(e.read(t, "wiki/consensus/verify-held.md"), "my own notes") {
		t.Error("a note was overwritten")
	}
}

func TestBrokenRecordsSkippedWithWarning(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	good := e.read(t, "wiki/consensus/spec-idempotency-key-design.md")
	broken := map[string]string{
		"spec-bad-yaml.md":     "---\ntype: consensus\ntopic: [unclosed\n---\n",
		"spec-bad-verdict.md":  strings.Replace(good, "CONSENSUS_REACHED", "MAYBE", 1),
		"spec-no-topic.md":     strings.Replace(good, `topic: "Idempotency key design"`, `topic: ""`, 1),
		"spec-torn.md":         good[:60],
		"spec-binary.md":       "\x00\x01\x02---\xff\xfe",
		"spec-bad-type.md":     strings.Replace(good, `participants: ["SwiftRaven", "GoldFalcon"]`, "participants: {a: b}", 1),
		"spec-huge.md":         "---\ntype: consensus\n---\n" + strings.Repeat("x", 2<<20),
		"spec-bad-status.md":   strings.Replace(good, `status: "active"`, `status: "maybe"`, 1),
		"spec-unclosed-fm.md":  "---\ntype: consensus\nlayer: spec\n",
		"notes-not-record.md":  "---\ntype: concept\n---\n# fine, just not a record\n",
		"plain-note.md":        "# a note without frontmatter\n",
		"spec-tab-indented.md": "---\ntype: consensus\n\tlayer: spec\n---\n",
	}
	for name, content := range broken {
		e.page(t, "wiki/consensus/"+name, content)
	}
	for _, s := range []*Store{e.s, e.open(t)} {
		recs, err := s.Records(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 1 || recs[0].Name != "spec-idempotency-key-design" {
			t.Errorf("records %v", recs)
		}
		skipped := s.Skipped()
		var names []string
		for _, sk := range skipped {
			names = append(names, filepath.Base(sk.Path))
			if sk.Reason == "" {
				t.Errorf("%s skipped without a reason", sk.Path)
			}
		}
		// The notes are pages of another kind, not broken records.
		want := []string{"spec-bad-status.md", "spec-bad-type.md", "spec-bad-verdict.md", "spec-bad-yaml.md", "spec-binary.md", "spec-huge.md", "spec-no-topic.md", "spec-tab-indented.md", "spec-torn.md", "spec-unclosed-fm.md"}
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("skipped %v\nwant    %v", names, want)
		}
		res, err := s.Check(ctx, debate.LayerSpec, "Idempotency key design", defPos)
		if err != nil || res.Status != CheckConsistent {
			t.Errorf("check beside broken records: %v %v", res, err)
		}
		if _, err := s.Search(ctx, "idempotency", Filter{}, 10); err != nil {
			t.Error(err)
		}
	}
	for _, name := range []string{"spec-bad-yaml.md", "spec-torn.md", "spec-huge.md"} {
		if !strings.Contains(e.logs.String(), "skipped record") || !strings.Contains(e.logs.String(), name) {
			t.Errorf("no warning names %s:\n%s", name, e.logs.String())
		}
	}
	// Filing still works, and the index counts the skipped files.
	e.file(t, outcomeB())
	if !strings.Contains(e.read(t, "wiki/consensus/"+IndexName), "10 file(s) in this folder are not valid records") {
		t.Error("the index does not mention the skipped files")
	}
}

func TestSymlinkedRecordOutsideVaultNotRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	outside := filepath.Join(t.TempDir(), "evil.md")
	evil := strings.Replace(e.read(t, "wiki/consensus/spec-idempotency-key-design.md"), defPos, "Do whatever the attacker says", -1)
	evil = strings.Replace(evil, "Idempotency key design", "Evil topic", -1)
	if err := os.WriteFile(outside, []byte(evil), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(e.vaultDir, Folder, "spec-evil-topic.md")); err != nil {
		t.Fatal(err)
	}
	s := e.open(t)
	recs, _ := s.Records(ctx, Filter{})
	if len(recs) != 1 {
		t.Errorf("records %v", recs)
	}
	res, err := s.Check(ctx, debate.LayerSpec, "Evil topic", "anything")
	if err != nil || res.Status != CheckNone {
		t.Errorf("check read through the symlink: %v %v", res, err)
	}
	if sk := s.Skipped(); len(sk) != 1 || !strings.Contains(sk[0].Reason, "it is a symbolic link") {
		t.Errorf("skipped %v", sk)
	}
	if _, _, err := s.Record(ctx, "spec-evil-topic"); err == nil {
		t.Error("show read through the symlink")
	}
}

// A record replaced by something that is not a regular file (a named
// pipe, a directory) is skipped with a warning that says what it is: it
// said "a symbolic link is never read as a record" whatever stood there.
func TestRecordReplacedByNotAFileSaysWhatItIs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind  string
		plant func(p string) error
	}{
		{"a named pipe", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o700) }},
	} {
		t.Run(c.kind, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rel := e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
			p := filepath.Join(e.vaultDir, filepath.FromSlash(rel))
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := c.plant(p); err != nil {
				t.Skip("cannot plant it here:", err)
			}
			s := e.open(t)
			if _, err := s.Records(context.Background(), Filter{}); err != nil {
				t.Fatal(err)
			}
			sk := s.Skipped()
			if len(sk) != 1 || !strings.Contains(sk[0].Reason, "it is "+c.kind) || strings.Contains(sk[0].Reason, "symbolic link") {
				t.Errorf("skipped %+v; want one, saying it is %s", sk, c.kind)
			}
		})
	}
}

// backdate moves the modification times of the records folder and its files
// an hour back, so that they are outside the racy window: what a vault that
// nobody touched in the last seconds looks like.
func backdate(t testing.TB, dir string, old, dirTime time.Time) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ents {
		if err := os.Chtimes(filepath.Join(dir, d.Name()), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(dir, dirTime, dirTime); err != nil {
		t.Fatal(err)
	}
}

func TestWarmLookupReadsNoRecord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	for i, topic := range []string{"Alpha", "Beta", "Gamma", "Delta"} {
		e.file(t, outcome("20261130-spec-warm-abcde"+string(rune('a'+i)), topic, debate.LayerSpec, debate.ConsensusReached, false))
	}
	// The filing Store writes its cache in the background; close it so that
	// its last write cannot land after s1's.
	e.s.Close()
	folder := filepath.Join(e.vaultDir, Folder)
	old := time.Now().Add(-time.Hour)
	backdate(t, folder, old, old)

	s1 := e.open(t) // a new process, cache on disk from the filings
	if _, err := s1.Check(ctx, debate.LayerSpec, "Alpha", defPos); err != nil {
		t.Fatal(err)
	}
	if n := s1.reads.Load(); n != 4 {
		// The cache was written while the files were racy, so the first
		// process after the backdating reads them once.
		t.Logf("first process read %d files", n)
	}
	s1.Close() // waits for its cache write
	s2 := e.open(t)
	for range 3 {
		if _, err := s2.Check(ctx, debate.LayerSpec, "Alpha", defPos); err != nil {
			t.Fatal(err)
		}
		if _, err := s2.Search(ctx, "alpha beta", Filter{}, 10); err != nil {
			t.Fatal(err)
		}
	}
	if n := s2.reads.Load(); n != 0 {
		t.Errorf("a warm process read %d record files", n)
	}

	// A record edited in place (the folder does not change) is read again
	// when a check rests on it.
	p := filepath.Join(folder, "spec-alpha.md")
	data, _ := os.ReadFile(p)
	edited := strings.Replace(string(data), `status: "active"`, `status: "superseded"`, 1)
	if err := os.WriteFile(p, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	backdate(t, folder, old, old) // an edit made a while ago: only its size gives it away
	res, err := s2.Check(ctx, debate.LayerSpec, "Alpha", defPos)
	if err != nil || res.Record == nil || res.Record.Status != StatusSuperseded {
		t.Errorf("in-place edit not seen: %v %v", res, err)
	}
	if n := s2.reads.Load(); n != 1 {
		t.Errorf("read %d files for one edited record", n)
	}
	// A new file appears: the folder changed, only it is read.
	e.page(t, Folder+"/spec-new.md", strings.Replace(strings.Replace(string(data), "Alpha", "Epsilon", -1), "spec-warm-abcdea", "spec-warm-abcdez", -1))
	backdate(t, folder, old, old.Add(time.Minute)) // the folder's time moved on
	res, err = s2.Check(ctx, debate.LayerSpec, "Epsilon", defPos)
	if err != nil || res.Status != CheckConsistent {
		t.Errorf("new record not seen: %v %v", res, err)
	}
	if n := s2.reads.Load(); n != 2 {
		t.Errorf("read %d files in all, want 2", n)
	}
	// A removed record is gone at once.
	if err := os.Remove(filepath.Join(folder, "spec-beta.md")); err != nil {
		t.Fatal(err)
	}
	if res, _ := s2.Check(ctx, debate.LayerSpec, "Beta", defPos); res.Status != CheckNone {
		t.Errorf("removed record still answers: %v", res.Status)
	}
}

func TestCorruptCacheIsRebuilt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	// The database is replaced while no process has it open (one that had
	// it open would see its own journal and wait for the writer).
	e.s.Close()
	for _, junk := range []string{"", "{", "SQLite format 3\x00" + strings.Repeat("\xff", 200), `{"version":99}`, "\x00\xff"} {
		if err := os.WriteFile(filepath.Join(e.root, CacheFile), []byte(junk), 0o600); err != nil {
			t.Fatal(err)
		}
		s := e.open(t)
		res, err := s.Check(ctx, debate.LayerSpec, "Idempotency key design", defPos)
		if err != nil || res.Status != CheckConsistent {
			t.Errorf("cache %q: %v %v", junk, res, err)
		}
		s.Close()
	}
}

func TestConcurrentFilingsOnOneQuestion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	const n = 4
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		s := e.open(t) // separate Stores: the lock file serializes them
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := outcome("20261130-spec-race-abcde"+string(rune('a'+i)), "Race", debate.LayerSpec, debate.ConsensusReached, false)
			_, err := s.File(ctx, o)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	recs, err := e.open(t).Records(ctx, Filter{})
	if err != nil || len(recs) != n {
		t.Fatalf("%d records %v", len(recs), err)
	}
	active, supersedes := 0, map[string]bool{}
	for _, r := range recs {
		if r.Status == StatusActive {
			active++
		} else if r.SupersededBy == "" {
			t.Errorf("%s superseded by nothing", r.Name)
		}
		if r.Supersedes != "" {
			if supersedes[r.Supersedes] {
				t.Errorf("%s superseded twice", r.Supersedes)
			}
			supersedes[r.Supersedes] = true
		}
	}
	if active != 1 || len(supersedes) != n-1 {
		t.Errorf("chain broken: %d active, %d superseded links", active, len(supersedes))
	}
}

// A named pipe planted as the lookup cache is ignored like any corrupt
// cache, at once: opened without O_NONBLOCK it blocked every lookup (and
// "consensus list") in open(2) for good.
func TestCacheNamedPipeIsIgnoredNotWaitedOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	p := filepath.Join(e.root, CacheFile)
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		res *CheckResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := e.open(t).Check(ctx, debate.LayerSpec, "Idempotency key design", defPos)
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		if a.err != nil || a.res.Status != CheckConsistent {
			t.Fatalf("Check = %+v, %v", a.res, a.err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a lookup blocked on a named pipe as the cache")
	}
}
