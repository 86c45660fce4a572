package consensus

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/consensus/consensustest"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

// The records the tests of a first open look up, among generated ones.
var openCases = []struct{ id, topic, position string }{
	{"20261201-plan-dumps-aaaaaa", "Retention of nightly database dumps", "Keep nightly dumps for 35 days, then delete them"},
	{"20261201-plan-search-bbbbbb", "Rate limit for the public search API", "Allow 50 requests per second per API key"},
	{"20261201-plan-cookie-cccccc", "Session cookie lifetime", "Expire session cookies after 12 hours of inactivity"},
}

// vaultWithoutIndex is a vault of a few hundred records whose lookup
// index does not exist (no process has looked anything up yet), and the
// number of record files in it.
func vaultWithoutIndex(t *testing.T) (*env, int) {
	t.Helper()
	e := newEnv(t)
	outs, _ := consensustest.Outcomes(300, 7)
	if _, err := e.s.Import(context.Background(), outs); err != nil {
		t.Fatal(err)
	}
	for _, c := range openCases {
		e.file(t, agreed(c.id, c.topic, c.position))
	}
	e.s.Close()
	removeIndex(t, e.root)
	names, err := os.ReadDir(filepath.Join(e.vaultDir, filepath.FromSlash(Folder)))
	if err != nil {
		t.Fatal(err)
	}
	return e, len(names) - 1 // but the index page
}

func removeIndex(t *testing.T, root string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(filepath.Join(root, CacheFile+suffix)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// Several Stores (processes) that find no index at once all answer, from
// one build: the others wait for it and use it.
func TestFirstLookupsAtOnceShareOneBuild(t *testing.T) {
	t.Parallel()
	e, files := vaultWithoutIndex(t)
	const n = 4
	stores := make([]*Store, n)
	for i := range stores {
		stores[i] = e.open(t)
	}
	errs := checkAtOnce(stores)
	builders := 0
	for i, s := range stores {
		if errs[i] != nil {
			t.Errorf("store %d: %v", i, errs[i])
		}
		if s.FilesRead() >= int64(files) {
			builders++
		}
	}
	if builders != 1 {
		t.Errorf("%d of %d stores read the whole folder (%d files); want one build", builders, n, files)
	}
}

// helperEnv names the environment variable under which the test binary
// runs as a lookup process (see TestMain): root, vault, topic, position
// and the wall-clock time (Unix ns) to start at, tab-separated.
const helperEnv = "PARLEY_CONSENSUS_TEST_CHECK"

// checkProcess is one lookup as a separate process: it prints the status
// of the answer and the debate it names.
func checkProcess(arg string) int {
	f := strings.Split(arg, "\t")
	v, err := vault.Open(f[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer v.Close()
	s, err := Open(f[0], v)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	at, _ := strconv.ParseInt(f[4], 10, 64)
	time.Sleep(time.Until(time.Unix(0, at)))
	res, err := s.Check(context.Background(), debate.LayerPlan, f[2], f[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	id := ""
	if res.Record != nil {
		id = res.Record.DebateID
	}
	fmt.Println(res.Status, id)
	return 0
}

// Two processes that find no index at once both answer.
func TestFirstLookupsInTwoProcesses(t *testing.T) {
	t.Parallel()
	e, _ := vaultWithoutIndex(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	at := strconv.FormatInt(time.Now().Add(300*time.Millisecond).UnixNano(), 10)
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i := range 2 {
		c := openCases[i]
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+strings.Join([]string{e.root, e.vaultDir, c.topic, c.position, at}, "\t"))
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for i, cmd := range cmds {
		err := cmd.Wait()
		want := fmt.Sprintf("%s %s\n", CheckConsistent, openCases[i].id)
		if err != nil || outs[i].String() != want {
			t.Errorf("process %d: %v, printed %q; want %q", i, err, outs[i].String(), want)
		}
	}
}

// An index replaced (here: of another version) while a Store has the old
// one open: the open Store goes on answering and filing, and neither its
// writes nor its closing touch the new index, which every later Store
// uses.
func TestIndexReplacedUnderAnOpenStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, _ := vaultWithoutIndex(t)
	old := e.open(t)
	c0 := openCases[0]
	if res := mustCheck(t, old, c0.topic, c0.position); res.Status != CheckConsistent {
		t.Fatalf("before: %v", res.Status)
	}
	db, err := sql.Open("sqlite", filepath.Join(e.root, CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE meta SET v = 'an older parley' WHERE k = 'version'`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	fresh := e.open(t)
	c1 := openCases[1]
	if res := mustCheck(t, fresh, c1.topic, c1.position); res.Status != CheckConsistent {
		t.Fatalf("the Store that rebuilt the index: %v", res.Status)
	}
	if res := mustCheck(t, old, c1.topic, c1.position); res.Status != CheckConsistent {
		t.Errorf("the Store with the old index open: %v", res.Status)
	}
	const topic, position = "Thumbnail cache size on the edge nodes", "Cap the thumbnail cache at 2 GB per edge node"
	if _, err := old.File(ctx, agreed("20261201-plan-edge-dddddd", topic, position)); err != nil {
		t.Fatalf("filing through the Store with the old index open: %v", err)
	}
	if res := mustCheck(t, fresh, topic, position); res.Status != CheckConsistent {
		t.Errorf("a record filed by the other Store: %v", res.Status)
	}
	// The rebuilt index's log holds what the fresh Store wrote since; the
	// old Store's closing must neither delete it nor checkpoint into it.
	wal := filepath.Join(e.root, CacheFile+"-wal")
	before, err := os.Stat(wal)
	if err != nil || before.Size() == 0 {
		t.Fatalf("the rebuilt index has no log to keep: %v", err)
	}
	if err := old.Close(); err != nil {
		t.Errorf("closing the Store with the old index: %v", err)
	}
	if after, err := os.Stat(wal); err != nil || !os.SameFile(before, after) || after.Size() != before.Size() {
		t.Errorf("closing the Store with the old index changed the new index's log: %v", err)
	}
	for name, s := range map[string]*Store{"rebuilt": fresh, "new": e.open(t)} {
		for _, c := range append(openCases[:len(openCases):len(openCases)], struct{ id, topic, position string }{"20261201-plan-edge-dddddd", topic, position}) {
			res, err := s.Check(ctx, debate.LayerPlan, c.topic, c.position)
			if err != nil || res.Status != CheckConsistent {
				t.Errorf("%s store, %q: %v %v", name, c.topic, res, err)
			}
		}
	}
}

// An index built while the folder had no record is filled in place when
// records appear; several Stores that find it empty at once all answer.
func TestEmptyIndexFilledByStoresAtOnce(t *testing.T) {
	t.Parallel()
	src, _ := vaultWithoutIndex(t)
	e := newEnv(t)
	if res := mustCheck(t, e.s, openCases[0].topic, openCases[0].position); res.Status != CheckNone {
		t.Fatalf("an empty vault answered %v", res.Status)
	}
	from, to := filepath.Join(src.vaultDir, filepath.FromSlash(Folder)), filepath.Join(e.vaultDir, filepath.FromSlash(Folder))
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range entries {
		b, err := os.ReadFile(filepath.Join(from, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, de.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const n = 4
	stores := []*Store{e.s}
	for len(stores) < n {
		stores = append(stores, e.open(t))
	}
	errs := checkAtOnce(stores)
	for i, err := range errs {
		if err != nil {
			t.Errorf("store %d: %v", i, err)
		}
	}
}

// checkAtOnce asks one question of openCases on each store, all at once,
// and returns each store's failure: an error, or an answer other than
// consistent on the question's own record.
func checkAtOnce(stores []*Store) []error {
	start := make(chan struct{})
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			c := openCases[i%len(openCases)]
			res, err := s.Check(context.Background(), debate.LayerPlan, c.topic, c.position)
			switch {
			case err != nil:
				errs[i] = err
			case res.Status != CheckConsistent || res.Record == nil || res.Record.DebateID != c.id:
				errs[i] = fmt.Errorf("%q answered %v (record %v)", c.topic, res.Status, res.Record)
			}
		}()
	}
	close(start)
	wg.Wait()
	return errs
}
