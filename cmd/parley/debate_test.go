package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
)

// The processes this test binary starts as parley (the agents of a
// debate, a detached debate) run the command line instead of the tests
// (see TestMain).
func init() { cmdutil.ChildEnv = []string{"PARLEY_TEST_AS_CLI=1"} }

// dcli runs parley in-process with --root root.
func dcli(t testing.TB, root string, args ...string) (string, string, int) {
	t.Helper()
	return runT(t, "", append([]string{"--root", root}, args...)...)
}

// writeScripts writes script files into dir and returns their paths.
func writeScripts(t testing.TB, dir string, scripts map[string]string) map[string]string {
	t.Helper()
	paths := map[string]string{}
	for name, body := range scripts {
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

func lines(t testing.TB, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", l, err)
		}
		objs = append(objs, m)
	}
	return objs
}

const (
	concedingCritic = `{"turns":[{"round":1,"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","confidence_change":-1,"tokens":120,"evidence_refs":["notes.md:1"]},{"round":2,"position":"","counter_to":"","confidence_change":0,"tokens":30}]}`
	holdingDefender = `{"turns":[{"round":1,"position":"Use UUIDv7 keys with a 24h window","tokens":100}]}`
	repeatingCritic = `{"turns":[{"round":1,"position":"Keys leak the creation time","counter_to":"Use UUIDv7 keys","confidence_change":-1,"tokens":120}]}`
	stubbornDefense = `{"turns":[{"round":1,"position":"Use UUIDv7 keys","tokens":100}]}`
)

func TestDebateRunCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender, "repeater": repeatingCritic, "stubborn": stubbornDefense})
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("one line\n"), 0o600)

	// Conceded consensus: exit 0, one JSON line per event, the verdict last.
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Idempotency keys",
		"--position", "Use UUIDv7 keys", "--workspace", dir,
		"--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	objs := lines(t, out)
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o["event"].(string))
	}
	want := []string{"open", "request", "turn", "request", "turn", "request", "turn", "verdict"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	v := objs[len(objs)-1]
	for _, k := range []string{"debate_id", "verdict", "action", "final_position", "rounds", "tokens", "elapsed_ms", "transcript", "record"} {
		if _, ok := v[k]; !ok {
			t.Errorf("verdict line lacks %q: %v", k, v)
		}
	}
	if v["verdict"] != "CONSENSUS_REACHED" || v["action"] != "proceed" || v["final_position"] != "Use UUIDv7 keys with a 24h window" || v["rounds"] != float64(2) || v["tokens"] != float64(250) {
		t.Fatalf("verdict line %v", v)
	}
	if turn := objs[2]; turn["round"] != float64(1) || turn["max_rounds"] != float64(3) || turn["tokens"] != float64(120) || turn["max_tokens"] != float64(6000) {
		t.Fatalf("turn line %v", turn)
	}
	id := v["debate_id"].(string)
	for _, p := range []string{v["transcript"].(string), v["record"].(string), filepath.Join(root, "vault", "wiki", "debates", id+".md")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	// The agents it started are gone and unregistered.
	out, _, _ = dcli(t, root, "--json", "agents", "list")
	if strings.Contains(out, "Attacker1-") || strings.Contains(out, "Defender-") {
		t.Errorf("agents still registered after the debate: %s", out)
	}
	// The evidence was checked under --workspace.
	events, err := openStore(t, root).Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var tr debate.TurnRecord
	json.Unmarshal(events[2].Data, &tr)
	if len(tr.Evidence) != 1 || tr.Evidence[0].Status != debate.EvidenceOK {
		t.Errorf("evidence %+v", tr.Evidence)
	}
	if out, _, code := dcli(t, root, "transcripts", "verify", id); code != 0 || !strings.Contains(out, "intact") {
		t.Errorf("verify: exit %d %s", code, out)
	}
	// Resuming a closed debate prints its verdict again, record included.
	out, _, code = dcli(t, root, "--json", "debate", "resume", id)
	if again := lines(t, out); code != 0 || len(again) == 0 || again[len(again)-1]["record"] != v["record"] {
		t.Errorf("resume of a closed debate: exit %d, %s", code, out)
	}
	// The verified outcome, as "consensus file --from-debate" can load it.
	o, err := app.New(app.Options{Root: root}).LoadOutcome(context.Background(), id)
	if err != nil || o.Verdict != debate.ConsensusReached || len(o.Turns) != 3 || o.Session == nil || !strings.HasPrefix(o.Record, "wiki/consensus/") {
		t.Errorf("LoadOutcome: %v %+v", err, o)
	}

	// Deadlock: exit 3, the human output names the verdict and the files.
	out, errs, code = dcli(t, root, "debate", "run", "--layer", "verify", "--topic", "Keys again", "--position", "Use UUIDv7 keys",
		"--agent", "attacker=script:"+s["repeater"], "--agent", "defender=script:"+s["stubborn"], "--max-rounds", "5")
	if code != cmdutil.ExitBlocked || errs != "" {
		t.Fatalf("deadlock: exit %d, stderr %q", code, errs)
	}
	for _, w := range []string{"DEADLOCK → escalate (repeated)", "round 2/5", "transcript:", "record:"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	out, _, _ = dcli(t, root, "--json", "debate", "list")
	if n := len(lines(t, out)); n != 2 {
		t.Errorf("debate list: %d debates:\n%s", n, out)
	}
	out, _, code = dcli(t, root, "--json", "debate", "status", id)
	if st := lines(t, out)[0]; code != 0 || st["state"] != "closed" || st["verdict"] != "CONSENSUS_REACHED" || st["tokens"] != float64(250) {
		t.Errorf("status: %v", st)
	}
}

func TestDebateRunUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := writeScripts(t, dir, map[string]string{"a": concedingCritic, "bad": `{"turns":[]}`})
	root := filepath.Join(dir, "root")
	base := []string{"debate", "run", "--layer", "spec", "--topic", "T"}
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"no agents":        {base, "--agent"},
		"no defender":      {append(slices.Clone(base), "--agent", "attacker=script:"+s["a"]), "exactly one defender"},
		"two defenders":    {append(slices.Clone(base), "--agent", "defender=script:"+s["a"], "--agent", "defender=script:"+s["a"], "--agent", "attacker=script:"+s["a"]), "exactly one defender"},
		"openai, no model": {append(slices.Clone(base), "--agent", "attacker=openai:", "--agent", "defender=script:"+s["a"]), "invalid agent spec"},
		"bad role":         {append(slices.Clone(base), "--agent", "judge=script:"+s["a"]), "unknown role"},
		"bad spec":         {append(slices.Clone(base), "--agent", "attacker=telepathy"), "invalid agent spec"},
		"bad layer":        {[]string{"debate", "run", "--layer", "code", "--topic", "T", "--agent", "attacker=script:x"}, "unknown layer"},
		"zero rounds":      {append(slices.Clone(base), "--agent", "attacker=script:"+s["a"], "--agent", "defender=script:"+s["a"], "--max-rounds", "0"), "--max-rounds 0: must be positive"},
		"hostile @name":    {append(slices.Clone(base), "--agent", "attacker=@../x", "--agent", "defender=script:"+s["a"]), "invalid_name"},
	} {
		_, errs, code := dcli(t, root, tc.args...)
		if code != cmdutil.ExitUsage || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q (want exit 2 saying %q)", name, code, errs, tc.want)
		}
	}
	// A file that does not hold a script, and an id that names no debate,
	// are not mistakes of the command line's form: exit 1, like every file
	// that cannot be read and every name that names nothing.
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"bad script":        {append(slices.Clone(base), "--agent", "attacker=script:"+s["bad"], "--agent", "defender=script:"+s["a"]), "invalid script"},
		"unknown debate id": {[]string{"debate", "status", "../../etc"}, "no debate ../../etc"},
	} {
		_, errs, code := dcli(t, root, tc.args...)
		if code != cmdutil.ExitError || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q (want exit 1 saying %q)", name, code, errs, tc.want)
		}
	}
	// A named agent that is not running: one clear line, exit 1, naming
	// the commands as run (with --root), and nothing left behind: no
	// debate that "debate list" would show as interrupted for ever, and no
	// detached process that fails where nobody sees it.
	if _, errs, code := dcli(t, root, "init"); code != 0 {
		t.Fatalf("init: %s", errs)
	}
	for _, verb := range []string{"run", "start"} {
		args := append([]string{"debate", verb}, base[2:]...)
		_, errs, code := dcli(t, root, append(args, "--agent", "attacker=@Nobody", "--agent", "defender=script:"+s["a"])...)
		if code != cmdutil.ExitError || !strings.Contains(errs, "agent Nobody is not running (see") ||
			!strings.Contains(errs, "parley --root "+root+" agents list") || !strings.Contains(errs, "parley --root "+root+" agent run --name Nobody") {
			t.Errorf("debate %s @Nobody: exit %d %q", verb, code, errs)
		}
		if out, _, _ := dcli(t, root, "--json", "debate", "list"); strings.TrimSpace(out) != "" {
			t.Errorf("debate %s @Nobody left a debate behind:\n%s", verb, out)
		}
	}
	// A running agent that joined as defender is not made an attacker:
	// refused before anything is written, naming the agent, the role it
	// joined as and the role asked (exit 1, as for an agent not running).
	startAgentProcess(t, root, "Keeper", "defender", s["a"])
	for _, verb := range []string{"run", "start"} {
		args := append([]string{"debate", verb}, base[2:]...)
		_, errs, code := dcli(t, root, append(args, "--agent", "attacker=@Keeper", "--agent", "defender=script:"+s["a"])...)
		want := "parley: agent Keeper joined as defender, not attacker: name it defender=@Keeper, or an agent that joined as attacker (see parley --root " + root + " agents list)\n"
		if code != cmdutil.ExitError || errs != want {
			t.Errorf("debate %s attacker=@Keeper (a defender): exit %d %q, want exit 1 %q", verb, code, errs, want)
		}
		if out, _, _ := dcli(t, root, "--json", "debate", "list"); strings.TrimSpace(out) != "" {
			t.Errorf("debate %s attacker=@Keeper left a debate behind:\n%s", verb, out)
		}
	}
	// Where there is no root at all (run from another directory than the
	// agent's), no agent can be running there: it says so, and makes none.
	elsewhere := filepath.Join(dir, "elsewhere")
	for _, verb := range []string{"run", "start"} {
		args := append([]string{"debate", verb}, base[2:]...)
		_, errs, code := dcli(t, elsewhere, append(args, "--agent", "attacker=@Nobody", "--agent", "defender=script:"+s["a"])...)
		if code != cmdutil.ExitError || !strings.Contains(errs, "agent Nobody is not running: there is no parley root at "+elsewhere) {
			t.Errorf("debate %s @Nobody without a root: exit %d %q", verb, code, errs)
		}
		if _, err := os.Stat(elsewhere); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("debate %s @Nobody made the root %s: %v", verb, elsewhere, err)
		}
	}
}

func openStore(t testing.TB, root string) *transcripts.Store {
	t.Helper()
	st, err := transcripts.OpenStore(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A registered agent (@NAME) started on its own takes part; budget flags
// override config.json, which overrides the layer's defaults.
func TestDebateWithARunningAgentAndBudgets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"critic": repeatingCritic, "proposer": `{"turns":[{"round":1,"position":"P1","tokens":100},{"round":2,"position":"P2","tokens":100},{"round":3,"position":"P3","tokens":100}]}`})
	mustRun(t, root, "init")
	os.WriteFile(filepath.Join(root, "config.json"), []byte(`{"debate":{"budgets":{"plan":{"maxRounds":2,"maxTokens":50000}}}}`), 0o600)
	agentProc := startAgentProcess(t, root, "Skeptic", "attacker", s["critic"])
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "plan", "--topic", "Plan", "--agent", "attacker=@Skeptic", "--agent", "defender=script:"+s["proposer"])
	if code != cmdutil.ExitBlocked {
		t.Fatalf("exit %d: %s", code, errs)
	}
	v := lines(t, out)
	last := v[len(v)-1]
	if last["verdict"] != "BUDGET_EXHAUSTED" || last["rounds"] != float64(2) || v[0]["max_tokens"] != float64(50000) {
		t.Fatalf("config budget not applied: %v / %v", last, v[0])
	}
	// The flag wins over config.json.
	out, _, _ = dcli(t, root, "--json", "debate", "run", "--layer", "plan", "--topic", "Plan", "--agent", "attacker=@Skeptic",
		"--agent", "defender=script:"+s["proposer"], "--max-rounds", "3", "--max-tokens", "250", "--timeout", "30s")
	v = lines(t, out)
	last = v[len(v)-1]
	if last["verdict"] != "BUDGET_EXHAUSTED" || last["rule"] != "max_tokens" || v[0]["max_rounds"] != float64(3) || v[0]["max_wall_clock_ms"] != float64(30000) || last["tokens"] != float64(340) {
		t.Fatalf("flags not applied: %v / %v", last, v[0])
	}
	// The registered agent was not stopped by the debates.
	if agentProc.ProcessState != nil {
		t.Fatal("the @NAME agent was stopped")
	}
}

func mustRun(t testing.TB, root string, args ...string) string {
	t.Helper()
	out, errs, code := dcli(t, root, args...)
	if code != 0 {
		t.Fatalf("parley %v: exit %d: %s", args, code, errs)
	}
	return out
}

// testBinary returns a command running this test binary as parley.
func testBinary(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	return cmd
}

// startAgentProcess runs "parley agent run" as a separate process until
// the test ends, and waits until it is registered.
func startAgentProcess(t testing.TB, root, name, role, script string) *exec.Cmd {
	t.Helper()
	cmd := testBinary(t, "--root", root, "agent", "run", "--name", name, "--role", role, "--script", script)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		<-done
	})
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if alive(t, root, name) {
			return cmd
		}
		select {
		case <-done:
			t.Fatalf("agent %s exited: %s", name, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("agent %s did not register", name)
		}
	}
}

func alive(t testing.TB, root, name string) bool {
	t.Helper()
	reg, err := registry.Open(root, nil)
	if err != nil {
		return false
	}
	defer reg.Close()
	ok, _ := reg.Alive(context.Background(), name)
	return ok
}

func TestAgentRunUnregistersOnSIGTERM(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"c": repeatingCritic})
	cmd := testBinary(t, "--root", root, "agent", "run", "--name", "Lonely", "--role", "attacker", "--script", s["c"])
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; !alive(t, root, "Lonely"); i++ {
		if i > 1500 {
			t.Fatal("never registered")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("agent run after SIGTERM: %v", err)
	}
	reg, err := registry.Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if _, err := reg.Get(context.Background(), "Lonely"); err == nil {
		t.Fatal("still registered after SIGTERM")
	}
	if _, errs, code := dcli(t, root, "agent", "run", "--name", "X", "--role", "attacker"); code != cmdutil.ExitUsage || !strings.Contains(errs, "exactly one") {
		t.Fatalf("no adapter: %d %q", code, errs)
	}
}

// runDebateProcess starts "parley --json debate run …" as a separate
// process and returns it with a reader of its JSON lines.
func runDebateProcess(t testing.TB, root string, args ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := testBinary(t, append([]string{"--root", root, "--json", "debate", "run"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(stdout)
}

// An agent process killed in the middle of a debate ends it in TIMEOUT at
// once (its registration says it is dead), not at the wall clock.
func TestTimeoutWhenAnAgentProcessDies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{
		"critic":   `{"turns":[{"round":1,"position":"C1","counter_to":"x","confidence_change":-1},{"round":2,"position":"C2","counter_to":"x","confidence_change":-1}]}`,
		"proposer": `{"turns":[{"round":1,"position":"P1"},{"round":2,"position":"P2","delay_ms":600000}]}`,
	})
	cmd, sc := runDebateProcess(t, root, "--layer", "spec", "--topic", "Dying", "--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	var last map[string]any
	killed := false
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		last = m
		if !killed && m["event"] == "request" && m["role"] == "defender" && m["round"] == float64(2) {
			reg, err := registry.Open(root, nil)
			if err != nil {
				t.Fatal(err)
			}
			e, err := reg.Get(context.Background(), m["agent"].(string))
			reg.Close()
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(e.PID, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != cmdutil.ExitBlocked {
		t.Fatalf("exit: %v", err)
	}
	if !killed || last["verdict"] != "TIMEOUT" || last["rule"] != "forfeit" || last["action"] != "escalate" || last["rounds"] != float64(2) {
		t.Fatalf("verdict %v (killed %v)", last, killed)
	}
	if last["elapsed_ms"].(float64) >= 120000 {
		t.Fatalf("waited for the wall clock: %v", last["elapsed_ms"])
	}
}

// The coordinator killed with SIGKILL at random points: "debate resume"
// ends with the same verdict and the same turns as an uninterrupted run,
// the chain verifies, and no turn is counted twice. PARLEY_LONG=1 runs 200.
func TestKill9CoordinatorThenResume(t *testing.T) {
	t.Parallel()
	runs := 30
	switch {
	case os.Getenv("PARLEY_LONG") == "1":
		runs = 200
	case testing.Short():
		runs = 10
	}
	dir := t.TempDir()
	s := writeScripts(t, dir, map[string]string{
		"a1": `{"turns":[{"round":1,"position":"A1","counter_to":"x","confidence_change":-1,"tokens":11,"delay_ms":15},{"round":2,"position":"A2","counter_to":"x","confidence_change":-1,"tokens":12,"delay_ms":15},{"round":3,"position":"A3","counter_to":"x","confidence_change":-1,"tokens":13,"delay_ms":15}]}`,
		"a2": `{"turns":[{"round":1,"position":"B1","counter_to":"x","confidence_change":-1,"tokens":21,"delay_ms":10,"reply_round":9,"wrong_attempts":1},{"round":2,"position":"B2","counter_to":"x","confidence_change":-1,"tokens":22,"delay_ms":10},{"round":3,"position":"B2","counter_to":"x","confidence_change":-1,"tokens":23,"delay_ms":10}]}`,
		"d":  `{"turns":[{"round":1,"position":"D1","tokens":31,"delay_ms":15},{"round":2,"position":"D2","tokens":32,"delay_ms":15},{"round":3,"position":"D3","tokens":33,"delay_ms":15}]}`,
	})
	args := []string{"--layer", "spec", "--topic", "Crash me", "--agent", "attacker=script:" + s["a1"], "--agent", "attacker=script:" + s["a2"], "--agent", "defender=script:" + s["d"]}
	// The uninterrupted run.
	refRoot := filepath.Join(dir, "ref")
	start := time.Now()
	cmd, sc := runDebateProcess(t, refRoot, args...)
	var refID string
	for sc.Scan() {
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		refID, _ = m["debate_id"].(string)
	}
	cmd.Wait()
	took := time.Since(start)
	want := debateTurns(t, refRoot, refID)
	if want.verdict != "BUDGET_EXHAUSTED" || len(want.turns) != 9 {
		t.Fatalf("reference run: %+v", want)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("%d runs, seed %d, an uninterrupted run takes %v", runs, seed, took)
	rng := rand.New(rand.NewPCG(seed, 7))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 3)
	for i := 0; i < runs; i++ {
		delay := time.Duration(rng.Int64N(int64(took)))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := killAndResume(t, filepath.Join(dir, fmt.Sprint(i)), args, delay, want); err != nil {
				t.Errorf("run %d (kill after %v): %v", i, delay, err)
			}
		}()
	}
	wg.Wait()
}

type turnsOf struct {
	verdict string
	turns   []string
	events  int
}

// debateTurns reads a closed debate back: its verdict, its turns in order,
// after checking the chain and that no turn is recorded twice.
func debateTurns(t testing.TB, root, id string) turnsOf {
	t.Helper()
	st := openStore(t, root)
	rep, err := st.Verify(id)
	if err != nil || !rep.Intact || !rep.Sealed {
		t.Errorf("%s: chain %+v %v", id, rep, err)
	}
	events, err := st.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var out turnsOf
	seen := map[string]bool{}
	for _, e := range events {
		switch e.Kind {
		case debate.EventTurn:
			var tr debate.TurnRecord
			json.Unmarshal(e.Data, &tr)
			line := fmt.Sprintf("r%d %s %s %q %d", tr.Round, tr.Role, tr.Agent, tr.Position, tr.Tokens)
			if seen[tr.RequestID] {
				t.Errorf("%s: request %s answered twice", id, tr.RequestID)
			}
			seen[tr.RequestID] = true
			out.turns = append(out.turns, strings.ReplaceAll(line, id[len(id)-6:], "X"))
		case debate.EventVerdict:
			var o debate.Outcome
			json.Unmarshal(e.Data, &o)
			out.verdict = string(o.Verdict)
		}
	}
	out.events = len(events)
	return out
}

func killAndResume(t *testing.T, root string, args []string, delay time.Duration, want turnsOf) error {
	cmd, sc := runDebateProcess(t, root, args...)
	var id string
	if sc.Scan() { // the open event: the debate exists
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		id, _ = m["debate_id"].(string)
	}
	go func() {
		for sc.Scan() {
		}
	}()
	time.Sleep(delay)
	cmd.Process.Kill()
	cmd.Wait()
	if id == "" {
		return fmt.Errorf("no open event")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res := exec.CommandContext(ctx, os.Args[0], "--root", root, "--json", "debate", "resume", id)
	res.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	out, err := res.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != cmdutil.ExitBlocked) {
		return fmt.Errorf("resume: %v: %s", err, out)
	}
	got := debateTurns(t, root, id)
	if got.verdict != want.verdict || !slices.Equal(got.turns, want.turns) {
		return fmt.Errorf("resumed: %s %v\nwant %s %v", got.verdict, got.turns, want.verdict, want.turns)
	}
	return nil
}

func TestTranscriptsVerifyCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"c": concedingCritic, "d": holdingDefender})
	out := mustRun(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Verify me", "--agent", "attacker=script:"+s["c"], "--agent", "defender=script:"+s["d"])
	objs := lines(t, out)
	id := objs[len(objs)-1]["debate_id"].(string)
	if out, _, code := dcli(t, root, "--json", "transcripts", "verify", id); code != 0 || lines(t, out)[0]["intact"] != true {
		t.Fatalf("intact transcript: exit %d %s", code, out)
	}
	path := filepath.Join(root, "debates", id, "transcript.jsonl")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(data, []byte(`"tokens":120`), []byte(`"tokens":12`), 1), 0o600)
	out, errs, code := dcli(t, root, "transcripts", "verify", id)
	if code != cmdutil.ExitBlocked || !strings.Contains(out, "TAMPERED at line 3") || !strings.Contains(errs, "line 3") {
		t.Fatalf("tampered transcript: exit %d\n%s\n%s", code, out, errs)
	}
	if _, errs, code := dcli(t, root, "transcripts", "verify", "20260101-spec-missing-abcdef"); code != cmdutil.ExitError || !strings.Contains(errs, "no debate") {
		t.Fatalf("missing debate: exit %d %q", code, errs)
	}
	// A tampered debate cannot be resumed.
	if _, errs, code := dcli(t, root, "debate", "resume", id); code != cmdutil.ExitBlocked || !strings.Contains(errs, "line 3") {
		t.Fatalf("resume of a tampered debate: exit %d %q", code, errs)
	}
}

func TestDebateStartWatchStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{
		"c": `{"turns":[{"round":1,"position":"C1","counter_to":"x","confidence_change":-1,"delay_ms":100},{"round":2,"position":"","counter_to":"","confidence_change":0,"delay_ms":100}]}`,
		"d": `{"turns":[{"round":1,"position":"D1","delay_ms":100}]}`,
	})
	out := mustRun(t, root, "debate", "start", "--layer", "plan", "--topic", "In the background", "--agent", "attacker=script:"+s["c"], "--agent", "defender=script:"+s["d"])
	id := strings.TrimSpace(out)
	if debate.ValidateID(id) != nil {
		t.Fatalf("debate start printed %q", out)
	}
	// Asked at once, the debate is running (its process took it before
	// start printed its id), not interrupted with a hint to resume it.
	if out, _, _ := dcli(t, root, "debate", "status", id); strings.Contains(out, "interrupted") || strings.Contains(out, "resume") {
		t.Errorf("status right after start: %s", out)
	}
	out, errs, code := dcli(t, root, "--json", "debate", "watch", id)
	if code != 0 {
		t.Fatalf("watch: exit %d %s\n%s", code, errs, out)
	}
	objs := lines(t, out)
	last := objs[len(objs)-1]
	if objs[0]["event"] != "open" || last["event"] != "verdict" || last["verdict"] != "CONSENSUS_REACHED" || last["final_position"] != "D1" || last["record"] == "" {
		t.Fatalf("watch output %v … %v", objs[0], last)
	}
	// Watching a closed debate replays it.
	out2, _, code := dcli(t, root, "--json", "debate", "watch", id)
	if code != 0 || len(lines(t, out2)) != len(objs) {
		t.Fatalf("second watch: %d lines, want %d", len(lines(t, out2)), len(objs))
	}
	out, _, _ = dcli(t, root, "debate", "status", id)
	if !strings.Contains(out, "state:  closed") || !strings.Contains(out, "CONSENSUS_REACHED") {
		t.Fatalf("status: %s", out)
	}
	// The detached process prints the verdict to its log after sealing.
	for i := 0; ; i++ {
		log, err := os.ReadFile(filepath.Join(root, "debates", id, "logs", "coordinator.log"))
		if err == nil && strings.Contains(string(log), "CONSENSUS_REACHED") {
			break
		}
		if i > 500 {
			t.Fatalf("coordinator log: %v %s", err, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBenchDebateRuns(t *testing.T) {
	t.Parallel()
	out, errs, code := runT(t, "", "--json", "bench", "debate", "--debates", "3", "--concurrent", "5", "--rounds", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	objs := lines(t, out)
	names := map[string]map[string]any{}
	for _, o := range objs {
		names[o["name"].(string)] = o
	}
	for _, n := range []string{"turn_mem", "turn_mem_transcript", "turn_file_transcript", "concurrent_mem_transcript", "concurrent_file_transcript"} {
		o, ok := names[n]
		if !ok {
			t.Fatalf("no %s figure in %s", n, out)
		}
		if strings.HasPrefix(n, "turn_") && (o["turns"] != float64(12) || o["us_per_turn"].(float64) <= 0) {
			t.Errorf("%s: %v", n, o)
		}
		if strings.HasPrefix(n, "concurrent_") && (o["completed"] != float64(5) || o["pass"] != true) {
			t.Errorf("%s: %v", n, o)
		}
	}
	if _, ok := names["turn_file_transcript"]["pass"]; ok {
		t.Error("the end-to-end file transport figure is judged against the coordinator's bar")
	}
}

// An agent whose coordinator died before the agent first looked at its
// parent (kill -9 right after the start) still stops by itself: it is told
// which process its parent is, rather than taking whoever it finds.
func TestAgentExitsWhenItsParentDiedBeforeItStarted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o700); err != nil { // agent run serves only in a root that exists
		t.Fatal(err)
	}
	s := writeScripts(t, dir, map[string]string{"c": repeatingCritic})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "agent.log")
	// The shell starts the agent in the background and exits at once: the
	// agent is an orphan before it runs a line of its own.
	sh := exec.Command("sh", "-c", `"$0" --root "$1" agent run --name Orphan --role attacker --script "$2" --exit-with-parent --parent-pid $$ >"$3" 2>&1 & echo $!`,
		exe, root, s["c"], logPath)
	sh.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	out, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(st), ") Z ") {
			break
		}
		if i > 1500 {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the orphaned agent %d is still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Either it found its parent gone at start, or it noticed later.
	if log, _ := os.ReadFile(logPath); !strings.Contains(string(log), "is listening") && !strings.Contains(string(log), "has ended") {
		t.Fatalf("the agent did not run: %s", log)
	}
	if alive(t, root, "Orphan") {
		t.Fatal("the orphaned agent is still registered")
	}
}

// openedDebate makes a spec debate on topic under root, opened at started
// with position and two script agents (the attacker's and the defender's
// script files) and run no further: a coordinator gone before round 1. It
// returns the debate's id.
func openedDebate(t *testing.T, root, workspace string, started time.Time, topic, position, attacker, defender string) string {
	t.Helper()
	id := debate.NewID(started, debate.LayerSpec, topic)
	sess := &debate.DebateSession{
		ID: id, Topic: topic, Layer: debate.LayerSpec, Position: position, Budget: debate.DefaultBudget(debate.LayerSpec),
		Created: started.UTC().Format("2006-01-02T15:04:05.000Z"), Coordinator: debate.CoordinatorName(id), Workspace: workspace,
		Participants: []debate.Participant{
			{Name: app.ParticipantName(id, debate.RoleAttacker, 1), Role: debate.RoleAttacker, Agent: "script:" + attacker},
			{Name: app.ParticipantName(id, debate.RoleDefender, 1), Role: debate.RoleDefender, Agent: "script:" + defender},
		},
	}
	log, err := openStore(t, root).Create(context.Background(), sess)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := log.Append(context.Background(), debate.EventOpen, 0, sess); err != nil {
		t.Fatal(err)
	}
	log.Close()
	return id
}

// "debate resume" continues the debate the transcript records (SPEC §5.6:
// the transcript is the source of truth), not what session.json, which no
// hash protects, says afterwards: the agents it starts are the recorded
// participants', whatever session.json was edited to.
func TestResumeStartsTheRecordedAgents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	mustRun(t, root, "init")
	s := writeScripts(t, dir, map[string]string{"c": concedingCritic, "d": holdingDefender})
	id := openedDebate(t, root, dir, time.Now(), "Keys", "Use UUIDv7 keys", s["c"], s["d"])
	// session.json edited after the fact: another command for the attacker.
	marker := filepath.Join(dir, "ran")
	sp := filepath.Join(root, "debates", id, "session.json")
	data, _ := os.ReadFile(sp)
	data = bytes.Replace(data, []byte("script:"+s["c"]), []byte("exec:touch "+marker), 1)
	if err := os.WriteFile(sp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// session.json no longer says what the chain's open event says: resume
	// refuses the debate, naming the file, and runs nothing.
	out, errs, code := dcli(t, root, "--json", "debate", "resume", id)
	if code != cmdutil.ExitBlocked || !strings.Contains(errs, "session.json differs: session.json says participants") {
		t.Fatalf("resume: exit %d: %s\n%s", code, errs, out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("resume ran the command session.json was edited to name")
	}
	// Put back, the debate resumes with the agents the chain recorded.
	os.WriteFile(sp, bytes.Replace(data, []byte("exec:touch "+marker), []byte("script:"+s["c"]), 1), 0o600)
	out, errs, code = dcli(t, root, "--json", "debate", "resume", id)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s\n%s", code, errs, out)
	}
	ls := lines(t, out)
	if v := ls[len(ls)-1]; v["verdict"] != "CONSENSUS_REACHED" {
		t.Fatalf("verdict line %v", v)
	}
}

// --convergence-rounds and --max-tokens-per-round reach the debate: with
// two convergence rounds a critic that only repeats itself deadlocks in
// round 3, not 2; its 120-token turns are over a 100-token allowance,
// kept and flagged, the defender's 100 are not.
func TestDebateRunConvergenceAndPerRoundFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"c": repeatingCritic, "d": stubbornDefense})
	out, errs, code := dcli(t, root, "--json", "debate", "run", "--layer", "spec", "--topic", "Flags", "--agent", "attacker=script:"+s["c"],
		"--agent", "defender=script:"+s["d"], "--max-rounds", "5", "--convergence-rounds", "2", "--max-tokens-per-round", "100")
	if code != cmdutil.ExitBlocked {
		t.Fatalf("exit %d: %s", code, errs)
	}
	v := lines(t, out)
	last := v[len(v)-1]
	if last["verdict"] != "DEADLOCK" || last["rounds"] != float64(3) {
		t.Fatalf("verdict line %v, want DEADLOCK in round 3", last)
	}
	id := last["debate_id"].(string)
	st := openStore(t, root)
	sess, err := st.Session(id)
	if err != nil {
		t.Fatal(err)
	}
	if b := sess.Budget; b.ConvergenceRounds != 2 || b.MaxTokensPerRound != 100 || b.MaxRounds != 5 {
		t.Fatalf("session budget %+v", b)
	}
	events, err := st.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	turns := 0
	for _, e := range events {
		if e.Kind != debate.EventTurn {
			continue
		}
		var tr debate.TurnRecord
		if err := json.Unmarshal(e.Data, &tr); err != nil {
			t.Fatal(err)
		}
		turns++
		if want := tr.Role == debate.RoleAttacker; tr.OverBudget != want {
			t.Errorf("round %d %s (%d tokens): over_budget %v, want %v", tr.Round, tr.Role, tr.Tokens, tr.OverBudget, want)
		}
	}
	if turns != 6 {
		t.Fatalf("%d turns, want 6", turns)
	}
}

// TestWatchUnregistersWhenItsTerminalHangsUp: a watch whose terminal
// closes (SIGHUP) stops as Ctrl-C stops it, unregistering; one started to
// ignore hang-ups (nohup) keeps watching.
func TestWatchUnregistersWhenItsTerminalHangsUp(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	if _, errs, code := dcli(t, root, "agents", "add", "Night"); code != 0 {
		t.Fatal(errs)
	}
	start := func(nohup bool) *exec.Cmd {
		t.Helper()
		cmd := testBinary(t, "--root", root, "watch", "--as", "Night")
		if nohup {
			// sh's trap '' HUP makes the hang-up ignored in what it execs,
			// as nohup does.
			w := exec.Command("sh", "-c", `trap '' HUP; exec "$0" "$@"`, cmd.Path, "--root", root, "watch", "--as", "Night")
			w.Env = cmd.Env
			cmd = w
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for i := 0; !alive(t, root, "Night"); i++ {
			if i > 1500 {
				t.Fatal("never registered")
			}
			time.Sleep(20 * time.Millisecond)
		}
		return cmd
	}
	cmd := start(false)
	cmd.Process.Signal(syscall.SIGHUP)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("watch after SIGHUP: %v", err)
	}
	if alive(t, root, "Night") {
		t.Fatal("still registered after SIGHUP")
	}
	cmd = start(true)
	cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(300 * time.Millisecond)
	if !alive(t, root, "Night") {
		t.Error("a watch that ignores hang-ups stopped on one")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
}

// The coordinator killed while an agent is in the middle of its turn, and
// resumed after that turn's deadline has passed: the agent started by the
// resume finds the stale request beside the one sent again with a new
// deadline, and answers the new one, so the debate ends as it would have
// uninterrupted (it used to wait out the wall clock and file a TIMEOUT).
func TestResumeAfterTheOldDeadlinePassed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{
		"critic":   `{"turns":[{"round":1,"position":"A1","counter_to":"P","confidence_change":-1,"tokens":50},{"round":2,"position":"","counter_to":"","confidence_change":0,"tokens":50}]}`,
		"proposer": `{"turns":[{"round":1,"position":"P","tokens":50,"delay_ms":700}]}`,
	})
	cmd, sc := runDebateProcess(t, root, "--layer", "spec", "--topic", "Late resume", "--position", "P", "--timeout", "6s",
		"--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	id := ""
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		if m["event"] == "request" && m["role"] == "defender" && m["round"] == float64(1) {
			id, _ = m["debate_id"].(string)
			// The defender has the request and sleeps on it: kill the
			// coordinator (its agents end with it) mid-turn.
			time.Sleep(200 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGKILL)
			break
		}
	}
	cmd.Wait()
	if id == "" {
		t.Fatal("no defender request seen")
	}
	// Past the old request's deadline. The wall clock leaves the resumed
	// debate 5 s for the turn: time enough on a machine under the load of
	// the whole suite, where every stretch the process waited for a CPU
	// counts against it.
	time.Sleep(6500 * time.Millisecond)
	out, errs, code := dcli(t, root, "--json", "debate", "resume", id)
	if code != 0 || !strings.Contains(out, `"verdict":"CONSENSUS_REACHED"`) {
		t.Fatalf("resume: exit %d\n%s%s", code, out, errs)
	}
}

// The wall clock counts the coordinator's active time across Ctrl-C and
// resume (SPEC §5.2, §5.6): debate status shows it going on while the
// coordinator waits on a turn that never comes; Ctrl-C records it; the
// resume continues from it, not from the last request, and time while no
// coordinator ran does not count.
func TestCtrlCKeepsTheWallClock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"d": `{"turns":[{"round":1,"position":"P1"}]}`})
	cmd, sc := runDebateProcess(t, root, "--layer", "spec", "--topic", "Clock", "--timeout", "8s",
		"--agent", "attacker=exec:sleep 600", "--agent", "defender=script:"+s["d"])
	var id string
	for id == "" && sc.Scan() {
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		if m["event"] == "request" {
			id, _ = m["debate_id"].(string)
		}
	}
	stop := func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }
	if id == "" {
		stop()
		t.Fatal("no request event")
	}
	elapsed := func(m map[string]any) float64 { v, _ := m["elapsed_ms"].(float64); return v }
	time.Sleep(1500 * time.Millisecond)
	out, errs, code := dcli(t, root, "--json", "debate", "status", id)
	if st := lines(t, out)[0]; code != 0 || st["state"] != "running" || elapsed(st) < 1500 || elapsed(st) >= 8000 {
		stop()
		t.Fatalf("status while waiting 1.5 s on a turn: exit %d %s %s", code, out, errs)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	var stopped map[string]any
	for sc.Scan() {
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		if m["event"] == "clock" {
			stopped = m
		}
	}
	cmd.Wait()
	if stopped == nil || stopped["detail"] != "stopped: interrupted" || elapsed(stopped) < 2000 {
		t.Fatalf("Ctrl-C recorded %v, want a clock event at 2000 ms or later: stopped: interrupted", stopped)
	}
	time.Sleep(500 * time.Millisecond) // no coordinator runs: this does not count
	out, errs, code = dcli(t, root, "--json", "debate", "status", id)
	if st := lines(t, out)[0]; code != 0 || st["state"] != "interrupted" || elapsed(st) != elapsed(stopped) {
		t.Fatalf("status after Ctrl-C: exit %d %s %s; want %v ms", code, out, errs, elapsed(stopped))
	}
	out, errs, code = dcli(t, root, "--json", "debate", "resume", id)
	objs := lines(t, out)
	if code != cmdutil.ExitBlocked || objs[0]["event"] != "resume" || elapsed(objs[0]) < elapsed(stopped) || elapsed(objs[0]) > elapsed(stopped)+1000 {
		t.Fatalf("resume: exit %d, first line %v, want a resume at %v ms: %s", code, objs[0], elapsed(stopped), errs)
	}
	if v := objs[len(objs)-1]; v["verdict"] != "TIMEOUT" || elapsed(v) < 8000 {
		t.Fatalf("resumed debate closed %v", v)
	}
}

// agent run with a name another live agent holds is refused, saying so
// once and what to do, and the command it suggests lists the agents of
// the root it was given.
func TestAgentRunWithATakenNameListsTheCallersRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "my root")
	mustCLI(t, root, "", "init")
	register(t, root, "Bishop", true)
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic})
	_, errs, code := dcli(t, root, "agent", "run", "--name", "Bishop", "--role", "attacker", "--script", s["critic"])
	want := "(see " + suggest.CommandLine("parley", "--root", root, "agents", "list") + ")"
	if code != cmdutil.ExitError || strings.Count(errs, "live agent") != 1 || !strings.Contains(errs, "stop that agent or choose another name") || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, errs, want)
	}
}
