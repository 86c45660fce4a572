package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMCPResumesAnInterruptedDebate: a debate whose coordinator was
// killed is "interrupted", and an MCP client, which cannot run "parley
// debate resume" on the server's machine, is told by debate_status, by
// debate_next_turn and by a refused answer that debate_resume continues
// it; debate_resume does, the participant is asked again and the debate
// closes with the verdict it would have reached; a closed debate is refused, saying why.
func TestMCPResumesAnInterruptedDebate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	critic := filepath.Join(dir, "critic.json")
	os.WriteFile(critic, []byte(concedingCritic), 0o600)
	root := filepath.Join(dir, "root")
	cs := stdioClient(t, root)
	ok[JoinOutput](t, cs, "debate_join", JoinInput{Role: "defender", Name: "Proposer"})
	start := ok[StartOutput](t, cs, "debate_start", StartInput{Layer: "spec", Topic: "Idempotency keys", Position: "Use UUIDv7 keys",
		Agents: []string{"attacker=script:" + critic, "defender=@Proposer"}, Timeout: "10m"})
	id := start.DebateID

	// The defender's request arrives; then the coordinator dies.
	var first NextTurnOutput
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && !first.Pending; {
		first = ok[NextTurnOutput](t, cs, "debate_next_turn", NextTurnInput{Name: "Proposer", WaitSeconds: 1})
	}
	if !first.Pending {
		t.Fatal("no request for the defender")
	}
	if err := syscall.Kill(start.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var st StatusOutput
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && st.State != "interrupted"; {
		st = ok[StatusOutput](t, cs, "debate_status", IDInput{ID: id})
	}
	call := `debate_resume {"id": "` + id + `"}`
	if st.State != "interrupted" || !strings.Contains(st.Next, call+" continues it") {
		t.Fatalf("debate_status of the interrupted debate: state %s, next %q; want %s named", st.State, st.Next, call)
	}
	var nt NextTurnOutput
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && (nt.Pending || nt.Debate == nil); {
		nt = ok[NextTurnOutput](t, cs, "debate_next_turn", NextTurnInput{Name: "Proposer", DebateID: id})
	}
	if nt.Pending || nt.Debate == nil || nt.Debate.State != "interrupted" || !strings.Contains(nt.Debate.Next, call) {
		t.Fatalf("debate_next_turn in the interrupted debate: %+v", nt.Debate)
	}
	if msg := fails(t, cs, "debate_submit_turn", SubmitInput{Name: "Proposer", RequestID: first.Request.RequestID, Position: "Use UUIDv7 keys", Text: "x"}); !strings.Contains(msg, call+" continues it") {
		t.Errorf("answer to the withdrawn request: %q, want %s named", msg, call)
	}

	res := ok[StartOutput](t, cs, "debate_resume", IDInput{ID: id[:len(id)-3]})
	if res.DebateID != id || res.PID <= 0 {
		t.Fatalf("debate_resume: %+v", res)
	}
	sent := argue(t, cs, "Proposer", holdingDefender, nil)
	if len(sent) != 1 || sent[0].DebateID != id || sent[0].RequestID != first.Request.RequestID {
		t.Errorf("after resume, submitted %+v; want the request asked again, %s", sent, first.Request.RequestID)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && st.State != "closed"; {
		st = ok[StatusOutput](t, cs, "debate_status", IDInput{ID: id})
	}
	if st.State != "closed" || st.Verdict != "CONSENSUS_REACHED" || st.Next != "" {
		t.Errorf("after resume: state %s, verdict %s, next %q", st.State, st.Verdict, st.Next)
	}
	if msg := fails(t, cs, "debate_resume", IDInput{ID: id}); !strings.Contains(msg, "is closed: there is nothing to resume") {
		t.Errorf("debate_resume of a closed debate: %q", msg)
	}
}
