package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// The scripted debate of the NATS tests: two attackers (one of them sends
// a reply for the wrong round first, which is rejected and re-requested)
// and a defender, three rounds, ending in BUDGET_EXHAUSTED after nine turns.
func natsDebateScripts(t testing.TB, dir string, delayMs int) []string {
	t.Helper()
	d := fmt.Sprint(delayMs)
	s := writeScripts(t, dir, map[string]string{
		"a1": `{"turns":[{"round":1,"position":"A1","counter_to":"x","confidence_change":-1,"tokens":11,"delay_ms":` + d + `},{"round":2,"position":"A2","counter_to":"x","confidence_change":-1,"tokens":12,"delay_ms":` + d + `},{"round":3,"position":"A3","counter_to":"x","confidence_change":-1,"tokens":13,"delay_ms":` + d + `}]}`,
		"a2": `{"turns":[{"round":1,"position":"B1","counter_to":"x","confidence_change":-1,"tokens":21,"delay_ms":` + d + `,"reply_round":9,"wrong_attempts":1},{"round":2,"position":"B2","counter_to":"x","confidence_change":-1,"tokens":22,"delay_ms":` + d + `},{"round":3,"position":"B2","counter_to":"x","confidence_change":-1,"tokens":23,"delay_ms":` + d + `}]}`,
		"d":  `{"turns":[{"round":1,"position":"D1","tokens":31,"delay_ms":` + d + `},{"round":2,"position":"D2","tokens":32,"delay_ms":` + d + `},{"round":3,"position":"D3","tokens":33,"delay_ms":` + d + `}]}`,
	})
	return []string{"--layer", "spec", "--topic", "Over the network", "--agent", "attacker=script:" + s["a1"],
		"--agent", "attacker=script:" + s["a2"], "--agent", "defender=script:" + s["d"]}
}

// runDebateCLI runs "debate run" in this process (the coordinator; the
// agents are separate processes it starts) and returns the debate id.
func runDebateCLI(t testing.TB, root string, args []string) string {
	t.Helper()
	out, errs, code := dcli(t, root, append([]string{"--json", "debate", "run"}, args...)...)
	if code != cmdutil.ExitOK && code != cmdutil.ExitBlocked {
		t.Fatalf("debate run: exit %d: %s\n%s", code, errs, out)
	}
	objs := lines(t, out)
	id, _ := objs[len(objs)-1]["debate_id"].(string)
	if objs[len(objs)-1]["event"] != "verdict" || id == "" {
		t.Fatalf("no verdict: %s", out)
	}
	return id
}

// Must show: a whole scripted debate over JetStream, with its agents in
// separate processes ("parley agent run", pointed at the server by
// config.json), ends with the same verdict and transcript turns as over
// files.
func TestDebateOverNATSMatchesFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := natsDebateScripts(t, dir, 0)
	fileRoot := filepath.Join(dir, "files")
	want := debateTurns(t, fileRoot, runDebateCLI(t, fileRoot, args))
	if want.verdict != "BUDGET_EXHAUSTED" || len(want.turns) != 9 {
		t.Fatalf("the file run: %+v", want)
	}
	natsRoot, _ := natsRoot(t)
	id := runDebateCLI(t, natsRoot, args)
	got := debateTurns(t, natsRoot, id)
	if got.verdict != want.verdict || !slices.Equal(got.turns, want.turns) {
		t.Fatalf("over NATS: %s %v\nover files: %s %v", got.verdict, got.turns, want.verdict, want.turns)
	}
	// The messenger was the server: no inbox of the debate on disk.
	if des, _ := os.ReadDir(filepath.Join(natsRoot, "inbox")); len(des) != 0 {
		t.Fatalf("the debate used the file messenger too: inbox/ holds %v", des)
	}
	// The record was filed and the transcript verifies, as over files.
	if _, errs, code := dcli(t, natsRoot, "transcripts", "verify", id); code != cmdutil.ExitOK {
		t.Fatalf("transcripts verify: exit %d: %s", code, errs)
	}
}

// A registered agent (@NAME) started on its own, as on another machine,
// takes part in a debate over NATS.
func TestDebateOverNATSWithARunningAgent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, _ := natsRoot(t)
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
	cmd := testBinary(t, "--root", root, "agent", "run", "--name", "Skeptic", "--role", "attacker", "--script", s["critic"])
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); <-exited })
	for deadline := time.Now().Add(30 * time.Second); !aliveIn(t, root, "Skeptic"); time.Sleep(20 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("the agent exited: %s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent did not register: %s", out.String())
		}
	}
	id := runDebateCLI(t, root, []string{"--layer", "spec", "--topic", "Idempotency keys", "--position", "Use UUIDv7 keys",
		"--agent", "attacker=@Skeptic", "--agent", "defender=script:" + s["proposer"]})
	got := debateTurns(t, root, id)
	if got.verdict != "CONSENSUS_REACHED" || len(got.turns) != 3 {
		t.Fatalf("debate with @Skeptic over NATS: %+v", got)
	}
}

// aliveIn asks the messenger that root's config.json selects whether name
// is alive.
func aliveIn(t testing.TB, root, name string) bool {
	t.Helper()
	m, err := (&factory{&cmdutil.Factory{RootFlag: root}}).OpenMessenger()
	if err != nil {
		return false
	}
	defer m.Close()
	ok, _ := m.Registry().Alive(context.Background(), name)
	return ok
}

// debateEvents reads the JSON lines of a "debate run" process and calls
// on for each, until the process's output ends.
func debateEvents(t testing.TB, root string, args []string, on func(map[string]any)) (string, error) {
	t.Helper()
	cmd, sc := runDebateProcess(t, root, args...)
	var id string
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue
		}
		if s, ok := m["debate_id"].(string); ok {
			id = s
		}
		on(m)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == cmdutil.ExitBlocked {
		err = nil
	}
	return id, err
}

// Must show: the server stopped and started again on the same store in the
// middle of a debate: nothing is lost, nothing doubled; the debate
// completes with the verdict and turns of an uninterrupted run.
func TestDebateSurvivesNATSServerRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := natsDebateScripts(t, dir, 60)
	fileRoot := filepath.Join(dir, "files")
	want := debateTurns(t, fileRoot, runDebateCLI(t, fileRoot, args))
	root, srv := natsRoot(t)
	// After the third turn; PARLEY_LONG=1: after every second turn.
	at := map[int]bool{3: true}
	if os.Getenv("PARLEY_LONG") == "1" {
		at = map[int]bool{2: true, 4: true, 6: true, 8: true}
	}
	turns, restarts := 0, 0
	id, err := debateEvents(t, root, args, func(m map[string]any) {
		if m["event"] != "turn" {
			return
		}
		turns++
		if at[turns] {
			restarts++
			srv.Stop()
			time.Sleep(time.Second)
			if err := srv.Restart(); err != nil {
				t.Error(err)
			}
		}
	})
	if err != nil || restarts != len(at) {
		t.Fatalf("debate run: %v (%d restarts)", err, restarts)
	}
	got := debateTurns(t, root, id)
	if got.verdict != want.verdict || !slices.Equal(got.turns, want.turns) {
		t.Fatalf("after a server restart: %s %v\nuninterrupted: %s %v", got.verdict, got.turns, want.verdict, want.turns)
	}
}

// The server goes down in the middle of a debate and the coordinator is
// killed while it is down: after the server is back, "debate resume" ends
// the debate with the verdict and turns of an uninterrupted run.
func TestDebateResumesAfterNATSOutageAndCoordinatorKill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := natsDebateScripts(t, dir, 60)
	fileRoot := filepath.Join(dir, "files")
	want := debateTurns(t, fileRoot, runDebateCLI(t, fileRoot, args))
	root, srv := natsRoot(t)
	cmd, sc := runDebateProcess(t, root, args...)
	var id string
	turns := 0
	for turns < 4 && sc.Scan() {
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		if s, ok := m["debate_id"].(string); ok {
			id = s
		}
		if m["event"] == "turn" {
			turns++
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	srv.Stop()
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Kill()
	cmd.Wait()
	time.Sleep(300 * time.Millisecond) // its agents notice and stop
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if id == "" || turns < 4 {
		t.Fatalf("the debate did not start: id %q, %d turns", id, turns)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res := exec.CommandContext(ctx, os.Args[0], "--root", root, "--json", "debate", "resume", id)
	res.Env = append(os.Environ(), "PARLEY_TEST_AS_CLI=1")
	out, err := res.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != cmdutil.ExitBlocked) {
		t.Fatalf("resume: %v: %s", err, out)
	}
	got := debateTurns(t, root, id)
	if got.verdict != want.verdict || !slices.Equal(got.turns, want.turns) {
		// Why, in the agents' own words: the logs of the debate's agents.
		logs, _ := filepath.Glob(filepath.Join(root, "debates", id, "logs", "*.log"))
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", filepath.Base(l), b)
		}
		t.Logf("resume: %s", out)
		t.Fatalf("resumed: %s %v\nuninterrupted: %s %v", got.verdict, got.turns, want.verdict, want.turns)
	}
}
