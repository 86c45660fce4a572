package consensus

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/vault"
)

const (
	idA  = "20261130-spec-idempotency-aaaaaa"
	idB  = "20261201-spec-idempotency-bbbbbb"
	posB = "Derive the key from the request body hash"
)

func outcomeB() *debate.Outcome {
	b := outcome(idB, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false)
	b.FinalPosition = posB
	return b
}

// assertRepaired checks the state a complete filing of B after A leaves.
func assertRepaired(t *testing.T, e *env) {
	t.Helper()
	fa, _ := frontmatterOf(t, e.read(t, "wiki/consensus/spec-idempotency-key-design.md"))
	if fa["status"] != "superseded" || fa["superseded_by"] != "[[spec-idempotency-key-design-2]]" {
		t.Errorf("A not superseded: %v %v", fa["status"], fa["superseded_by"])
	}
	index := e.read(t, "wiki/consensus/"+IndexName)
	if !strings.Contains(index, "[[spec-idempotency-key-design-2\\|Idempotency key design]] | CONSENSUS_REACHED | active |") ||
		!strings.Contains(index, "[[spec-idempotency-key-design\\|Idempotency key design]] | CONSENSUS_REACHED | superseded |") {
		t.Errorf("index not repaired:\n%s", index)
	}
	if _, err := os.Stat(filepath.Join(e.vaultDir, "wiki/consensus/spec-idempotency-key-design-3.md")); err == nil {
		t.Error("repair filed a third record")
	}
}

// checkAnswersFromB checks, in a fresh Store (a new process), that lookup
// already answers from the new record, whatever the filing left undone.
func checkAnswersFromB(t *testing.T, e *env) {
	t.Helper()
	res, err := e.open(t).Check(context.Background(), debate.LayerSpec, "Idempotency key design", posB)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != CheckConsistent || res.Record.Name != "spec-idempotency-key-design-2" {
		t.Errorf("check after the crash: %s %+v", res.Status, res.Record)
	}
}

func TestCrashBetweenRecordAndIndexRepairedByRefiling(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	e.fault.Fail("rename", IndexName, syscall.EIO, 1)
	if _, err := e.s.File(context.Background(), outcomeB()); !errors.Is(err, syscall.EIO) {
		t.Fatalf("File with the index write failing: %v", err)
	}
	if index := e.read(t, "wiki/consensus/"+IndexName); strings.Contains(index, "key-design-2") {
		t.Fatal("the fault did not hit the index")
	}
	checkAnswersFromB(t, e)
	// consensus file --from-debate B files B again: idempotent, and repairs.
	if p := e.file(t, outcomeB()); p != "wiki/consensus/spec-idempotency-key-design-2.md" {
		t.Errorf("re-filing B gave %s", p)
	}
	assertRepaired(t, e)
}

func TestCrashBeforeSupersedeRepairedByNextFiling(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	// Flipping A fails (only A's file name ends in "key-design.md").
	e.fault.Fail("rename", "key-design.md", syscall.ENOSPC, 1)
	if _, err := e.s.File(context.Background(), outcomeB()); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("File with the supersede failing: %v", err)
	}
	fa, _ := frontmatterOf(t, e.read(t, "wiki/consensus/spec-idempotency-key-design.md"))
	if fa["status"] != "active" {
		t.Fatal("the fault did not hit the supersede")
	}
	checkAnswersFromB(t, e)
	// Any next filing, here of another question, finishes the supersession.
	e.file(t, outcome("20261202-plan-other-cccccc", "Another question", debate.LayerPlan, debate.Deadlock, false))
	assertRepaired(t, e)
}

func TestNoHalfWrittenRecordIsRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))
	// A full disk while writing B's record: File fails, nothing is left.
	e.fault.Fail("write", "key-design-2", syscall.ENOSPC, 1)
	if _, err := e.s.File(ctx, outcomeB()); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("File on a full disk: %v", err)
	}
	ents, _ := os.ReadDir(filepath.Join(e.vaultDir, Folder))
	for _, d := range ents {
		if strings.Contains(d.Name(), "key-design-2") {
			t.Errorf("left behind %s", d.Name())
		}
	}
	// What a crash mid-write would leave: a staging file with half a record.
	whole := e.read(t, "wiki/consensus/spec-idempotency-key-design.md")
	e.page(t, "wiki/consensus/.spec-idempotency-key-design-2.md.0a1b2c3d4e5f.tmp", whole[:len(whole)/2])
	recs, err := e.open(t).Records(ctx, Filter{})
	if err != nil || len(recs) != 1 || recs[0].Name != "spec-idempotency-key-design" {
		t.Errorf("records %v %v", recs, err)
	}
	res, err := e.open(t).Check(ctx, debate.LayerSpec, "Idempotency key design", defPos)
	if err != nil || res.Status != CheckConsistent {
		t.Errorf("check: %v %v", res, err)
	}
	if p := e.file(t, outcomeB()); p != "wiki/consensus/spec-idempotency-key-design-2.md" {
		t.Errorf("B filed at %s", p)
	}
	assertRepaired(t, e)
}

// TestKill9DuringFiling kills a real filing process with SIGKILL after each
// step of a filing and checks that lookup is right at once and that filing
// the debate again repairs the rest.
func TestKill9DuringFiling(t *testing.T) {
	t.Parallel()
	for _, step := range []string{"record", "supersede", "index"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.file(t, outcome(idA, "Idempotency key design", debate.LayerSpec, debate.ConsensusReached, false))

			cmd := exec.Command(os.Args[0], "-test.run=^TestFilingChild$", "-test.v")
			cmd.Env = append(os.Environ(), "PARLEY_FILING_CHILD=1", "PARLEY_CHILD_ROOT="+e.root, "PARLEY_CHILD_VAULT="+e.vaultDir, "PARLEY_CHILD_STEP="+step)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			ready := make(chan bool, 1)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					if sc.Text() == "READY "+step {
						ready <- true
						return
					}
				}
				ready <- false
			}()
			select {
			case ok := <-ready:
				if !ok {
					cmd.Wait()
					t.Fatal("the child ended before reaching the step")
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("the child never reached the step")
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()

			checkAnswersFromB(t, e)
			e.file(t, outcomeB()) // what consensus file --from-debate does
			assertRepaired(t, e)
		})
	}
}

// TestFilingChild is the process TestKill9DuringFiling kills: it files B
// and stops dead after the step named in PARLEY_CHILD_STEP.
func TestFilingChild(t *testing.T) {
	if os.Getenv("PARLEY_FILING_CHILD") != "1" {
		t.Skip("helper process for TestKill9DuringFiling")
	}
	v, err := vault.Open(os.Getenv("PARLEY_CHILD_VAULT"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(os.Getenv("PARLEY_CHILD_ROOT"), v)
	if err != nil {
		t.Fatal(err)
	}
	want := os.Getenv("PARLEY_CHILD_STEP")
	s.hook = func(step string) {
		if step == want {
			fmt.Printf("\nREADY %s\n", step)
			os.Stdout.Sync()
			time.Sleep(time.Hour)
		}
	}
	_, err = s.File(context.Background(), outcomeB())
	t.Fatalf("filing finished without stopping: %v", err)
}

// TestKill9RandomPoints (PARLEY_LONG=1) kills a process filing a stream of
// debates, several on one question, at random moments, then checks that
// every record file is whole, each question has one head, and that filing
// everything again repairs the chains and the index.
func TestKill9RandomPoints(t *testing.T) {
	if os.Getenv("PARLEY_LONG") == "" {
		t.Skip("set PARLEY_LONG=1 for the kill -9 campaign")
	}
	for i := range 20 {
		e := newEnv(t)
		cmd := exec.Command(os.Args[0], "-test.run=^TestFilingStreamChild$")
		cmd.Env = append(os.Environ(), "PARLEY_FILING_CHILD=1", "PARLEY_CHILD_ROOT="+e.root, "PARLEY_CHILD_VAULT="+e.vaultDir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(50+i*37%400) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()

		s := e.open(t)
		recs, err := s.Records(context.Background(), Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if sk := s.Skipped(); len(sk) != 0 {
			t.Fatalf("kill %d left broken records: %v", i, sk)
		}
		heads := map[string]int{}
		superseded := map[string]bool{}
		for _, r := range recs {
			if r.Supersedes != "" {
				superseded[r.Supersedes] = true
			}
		}
		for _, r := range recs {
			if !superseded[r.Name] {
				heads[string(r.Layer)+"/"+r.Slug]++
			}
		}
		for q, n := range heads {
			if n != 1 {
				t.Fatalf("kill %d: question %s has %d heads", i, q, n)
			}
		}
		if _, err := s.FileAll(context.Background(), streamOutcomes()); err != nil {
			t.Fatal(err)
		}
		recs, _ = s.Records(context.Background(), Filter{})
		if len(recs) != len(streamOutcomes()) {
			t.Fatalf("kill %d: %d records after re-filing, want %d", i, len(recs), len(streamOutcomes()))
		}
		for _, r := range recs {
			if superseded[r.Name] && r.Status != StatusSuperseded {
				t.Fatalf("kill %d: %s not repaired", i, r.Name)
			}
		}
		index := e.read(t, "wiki/consensus/"+IndexName)
		if !strings.Contains(index, fmt.Sprintf("%d record(s)", len(recs))) {
			t.Fatalf("kill %d: index not repaired", i)
		}
	}
}

func streamOutcomes() []*debate.Outcome {
	var out []*debate.Outcome
	for i := range 12 {
		topic := []string{"Alpha", "Beta", "Gamma"}[i%3]
		out = append(out, outcome(fmt.Sprintf("20261130-spec-stream%d-abcdef", i), topic, debate.LayerSpec, debate.ConsensusReached, false))
	}
	return out
}

// TestFilingStreamChild is the process TestKill9RandomPoints kills.
func TestFilingStreamChild(t *testing.T) {
	if os.Getenv("PARLEY_FILING_CHILD") != "1" {
		t.Skip("helper process for TestKill9RandomPoints")
	}
	v, err := vault.Open(os.Getenv("PARLEY_CHILD_VAULT"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(os.Getenv("PARLEY_CHILD_ROOT"), v)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range streamOutcomes() {
		if _, err := s.File(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Hour)
}
